package graph

import (
	"bufio"
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"iter"
	"slices"
	"strings"

	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/graph/internal/boltkv"
	"github.com/capgraph/capgraph/graph/internal/pgbulk"
	"github.com/capgraph/capgraph/graph/internal/rdfterm"
	"github.com/capgraph/capgraph/graph/model"
)

// A Format is an export format of [Store.Export].
type Format string

// The export formats.
const (
	NQuads   Format = "nq"     // N-Quads: one named graph per caption
	NTriples Format = "nt"     // N-Triples: the graphs flattened
	Turtle   Format = "ttl"    // Turtle with prefixes, flattened
	JSONLD   Format = "jsonld" // JSON-LD with an embedded context and one named graph per caption
	CSV      Format = "csv"    // a flat events view, one row per photo and depicted place
)

// Formats lists the export formats in a fixed order, for help texts.
var Formats = []Format{NQuads, NTriples, Turtle, JSONLD, CSV}

// ParseFormat returns the format named s: a [Format] value or one of the
// long names nquads, ntriples, turtle and json-ld.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "nq", "nquads", "n-quads":
		return NQuads, nil
	case "nt", "ntriples", "n-triples":
		return NTriples, nil
	case "ttl", "turtle":
		return Turtle, nil
	case "jsonld", "json-ld":
		return JSONLD, nil
	case "csv":
		return CSV, nil
	}
	return "", fmt.Errorf("graph: unknown export format %q (want nq, nt, ttl, jsonld or csv)", s)
}

// Export writes the whole graph to w in format and returns the number of
// quads written (rows for CSV). N-Quads and N-Triples stream the store in
// its own order; Turtle, JSON-LD and CSV go one caption graph at a time,
// its quads sorted. The flattened formats repeat a triple that several
// captions state.
func (s *Store) Export(ctx context.Context, w io.Writer, format Format) (_ int, err error) {
	defer s.noDamage(&err, "export "+string(format))
	defer s.bolt.KV().PageFault(&err, boltkv.Guard()) // a damaged or vanished page ends the read with ErrDamaged
	bw := bufio.NewWriterSize(w, 256<<10)
	enc, err := newEncoder(bw, format)
	if err != nil {
		return 0, err
	}
	if nt, ok := enc.(*ntEncoder); ok {
		// The line formats need no grouping: stream the store in its order.
		var within containment
		n, err := s.streamNT(ctx, nt, &within)
		if err == nil {
			var k int
			k, err = (rebasing{nt, s}).graph(containmentGraph, within.quads())
			n += k
		}
		if err == nil {
			err = bw.Flush()
		}
		if err != nil {
			return n, fmt.Errorf("graph: export %s: %w", format, err)
		}
		return n, nil
	}
	return s.exportGraphs(ctx, bw, enc, format, s.photos(ctx))
}

// ExportPhotos writes, as Export does, the graphs of the captions of the
// given photos (IRIs as [Store.Quads] reads them), in that order, with
// the descriptions of the entities they name and the containment of their
// places: a subset of the store that stands on its own. A photo the store
// does not hold is skipped.
func (s *Store) ExportPhotos(ctx context.Context, w io.Writer, format Format, photos []string) (_ int, err error) {
	defer s.noDamage(&err, "export "+string(format))
	defer s.bolt.KV().PageFault(&err, boltkv.Guard())
	bw := bufio.NewWriterSize(w, 256<<10)
	enc, err := newEncoder(bw, format)
	if err != nil {
		return 0, err
	}
	return s.exportGraphs(ctx, bw, enc, format, func(yield func(quad.IRI, error) bool) {
		for _, p := range photos {
			if !yield(quad.IRI(p), nil) {
				return
			}
		}
	})
}

// newEncoder returns the encoder of format, writing to bw.
func newEncoder(bw *bufio.Writer, format Format) (encoder, error) {
	switch format {
	case NQuads:
		return &ntEncoder{w: bw, quads: true}, nil
	case NTriples:
		return &ntEncoder{w: bw}, nil
	case Turtle:
		return &ttlEncoder{w: bw}, nil
	case JSONLD:
		return &jsonldEncoder{w: bw}, nil
	case CSV:
		return &csvEncoder{w: csv.NewWriter(bw)}, nil
	}
	return nil, fmt.Errorf("graph: export: unknown format %q", format)
}

