package photoindex

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/capgraph/capgraph/graph"
)

// benchIndex builds the index of the store CAPGRAPH_BENCH_STORE names,
// once per benchmark.
func benchIndex(b *testing.B) *Index {
	dir := os.Getenv("CAPGRAPH_BENCH_STORE")
	if dir == "" {
		b.Skip("CAPGRAPH_BENCH_STORE names no store (a store of `capgraph gen` captions)")
	}
	ctx := context.Background()
	s, err := graph.Open(ctx, dir, graph.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	start := time.Now()
	ix, err := Build(ctx, s)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("built the index of %d photos and %d entities in %v", ix.Len(), len(ix.entities), time.Since(start).Round(time.Millisecond))
	return ix
}

// BenchmarkSummary summarises the place with the most photos, with and
// without a date range.
func BenchmarkSummary(b *testing.B) {
	ix := benchIndex(b)
	var biggest string
	for _, e := range ix.entities {
		if e.Kind == "place" && (biggest == "" || ix.PhotoCount(e.IRI) > ix.PhotoCount(biggest)) {
			biggest = e.IRI
		}
	}
	b.Logf("%s: %d photos", biggest, ix.PhotoCount(biggest))
	for _, r := range []Range{{}, {From: "2016-01", To: "2016-06"}} {
		b.Run(r.From+"_"+r.To, func(b *testing.B) {
			for b.Loop() {
				sel, err := ix.Select(Filter{Range: r, Entities: []string{biggest}})
				if err != nil {
					b.Fatal(err)
				}
				ix.TimelineOf(sel)
				ix.Related(sel, 10, biggest)
			}
		})
	}
}
