package queries_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

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

// rasqalCannot lists the SPARQL twins that rasqal 0.9.33 (Debian's roqet)
// fails on, with what it does. rdflib checks them instead.
var rasqalCannot = map[string]string{
	"photos-in-place":       "returns no rows for the unrolled containment UNION",
	"groups-in-place":       "returns one empty aggregate row",
	"places-of-group":       "aborts (assertion failure)",
	"group-timeline":        "returns no rows",
	"photographer-coverage": "rejects FILTER EXISTS",
	"photos-between":        "rejects FILTER EXISTS",
	"co-occurrence":         "rejects FILTER EXISTS",
	"entity":                "rejects the nested sub-SELECT",
	"provenance":            "runs for a minute and returns no rows",
	"aliases":               "rejects FILTER EXISTS",
}

// rdflibCannot lists the SPARQL twins that rdflib 6.1.1 (Debian's
// python3-rdflib) evaluates wrongly, with what it does; roqet checks them.
var rdflibCannot = map[string]string{
	"agencies": "mis-joins the grouped sub-SELECTs with the outer pattern (rows for every named node, ?photos unbound)",
}

// sparqlDiffers lists the golden cases whose SPARQL twin means something
// other than the Gizmo query, with how; their comparison is skipped.
var sparqlDiffers = map[string]string{}

// rdflibPython returns a python3 that can import rdflib, or "".
func rdflibPython() string {
	for _, name := range []string{"python3", "/usr/bin/python3"} {
		py, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		if exec.Command(py, "-c", "import rdflib").Run() == nil {
			return py
		}
	}
	return ""
}

// sparqlRows runs a SPARQL query over data with roqet ("roqet") or rdflib
// ("rdflib"), and returns the header and the rows, unbound cells "".
func sparqlRows(t *testing.T, engine, prog, data, rq string) ([]string, [][]string) {
	t.Helper()
	switch engine {
	case "roqet":
		out, err := exec.Command(prog, "-q", "-i", "sparql", "-D", data, "-r", "csv", rq).Output()
		if err != nil && len(out) == 0 { // exit status 2 is warnings
			t.Fatalf("roqet: %v", err)
		}
		recs, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
		if err != nil || len(recs) == 0 {
			t.Fatalf("roqet output: %v\n%s", err, out)
		}
		var rows [][]string
		for _, r := range recs[1:] {
			if strings.Join(r, "") == "" {
				continue // roqet prints one empty row for no results
			}
			rows = append(rows, r)
		}
		return recs[0], rows
	case "rdflib":
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, prog, filepath.Join("testdata", "sparql", "run.py"), data, rq)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("rdflib: %v\n%s", err, stderr.Bytes())
		}
		var res struct {
			Vars []string
			Rows [][]*string
		}
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("rdflib output: %v\n%s", err, out)
		}
		rows := make([][]string, len(res.Rows))
		for i, r := range res.Rows {
			rows[i] = make([]string, len(r))
			for j, c := range r {
				if c != nil {
					rows[i][j] = *c
				}
			}
		}
		return res.Vars, rows
	}
	t.Fatalf("unknown SPARQL engine %s", engine)
	return nil, nil
}

// TestSPARQLParity answers every golden case again with the query's
// SPARQL twin over the N-Triples export and compares the rows as sets:
// with roqet (rasqal) where it can run the twin, and with rdflib, which
// handles SPARQL 1.1, for every twin.
func TestSPARQLParity(t *testing.T) {
	roqet, _ := exec.LookPath("roqet")
	py := rdflibPython()
	if roqet == "" && py == "" {
		t.Skip("neither roqet (apt-get install rasqal-utils) nor python3 with rdflib (apt-get install python3-rdflib) is installed: SPARQL parity not checked")
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
			if why, ok := sparqlDiffers[c.golden]; ok {
				t.Skipf("sparql/%s.rq differs from %s.gizmo: %s", c.query, c.query, why)
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
			slices.Sort(want)
			for _, e := range []struct{ engine, prog, cannot string }{
				{"roqet", roqet, rasqalCannot[c.query]},
				{"rdflib", py, rdflibCannot[c.query]},
			} {
				t.Run(e.engine, func(t *testing.T) {
					switch {
					case e.prog == "":
						t.Skipf("%s not installed", e.engine)
					case e.cannot != "":
						t.Skipf("%s cannot run sparql/%s.rq: %s", e.engine, c.query, e.cannot)
					}
					head, recs := sparqlRows(t, e.engine, e.prog, data, rq)
					idx := make([]int, len(q.Columns))
					for i, col := range q.Columns {
						idx[i] = slices.Index(head, col)
						if idx[i] < 0 {
							t.Fatalf("SPARQL result lacks column %s: %v", col, head)
						}
					}
					var got []string
					for _, r := range recs {
						cells := make([]string, len(idx))
						for i, j := range idx {
							cells[i] = compactions.Replace(r[j])
						}
						got = append(got, strings.Join(cells, " | "))
					}
					slices.Sort(got)
					if !slices.Equal(got, want) {
						t.Errorf("SPARQL (%s) and Gizmo differ\nsparql:\n  %s\ngizmo:\n  %s", e.engine, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
					}
				})
			}
		})
	}
}

// TestSPARQLProjections: every variable a twin's SELECT projects, other
// than those its aggregates bind, is bound in its body: a projected
// variable bound nowhere is a typo ("?photographSELECT"), which strict
// engines refuse beside GROUP BY and lenient ones answer with a column of
// nothing.
func TestSPARQLProjections(t *testing.T) {
	varRE := regexp.MustCompile(`\?[A-Za-z_][A-Za-z0-9_]*`)
	for _, q := range queries.Builtin() {
		if q.SPARQL == "" {
			continue
		}
		sel := strings.Index(q.SPARQL, "\nSELECT ")
		where := strings.Index(q.SPARQL[max(sel, 0):], " WHERE {")
		if sel < 0 || where < 0 {
			t.Errorf("%s.rq: no SELECT ... WHERE {", q.Name)
			continue
		}
		head, body := q.SPARQL[sel:sel+where], q.SPARQL[sel+where:]
		head = regexp.MustCompile(`\([^()]*(\([^()]*\)[^()]*)*\)`).ReplaceAllString(head, "") // aggregates: (COUNT(...) AS ?x)
		for _, v := range varRE.FindAllString(head, -1) {
			if !regexp.MustCompile(regexp.QuoteMeta(v) + `\b`).MatchString(body) {
				t.Errorf("%s.rq projects %s, which its body never binds", q.Name, v)
			}
		}
	}
}
