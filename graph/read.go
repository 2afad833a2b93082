package graph

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"iter"
	"net/http"
	"time"

	cgraph "github.com/cayleygraph/cayley/graph"
	cayleyhttp "github.com/cayleygraph/cayley/server/http"
	"github.com/cayleygraph/quad"
	"github.com/cayleygraph/quad/nquads"
)

// Quads yields every quad that has t in direction d, in the store's
// order, until the caller stops or ctx is done.
func (s *Store) Quads(ctx context.Context, d Direction, t Term) iter.Seq2[Quad, error] {
	return func(yield func(Quad, error) bool) {
		dir, ok := directions[d]
		if !ok {
			yield(Quad{}, fmt.Errorf("graph: read %s: no direction %d", s.addr, d))
			return
		}
		for q, err := range s.quads(ctx, dir, t.value()) {
			if !yield(quadOf(q), err) || err != nil {
				return
			}
		}
	}
}

// quads is Quads in Cayley's terms.
func (s *Store) quads(ctx context.Context, d quad.Direction, v quad.Value) iter.Seq2[quad.Quad, error] {
	return func(yield func(quad.Quad, error) bool) {
		ref, err := s.qs.ValueOf(v)
		if err == nil && ref == nil {
			err = s.bolt.KV().Damaged() // Cayley reads an unreadable node as none
		}
		if err != nil {
			yield(quad.Quad{}, fmt.Errorf("graph: read %s: %w", s.addr, err))
			return
		}
		if ref == nil {
			return
		}
		sc := s.qs.QuadIterator(d, ref).Iterate()
		defer sc.Close()
		for sc.Next(ctx) {
			if err := ctx.Err(); err != nil { // Cayley's iterators do not watch ctx
				yield(quad.Quad{}, err)
				return
			}
			q, err := s.qs.Quad(sc.Result())
			if err != nil {
				yield(quad.Quad{}, fmt.Errorf("graph: read %s: %w", s.addr, err))
				return
			}
			if !yield(q, nil) {
				return
			}
		}
		if err := cmp.Or(sc.Err(), s.bolt.KV().Damaged()); err != nil {
			yield(quad.Quad{}, fmt.Errorf("graph: read %s: %w", s.addr, err))
		}
	}
}

// Nodes yields every node of the store: IRIs, literals and blank nodes.
func (s *Store) Nodes(ctx context.Context) iter.Seq2[Term, error] {
	return func(yield func(Term, error) bool) {
		sc := s.qs.NodesAllIterator().Iterate()
		defer sc.Close()
		for sc.Next(ctx) {
			if err := ctx.Err(); err != nil {
				yield(Term{}, err)
				return
			}
			v, err := s.qs.NameOf(sc.Result())
			if err != nil {
				yield(Term{}, fmt.Errorf("graph: read %s: %w", s.addr, err))
				return
			}
			if !yield(termOf(v), nil) {
				return
			}
		}
		if err := cmp.Or(sc.Err(), s.bolt.KV().Damaged()); err != nil {
			yield(Term{}, fmt.Errorf("graph: read %s: %w", s.addr, err))
		}
	}
}

// CayleyAPI returns Cayley's read-only v2 HTTP query API over the store.
// It serves /api/v2/query (GET and POST) and GET /api/v2/formats; queries
// stop after timeout and at limit results.
func (s *Store) CayleyAPI(timeout time.Duration, limit int) http.Handler {
	api := cayleyhttp.NewAPIv2(&cgraph.Handle{QuadStore: s.read})
	api.SetReadOnly(true)
	api.SetQueryTimeout(timeout)
	api.SetQueryLimit(limit)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v2/query", api.ServeQuery)
	mux.HandleFunc("POST /api/v2/query", api.ServeQuery)
	mux.HandleFunc("GET /api/v2/formats", api.ServeFormats)
	return mux
}

// ReadNQuads yields the quads of an N-Quads (or N-Triples) document, as
// [Store.Export] writes them, until the caller stops, the input ends or a
// line does not parse; the error then names the line.
func ReadNQuads(r io.Reader) iter.Seq2[Quad, error] {
	return func(yield func(Quad, error) bool) {
		rd := nquads.NewReader(r, false)
		for line := 1; ; line++ {
			q, err := rd.ReadQuad()
			if err == io.EOF {
				return
			}
			if err != nil {
				yield(Quad{}, fmt.Errorf("graph: N-Quads line %d: %w", line, err))
				return
			}
			if !yield(quadOf(q), nil) {
				return
			}
		}
	}
}

// Out yields the quads whose subject is subject and whose predicate is one
// of preds, with their predicate and object; their Graph is left zero.
// It reads only the objects it yields, where [Store.Quads] reads every
// quad's four values: a few times faster for a node with many quads, of
// which a few are wanted.
func (s *Store) Out(ctx context.Context, subject Term, preds ...Term) iter.Seq2[Quad, error] {
	return func(yield func(Quad, error) bool) {
		fail := func(err error) { yield(Quad{}, fmt.Errorf("graph: read %s: %w", s.addr, err)) }
		want := make(map[any]Term, len(preds))
		for _, p := range preds {
			ref, err := s.qs.ValueOf(p.value())
			if err != nil {
				fail(err)
				return
			}
			if ref != nil {
				want[ref.Key()] = p
			}
		}
		ref, err := s.qs.ValueOf(subject.value())
		if err == nil && ref == nil {
			err = s.bolt.KV().Damaged() // Cayley reads an unreadable node as none
		}
		if err != nil {
			fail(err)
			return
		}
		if ref == nil || len(want) == 0 {
			return
		}
		sc := s.qs.QuadIterator(quad.Subject, ref).Iterate()
		defer sc.Close()
		for sc.Next(ctx) {
			if err := ctx.Err(); err != nil {
				yield(Quad{}, err)
				return
			}
			q := sc.Result()
			p, err := s.qs.QuadDirection(q, quad.Predicate)
			if err != nil {
				fail(err)
				return
			}
			pred, ok := want[p.Key()]
			if !ok {
				continue
			}
			o, err := s.qs.QuadDirection(q, quad.Object)
			if err != nil {
				fail(err)
				return
			}
			v, err := s.qs.NameOf(o)
			if err != nil {
				fail(err)
				return
			}
			if !yield(Quad{Subject: subject, Predicate: pred, Object: termOf(v)}, nil) {
				return
			}
		}
		if err := cmp.Or(sc.Err(), s.bolt.KV().Damaged()); err != nil {
			fail(err)
		}
	}
}
