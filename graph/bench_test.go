package graph_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/graph"
)

// benchLoad loads 2,000 synthetic captions into a store opened at addr;
// before are loaded first, in the same timed loop, and not counted.
func benchLoad(b *testing.B, opts graph.Options, addr func() string, before ...extract.Extraction) {
	if n, err := strconv.Atoi(os.Getenv("CAPGRAPH_BENCH_BATCH")); err == nil {
		opts.BatchSize = n // to measure batch sizes
	}
	xs := synthetic(2000)
	quads := 0
	for b.Loop() {
		s, err := graph.Open(context.Background(), addr(), opts)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Load(context.Background(), seq(before), graph.LoadOptions{}); err != nil {
			b.Fatal(err)
		}
		st, err := s.Load(context.Background(), seq(xs), graph.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		quads += st.Quads
		s.Close()
	}
	b.ReportMetric(float64(quads)/b.Elapsed().Seconds(), "quads/s")
	b.ReportMetric(float64(len(xs)*b.N)/b.Elapsed().Seconds(), "captions/s")
	b.ReportMetric(float64(quads)/float64(len(xs)*b.N), "quads/caption")
}

// BenchmarkLoadBolt loads 2,000 synthetic captions into a new bbolt store:
// the bulk load of a first build (graph/internal/bulk).
func BenchmarkLoadBolt(b *testing.B) {
	benchLoad(b, graph.Options{}, func() string { return filepath.Join(b.TempDir(), "db") })
}

// BenchmarkLoadBoltCayley loads them into a bbolt store that holds one
// caption already, so that they go through Cayley's writer in batches, as
// in every build after the first.
func BenchmarkLoadBoltCayley(b *testing.B) {
	benchLoad(b, graph.Options{}, func() string { return filepath.Join(b.TempDir(), "db") }, synthetic(2001)[2000])
}

// BenchmarkLoadBoltCayleyNoSync is BenchmarkLoadBoltCayley without fsync.
func BenchmarkLoadBoltCayleyNoSync(b *testing.B) {
	benchLoad(b, graph.Options{NoSync: true}, func() string { return filepath.Join(b.TempDir(), "db") }, synthetic(2001)[2000])
}

// BenchmarkLoadMemory loads into the in-memory store.
func BenchmarkLoadMemory(b *testing.B) {
	benchLoad(b, graph.Options{}, func() string { return "" })
}

// BenchmarkReloadUnchanged reruns a load over captions already stored.
func BenchmarkReloadUnchanged(b *testing.B) {
	xs := synthetic(2000)
	s, err := graph.Open(context.Background(), filepath.Join(b.TempDir(), "db"), graph.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Load(context.Background(), seq(xs), graph.LoadOptions{}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if st, err := s.Load(context.Background(), seq(xs), graph.LoadOptions{}); err != nil || st.Unchanged != len(xs) {
			b.Fatal(st, err)
		}
	}
	b.ReportMetric(float64(len(xs)*b.N)/b.Elapsed().Seconds(), "captions/s")
}

func benchExport(b *testing.B, f graph.Format) {
	s, err := graph.Open(context.Background(), filepath.Join(b.TempDir(), "db"), graph.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Load(context.Background(), seq(synthetic(2000)), graph.LoadOptions{}); err != nil {
		b.Fatal(err)
	}
	n := 0
	for b.Loop() {
		k, err := s.Export(context.Background(), io.Discard, f)
		if err != nil {
			b.Fatal(err)
		}
		n += k
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "quads/s")
}

// BenchmarkExportNQuads writes the N-Quads of a 2,000-caption bbolt store.
func BenchmarkExportNQuads(b *testing.B) { benchExport(b, graph.NQuads) }

// BenchmarkExportTurtle writes its Turtle.
func BenchmarkExportTurtle(b *testing.B) { benchExport(b, graph.Turtle) }

// BenchmarkExportJSONLD writes its JSON-LD.
func BenchmarkExportJSONLD(b *testing.B) { benchExport(b, graph.JSONLD) }

// BenchmarkLoad100k loads 100,000 synthetic captions into bbolt in one
// run and reports the peak heap, for the memory budget of a large build.
func BenchmarkLoad100k(b *testing.B) {
	if testing.Short() {
		b.Skip("long")
	}
	xs := synthetic(100000)
	for b.Loop() {
		s, err := graph.Open(context.Background(), filepath.Join(b.TempDir(), "db"), graph.Options{})
		if err != nil {
			b.Fatal(err)
		}
		var peak uint64
		var ms runtime.MemStats
		st, err := s.Load(context.Background(), func(yield func(extract.Extraction, error) bool) {
			for i, x := range xs {
				if i%10000 == 0 {
					runtime.ReadMemStats(&ms)
					peak = max(peak, ms.HeapInuse)
				}
				if !yield(x, nil) {
					return
				}
			}
		}, graph.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		b.ReportMetric(float64(st.Quads)/b.Elapsed().Seconds(), "quads/s")
	}
}
