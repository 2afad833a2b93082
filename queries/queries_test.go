package queries_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/extract/gazetteer"
	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/queries"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden files")

// fixture builds an in-memory store from testdata/captions.jsonl through
// the real extractor and graph.Load, once.
var fixture = sync.OnceValues(func() (*graph.Store, error) {
	return buildStore(context.Background(), "", "testdata/captions.jsonl")
})

func buildStore(ctx context.Context, addr, file string) (*graph.Store, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	x, err := extract.New()
	if err != nil {
		return nil, err
	}
	s, err := graph.Open(ctx, addr, graph.Options{ExtractorVersion: extract.Version})
	if err != nil {
		return nil, err
	}
	rd := extract.NewReader(f, extract.ReaderOptions{Name: file, Format: extract.FormatJSONL})
	if _, err := s.Load(ctx, x.ExtractAll(ctx, rd.All(), 2)); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// variants mirrors what capgraph query run adds from the gazetteer.
func variants(t testing.TB, q queries.Query, values map[string]string) map[string][]string {
	d, err := gazetteer.Load()
	if err != nil {
		t.Fatal(err)
	}
	ix := d.Index()
	out := map[string][]string{}
	for _, p := range q.Params {
		v := values[p.Name]
		if p.Resolve == "" || v == "" {
			continue
		}
		if p.Resolve == "place" || p.Resolve == "entity" {
			if pl, _ := ix.Resolve(v); pl != nil {
				out[p.Name] = append(out[p.Name], pl.Name)
			}
		}
		if p.Resolve == "group" || p.Resolve == "entity" {
			if gr := ix.Group(v); gr != nil {
				out[p.Name] = append(out[p.Name], gr.Name)
				out[p.Name] = append(out[p.Name], gr.Aliases...)
			}
		}
		if p.Resolve == "entity" {
			if tm := ix.Term(v); tm != nil {
				out[p.Name] = append(out[p.Name], tm.Name)
			}
		}
	}
	return out
}

type row = map[string]any

func runGizmo(t testing.TB, s *graph.Store, q queries.Query, values map[string]string) []row {
	t.Helper()
	prog, err := q.BindVariants(values, variants(t, q, values))
	if err != nil {
		t.Fatal(err)
	}
	var rows []row
	for r, err := range s.Query(t.Context(), "gizmo", prog, 0) {
		if err != nil {
			t.Fatalf("%s: %v", q.Name, err)
		}
		m, ok := r.(map[string]any)
		if !ok {
			t.Fatalf("%s: result %T, want an object", q.Name, r)
		}
		rows = append(rows, m)
	}
	return rows
}

// format writes rows as JSON lines with keys in column order.
func format(cols []string, rows []row) []byte {
	var b bytes.Buffer
	for _, r := range rows {
		b.WriteByte('{')
		for i, c := range cols {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(c)
			v, _ := json.Marshal(r[c])
			b.Write(k)
			b.WriteByte(':')
			b.Write(v)
		}
		b.WriteString("}\n")
	}
	return b.Bytes()
}

// cases: every built-in with parameters that exercise it on the fixture.
var cases = []struct {
	golden string
	query  string
	values map[string]string
}{
	{"photos-in-place-idlib", "photos-in-place", map[string]string{"place": "Idlib"}},
	{"photos-in-place-damascus", "photos-in-place", map[string]string{"place": "damascus"}},
	{"photos-in-place-haresta", "photos-in-place", map[string]string{"place": "Haresta"}},
	{"groups-in-place", "groups-in-place", map[string]string{"place": "Syria"}},
	{"places-of-group", "places-of-group", map[string]string{"group": "Free Syrian Army"}},
	{"group-timeline", "group-timeline", map[string]string{"group": "sdf"}},
	{"photographer-coverage", "photographer-coverage", nil},
	{"photos-between", "photos-between", map[string]string{"from": "2018-01-01", "to": "2018-03-31"}},
	{"photos-between-place", "photos-between", map[string]string{"from": "2017-01-01", "to": "2017-12-31", "place": "Raqqa"}},
	{"people", "people", nil},
	{"co-occurrence", "co-occurrence", map[string]string{"limit": "0"}},
	{"entity", "entity", map[string]string{"name": "Saraqeb"}},
	{"provenance", "provenance", map[string]string{"subject": "Saraqeb", "relation": "located_in", "object": "Idlib"}},
	{"agencies", "agencies", nil},
	{"aliases", "aliases", nil},
}

func TestEveryBuiltinHasCases(t *testing.T) {
	for _, q := range queries.Builtin() {
		if !slices.ContainsFunc(cases, func(c struct {
			golden string
			query  string
			values map[string]string
		}) bool {
			return c.query == q.Name
		}) {
			t.Errorf("query %s has no golden test case", q.Name)
		}
		if q.SPARQL == "" {
			t.Errorf("query %s has no sparql/%s.rq", q.Name, q.Name)
		}
		if len(q.Columns) == 0 {
			t.Errorf("query %s has no columns line", q.Name)
		}
	}
}

func TestGolden(t *testing.T) {
	s, err := fixture()
	if err != nil {
		t.Fatal(err)
	}
	qs := queries.Builtin()
	for _, c := range cases {
		t.Run(c.golden, func(t *testing.T) {
			q, ok := queries.Lookup(qs, c.query)
			if !ok {
				t.Fatalf("no query %s", c.query)
			}
			got := format(q.Columns, runGizmo(t, s, q, c.values))
			golden := filepath.Join("testdata", c.golden+".golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if want, err := os.ReadFile(golden); err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s is missing or stale (%v); run go test -update\ngot:\n%s", golden, err, got)
			}
		})
	}
}

// TestEmitSortedSortsAsRowCmp checks emitSorted's string keys against the
// comparator they stand in for, on rows with prefixes, case, accents,
// digits, empty strings and ties.
func TestEmitSortedSortsAsRowCmp(t *testing.T) {
	q, err := queries.Parse("sort-check", `// Sort check.
//
// columns: keys ok
var words = ["", "a", "ab", "abc", "a b", "a\tb", "a\u0001", "b", "B", "e", "\u00e9", "10", "9", "Z", "z\u0301"], nums = [0, 1, 2, 9, 10, 100, 12345678];
var rows = [];
for (var i = 0; i < 300; i++) rows.push({ s: words[(i * 7) % words.length], t: words[(i * 5) % words.length], n: nums[(i * 3) % nums.length], i: i });
[["-n", "s", "t"], ["s", "n"], ["t", "s", "-n"], ["n"]].forEach(function (keys) {
  var fast = sortKeys(rows, keys).sort().map(function (k) { return rows[+k.slice(-9)].i; });
  var slow = rows.slice().sort(rowCmp(keys)).map(function (r) { return r.i; });
  g.Emit({ keys: keys.join(" "), ok: fast.join() == slow.join() });
});
g.Emit({ keys: "negative", ok: sortKeys([{ n: -1 }], ["n"]) === null });
`)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := q.Bind(nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := graph.Open(t.Context(), "", graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n := 0
	for r, err := range s.Query(t.Context(), "gizmo", prog, 0) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if m, _ := r.(map[string]any); m["ok"] != true {
			t.Errorf("sorted differently: %v", r)
		}
	}
	if n != 5 {
		t.Errorf("%d checks ran, want 5", n)
	}
}
