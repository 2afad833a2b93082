package bulk

import (
	"encoding/binary"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

// TestRunSorter sorts records with duplicates and equal keys through no
// run, one run and many, and wants them all back in order, nothing lost
// or doubled, and no run file left after close.
func TestRunSorter(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var in []record
	for range 5000 {
		var r record
		binary.BigEndian.PutUint64(r.key[:], rng.Uint64N(300)) // many records share a key
		binary.BigEndian.PutUint64(r.key[16:], rng.Uint64())   // and differ past the first word
		r.val = rng.Uint64N(50)
		in = append(in, r)
		if rng.IntN(10) == 0 {
			in = append(in, r) // an exact duplicate
		}
	}
	want := slices.Clone(in)
	slices.SortFunc(want, compareRecords)
	for _, tt := range []struct {
		name  string
		limit int
	}{
		{"in memory", len(in) + 1},
		{"one run and a buffer", len(in) - 100},
		{"many runs", 97},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s := newRunSorter(dir, tt.limit)
			for _, r := range in {
				if err := s.add(r); err != nil {
					t.Fatal(err)
				}
			}
			var got []record
			if err := s.merge(func(r record) error { got = append(got, r); return nil }); err != nil {
				t.Fatal(err)
			}
			s.close()
			if !slices.Equal(got, want) {
				t.Errorf("merged %d records, want %d in order", len(got), len(want))
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("runs left after close: %v", left)
			}
		})
	}
}
