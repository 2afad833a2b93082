package graph_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/extract/synth"
	"github.com/capgraph/capgraph/graph"
)

// TestSameGraphWhateverTheOrder builds one set of generated captions at
// once (a bulk load), in two halves (the second through Cayley's writer),
// in reverse order, and in halves second half first: each store exports
// the same N-Quads and passes check, tallies included.
func TestSameGraphWhateverTheOrder(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 300
	}
	xs, err := synth.Extractions(11, 0, n)
	if err != nil {
		t.Fatal(err)
	}
	reversed := slices.Clone(xs)
	slices.Reverse(reversed)
	half := n / 2
	orders := []struct {
		name  string
		loads [][]extract.Extraction
	}{
		{"at once", [][]extract.Extraction{xs}},
		{"two halves", [][]extract.Extraction{xs[:half], xs[half:]}},
		{"reversed", [][]extract.Extraction{reversed}},
		{"second half first", [][]extract.Extraction{xs[half:], xs[:half]}},
	}
	var want []string
	for _, o := range orders {
		dir := filepath.Join(t.TempDir(), "g")
		s := open(t, dir)
		for _, part := range o.loads {
			load(t, s, part)
		}
		got := lineSet(export(t, s, graph.NQuads))
		r, err := s.Check(context.Background())
		s.Close()
		if err != nil || len(r.Problems) > 0 || r.Captions != n {
			t.Errorf("%s: check %v, %d captions, problems %q", o.name, err, r.Captions, r.Problems)
		}
		if want == nil {
			want = got
			continue
		}
		if !slices.Equal(got, want) {
			extra, missing := diffLines(got, want)
			t.Errorf("%s: %d lines, at once %d; only here %q; only at once %q", o.name, len(got), len(want), extra[:min(5, len(extra))], missing[:min(5, len(missing))])
		}
	}
}

// diffLines returns the lines of sorted a not in sorted b, and of b not in a.
func diffLines(a, b []string) (onlyA, onlyB []string) {
	for _, l := range a {
		if _, ok := slices.BinarySearch(b, l); !ok {
			onlyA = append(onlyA, l)
		}
	}
	for _, l := range b {
		if _, ok := slices.BinarySearch(a, l); !ok {
			onlyB = append(onlyB, l)
		}
	}
	return onlyA, onlyB
}
