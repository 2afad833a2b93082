package graph

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/cayleygraph/cayley/graph/iterator"
	"github.com/cayleygraph/cayley/graph/kv"
	"github.com/cayleygraph/cayley/query/shape"
	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/graph/model"
)

// subjectQuads returns the quads with subject v labelled g.
func (s *Store) subjectQuads(ctx context.Context, v quad.Value, g quad.IRI) ([]quad.Quad, error) {
	if s.pgNodes != nil {
		return s.pgNodes.Quads(ctx, nil, []quad.Value{v}, g)
	}
	ref, err := s.qs.ValueOf(v)
	if err != nil || ref == nil {
		return nil, err
	}
	return s.appendQuads(ctx, nil, s.qs.QuadIterator(quad.Subject, ref), g)
}

// appendQuads appends the quads of it labelled g to out; g "" keeps all.
func (s *Store) appendQuads(ctx context.Context, out []quad.Quad, it iterator.Shape, g quad.IRI) ([]quad.Quad, error) {
	sc := it.Iterate()
	defer sc.Close()
	for sc.Next(ctx) {
		q, err := s.qs.Quad(sc.Result())
		if err != nil {
			return out, err
		}
		if g == "" || q.Label == g {
			out = append(out, q)
		}
	}
	return out, sc.Err()
}

