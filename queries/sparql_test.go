package queries_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
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

// oxigraph returns node and the directory that holds the npm oxigraph
// module: $CAPGRAPH_TEST_OXIGRAPH, a node_modules directory, which .ci/run
// installs and sets. Unset, the test skips (on CI, where $CI is set, it
// fails); set, node and the module must be there.
func oxigraph(t *testing.T) (node, modules string) {
	t.Helper()
	modules = os.Getenv("CAPGRAPH_TEST_OXIGRAPH")
	if modules == "" {
		const why = "CAPGRAPH_TEST_OXIGRAPH is not set: SPARQL twins not checked (npm install --prefix DIR oxigraph@0.5.11, then CAPGRAPH_TEST_OXIGRAPH=DIR/node_modules)"
		if os.Getenv("CI") != "" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("CAPGRAPH_TEST_OXIGRAPH is set, but node is not installed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(modules, "oxigraph", "package.json")); err != nil {
		t.Fatalf("CAPGRAPH_TEST_OXIGRAPH: no oxigraph module: %v", err)
	}
	return node, modules
}

// oxigraphResult is one line of testdata/sparql/oxigraph.mjs.
type oxigraphResult struct {
	Query string
	Vars  []string
	Rows  [][]*string
	Error string
}

// runOxigraph loads data (N-Quads) into Oxigraph with its default settings
// and runs each query file, in one process.
func runOxigraph(t *testing.T, data string, files []string) map[string]oxigraphResult {
	t.Helper()
	node, modules := oxigraph(t)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{filepath.Join("testdata", "sparql", "oxigraph.mjs"), data}, files...)...)
	cmd.Env = append(os.Environ(), "CAPGRAPH_TEST_OXIGRAPH="+modules)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("oxigraph: %v\n%s", err, stderr.Bytes())
	}
	res := map[string]oxigraphResult{}
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	for _, line := range lines[1:] { // the first line reports the load
		var r oxigraphResult
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("oxigraph output: %v\n%s", err, line)
		}
		res[r.Query] = r
	}
	return res
}

// sparqlCase is a golden case, or one with an entity's IRI where the golden
// case names it.
type sparqlCase struct {
	name, query string
	values      map[string]string
}

// withIRIs returns the golden cases and, for each parameter that names
// entities, a case for each entity it names, given as <IRI>.
func withIRIs(t *testing.T, s *graph.Store) []sparqlCase {
	qs := queries.Builtin()
	var out []sparqlCase
	for _, c := range cases {
		out = append(out, sparqlCase{c.golden, c.query, c.values})
		q, _ := queries.Lookup(qs, c.query)
		for _, p := range q.Params {
			v := c.values[p.Name]
			if p.Resolve == "" || v == "" {
				continue
			}
			names := queries.Spellings(append([]string{v}, variants(t, q, c.values)[p.Name]...)...)
			text := fmt.Sprintf("g.V(%s).In([%q, %q]).All()", quoted(names), "<https://schema.org/name>", "<https://schema.org/alternateName>")
			if c.query == "provenance" && p.Name == "subject" {
				text = strings.Replace(text, "]).All()", ", \"<https://schema.org/identifier>\"]).All()", 1)
			}
			var iris []string
			for r, err := range s.Query(t.Context(), "gizmo", text, 0) {
				if err != nil {
					t.Fatal(err)
				}
				iris = append(iris, r.(map[string]any)["id"].(string))
			}
			slices.Sort(iris)
			for _, iri := range slices.Compact(iris) {
				vals := maps.Clone(c.values)
				vals[p.Name] = iri
				out = append(out, sparqlCase{c.golden + "/" + p.Name + "=" + iri, c.query, vals})
			}
		}
	}
	return out
}

func quoted(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		b, _ := json.Marshal(s)
		q[i] = string(b)
	}
	return strings.Join(q, ", ")
}

// TestSPARQLParity answers every golden case again with the query's
// SPARQL twin, over the N-Quads export loaded into Oxigraph with its
// default settings (the default graph is not the union of the named
// graphs), and compares the rows as sets; and again with each entity that
// a case names given as its <IRI>. Nothing is skipped: a twin that does
// not parse, or whose rows differ, fails.
func TestSPARQLParity(t *testing.T) {
	oxigraph(t)
	s, err := fixture()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "fixture.nq")
	f, err := os.Create(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Export(t.Context(), f, graph.NQuads); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	qs := queries.Builtin()
	all := withIRIs(t, s)
	files := make([]string, len(all))
	for i, c := range all {
		q, _ := queries.Lookup(qs, c.query)
		text, err := q.BindSPARQL(c.values, variants(t, q, c.values))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		files[i] = filepath.Join(dir, fmt.Sprintf("%02d-%s.rq", i, c.query))
		if err := os.WriteFile(files[i], []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := runOxigraph(t, data, files)
	for i, c := range all {
		t.Run(c.name, func(t *testing.T) {
			q, _ := queries.Lookup(qs, c.query)
			var want []string
			for _, r := range runGizmo(t, s, q, c.values) {
				cells := make([]string, len(q.Columns))
				for i, col := range q.Columns {
					cells[i] = cellString(r[col])
				}
				want = append(want, strings.Join(cells, " | "))
			}
			slices.Sort(want)
			r, ok := res[files[i]]
			switch {
			case !ok:
				t.Fatalf("oxigraph did not run %s", files[i])
			case r.Error != "":
				t.Fatalf("oxigraph: sparql/%s.rq: %s", c.query, r.Error)
			}
			var got []string
			for _, row := range r.Rows {
				cells := make([]string, len(q.Columns))
				for i, col := range q.Columns {
					j := slices.Index(r.Vars, col)
					if j < 0 {
						t.Fatalf("sparql/%s.rq: no column %s: %v", c.query, col, r.Vars)
					}
					if row[j] != nil {
						cells[i] = compactions.Replace(*row[j])
					}
				}
				got = append(got, strings.Join(cells, " | "))
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("SPARQL (Oxigraph) and Gizmo differ\nsparql:\n  %s\ngizmo:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
			if len(want) == 0 && !strings.Contains(c.name, "=") {
				t.Errorf("no rows: the case checks nothing")
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
		for paren := regexp.MustCompile(`\([^()]*\)`); paren.MatchString(head); { // aggregates: (COUNT(...) AS ?x)
			head = paren.ReplaceAllString(head, "")
		}
		for _, v := range varRE.FindAllString(head, -1) {
			if !regexp.MustCompile(regexp.QuoteMeta(v) + `\b`).MatchString(body) {
				t.Errorf("%s.rq projects %s, which its body never binds", q.Name, v)
			}
		}
	}
}