// exportGraphs writes the caption graphs of photos one at a time, then
// the entities graph and the containment graph, and flushes bw.
func (s *Store) exportGraphs(ctx context.Context, bw *bufio.Writer, enc encoder, format Format, photos iter.Seq2[quad.IRI, error]) (int, error) {
	enc = rebasing{enc, s}
	n := 0
	var within *containment // the CSV view has no graphs, so no containment graph
	if format != CSV {
		within = new(containment)
	}
	err := enc.begin()
	for g, err2 := range s.graphs(ctx, format == CSV, photos) {
		if err != nil {
			break
		}
		if err = err2; err != nil {
			break
		}
		if within != nil {
			for _, q := range g.quads {
				within.add(q)
			}
		}
		var k int
		k, err = enc.graph(g.label, g.quads)
		n += k
	}
	if within != nil && err == nil {
		if wq := within.quads(); len(wq) > 0 {
			var k int
			k, err = enc.graph(containmentGraph, wq)
			n += k
		}
	}
	if err == nil {
		err = enc.end()
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return n, fmt.Errorf("graph: export %s: %w", format, err)
	}
	return n, nil
}

type namedGraph struct {
	label quad.IRI
	quads []quad.Quad
}

// photos yields every photo of the store, in the order of its index of
// photos.
func (s *Store) photos(ctx context.Context) iter.Seq2[quad.IRI, error] {
	return func(yield func(quad.IRI, error) bool) {
		ref, err := s.qs.ValueOf(model.SchemaPhotograph)
		if err != nil || ref == nil {
			if err != nil {
				yield("", err)
			}
			return
		}
		sc := s.qs.QuadIterator(quad.Object, ref).Iterate()
		defer sc.Close()
		for sc.Next(ctx) {
			// The kv iterators do not watch ctx: an interrupted export of
			// a large store would otherwise run to its end.
			if err := ctx.Err(); err != nil {
				yield("", err)
				return
			}
			q, err := s.qs.Quad(sc.Result())
			if err != nil {
				yield("", err)
				return
			}
			if photo, ok := q.Subject.(quad.IRI); ok && q.Predicate == model.RDFType {
				if !yield(photo, nil) {
					return
				}
			}
		}
		if err := sc.Err(); err != nil {
			yield("", err)
		}
	}
}

// graphs yields the caption graph of each of photos with its quads sorted
// by subject, predicate and object, then the entities graph with the
// descriptions of every entity the captions name. With inline set, each
// caption graph also carries the descriptions of the entities it names
// (for the CSV view), and the entities graph is not yielded.
func (s *Store) graphs(ctx context.Context, inline bool, photos iter.Seq2[quad.IRI, error]) iter.Seq2[namedGraph, error] {
	return func(yield func(namedGraph, error) bool) {
		d := &describer{s: s, cache: make(map[quad.Value][]quad.Quad)}
		all := make(map[quad.Value]bool) // every described node met
		graphs := 0
		for photo, err := range photos {
			if err == nil {
				err = ctx.Err()
			}
			if err != nil {
				yield(namedGraph{}, err)
				return
			}
			graphOf, isPhoto := model.GraphOfPhoto(string(photo))
			if !isPhoto {
				continue
			}
			g := quad.IRI(graphOf)
			quads, err := s.captionQuadsOf(ctx, g, photo)
			if err != nil {
				yield(namedGraph{}, err)
				return
			}
			if len(quads) == 0 {
				continue
			}
			desc, err := d.closure(ctx, quads, all)
			if err != nil {
				yield(namedGraph{}, err)
				return
			}
			if inline {
				quads = append(quads, desc...)
			} else {
				quads = withDomainTypes(quads)
			}
			if graphs++; graphs%releaseEvery == 0 {
				s.releaseMapped()
			}
			sortQuads(quads)
			if !yield(namedGraph{g, quads}, nil) {
				return
			}
		}
		if inline || len(all) == 0 {
			return
		}
		var quads []quad.Quad
		for v := range all {
			if err := ctx.Err(); err != nil {
				yield(namedGraph{}, err)
				return
			}
			qs, err := d.of(ctx, v)
			if err != nil {
				yield(namedGraph{}, err)
				return
			}
			quads = append(quads, qs...)
		}
		sortQuads(quads)
		yield(namedGraph{entitiesGraph, quads}, nil)
	}
}

// A describer reads entity descriptions from the entities graph, with a
// cache bounded for big stores.
type describer struct {
	s     *Store
	cache map[quad.Value][]quad.Quad
}

