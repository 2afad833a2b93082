package queries_test

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/queries"
)

var compactions = strings.NewReplacer(
	"https://schema.org/", "schema:", "https://capgraph.org/ns#", "capgraph:",
	"http://www.w3.org/1999/02/22-rdf-syntax-ns#", "rdf:", "http://www.w3.org/2002/07/owl#", "owl:")

func cellString(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return compactions.Replace(v)
	case float64:
		if v == math.Trunc(v) {
			return strconv.FormatInt(int64(v), 10)
		}
		return strconv.FormatFloat(v, 'f', -1, 64)
	case int64:
		return strconv.FormatInt(v, 10)
	}
	return "?"
}

// rasqalCannot lists the SPARQL twins not yet shown equal to their Gizmo
// query because rasqal 0.9.33 (Debian's roqet) fails on them, with what it
// does. They remain unverified until rewritten for rasqal or checked with
// another engine.
var rasqalCannot = map[string]string{
	"photos-in-place":       "returns no rows for the unrolled containment UNION",
	"groups-in-place":       "returns one empty aggregate row",
	"places-of-group":       "aborts (assertion failure)",
	"group-timeline":        "returns no rows",
	"photographer-coverage": "rejects FILTER EXISTS and sub-SELECTs in OPTIONAL",
	"photos-between":        "rejects FILTER EXISTS",
	"co-occurrence":         "rejects FILTER EXISTS",
	"entity":                "rejects the nested sub-SELECT",
	"provenance":            "runs for a minute and returns no rows",
	"aliases":               "rejects FILTER EXISTS",
}

// TestSPARQLParity answers every golden case again with the query's
// SPARQL twin, run by roqet (rasqal) over the N-Triples export, and
// compares the rows as sets.
func TestSPARQLParity(t *testing.T) {
	roqet, err := exec.LookPath("roqet")
	if err != nil {
		t.Skip("roqet not installed (apt-get install rasqal-utils): SPARQL parity not checked")
	}
	s, err := fixture()
	if err != nil {
		t.Fatal(err)
	}
	var nt bytes.Buffer
	if _, err := s.Export(t.Context(), &nt, graph.NTriples); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "fixture.nt")
	if err := os.WriteFile(data, nt.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	qs := queries.Builtin()
	for _, c := range cases {
		t.Run(c.golden, func(t *testing.T) {
			q, _ := queries.Lookup(qs, c.query)
			vars := variants(t, q, c.values)
			text, err := q.BindSPARQL(c.values, vars)
			if err != nil {
				t.Fatal(err)
			}
			rq := filepath.Join(dir, c.golden+".rq")
			if err := os.WriteFile(rq, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			if why, ok := rasqalCannot[c.query]; ok {
				t.Skipf("roqet 0.9.33 cannot run sparql/%s.rq: %s", c.query, why)
			}
			out, err := exec.Command(roqet, "-q", "-i", "sparql", "-D", data, "-r", "csv", rq).Output()
			if err != nil && len(out) == 0 { // exit status 2 is warnings
				t.Fatalf("roqet: %v", err)
			}
			recs, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
			if err != nil || len(recs) == 0 {
				t.Fatalf("roqet output: %v\n%s", err, out)
			}
			idx := make([]int, len(q.Columns))
			for i, col := range q.Columns {
				idx[i] = slices.Index(recs[0], col)
				if idx[i] < 0 {
					t.Fatalf("SPARQL result lacks column %s: %v", col, recs[0])
				}
			}
			var got []string
			for _, r := range recs[1:] {
				if strings.Join(r, "") == "" {
					continue // roqet prints one empty row for no results
				}
				cells := make([]string, len(idx))
				for i, j := range idx {
					cells[i] = compactions.Replace(r[j])
				}
				got = append(got, strings.Join(cells, " | "))
			}
			var want []string
			for _, r := range runGizmo(t, s, q, c.values) {
				if c.query == "entity" && r["photos"] != 0.0 && r["photos"] != int64(0) {
					continue // the SPARQL twin leaves out the photo counts
				}
				cells := make([]string, len(q.Columns))
				for i, col := range q.Columns {
					cells[i] = cellString(r[col])
				}
				want = append(want, strings.Join(cells, " | "))
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("SPARQL and Gizmo differ\nsparql:\n  %s\ngizmo:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
		})
	}
}
