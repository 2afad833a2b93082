package eval

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
)

// A Group is the report of the captions of one country.
type Group struct {
	Country string `json:"country"` // ISO 3166-1 code, "" for captions the prediction places nowhere
	Report
}

// ByCountry scores the captions of each country apart: the country of a
// caption is that of the place the prediction says the photo depicts, or
// of the first place it gives a country, as the gazetteer knows them. It
// shows how the rules fare on each conflict, the largest groups first.
// A caption without prediction counts under "".
func ByCountry(gold, pred []Doc) []Group {
	country := make(map[string]string, len(pred))
	for _, d := range pred {
		country[d.ID] = docCountry(d)
	}
	var keys []string
	split := make(map[string][2][]Doc)
	for _, g := range gold {
		c := country[g.ID]
		if _, ok := split[c]; !ok {
			keys = append(keys, c)
		}
		s := split[c]
		s[0] = append(s[0], g)
		split[c] = s
	}
	for _, p := range pred {
		if s, ok := split[country[p.ID]]; ok {
			s[1] = append(s[1], p)
			split[country[p.ID]] = s
		}
	}
	groups := make([]Group, 0, len(keys))
	for _, c := range keys {
		groups = append(groups, Group{Country: c, Report: Score(split[c][0], split[c][1])})
	}
	slices.SortStableFunc(groups, func(a, b Group) int {
		return cmp.Or(b.Captions-a.Captions, cmp.Compare(a.Country, b.Country))
	})
	return groups
}

// docCountry is the country of d's depicted place, else of its first
// place with one.
func docCountry(d Doc) string {
	byText := make(map[string]string)
	first := ""
	for _, e := range d.Entities {
		if e.Country == "" {
			continue
		}
		if first == "" {
			first = e.Country
		}
		byText[e.Text] = e.Country
	}
	for _, r := range d.Relations {
		if r.Rel == "depicts_place" && byText[r.Obj] != "" {
			return byText[r.Obj]
		}
	}
	return first
}

// WriteGroups writes one line per group: its captions and its entity and
// relation precision, recall and F1.
func WriteGroups(w io.Writer, groups []Group) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%-7s  %8s  %-17s  %s\n", "country", "captions", "entities P/R/F1", "relations P/R/F1")
	for _, g := range groups {
		name := g.Country
		if name == "" {
			name = "-"
		}
		fmt.Fprintf(bw, "%-7s  %8d  %5.3f %5.3f %5.3f  %5.3f %5.3f %5.3f\n", name, g.Captions,
			g.Entities.Precision(), g.Entities.Recall(), g.Entities.F1(),
			g.Relations.Precision(), g.Relations.Recall(), g.Relations.F1())
	}
	return bw.Flush()
}