func (d *describer) of(ctx context.Context, v quad.Value) ([]quad.Quad, error) {
	if qs, ok := d.cache[v]; ok {
		return qs, nil
	}
	qs, err := d.s.description(ctx, v)
	if err != nil {
		return nil, err
	}
	if len(d.cache) >= 1<<17 {
		clear(d.cache)
	}
	d.cache[v] = qs
	return qs, nil
}

// closure returns the descriptions of the nodes that quads name, and of
// the nodes those name in turn (coordinates, admin areas), recording each
// described node in all.
func (d *describer) closure(ctx context.Context, quads []quad.Quad, all map[quad.Value]bool) ([]quad.Quad, error) {
	var out []quad.Quad
	seen := make(map[quad.Value]bool)
	var queue []quad.Value
	push := func(v quad.Value) {
		if iri, ok := v.(quad.IRI); ok && !seen[iri] && strings.HasPrefix(string(iri), model.Base) &&
			!model.IsCaptionIRI(string(iri)) {
			seen[iri] = true
			queue = append(queue, iri)
		}
	}
	for _, q := range quads {
		push(q.Subject)
		push(q.Object)
	}
	for len(queue) > 0 {
		v := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		qs, err := d.of(ctx, v)
		if err != nil {
			return nil, err
		}
		if len(qs) > 0 {
			all[v] = true
		}
		for _, q := range qs {
			push(q.Object)
		}
		out = append(out, qs...)
	}
	return out, nil
}

// withDomainTypes appends to quads the rdf:type quads that their
// predicates' domains entail ([model.DomainType]).
func withDomainTypes(quads []quad.Quad) []quad.Quad {
	for _, q := range quads {
		if t, ok := model.DomainType(q); ok {
			quads = append(quads, t)
		}
	}
	return quads
}

func sortQuads(qs []quad.Quad) {
	key := func(v quad.Value) string {
		if v == nil {
			return ""
		}
		return v.String()
	}
	slices.SortFunc(qs, func(a, b quad.Quad) int {
		return cmp.Or(
			cmp.Compare(key(a.Subject), key(b.Subject)),
			cmp.Compare(key(a.Predicate), key(b.Predicate)),
			cmp.Compare(key(a.Object), key(b.Object)))
	})
}

// streamNT writes every quad in store order. Each node is read from the
// store and encoded once per 1<<18 distinct nodes met: a quad costs its
// own read and four cache lookups.
func (s *Store) streamNT(ctx context.Context, e *ntEncoder, within *containment) (_ int, err error) {
	if s.pgAddr != "" {
		return s.streamNTPostgres(ctx, e, within)
	}
	isTally, err := s.inTallies()
	if err != nil {
		return 0, err
	}
	if kv := s.bolt.KV(); kv != nil {
		if _, err := kv.Horizon(ctx); err != nil {
			return 0, err
		}
		defer func() {
			if _, herr := kv.Horizon(ctx); err == nil {
				err = herr // the file changed under the walk
			}
		}()
	}
	it := s.qs.QuadsAllIterator().Iterate()
	defer it.Close()
	terms := make(termCache[any], 1<<16)
	dirs := [...]quad.Direction{quad.Subject, quad.Predicate, quad.Object, quad.Label}
	steps := make(map[any]bool, 2) // the keys of the containment predicates
	for _, p := range []quad.Value{model.CapgraphLocatedIn, model.SchemaContainedInPlace} {
		ref, err := s.qs.ValueOf(p)
		if err != nil {
			return 0, err
		}
		if ref != nil {
			steps[ref.Key()] = true
		}
	}
	domains := make(map[any][]byte, 3) // predicate key -> the term of the class its domain gives
	for p, class := range model.DomainTypes {
		ref, err := s.qs.ValueOf(p)
		if err != nil {
			return 0, err
		}
		if ref != nil {
			domains[ref.Key()] = s.term(class)
		}
	}
	rdfType := s.term(model.RDFType)
	n := 0
	for it.Next(ctx) {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return n, err
			}
		}
		if n%(16*releaseEvery) == 0 {
			s.releaseMapped()
		}
		ref := it.Result()
		if tally, err := isTally(ref); err != nil {
			return n, err
		} else if tally { // kept by Load, not stated by captions (tally.go)
			continue
		}
		var line [4][]byte
		step := false    // a containment step, for the containment graph
		var class []byte // the class that the predicate's domain gives the subject
		for i, d := range dirs {
			if d == quad.Label && !e.quads {
				break
			}
			v, err := s.qs.QuadDirection(ref, d)
			if err != nil {
				return n, err
			}
			if v == nil {
				continue
			}
			key := v.Key()
			if d == quad.Predicate {
				step, class = steps[key], domains[key]
			}
			t, ok := terms[key]
			if !ok {
				val, err := s.qs.NameOf(v)
				if err != nil {
					return n, err
				}
				if val == nil {
					if d == quad.Label {
						continue
					}
					return n, fmt.Errorf("quad %v has no %v", ref.Key(), d)
				}
				t = terms.put(key, s.term(val))
			}
			line[i] = t
		}
		if err := e.line(line); err != nil {
			return n, err
		}
		n++
		if class != nil {
			if err := e.line([4][]byte{line[0], rdfType, class, line[3]}); err != nil {
				return n, err
			}
			n++
		}
		if step {
			q, err := s.qs.Quad(ref)
			if err != nil {
				return n, err
			}
			within.add(q)
		}
	}
	return n, it.Err()
}

