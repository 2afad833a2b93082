package graph

import (
	"iter"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/extract"
)

// A modelled extraction carries its quads, built ahead of the loader.
type modelled struct {
	x         extract.Extraction
	err       error
	own, desc []quad.Quad
	ready     bool // own and desc are built
	done      chan struct{}
}

// modelAhead yields xs in order, each with its quads built by one of
// workers goroutines while the caller is still writing earlier captions.
// A bulk load spends a third of its time in modelQuads, which needs no
// store, so on a first build it runs beside the writer. prov gives the
// provenance of one caption; it is called from the workers.
func modelAhead(xs iter.Seq2[extract.Extraction, error], prov func() Provenance, workers int) iter.Seq[*modelled] {
	return func(yield func(*modelled) bool) {
		const ahead = 256 // captions in flight
		var (
			jobs  = make(chan *modelled, ahead)
			order = make(chan *modelled, ahead)
			stop  = make(chan struct{})
		)
		go func() {
			defer close(order)
			defer close(jobs)
			for x, err := range xs {
				m := &modelled{x: x, err: err, done: make(chan struct{})}
				select {
				case order <- m:
				case <-stop:
					return
				}
				select {
				case jobs <- m:
				case <-stop:
					return
				}
			}
		}()
		for range workers {
			go func() {
				for m := range jobs {
					if m.err == nil && m.x.ID != "" {
						m.own, m.desc = modelQuads(m.x, prov())
						m.ready = true
					}
					close(m.done)
				}
			}()
		}
		defer func() {
			close(stop)
			for range order { // let the feeder and the workers finish
			}
		}()
		for m := range order {
			<-m.done
			if !yield(m) {
				return
			}
		}
	}
}

// quads returns m's quads: those built ahead, or built now with the
// provenance p at the time now gives.
func (m *modelled) quads(p Provenance, now func() time.Time) (own, desc []quad.Quad) {
	if m.ready {
		return m.own, m.desc
	}
	p.Time = now()
	return modelQuads(m.x, p)
}

// plain yields xs as modelled extractions whose quads are not built.
func plain(xs iter.Seq2[extract.Extraction, error]) iter.Seq[*modelled] {
	return func(yield func(*modelled) bool) {
		for x, err := range xs {
			if !yield(&modelled{x: x, err: err}) {
				return
			}
		}
	}
}
