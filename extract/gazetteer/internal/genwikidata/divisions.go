package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/capgraph/capgraph/extract/gazetteer/internal/fold"
)

// A division is one row of data/divisions.tsv: a first-level division of
// the gazetteer with its GeoNames id and, where one is known, its
// Wikidata item.
type division struct {
	id, name, theirName string
	geonames            int
	item, label, about  string // the Wikidata item, its label and description
}

// divisionItems links the first-level divisions of places.tsv.gz (by their
// GeoNames admin1 code, "SY.12") to the GeoNames ids that npm's
// iso3166-2-db (MIT) gives the same codes, and, through its ISO 3166-2 codes,
// to the Wikidata items of the subdivision flags in name-suggestion-index.
// A code is trusted only when the two tables name the division alike: a
// table that numbers a country's divisions otherwise would link Bahrain's
// Southern Governorate to its Northern one. A flag's name can be its
// capital's too (New York), so rejects.tsv applies here as well.
func divisionItems(placesPath, regionsDir, nsiPath string, labels map[string]item, rejected map[string]bool) ([]division, error) {
	ours, err := readDivisions(placesPath)
	if err != nil {
		return nil, err
	}
	flags, err := subdivisionFlags(nsiPath)
	if err != nil {
		return nil, err
	}
	countries, err := os.ReadDir(regionsDir)
	if err != nil {
		return nil, err
	}
	var out []division
	for _, c := range countries {
		path := filepath.Join(regionsDir, c.Name(), "en_ref.json")
		b, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			continue
		} else if err != nil {
			return nil, err
		}
		var regions []struct {
			Name      string `json:"name"`
			ISO       string `json:"iso"`
			Admin     string `json:"admin"`
			Reference struct {
				GeoNames int `json:"geonames"`
			} `json:"reference"`
		}
		if err := json.Unmarshal(b, &regions); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		for _, r := range regions {
			d, ok := ours[c.Name()+"."+r.Admin]
			if !ok || r.Reference.GeoNames <= 0 || !sameDivision(d.names, r.Name) {
				continue
			}
			d.geonames, d.theirName = r.Reference.GeoNames, r.Name
			for _, f := range flags[c.Name()+"-"+r.ISO] {
				if sameDivision(d.names, f.name) && !rejected[d.id+"\t"+f.item] {
					d.item, d.label, d.about = f.item, labels[f.item].Label, labels[f.item].Description
				}
			}
			out = append(out, d.division)
		}
	}
	slices.SortFunc(out, func(a, b division) int { return strings.Compare(a.id, b.id) })
	return out, nil
}

// ourDivision is a first-level division of places.tsv.gz and its names.
type ourDivision struct {
	division
	names []string
}

// readDivisions reads the first-level divisions of places.tsv.gz by their
// admin1 code.
func readDivisions(path string) (map[string]ourDivision, error) {
	out := make(map[string]ourDivision)
	// geonameid, adm, name, names, lat, lon, class, code, ...
	err := readTSV(path, 8, func(f []string) error {
		if f[7] == "ADM1" && f[1] != "" {
			names := append([]string{f[2]}, split(f[3])...)
			out[f[1]] = ourDivision{division{id: "place:adm1:" + f[1], name: f[2]}, names}
		}
		return nil
	})
	return out, err
}

// A subdivisionFlag is a flag of name-suggestion-index for a subdivision:
// the subdivision's name and Wikidata item.
type subdivisionFlag struct{ name, item string }

// flagName splits a flag's display name, "US-CA - California".
var flagName = regexp.MustCompile(`^([A-Z]{2}-[A-Z0-9]{1,3}) - (.+)$`)

// subdivisionFlags returns the subdivision flags of name-suggestion-index's
// dist/json/nsi.json by ISO 3166-2 code. A code may have several (a
// province's flag and its capital's).
func subdivisionFlags(path string) (map[string][]subdivisionFlag, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		NSI map[string]struct {
			Items []struct {
				DisplayName string            `json:"displayName"`
				Tags        map[string]string `json:"tags"`
			} `json:"items"`
		} `json:"nsi"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := make(map[string][]subdivisionFlag)
	for _, it := range doc.NSI["flags/man_made/flagpole"].Items {
		m := flagName.FindStringSubmatch(it.DisplayName)
		if q := it.Tags["subject:wikidata"]; m != nil && qid.MatchString(q) {
			out[m[1]] = append(out[m[1]], subdivisionFlag{m[2], q})
		}
	}
	return out, nil
}

// divisionWords are the words that name a kind of division or join it to
// its name ("Canton of St. Gallen"), left out when names are compared.
var divisionWords = map[string]bool{
	"governorate": true, "province": true, "oblast": true, "region": true, "state": true,
	"district": true, "territory": true, "prefecture": true, "county": true, "raion": true,
	"department": true, "municipality": true, "krai": true, "republic": true, "okrug": true,
	"autonomous": true, "canton": true, "city": true, "emirate": true, "parish": true,
	"division": true, "of": true, "the": true, "de": true, "du": true,
}

// sameDivision reports whether name names the division whose names are
// ours: equal under [fold.Key] once the division words are left out.
func sameDivision(ours []string, name string) bool {
	theirs := bareKey(name)
	for _, n := range ours {
		if k := bareKey(n); k != "" && k == theirs {
			return true
		}
	}
	return false
}

func bareKey(name string) string {
	var words []string
	for w := range strings.FieldsSeq(fold.Fold(name)) {
		if !divisionWords[strings.Trim(w, ".,-")] {
			words = append(words, w)
		}
	}
	return fold.Key(strings.Join(words, " "))
}
