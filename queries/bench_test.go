package queries_test

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/queries"
)

// benchParams are the parameters each built-in runs with in
// BenchmarkSavedQueries: typical interactive questions.
var benchParams = map[string]map[string]string{
	"photos-in-place":       {"place": "Saraqeb"},
	"groups-in-place":       {"place": "Saraqeb"},
	"places-of-group":       {"group": "Jund al-Aqsa"},
	"group-timeline":        {"group": "Jund al-Aqsa"},
	"photographer-coverage": {"photographer": "Khaled al-Ali"},
	"photos-between":        {"from": "2018-08-01", "to": "2018-08-07"},
	"people":                {},
	"co-occurrence":         {"group": "Jund al-Aqsa", "limit": "100"},
	"entity":                {"name": "Haresta"},
	"provenance":            {"subject": "Saraqeb", "relation": "located_in", "object": "Idlib"},
	"agencies":              {},
	"aliases":               {"name": "Houthi movement"},
}

// BenchmarkSavedQueries runs every built-in against the store named by
// CAPGRAPH_BENCH_STORE (a bbolt directory built by capgraph build), or
// against the in-memory fixture, and reports p50 and p99 latency in ms.
func BenchmarkSavedQueries(b *testing.B) {
	var s *graph.Store
	var err error
	if dir := os.Getenv("CAPGRAPH_BENCH_STORE"); dir != "" {
		s, err = graph.Open(b.Context(), dir, graph.Options{})
		if err == nil {
			defer s.Close()
		}
	} else {
		s, err = fixture()
	}
	if err != nil {
		b.Fatal(err)
	}
	for _, q := range queries.Builtin() {
		values, ok := benchParams[q.Name]
		if !ok {
			b.Fatalf("no benchmark parameters for %s", q.Name)
		}
		prog, err := q.BindVariants(values, variants(b, q, values))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(q.Name, func(b *testing.B) {
			var ds []time.Duration
			rows := 0
			for b.Loop() {
				start := time.Now()
				rows = 0
				for _, err := range s.Query(b.Context(), "gizmo", prog, 0) {
					if err != nil {
						b.Fatal(err)
					}
					rows++
				}
				ds = append(ds, time.Since(start))
			}
			slices.Sort(ds)
			pct := func(p float64) float64 {
				return float64(ds[min(len(ds)-1, int(p*float64(len(ds))))].Microseconds()) / 1000
			}
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
			b.ReportMetric(float64(rows), "rows")
		})
	}
}

// BenchmarkGizmoFloor measures what a saved query pays per row before it
// reads the graph: building row objects in Gizmo's JavaScript, and
// handing them to the reader one g.Emit each or as one batch
// (emitSorted's {"$rows": [...]}). It reports µs per row; a query that
// returns n rows cannot take less than n times these.
func BenchmarkGizmoFloor(b *testing.B) {
	s, err := fixture()
	if err != nil {
		b.Fatal(err)
	}
	const n = 2000
	build := `var rows = []; for (var i = 0; i < 2000; i++) rows.push({photo: "https://capgraph.org/id/photo/" + i, label: "Name " + i, photos: i});`
	for _, tt := range []struct{ name, prog string }{
		{"build", `(function () { ` + build + ` g.Emit({n: rows.length}); })();`},
		{"emit-each", `(function () { ` + build + ` rows.forEach(function (r) { g.Emit(r); }); })();`},
		{"emit-batch", `(function () { ` + build + ` g.Emit({"$rows": rows}); })();`},
	} {
		b.Run(tt.name, func(b *testing.B) {
			for b.Loop() {
				for _, err := range s.Query(b.Context(), "gizmo", tt.prog, 0) {
					if err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/row")
		})
	}
}
