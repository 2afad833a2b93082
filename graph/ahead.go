package graph

import (
	"context"
	"iter"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/graph/model"
	"github.com/capgraph/capgraph/internal/ordered"
)

// A prepared extraction carries what the loader needs of it that needs no
// store: its content hash and, for a bulk load, its quads.
type prepared struct {
	x         extract.Extraction
	err       error
	hash      string // ContentHash, when err is nil and x has an id
	own, desc []quad.Quad
	ready     bool // own and desc are built
}

// prepare yields xs in order, each prepared by one of workers goroutines
// while the caller is still writing earlier captions. Hashing is most of
// the cost of an unchanged rerun, and modelQuads a third of a bulk load's;
// neither needs the store, so they run beside the writer. With quads unset
// only the hash is computed: a load through Cayley builds quads only for
// the captions that changed. prov gives the provenance of one caption; the
// workers call it.
func prepare(ctx context.Context, xs iter.Seq2[extract.Extraction, error], prov func() model.Provenance, workers int, quads bool) iter.Seq[*prepared] {
	const ahead = 256 // captions in flight
	in := func(yield func(*prepared) bool) {
		for x, err := range xs {
			if !yield(&prepared{x: x, err: err}) {
				return
			}
		}
	}
	return ordered.Map(ctx, in, workers, ahead, func(m *prepared) *prepared {
		if m.err == nil && m.x.ID != "" {
			p := prov()
			m.hash = model.ContentHash(m.x, p.ExtractorVersion)
			if quads {
				m.own, m.desc = model.SplitQuads(m.x, p, m.hash)
				m.ready = true
			}
		}
		return m
	})
}

// quads returns m's quads: those built ahead, or built now with the
// provenance p at the time now gives.
func (m *prepared) quads(p model.Provenance, now func() time.Time) (own, desc []quad.Quad) {
	if m.ready {
		return m.own, m.desc
	}
	p.Time = now()
	return model.SplitQuads(m.x, p, m.hash)
}
