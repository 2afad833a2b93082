package graph

import (
	"github.com/cayleygraph/quad"
)

// A Term is a node of the graph as [Store.Quads] and [Store.Nodes] read
// it: an IRI, a literal or a blank node. Terms are comparable, so they can
// key a map; the zero Term is no term.
type Term struct {
	Kind     TermKind
	Value    string // the IRI, the literal's lexical form or the blank node's label
	Datatype string // a typed literal's datatype IRI; empty for a plain or language-tagged one
	Lang     string // a language-tagged literal's tag
}

// A TermKind says what a [Term] is.
type TermKind uint8

const (
	NoTerm TermKind = iota
	IRITerm
	LiteralTerm
	BlankTerm
)

// IRI returns the term of an IRI.
func IRI(iri string) Term { return Term{Kind: IRITerm, Value: iri} }

// Literal returns the term of a plain literal.
func Literal(s string) Term { return Term{Kind: LiteralTerm, Value: s} }

// IsIRI reports whether t is an IRI.
func (t Term) IsIRI() bool { return t.Kind == IRITerm }

// A Quad is a statement of the store: subject, predicate and object, in
// the named graph Graph (the zero Term for none).
type Quad struct {
	Subject, Predicate, Object, Graph Term
}

// A Direction is a position in a [Quad].
type Direction uint8

const (
	Subject Direction = iota + 1
	Predicate
	Object
	Graph
)

var directions = map[Direction]quad.Direction{
	Subject: quad.Subject, Predicate: quad.Predicate, Object: quad.Object, Graph: quad.Label,
}

// termOf is v as a Term. Cayley's native values (numbers, booleans,
// times) are typed literals.
func termOf(v quad.Value) Term {
	switch v := v.(type) {
	case nil:
		return Term{}
	case quad.IRI:
		return IRI(string(v))
	case quad.BNode:
		return Term{Kind: BlankTerm, Value: string(v)}
	case quad.String:
		return Term{Kind: LiteralTerm, Value: string(v)}
	case quad.TypedString:
		return Term{Kind: LiteralTerm, Value: string(v.Value), Datatype: string(v.Type)}
	case quad.LangString:
		return Term{Kind: LiteralTerm, Value: string(v.Value), Lang: v.Lang}
	case quad.TypedStringer:
		ts := v.TypedString()
		return Term{Kind: LiteralTerm, Value: string(ts.Value), Datatype: string(ts.Type)}
	}
	return Term{Kind: LiteralTerm, Value: quad.StringOf(v)}
}

// String returns t in N-Triples syntax: <iri>, "literal"^^<type>,
// "literal"@lang or _:label.
func (t Term) String() string {
	if v := t.value(); v != nil {
		return v.String()
	}
	return ""
}

// value is t as Cayley's value.
func (t Term) value() quad.Value {
	switch t.Kind {
	case IRITerm:
		return quad.IRI(t.Value)
	case BlankTerm:
		return quad.BNode(t.Value)
	case LiteralTerm:
		switch {
		case t.Datatype != "":
			return quad.TypedString{Value: quad.String(t.Value), Type: quad.IRI(t.Datatype)}
		case t.Lang != "":
			return quad.LangString{Value: quad.String(t.Value), Lang: t.Lang}
		}
		return quad.String(t.Value)
	}
	return nil
}

func quadOf(q quad.Quad) Quad {
	return Quad{Subject: termOf(q.Subject), Predicate: termOf(q.Predicate), Object: termOf(q.Object), Graph: termOf(q.Label)}
}
