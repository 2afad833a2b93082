package queries_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/extract/gazetteer"
	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/queries"
	"github.com/capgraph/capgraph/queries/rows"
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
	s, err := graph.Open(ctx, addr, graph.Options{})
	if err != nil {
		return nil, err
	}
	rd := extract.NewReader(f, extract.ReaderOptions{Name: file, Format: extract.FormatJSONL})
	if _, err := s.Load(ctx, x.ExtractAll(ctx, rd.All(), 2), graph.LoadOptions{ExtractorVersion: extract.Version}); err != nil {
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
	var out []row
	for r, err := range rows.All(s.Query(t.Context(), "gizmo", prog, 0), 0) {
		if err != nil {
			t.Fatalf("%s: %v", q.Name, err)
		}
		m, ok := r.(map[string]any)
		if !ok {
			t.Fatalf("%s: result %T, want an object", q.Name, r)
		}
		out = append(out, m)
	}
	return out
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
	{"aliases-sdf", "aliases", map[string]string{"name": "Syrian Democratic Forces"}},
	{"photographer-coverage-one", "photographer-coverage", map[string]string{"photographer": "Karim Nasser"}},
	{"co-occurrence-fsa", "co-occurrence", map[string]string{"group": "FSA"}},
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

// TestEmitSortedSortsAsJavaScript checks the order the runner gives
// emitSorted's batches against a JavaScript comparator that uses <, on rows
// with prefixes, case, accents, digits, characters past U+FFFF and from
// U+E000 (where UTF-16 order and code point order differ: goja's < uses
// code points), empty strings, ties, negative and fractional numbers, and
// a limit.
func TestEmitSortedSortsAsJavaScript(t *testing.T) {
	s, err := graph.Open(t.Context(), "", graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, tt := range []struct{ keys, limit string }{
		{`["-n", "s", "t"]`, ""}, {`["s", "n"]`, ""}, {`["t", "s", "-n"]`, ""}, {`["n"]`, ""},
		{`["-s", "i"]`, ""}, {`["s", "-i"]`, "7"},
	} {
		q, err := queries.Parse("sort-check", `// Sort check.
//
// param: limit int default=0 example=5  Most rows
// columns: i
var words = ["", "a", "ab", "abc", "a b", "a\tb", "a\u0001", "b", "B", "e", "\u00e9", "10", "9", "Z", "z\u0301",
  "\ud83d\ude00", "\ue000", "\uffff", "x\ud83d\ude00", "x\ufb01"], nums = [0, 1, 2, 9, 10, 100, 12345678, -3, 1.5, -0.25];
var rows = [];
for (var i = 0; i < 300; i++) rows.push({ s: words[(i * 7) % words.length], t: words[(i * 5) % words.length], n: nums[(i * 3) % nums.length], i: i });
var keys = `+tt.keys+`;
function cmp(a, b) { return a < b ? -1 : a > b ? 1 : 0; }
var want = rows.slice().sort(function (a, b) {
  for (var j = 0; j < keys.length; j++) {
    var k = keys[j], d = 1;
    if (k.charAt(0) == "-") { k = k.slice(1); d = -1; }
    var c = cmp(a[k], b[k]);
    if (c) return d * c;
  }
  return 0;
}).map(function (r) { return r.i; });
if (params.limit > 0) want = want.slice(0, params.limit);
g.Emit({ want: want.join(" ") });
emitSorted(rows, keys);
`)
		if err != nil {
			t.Fatal(err)
		}
		values := map[string]string{}
		if tt.limit != "" {
			values["limit"] = tt.limit
		}
		prog, err := q.Bind(values)
		if err != nil {
			t.Fatal(err)
		}
		var want string
		var got []string
		for r, err := range rows.All(s.Query(t.Context(), "gizmo", prog, 0), 0) {
			if err != nil {
				t.Fatal(err)
			}
			m := r.(map[string]any)
			if w, ok := m["want"]; ok {
				want = w.(string)
				continue
			}
			got = append(got, fmt.Sprint(m["i"]))
		}
		if g := strings.Join(got, " "); g != want || len(got) < 7 {
			t.Errorf("keys %s, limit %q: the runner sorted\n%s\nJavaScript sorts\n%s", tt.keys, tt.limit, g, want)
		}
	}
}
