package web

import (
	"context"
	"net/url"
	"strconv"
	"strings"

	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/graph/model"
)

// Terms of the model (docs/model.md) that the entity view reads.
var (
	rdfType          = term(model.RDFType)
	rdfSubject       = term(model.RDFSubject)
	rdfPredicate     = term(model.RDFPredicate)
	rdfObject        = term(model.RDFObject)
	schemaName       = term(model.SchemaName)
	schemaAltName    = term(model.SchemaAlternateName)
	schemaRoleName   = term(model.SchemaRoleName)
	schemaCaption    = term(model.SchemaCaption)
	schemaCreditText = term(model.SchemaCreditText)
	schemaIdentifier = term(model.SchemaIdentifier)
	schemaDate       = term(model.SchemaDateCreated)
	schemaGeo        = term(model.SchemaGeo)
	schemaLatitude   = term(model.SchemaLatitude)
	schemaLongitude  = term(model.SchemaLongitude)
	schemaPlace      = term(model.SchemaPlace)
	schemaPhoto      = term(model.SchemaPhotograph)
	nifBegin         = term(model.NIFBeginIndex)
	nifEnd           = term(model.NIFEndIndex)
	nifAnchor        = term(model.NIFAnchorOf)
	itsIdentRef      = term(model.ITSTaIdentRef)
	cgConfidence     = term(model.CapgraphConfidence)
	cgArmedGroup     = term(model.CapgraphArmedGroup)
)

// term is a model IRI as the store's reads give it.
func term[S ~string](iri S) graph.Term { return graph.IRI(string(iri)) }

var (
	photoBase = model.Base + "photo/"
	graphBase = model.Base + "graph/"
)

// compact writes iri as a prefixed name when a model namespace covers it.
func compact(iri string) string {
	for _, p := range model.Prefixes {
		if rest, ok := strings.CutPrefix(iri, p.IRI); ok {
			return p.Prefix + ":" + rest
		}
	}
	return iri
}

// reader reads quads around one node, spending at most budget quads per
// request so that a node named in every caption cannot stall the server.
type reader struct {
	store     *graph.Store
	budget    int
	truncated bool
}

// each calls fn for every quad that has v in direction d, until fn returns
// false or the budget runs out.
func (r *reader) each(ctx context.Context, d graph.Direction, v graph.Term, fn func(graph.Quad) bool) error {
	for q, err := range r.store.Quads(ctx, d, v) {
		if err != nil {
			return err
		}
		if r.budget <= 0 {
			r.truncated = true
			return nil
		}
		r.budget--
		if !fn(q) {
			return nil
		}
	}
	return ctx.Err()
}

// props reads the first value of each wanted predicate of subject s,
// reading no other quad's values ([graph.Store.Out]). Entity descriptions
// repeat in every caption graph, so it stops once it has them all.
func (r *reader) props(ctx context.Context, s graph.Term, want ...graph.Term) (map[graph.Term]graph.Term, error) {
	out := make(map[graph.Term]graph.Term, len(want))
	if r.budget <= 0 { // spent: reading on would find nothing it may keep
		r.truncated = true
		return out, ctx.Err()
	}
	for q, err := range r.store.Out(ctx, s, want...) {
		if err != nil {
			return nil, err
		}
		if r.budget <= 0 {
			r.truncated = true
			break
		}
		r.budget--
		if _, ok := out[q.Predicate]; !ok {
			out[q.Predicate] = q.Object
		}
		if len(out) == len(want) {
			break
		}
	}
	return out, ctx.Err()
}

// A Node is a graph node as the API shows it.
type Node struct {
	IRI   string   `json:"iri"`
	Label string   `json:"label"`
	Kind  string   `json:"kind"` // person, place, group, org, agency, event, photographer, photo, other
	Lat   *float64 `json:"lat,omitempty"`
	Lon   *float64 `json:"lon,omitempty"`
	// Photos is, in a filtered list of places, how many of the photos
	// kept are linked to the place.
	Photos int `json:"photos,omitempty"`
}

// A Value is the object of a fact: a node or a literal.
type Value struct {
	IRI     string `json:"iri,omitempty"`
	Label   string `json:"label"`
	Literal bool   `json:"literal,omitempty"`
}

// captionID returns the caption id of a caption graph or photo IRI.
func captionID(iri string) (string, bool) {
	for _, base := range []string{graphBase, photoBase} {
		if seg, ok := strings.CutPrefix(iri, base); ok {
			seg, _, _ = strings.Cut(seg, "#")
			if id, err := url.PathUnescape(seg); err == nil {
				return id, true
			}
			return seg, true
		}
	}
	return "", false
}

// label gives a readable text for a term: a literal's lexical form, an
// IRI's last segment.
func label(t graph.Term) string {
	s := t.Value
	if t.IsIRI() {
		if i := strings.LastIndexAny(s, "/#"); i >= 0 && i < len(s)-1 {
			s = s[i+1:]
		}
		if u, err := url.PathUnescape(s); err == nil {
			s = u
		}
	}
	return s
}

func number(v graph.Term) (float64, bool) {
	f, err := strconv.ParseFloat(label(v), 64)
	return f, err == nil
}

// iriOf returns t's IRI, or "" when t is not one.
func iriOf(t graph.Term) string {
	if t.IsIRI() {
		return t.Value
	}
	return ""
}

func valueOf(v graph.Term) Value {
	if v.IsIRI() {
		return Value{IRI: v.Value, Label: label(v)}
	}
	return Value{Label: label(v), Literal: true}
}
