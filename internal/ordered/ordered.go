// Package ordered runs a function over a sequence on several goroutines
// and yields the results in the sequence's order. Extraction and the
// loader's preparation both use it: each caption costs the same work
// whatever its neighbours, and the writer downstream needs them in input
// order.
package ordered

import (
	"context"
	"iter"
	"runtime"
	"sync"
)

// Map yields f(v) for each v of in, in the order of in, computing up to
// workers calls of f at once (0 means GOMAXPROCS) and reading up to ahead
// elements of in before they are yielded (0 means 16 per worker).
//
// Map stops when ctx is done or the caller stops. It then waits for the
// calls of f under way, so that none runs after Map returns, but not for
// in's next element, which may never come (a terminal, a pipe): the
// goroutine reading in finishes on its own when it arrives.
func Map[T, U any](ctx context.Context, in iter.Seq[T], workers, ahead int, f func(T) U) iter.Seq[U] {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if ahead <= 0 {
		ahead = 16 * workers
	}
	type job struct {
		v   T
		out chan U
	}
	return func(yield func(U) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		jobs := make(chan job, workers)
		order := make(chan chan U, ahead)
		go func() { // feed: read in, hand out, remember the order
			defer close(order)
			defer close(jobs)
			for v := range in {
				out := make(chan U, 1)
				select {
				case order <- out:
				case <-ctx.Done():
					return
				}
				select {
				case jobs <- job{v, out}:
				case <-ctx.Done():
					return
				}
			}
		}()
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for {
					select {
					case j, ok := <-jobs:
						if !ok {
							return
						}
						j.out <- f(j.v)
					case <-ctx.Done():
						return
					}
				}
			})
		}
		defer wg.Wait()
		defer cancel() // before the wait: it is what stops the workers
		for {
			var out chan U
			select {
			case o, ok := <-order:
				if !ok {
					return
				}
				out = o
			case <-ctx.Done():
				return
			}
			var u U
			select {
			case u = <-out:
			case <-ctx.Done():
				return
			}
			if !yield(u) {
				return
			}
		}
	}
}