// description returns the stored description of entity node v: its quads
// in the entities graph. On the kv stores it scans the subject-predicate
// index once per description predicate, so its cost does not grow with
// the number of captions that name v; on PostgreSQL it reads them in one
// round trip (labelledQuads); in memory it reads every quad with subject v.
func (s *Store) description(ctx context.Context, v quad.Value) ([]quad.Quad, error) {
	kqs, ok := s.qs.(*kv.QuadStore)
	if !ok {
		return s.labelledQuads(ctx, v, entitiesGraph)
	}
	ref, err := kqs.ValueOf(v)
	if err != nil || ref == nil {
		return nil, err
	}
	var out []quad.Quad
	for _, p := range model.DescriptionPredicates {
		pref, err := kqs.ValueOf(p)
		if err != nil {
			return nil, err
		}
		if pref == nil {
			continue
		}
		scan := kv.IndexScan{Index: subjectPredicate, Values: []uint64{uint64(ref.(kv.Int64Value)), uint64(pref.(kv.Int64Value))}}
		if out, err = s.appendQuads(ctx, out, scan.BuildIterator(kqs), entitiesGraph); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// descriptions returns the stored descriptions of the entity nodes vs, by
// node: on PostgreSQL in one round trip.
func (s *Store) descriptions(ctx context.Context, vs []quad.Value) (map[quad.Value][]quad.Quad, error) {
	out := make(map[quad.Value][]quad.Quad, len(vs))
	if s.pgNodes != nil {
		qs, err := s.pgNodes.Quads(ctx, nil, vs, entitiesGraph)
		for _, q := range qs {
			out[q.Subject] = append(out[q.Subject], q)
		}
		return out, err
	}
	for _, v := range vs {
		d, err := s.description(ctx, v)
		if err != nil {
			return nil, err
		}
		out[v] = d
	}
	return out, nil
}

// labelledQuads returns the quads with subject v labelled g, filtered by
// the store rather than here: on PostgreSQL in one query that reads their
// values too (pgbulk.Lookup).
func (s *Store) labelledQuads(ctx context.Context, v quad.Value, g quad.IRI) ([]quad.Quad, error) {
	if s.pgNodes != nil {
		return s.pgNodes.Quads(ctx, nil, []quad.Value{v}, g)
	}
	ref, err := s.qs.ValueOf(v)
	if err != nil || ref == nil {
		return nil, err
	}
	gref, err := s.qs.ValueOf(g)
	if err != nil || gref == nil {
		return nil, err
	}
	sel := shape.Quads{
		{Dir: quad.Subject, Values: shape.Fixed{ref}},
		{Dir: quad.Label, Values: shape.Fixed{gref}},
	}
	return s.appendQuads(ctx, nil, shape.BuildIterator(ctx, s.qs, sel), "")
}

// subjectPredicate is the first of Cayley's default kv quad indexes, which
// every capgraph store is created with.
var subjectPredicate = kv.QuadIndex{Dirs: []quad.Direction{quad.Subject, quad.Predicate}}

// captionQuads returns every quad of caption id's graph, or nil when its
// graph node has none. PostgreSQL reads them by graph, in one query.
// Cayley's kv stores index quads by subject and object only, so there the
// graph is read from its own nodes: the graph node, the photo, the
// mentions <g>#m0, #m1, ... and statements <g>#r0, #r1, ... up to the
// first that is absent, and every other <g>#... node they name; a fact
// whose subject is an entity is rebuilt from its statement (rdf:subject,
// rdf:predicate, rdf:object).
func (s *Store) captionQuads(ctx context.Context, id string) ([]quad.Quad, error) {
	return s.captionQuadsOf(ctx, quad.IRI(model.GraphIRI(id)), quad.IRI(model.PhotoIRI(id)))
}

func (s *Store) captionQuadsOf(ctx context.Context, g, photo quad.IRI) ([]quad.Quad, error) {
	if s.pgNodes != nil {
		qs, err := s.pgNodes.Graph(ctx, nil, g)
		if err != nil || !slices.ContainsFunc(qs, func(q quad.Quad) bool { return q.Subject == g }) {
			return nil, err
		}
		return qs, nil
	}
	own, err := s.subjectQuads(ctx, g, g)
	if err != nil || len(own) == 0 {
		return nil, err
	}
	var (
		out   = own
		local = string(g) + "#"
		seen  = map[quad.Value]bool{g: true}
		queue = []quad.Value{photo}
	)
	for _, kind := range []string{"m", "r"} {
		for i := 0; ; i++ {
			n := quad.IRI(local + kind + strconv.Itoa(i))
			qs, err := s.subjectQuads(ctx, n, g)
			if err != nil {
				return nil, err
			}
			if len(qs) == 0 {
				break
			}
			seen[n] = true
			out = append(out, qs...)
		}
	}
	note := func(v quad.Value) {
		if iri, ok := v.(quad.IRI); ok && strings.HasPrefix(string(iri), local) && !seen[iri] {
			queue = append(queue, iri)
		}
	}
	for _, q := range out {
		note(q.Object)
	}
	for len(queue) > 0 {
		n := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		qs, err := s.subjectQuads(ctx, n, g)
		if err != nil {
			return nil, err
		}
		for _, q := range qs {
			note(q.Object)
		}
		out = append(out, qs...)
	}
	// Facts rebuilt from their statements.
	type spo struct{ s, p, o quad.Value }
	facts := make(map[quad.Value]*spo)
	for _, q := range out {
		switch q.Predicate {
		case model.RDFSubject, model.RDFPredicate, model.RDFObject:
		default:
			continue
		}
		f := facts[q.Subject]
		if f == nil {
			f = new(spo)
			facts[q.Subject] = f
		}
		switch q.Predicate {
		case model.RDFSubject:
			f.s = q.Object
		case model.RDFPredicate:
			f.p = q.Object
		case model.RDFObject:
			f.o = q.Object
		}
	}
	have := make(map[quad.Quad]bool, len(out))
	for _, q := range out {
		have[q] = true
	}
	for _, f := range facts {
		if f.s == nil || f.p == nil || f.o == nil {
			continue
		}
		q := quad.Quad{Subject: f.s, Predicate: f.p, Object: f.o, Label: g}
		if !have[q] {
			have[q] = true
			out = append(out, q)
		}
	}
	return out, nil
}

func isContentHash(q quad.Quad) bool { return q.Predicate == model.CapgraphContentHash }

// readPartWay completes old, the stored graph of a caption that a stopped
// build left part-way (its content hash went in the first transaction of
// a split batch, and the second never came: batch.transactions). Such a
// graph may lack a mention or statement that captionQuads stops at, so
// the nodes that own, the caption's new graph, names are read too: what
// is there already is then kept, not added again, and the counts of
// quads (tally.go) move only by what the store gains or loses.
func (s *Store) readPartWay(ctx context.Context, g quad.IRI, old, own []quad.Quad) ([]quad.Quad, error) {
	have := make(map[quad.Quad]bool, len(old))
	read := make(map[quad.Value]bool)
	for _, q := range old {
		have[q] = true
		read[q.Subject] = true
	}
	for _, q := range own {
		if read[q.Subject] {
			continue
		}
		read[q.Subject] = true
		qs, err := s.subjectQuads(ctx, q.Subject, g)
		if err != nil {
			return nil, err
		}
		for _, q := range qs {
			if !have[q] {
				have[q] = true
				old = append(old, q)
			}
		}
	}
	return old, nil
}

// isObject reports whether some quad has v as its object. (The SQL
// backend's ValueOf returns a hash even for values it does not hold.)
func (s *Store) isObject(ctx context.Context, v quad.Value) (bool, error) {
	ref, err := s.qs.ValueOf(v)
	if err != nil || ref == nil {
		return false, err
	}
	sc := s.qs.QuadIterator(quad.Object, ref).Iterate()
	defer sc.Close()
	ok := sc.Next(ctx)
	return ok, sc.Err()
}

// hasLiteral reports whether a literal is the object of a quad in the
// store. In the embedded store that is one look-up: a literal can only be
// an object, and Cayley's kv store deletes a value once no quad names it,
// so a value found is named. Cayley's SQL store deletes a node with its
// last quad too, so in PostgreSQL it is one read of the nodes' primary
// key; in memory it is isObject.
func (s *Store) hasLiteral(ctx context.Context, v quad.Value) (bool, error) {
	switch {
	case s.pgNodes != nil:
		return s.pgNodes.Has(ctx, v)
	case s.bolt == nil:
		return s.isObject(ctx, v)
	}
	ref, err := s.qs.ValueOf(v)
	return err == nil && ref != nil, err
}
