package web

import (
	"cmp"
	"context"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/queries"
)

// BenchmarkSavedQueryAPI measures POST /api/queries/{name} through the
// whole handler stack. It runs on the fixture store, or on the store named
// by CAPGRAPH_BENCH_STORE (build one with capgraph gen and capgraph build).
// CAPGRAPH_BENCH_QUERY and CAPGRAPH_BENCH_PARAMS (a JSON object) pick the
// query; the default is the entity query for Aleppo.
//
//	CAPGRAPH_BENCH_STORE=/tmp/s10k go test -run '^$' -bench SavedQueryAPI ./cmd/capgraph/internal/web
func BenchmarkSavedQueryAPI(b *testing.B) {
	var s *graph.Store
	if dir := os.Getenv("CAPGRAPH_BENCH_STORE"); dir != "" {
		var err error
		if s, err = graph.Open(context.Background(), dir, graph.Options{}); err != nil {
			b.Fatal(err)
		}
		defer s.Close()
	} else {
		s = openFixture(b)
	}
	name := cmp.Or(os.Getenv("CAPGRAPH_BENCH_QUERY"), "entity")
	params := cmp.Or(os.Getenv("CAPGRAPH_BENCH_PARAMS"), `{"name":"Aleppo"}`)
	srv, err := New(s, Options{Queries: SavedQueries(queries.Builtin(), nil)})
	if err != nil {
		b.Fatal(err)
	}
	run := func() int {
		req := httptest.NewRequest("POST", "/api/queries/"+name, strings.NewReader(params))
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatalf("%d %s", rec.Code, rec.Body)
		}
		return rec.Body.Len()
	}
	run() // warm caches
	var lat []time.Duration
	for b.Loop() {
		start := time.Now()
		run()
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	ms := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(ms(0.50), "p50-ms")
	b.ReportMetric(ms(0.95), "p95-ms")
}
