package graph

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/graph/internal/boltkv"
)

// Describe writes the document that the node iri dereferences to, in
// format (not CSV): every quad whose subject is iri, in any graph but the
// tallies, and those of the nodes below it (<iri#...>, such as a place's
// point). N-Quads keep each quad's graph; the other formats state each
// triple once. It returns the number of quads or triples written: 0, and
// nothing written, when the store says nothing about iri.
func (s *Store) Describe(ctx context.Context, w io.Writer, iri string, format Format) (_ int, err error) {
	defer s.noDamage(&err, "describe")
	defer s.bolt.KV().PageFault(&err, boltkv.Guard())
	var quads []quad.Quad
	seen := map[quad.IRI]bool{quad.IRI(iri): true}
	for queue := []quad.IRI{quad.IRI(iri)}; len(queue) > 0; queue = queue[1:] {
		for q, err := range s.quads(ctx, quad.Subject, queue[0]) {
			if err != nil {
				return 0, err
			}
			if q.Label == talliesGraph {
				continue
			}
			quads = append(quads, q)
			if o, ok := q.Object.(quad.IRI); ok && strings.HasPrefix(string(o), iri+"#") && !seen[o] {
				seen[o] = true
				queue = append(queue, o)
			}
		}
	}
	if len(quads) == 0 {
		return 0, nil
	}
	quads = withDomainTypes(quads)
	if format != NQuads {
		for i := range quads {
			quads[i].Label = nil
		}
	}
	sortQuads(quads)
	if format == NQuads { // the same triple in two graphs is two quads
		slices.SortStableFunc(quads, func(a, b quad.Quad) int { return strings.Compare(labelKey(a), labelKey(b)) })
	}
	quads = slices.Compact(quads)

	for i := range quads {
		quads[i] = s.rebaseQuad(quads[i])
	}
	bw := bufio.NewWriter(w)
	var n int
	switch format {
	case NQuads, NTriples:
		n, err = (&ntEncoder{w: bw, quads: format == NQuads}).graph("", quads)
	case Turtle:
		e := &ttlEncoder{w: bw}
		if err = e.begin(); err == nil {
			n, err = e.triples(quads)
		}
	case JSONLD:
		n, err = (&jsonldEncoder{w: bw}).document(quads)
	default:
		return 0, fmt.Errorf("graph: describe %s: format %q has no single-node form", iri, format)
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return n, fmt.Errorf("graph: describe %s: %w", iri, err)
	}
	return n, nil
}

func labelKey(q quad.Quad) string {
	if q.Label == nil {
		return ""
	}
	return q.Label.String()
}
