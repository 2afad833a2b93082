package graph

import (
	"context"
	"encoding/json"
	"fmt"
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
	x    extract.Extraction
	err  error
	prov model.Provenance // its time given when prepared
	// payload is x as another build handed it over (handoff.go), and
	// handedBy that build: the worker decodes it into x.
	payload  []byte
	handedBy string
	hash     string // ContentHash, when err is nil and x has an id
	own      []quad.Quad
	desc     []quad.Quad
	ready    bool // own and desc are built
}

// prepare yields in's extractions in order, each prepared by one of
// workers goroutines while the caller is still writing earlier captions.
// Hashing is most of the cost of an unchanged rerun, and modelQuads a
// third of a bulk load's; neither needs the store, so they run beside the
// writer. With quads unset only the hash is computed: a load through
// Cayley builds quads only for the captions that changed. now gives each
// caption its generation time; the workers call it.
func prepare(ctx context.Context, in iter.Seq[*prepared], now func() time.Time, workers int, quads bool) iter.Seq[*prepared] {
	const ahead = 256 // captions in flight
	return ordered.Map(ctx, in, workers, ahead, func(m *prepared) *prepared {
		if m.payload != nil {
			if err := json.Unmarshal(m.payload, &m.x); err != nil {
				m.err = fmt.Errorf("caption handed over by build %s: %w", m.handedBy, err)
			}
			m.payload = nil
		}
		if m.err == nil && m.x.ID != "" {
			m.prov.Time = now()
			m.hash = model.ContentHash(m.x, m.prov.ExtractorVersion)
			if quads {
				m.own, m.desc = model.SplitQuads(m.x, m.prov, m.hash)
				m.ready = true
			}
		}
		return m
	})
}

// quads returns m's quads: those built ahead, or built now at the time
// now gives.
func (m *prepared) quads(now func() time.Time) (own, desc []quad.Quad) {
	if m.ready {
		return m.own, m.desc
	}
	p := m.prov
	p.Time = now()
	return model.SplitQuads(m.x, p, m.hash)
}
