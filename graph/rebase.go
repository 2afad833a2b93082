package graph

import (
	"strings"

	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/graph/model"
)

// rebase returns v with [model.Base] replaced by the store's BaseIRI, when
// it is a node capgraph mints and a base is set.
func (s *Store) rebase(v quad.Value) quad.Value {
	iri, ok := v.(quad.IRI)
	if !ok || s.opts.BaseIRI == "" || s.opts.BaseIRI == model.Base {
		return v
	}
	if rest, ok := strings.CutPrefix(string(iri), model.Base); ok {
		return quad.IRI(s.opts.BaseIRI + rest)
	}
	return v
}

func (s *Store) rebaseQuad(q quad.Quad) quad.Quad {
	q.Subject, q.Object = s.rebase(q.Subject), s.rebase(q.Object)
	if q.Label != nil {
		q.Label = s.rebase(q.Label)
	}
	return q
}

// rebasing is an encoder that writes its quads under the store's base.
type rebasing struct {
	encoder
	s *Store
}

func (r rebasing) graph(g quad.IRI, quads []quad.Quad) (int, error) {
	out := make([]quad.Quad, len(quads))
	for i, q := range quads {
		out[i] = r.s.rebaseQuad(q)
	}
	return r.encoder.graph(r.s.rebase(g).(quad.IRI), out)
}
