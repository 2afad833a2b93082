package graph

import (
	"bufio"
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/graph/internal/rdfterm"
	"github.com/capgraph/capgraph/graph/model"
)

// An encoder writes an export in one format: begin, each named graph
// with its quads, then end.
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

// line writes one line of the terms given, the nil ones left out.
func (e *ntEncoder) line(terms [4][]byte) error {
	b := e.buf[:0]
	for _, t := range terms {
		if t == nil {
			continue
		}
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = append(b, t...)
	}
	b = append(b, " .\n"...)
	e.buf = b
	_, err := e.w.Write(b)
	return err
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
