package graph

import (
	"bufio"
	"cmp"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"slices"
	"strings"

	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/graph/internal/boltkv"
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
	var enc encoder
	switch format {
	case NQuads:
		enc = &ntEncoder{w: bw, quads: true}
	case NTriples:
		enc = &ntEncoder{w: bw}
	case Turtle:
		enc = &ttlEncoder{w: bw}
	case JSONLD:
		enc = &jsonldEncoder{w: bw}
	case CSV:
		enc = &csvEncoder{w: csv.NewWriter(bw)}
	default:
		return 0, fmt.Errorf("graph: export: unknown format %q", format)
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
	enc = rebasing{enc, s}
	n := 0
	var within *containment // the CSV view has no graphs, so no containment graph
	if format != CSV {
		within = new(containment)
	}
	err = enc.begin()
	for g, err2 := range s.graphs(ctx, format == CSV) {
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

// graphs yields every caption graph with its quads sorted by subject,
// predicate and object, in the order of the store's index of photos, then
// the entities graph with the descriptions of every entity the captions
// name. With inline set, each caption graph also carries the descriptions
// of the entities it names (for the CSV view), and the entities graph is
// not yielded.
func (s *Store) graphs(ctx context.Context, inline bool) iter.Seq2[namedGraph, error] {
	return func(yield func(namedGraph, error) bool) {
		ref, err := s.qs.ValueOf(model.SchemaPhotograph)
		if err != nil || ref == nil {
			if err != nil {
				yield(namedGraph{}, err)
			}
			return
		}
		d := &describer{s: s, cache: make(map[quad.Value][]quad.Quad)}
		all := make(map[quad.Value]bool) // every described node met
		graphs := 0
		sc := s.qs.QuadIterator(quad.Object, ref).Iterate()
		defer sc.Close()
		for sc.Next(ctx) {
			// The kv iterators do not watch ctx: an interrupted export of
			// a large store would otherwise run to its end.
			if err := ctx.Err(); err != nil {
				yield(namedGraph{}, err)
				return
			}
			q, err := s.qs.Quad(sc.Result())
			if err != nil {
				yield(namedGraph{}, err)
				return
			}
			photo, ok := q.Subject.(quad.IRI)
			graphOf, isPhoto := model.GraphOfPhoto(string(photo))
			if !ok || !isPhoto || q.Predicate != model.RDFType {
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
			}
			if graphs++; graphs%releaseEvery == 0 {
				s.releaseMapped()
			}
			sortQuads(quads)
			if !yield(namedGraph{g, quads}, nil) {
				return
			}
		}
		if err := sc.Err(); err != nil {
			yield(namedGraph{}, err)
			return
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

type encoder interface {
	begin() error
	graph(g quad.IRI, quads []quad.Quad) (int, error)
	end() error
}

// ntEncoder writes N-Quads, or N-Triples when quads is false.
type ntEncoder struct {
	w     *bufio.Writer
	quads bool
	buf   []byte
}

func (e *ntEncoder) begin() error { return nil }
func (e *ntEncoder) end() error   { return nil }

func (e *ntEncoder) graph(g quad.IRI, quads []quad.Quad) (int, error) {
	for _, q := range quads {
		b := e.buf[:0]
		b = rdfterm.AppendTerm(b, q.Subject)
		b = append(b, ' ')
		b = rdfterm.AppendTerm(b, q.Predicate)
		b = append(b, ' ')
		b = rdfterm.AppendTerm(b, q.Object)
		if e.quads && q.Label != nil {
			b = append(b, ' ')
			b = rdfterm.AppendTerm(b, q.Label)
		}
		b = append(b, " .\n"...)
		e.buf = b
		if _, err := e.w.Write(b); err != nil {
			return 0, err
		}
	}
	return len(quads), nil
}

// ttlEncoder writes Turtle: a prefix header, then each graph's triples
// grouped by subject.
type ttlEncoder struct {
	w   *bufio.Writer
	buf []byte
}

func (e *ttlEncoder) begin() error {
	for _, p := range model.Prefixes {
		if _, err := fmt.Fprintf(e.w, "@prefix %s: <%s> .\n", p.Prefix, p.IRI); err != nil {
			return err
		}
	}
	return nil
}

func (e *ttlEncoder) end() error { return nil }

func (e *ttlEncoder) graph(g quad.IRI, quads []quad.Quad) (int, error) {
	b := append(e.buf[:0], "\n# graph "...)
	b = rdfterm.AppendIRI(b, string(g))
	e.buf = append(b, '\n')
	return e.triples(quads)
}

// triples writes quads, sorted by subject, as Turtle triples.
func (e *ttlEncoder) triples(quads []quad.Quad) (int, error) {
	b := e.buf
	for i, q := range quads {
		switch {
		case i > 0 && q.Subject == quads[i-1].Subject && q.Predicate == quads[i-1].Predicate:
			b = append(b, " ,\n        "...)
		case i > 0 && q.Subject == quads[i-1].Subject:
			b = append(b, " ;\n    "...)
			b = appendPredicate(b, q.Predicate)
			b = append(b, ' ')
		default:
			if i > 0 {
				b = append(b, " .\n"...)
			}
			b = rdfterm.AppendTurtle(b, q.Subject)
			b = append(b, "\n    "...)
			b = appendPredicate(b, q.Predicate)
			b = append(b, ' ')
		}
		b = rdfterm.AppendTurtle(b, q.Object)
	}
	if len(quads) > 0 {
		b = append(b, " .\n"...)
	}
	e.buf = b
	_, err := e.w.Write(b)
	return len(quads), err
}

func appendPredicate(b []byte, p quad.Value) []byte {
	if p == model.RDFType {
		return append(b, 'a')
	}
	return rdfterm.AppendTurtle(b, p)
}

// jsonldEncoder writes one JSON-LD document: an embedded context and a
// top-level @graph holding one named graph object per caption.
type jsonldEncoder struct {
	w     *bufio.Writer
	first bool
}

// jsonldContext is the embedded context, so that nothing is fetched: the
// prefixes, and a term for each property and class of the model.
func jsonldContext() map[string]any {
	m := make(map[string]any, len(model.Prefixes)+len(model.JSONLDTerms))
	for _, p := range model.Prefixes {
		m[p.Prefix] = p.IRI
	}
	for _, t := range model.JSONLDTerms {
		if t.Type == "" {
			m[t.Term] = jsonldKey(t.IRI)
		} else {
			typ := string(t.Type)
			if t.Type != "@id" {
				typ = jsonldKey(t.Type)
			}
			m[t.Term] = map[string]string{"@id": jsonldKey(t.IRI), "@type": typ}
		}
	}
	return m
}

// jsonldTerms indexes the model's terms by IRI.
var jsonldTerms = func() map[quad.IRI]model.JSONLDTerm {
	m := make(map[quad.IRI]model.JSONLDTerm, len(model.JSONLDTerms))
	for _, t := range model.JSONLDTerms {
		m[t.IRI] = t
	}
	return m
}()

// jsonldTermValue returns v as term t writes it: a plain string when t's
// type says what v is, else as jsonldValue does.
func jsonldTermValue(t model.JSONLDTerm, v quad.Value) any {
	switch v := v.(type) {
	case quad.IRI:
		if t.Type == "@id" {
			return string(v)
		}
	case quad.String:
		if t.Type == "" {
			return string(v)
		}
	case quad.TypedString:
		if t.Type == v.Type {
			return string(v.Value)
		}
	}
	return jsonldValue(v)
}

func (e *jsonldEncoder) begin() error {
	ctx, err := json.Marshal(jsonldContext())
	if err != nil {
		return err
	}
	e.first = true
	_, err = fmt.Fprintf(e.w, "{\n\"@context\": %s,\n\"@graph\": [", ctx)
	return err
}

func (e *jsonldEncoder) end() error {
	_, err := e.w.WriteString("\n]}\n")
	return err
}

func jsonldKey(iri quad.Value) string {
	s := string(iri.(quad.IRI))
	if c, ok := rdfterm.Compact(s); ok {
		return c
	}
	return s
}

func jsonldValue(v quad.Value) any {
	switch v := v.(type) {
	case quad.IRI:
		return map[string]string{"@id": string(v)}
	case quad.BNode:
		return map[string]string{"@id": string(rdfterm.AppendBNode(nil, string(v)))}
	}
	lex, dt, lang := rdfterm.Literal(v)
	switch {
	case lang != "":
		return map[string]string{"@value": lex, "@language": lang}
	case dt != "":
		return map[string]string{"@value": lex, "@type": jsonldKey(dt)}
	}
	return map[string]string{"@value": lex}
}

func (e *jsonldEncoder) graph(g quad.IRI, quads []quad.Quad) (int, error) {
	b, err := json.Marshal(map[string]any{"@id": string(g), "@graph": jsonldNodes(quads)})
	if err != nil {
		return 0, err
	}
	sep := ",\n"
	if e.first {
		sep, e.first = "\n", false
	}
	if _, err := e.w.WriteString(sep); err != nil {
		return 0, err
	}
	_, err = e.w.Write(b)
	return len(quads), err
}

// document writes quads, sorted by subject, as one JSON-LD document
// without named graphs.
func (e *jsonldEncoder) document(quads []quad.Quad) (int, error) {
	b, err := json.Marshal(map[string]any{"@context": jsonldContext(), "@graph": jsonldNodes(quads)})
	if err != nil {
		return 0, err
	}
	b = append(b, '\n')
	_, err = e.w.Write(b)
	return len(quads), err
}

// jsonldNodes returns quads, sorted by subject, as JSON-LD node objects.
func jsonldNodes(quads []quad.Quad) []map[string]any {
	var nodes []map[string]any
	var cur map[string]any
	var curSubj quad.Value
	for _, q := range quads {
		if cur == nil || q.Subject != curSubj {
			id := ""
			switch s := q.Subject.(type) {
			case quad.IRI:
				id = string(s)
			case quad.BNode:
				id = string(rdfterm.AppendBNode(nil, string(s)))
			default:
				continue // a literal subject cannot be written
			}
			cur = map[string]any{"@id": id}
			curSubj = q.Subject
			nodes = append(nodes, cur)
		}
		if q.Predicate == model.RDFType {
			if t, ok := q.Object.(quad.IRI); ok {
				name := jsonldKey(t)
				if term, ok := jsonldTerms[t]; ok {
					name = term.Term
				}
				types, _ := cur["@type"].([]string)
				cur["@type"] = append(types, name)
				continue
			}
		}
		p, ok := q.Predicate.(quad.IRI)
		if !ok {
			continue
		}
		k, v := jsonldKey(p), jsonldValue(q.Object)
		if term, ok := jsonldTerms[p]; ok {
			k, v = term.Term, jsonldTermValue(term, q.Object)
		}
		// One value as itself, several as an array.
		switch old := cur[k].(type) {
		case nil:
			cur[k] = v
		case []any:
			cur[k] = append(old, v)
		default:
			cur[k] = []any{old, v}
		}
	}
	return nodes
}

// CSVHeader is the header row of the CSV events view.
var CSVHeader = []string{"photo", "date", "precision", "place", "admin1", "admin2", "country",
	"latitude", "longitude", "geo_precision", "armed_groups", "people", "photographer", "agency", "caption_id"}

// csvEncoder writes the events view: one row per photo and depicted place.
type csvEncoder struct{ w *csv.Writer }

func (e *csvEncoder) begin() error { return e.w.Write(CSVHeader) }
func (e *csvEncoder) end() error   { e.w.Flush(); return e.w.Error() }

func (e *csvEncoder) graph(g quad.IRI, quads []quad.Quad) (int, error) {
	props := make(map[quad.Value]map[quad.IRI][]quad.Value)
	for _, q := range quads {
		p, ok := q.Predicate.(quad.IRI)
		if !ok {
			continue
		}
		m := props[q.Subject]
		if m == nil {
			m = make(map[quad.IRI][]quad.Value)
			props[q.Subject] = m
		}
		m[p] = append(m[p], q.Object)
	}
	one := func(s quad.Value, p quad.IRI) quad.Value {
		if vs := props[s][p]; len(vs) > 0 {
			return vs[0]
		}
		return nil
	}
	lex := func(v quad.Value) string {
		if v == nil {
			return ""
		}
		if _, ok := v.(quad.IRI); ok {
			return string(v.(quad.IRI))
		}
		l, _, _ := rdfterm.Literal(v)
		return l
	}
	name := func(v quad.Value) string { return lex(one(v, model.SchemaName)) }
	photo := one(g, model.ProvWasDerivedFrom)
	if photo == nil {
		return 0, nil
	}
	hasType := func(v quad.Value, t quad.IRI) bool { return slices.Contains(props[v][model.RDFType], quad.Value(t)) }
	names := func(pred func(quad.Value) bool) string {
		var out []string
		for s := range props {
			if pred(s) {
				if n := name(s); n != "" && !slices.Contains(out, n) {
					out = append(out, n)
				}
			}
		}
		slices.Sort(out)
		return strings.Join(out, "; ")
	}
	creators := props[photo][model.SchemaCreator]
	groups := names(func(s quad.Value) bool { return hasType(s, model.CapgraphArmedGroup) })
	people := names(func(s quad.Value) bool { return hasType(s, model.SchemaPerson) && !slices.Contains(creators, s) })
	var photographer, agency []string
	for _, c := range creators {
		photographer = append(photographer, name(c))
	}
	for _, a := range props[photo][model.SchemaSourceOrg] {
		agency = append(agency, name(a))
	}
	base := []string{string(photo.(quad.IRI)), lex(one(photo, model.SchemaDateCreated)), lex(one(photo, model.CapgraphDatePrecision))}
	tail := []string{groups, people, strings.Join(photographer, "; "), strings.Join(agency, "; "), lex(one(photo, model.SchemaIdentifier))}
	places := props[photo][model.SchemaContentLocation]
	slices.SortFunc(places, func(a, b quad.Value) int { return cmp.Compare(a.String(), b.String()) })
	if len(places) == 0 {
		places = []quad.Value{nil}
	}
	for _, pl := range places {
		var chain []string // widest first
		for p, seen := one(pl, model.SchemaContainedInPlace), 0; p != nil && seen < 8; p, seen = one(p, model.SchemaContainedInPlace), seen+1 {
			chain = append([]string{name(p)}, chain...)
		}
		at := func(i int) string {
			if i < len(chain) {
				return chain[i]
			}
			return ""
		}
		geo := one(pl, model.SchemaGeo)
		row := append(slices.Clone(base), name(pl), at(1), at(2), at(0),
			lex(one(geo, model.SchemaLatitude)), lex(one(geo, model.SchemaLongitude)), lex(one(geo, model.CapgraphGeoPrecision)))
		row = append(row, tail...)
		if pl == nil {
			row[3] = ""
		}
		if err := e.w.Write(row); err != nil {
			return 0, err
		}
	}
	return len(places), nil
}

// streamNT writes every quad in store order. Each node is read from the
// store and encoded once per 1<<18 distinct nodes met: a quad costs its
// own read and four cache lookups.
func (s *Store) streamNT(ctx context.Context, e *ntEncoder, within *containment) (_ int, err error) {
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
	terms := make(map[any][]byte, 1<<16)
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
		b := e.buf[:0]
		step := false // a containment step, for the containment graph
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
				step = steps[key]
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
				t = rdfterm.AppendTerm(nil, s.rebase(val))
				if len(terms) >= 1<<18 {
					clear(terms)
				}
				terms[key] = t
			}
			if i > 0 {
				b = append(b, ' ')
			}
			b = append(b, t...)
		}
		b = append(b, " .\n"...)
		e.buf = b
		if _, err := e.w.Write(b); err != nil {
			return n, err
		}
		n++
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
