package web

import (
	"cmp"
	"context"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/capgraph/capgraph/cmd/capgraph/internal/web/internal/photoindex"
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

// BenchmarkSummaryAPI asks for the summaries of the store's most common
// place, group and person in turn, through the whole handler stack, on the
// store named by CAPGRAPH_BENCH_STORE (else the fixture).
//
//	CAPGRAPH_BENCH_STORE=/tmp/s100k go test -run '^$' -bench SummaryAPI ./cmd/capgraph/internal/web
func BenchmarkSummaryAPI(b *testing.B) {
	benchmarkEntities(b, "/api/summary?iri=", "place", "group", "person")
}

// BenchmarkEntityAPI asks for the facts of the store's most common place,
// group and agency in turn (the entity page's facts table), on the store
// named by CAPGRAPH_BENCH_STORE (else the fixture).
//
//	CAPGRAPH_BENCH_STORE=/tmp/s100k go test -run '^$' -bench EntityAPI ./cmd/capgraph/internal/web
func BenchmarkEntityAPI(b *testing.B) {
	benchmarkEntities(b, "/api/entity?iri=", "place", "group", "agency")
}

// benchmarkEntities asks path for the entity of each kind with the most
// photos in turn, through the whole handler stack, and reports the p50
// and p95 of the answers.
func benchmarkEntities(b *testing.B, path string, kinds ...string) {
	var s *graph.Store
	if dir := os.Getenv("CAPGRAPH_BENCH_STORE"); dir != "" {
		var err error
		if s, err = graph.Open(context.Background(), dir, graph.Options{ReadOnly: true}); err != nil {
			b.Fatal(err)
		}
		defer s.Close()
	} else {
		s = openFixture(b)
	}
	srv, err := New(s, Options{Hosts: []string{"example.com"}})
	if err != nil {
		b.Fatal(err)
	}
	if err := srv.BuildPhotoIndex(context.Background()); err != nil {
		b.Fatal(err)
	}
	ix := srv.photos.Load()
	sel, _ := ix.Select(photoindex.Filter{})
	top, _ := ix.Related(sel, 1)
	var targets []string
	for _, kind := range kinds {
		for _, c := range top[kind] {
			targets = append(targets, path+url.QueryEscape(c.IRI))
		}
	}
	var lat []time.Duration
	k := 0
	for b.Loop() {
		start := time.Now()
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", targets[k%len(targets)], nil))
		if rec.Code != 200 {
			b.Fatalf("%d %s", rec.Code, rec.Body)
		}
		lat = append(lat, time.Since(start))
		k++
	}
	slices.Sort(lat)
	ms := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(ms(0.50), "p50-ms")
	b.ReportMetric(ms(0.95), "p95-ms")
}
