package queries_test

import (
	"iter"
	"math"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/queries"
	"github.com/capgraph/capgraph/queries/rows"
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

// storeParams are the parameters bench/run.sh gives each built-in: the
// required ones only, so that the questions that can be over the whole
// store are (co-occurrence and photographer-coverage of everyone, every
// alias), with a city, a country and a whole year. Set
// CAPGRAPH_BENCH_PARAMS=store to run them.
var storeParams = map[string]map[string]string{
	"photos-in-place":       {"place": "Aleppo"},
	"groups-in-place":       {"place": "Aleppo"},
	"places-of-group":       {"group": "Free Syrian Army"},
	"group-timeline":        {"group": "Free Syrian Army"},
	"photographer-coverage": {},
	"photos-between":        {"from": "2016-01-01", "to": "2016-12-31"},
	"people":                {},
	"co-occurrence":         {},
	"entity":                {"name": "Aleppo"},
	"provenance":            {"subject": "Aleppo", "relation": "located_in", "object": "Syria"},
	"agencies":              {},
	"aliases":               {},
}

// BenchmarkSavedQueries runs every built-in against the store named by
// CAPGRAPH_BENCH_STORE (a bbolt directory or a PostgreSQL URL that capgraph
// build built; on PostgreSQL the SQL twins run), or against the in-memory
// fixture, with benchParams (storeParams if CAPGRAPH_BENCH_PARAMS=store),
// and reports its latency in ms: p50 and
// p99 (nearest rank: p99 leaves out one run in a hundred or more, not the
// slowest of ten), and first, the first run, which finds in the store's
// read caches only what the queries before it read. Run one query with
// -benchtime 1x to see it as capgraph query run does, with the caches empty.
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
	// Bind every query first, and collect the garbage of loading the
	// gazetteer, so that no query's runs pay for them.
	params := benchParams
	if os.Getenv("CAPGRAPH_BENCH_PARAMS") == "store" {
		params = storeParams
	}
	runs := make(map[string]func() iter.Seq2[any, error])
	for _, q := range queries.Builtin() {
		values, ok := params[q.Name]
		if !ok {
			b.Fatalf("no benchmark parameters for %s", q.Name)
		}
		vs := variants(b, q, values)
		prog, err := q.BindVariants(values, vs)
		if err != nil {
			b.Fatal(err)
		}
		runs[q.Name] = func() iter.Seq2[any, error] { return s.Query(b.Context(), "gizmo", prog, 0) }
		if s.SQL() && q.SQL != "" {
			text, args, err := q.BindSQL(values, vs)
			if err != nil {
				b.Fatal(err)
			}
			runs[q.Name] = func() iter.Seq2[any, error] { return s.QuerySQL(b.Context(), text, args, 0) }
		}
	}
	runtime.GC()
	for _, q := range queries.Builtin() {
		b.Run(q.Name, func(b *testing.B) {
			var ds []time.Duration
			n := 0
			for b.Loop() {
				start := time.Now()
				n = 0
				for _, err := range rows.All(runs[q.Name](), 0) {
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
				ds = append(ds, time.Since(start))
			}
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
			b.ReportMetric(ms(ds[0]), "first-ms")
			slices.Sort(ds)
			b.ReportMetric(ms(nearestRank(ds, 0.50)), "p50-ms")
			b.ReportMetric(ms(nearestRank(ds, 0.99)), "p99-ms")
			b.ReportMetric(float64(n), "rows")
		})
	}
}

// nearestRank is the p-th quantile of sorted ds: its ⌈p·n⌉-th value.
func nearestRank(ds []time.Duration, p float64) time.Duration {
	i := int(math.Ceil(p*float64(len(ds)))) - 1
	return ds[max(0, min(len(ds)-1, i))]
}
