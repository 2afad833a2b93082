package ordered_test

import (
	"context"
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/capgraph/capgraph/internal/ordered"
)

func count(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

// TestMapKeepsOrder: results come in input order whatever the workers'
// speeds.
func TestMapKeepsOrder(t *testing.T) {
	for _, tc := range []struct{ n, workers, ahead int }{
		{0, 1, 0}, {1, 1, 0}, {100, 1, 1}, {1000, 4, 0}, {1000, 8, 3}, {500, 0, 0},
	} {
		t.Run(fmt.Sprintf("n=%d,workers=%d,ahead=%d", tc.n, tc.workers, tc.ahead), func(t *testing.T) {
			square := func(i int) int {
				time.Sleep(time.Duration(rand.IntN(20)) * time.Microsecond)
				return i * i
			}
			got := slices.Collect(ordered.Map(t.Context(), count(tc.n), tc.workers, tc.ahead, square))
			if len(got) != tc.n {
				t.Fatalf("got %d results, want %d", len(got), tc.n)
			}
			for i, v := range got {
				if v != i*i {
					t.Fatalf("result %d = %d, want %d", i, v, i*i)
				}
			}
		})
	}
}

// TestMapStops: after the caller stops or ctx is done, no call of f is
// under way or to come, even when the input never ends or blocks.
func TestMapStops(t *testing.T) {
	forever := func(yield func(int) bool) {
		for i := 0; ; i++ {
			if !yield(i) {
				return
			}
		}
	}
	blocked := make(chan struct{}) // never closed: the input's next read never comes
	t.Cleanup(func() { close(blocked) })
	stalls := func(yield func(int) bool) {
		for i := range 10 {
			if !yield(i) {
				return
			}
		}
		<-blocked
	}
	for _, tc := range []struct {
		name   string
		in     iter.Seq[int]
		cancel bool // stop by ctx rather than by the caller
	}{
		{"caller stops, endless input", forever, false},
		{"ctx done, endless input", forever, true},
		{"caller stops, blocked input", stalls, false},
		{"ctx done, blocked input", stalls, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			var running, after atomic.Int64
			var returned atomic.Bool
			f := func(i int) int {
				running.Add(1)
				defer running.Add(-1)
				if returned.Load() {
					after.Add(1)
				}
				time.Sleep(50 * time.Microsecond)
				return i
			}
			seen := 0
			for range ordered.Map(ctx, tc.in, 4, 0, f) {
				if seen++; seen == 10 {
					if !tc.cancel {
						break
					}
					cancel()
				}
			}
			returned.Store(true)
			if n := running.Load(); n != 0 {
				t.Errorf("%d calls of f still running after Map returned", n)
			}
			time.Sleep(5 * time.Millisecond)
			if n := after.Load(); n != 0 {
				t.Errorf("%d calls of f began after Map returned", n)
			}
			if seen < 10 {
				t.Errorf("yielded %d, want at least 10", seen)
			}
		})
	}
}

func BenchmarkMap(b *testing.B) {
	work := func(i int) int {
		h := uint64(i)
		for range 1000 {
			h = h*6364136223846793005 + 1442695040888963407
		}
		return int(h)
	}
	for b.Loop() {
		for range ordered.Map(b.Context(), count(1000), 0, 0, work) {
		}
	}
}