// streamNTPostgres is streamNT on PostgreSQL: one query that joins the
// quads with their nodes (pgbulk.Quads) instead of Cayley's iterator,
// which reads each node apart.
func (s *Store) streamNTPostgres(ctx context.Context, e *ntEncoder, within *containment) (int, error) {
	terms := make(termCache[quad.Value], 1<<16)
	n := 0
	write := func(q quad.Quad) error {
		var line [4][]byte
		for i, v := range [...]quad.Value{q.Subject, q.Predicate, q.Object, q.Label} {
			if v == nil || i == 3 && !e.quads {
				continue
			}
			t, ok := terms[v]
			if !ok {
				t = terms.put(v, s.term(v))
			}
			line[i] = t
		}
		n++
		return e.line(line)
	}
	for q, err := range pgbulk.Quads(ctx, s.pgAddr) {
		if err != nil {
			return n, err
		}
		if q.Label == talliesGraph { // kept by Load, not stated by captions (tally.go)
			continue
		}
		if err := write(q); err != nil {
			return n, err
		}
		if t, ok := model.DomainType(q); ok {
			if err := write(t); err != nil {
				return n, err
			}
		}
		if q.Predicate == model.CapgraphLocatedIn || q.Predicate == model.SchemaContainedInPlace {
			within.add(q)
		}
	}
	return n, ctx.Err()
}

// A termCache holds the N-Triples terms of the nodes an export met, up to
// 1<<18 of them: a node is encoded once a stretch, not once a quad.
type termCache[K comparable] map[K][]byte

// put adds k's term t, emptying the cache first when it is full, and
// returns t.
func (c termCache[K]) put(k K, t []byte) []byte {
	if len(c) >= 1<<18 {
		clear(c)
	}
	c[k] = t
	return t
}

// term is v's N-Triples term, under the store's base.
func (s *Store) term(v quad.Value) []byte {
	return rdfterm.AppendTerm(nil, s.rebase(v))
}

// containment collects the containment steps that an export meets and
// derives from them the capgraph:within quads of [model.ContainmentGraph].
type containment struct {
	up map[quad.Value][]quad.Value // a place's distinct holders, one step up
}

func (c *containment) add(q quad.Quad) {
	if q.Predicate != model.CapgraphLocatedIn && q.Predicate != model.SchemaContainedInPlace {
		return
	}
	if c.up == nil {
		c.up = make(map[quad.Value][]quad.Value)
	}
	if !slices.Contains(c.up[q.Subject], q.Object) {
		c.up[q.Subject] = append(c.up[q.Subject], q.Object)
	}
}

// quads returns, sorted, a capgraph:within quad from each place to each
// place that holds it within model.WithinSteps steps: the places that
// within() in queries/lib.js finds from the holder, other than itself.
func (c *containment) quads() []quad.Quad {
	var out []quad.Quad
	for place := range c.up {
		seen := map[quad.Value]bool{place: true}
		frontier := []quad.Value{place}
		for range model.WithinSteps {
			var next []quad.Value
			for _, v := range frontier {
				for _, h := range c.up[v] {
					if !seen[h] {
						seen[h] = true
						next = append(next, h)
						out = append(out, quad.Quad{Subject: place, Predicate: model.CapgraphWithin, Object: h, Label: containmentGraph})
					}
				}
			}
			frontier = next
		}
	}
	sortQuads(out)
	return out
}
