package web

import (
	"cmp"
	"context"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/graph/model"
)

// Terms of the model (docs/model.md) that the entity view reads.
const (
	nsSchema = "https://schema.org/"
	nsRDF    = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	nsNIF    = "http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#"
	nsITS    = "http://www.w3.org/2005/11/its/rdf#"
	nsProv   = "http://www.w3.org/ns/prov#"
	nsOWL    = "http://www.w3.org/2002/07/owl#"
	nsXSD    = "http://www.w3.org/2001/XMLSchema#"

	rdfType          = quad.IRI(nsRDF + "type")
	rdfSubject       = quad.IRI(nsRDF + "subject")
	rdfPredicate     = quad.IRI(nsRDF + "predicate")
	rdfObject        = quad.IRI(nsRDF + "object")
	schemaName       = quad.IRI(nsSchema + "name")
	schemaAltName    = quad.IRI(nsSchema + "alternateName")
	schemaRoleName   = quad.IRI(nsSchema + "roleName")
	schemaCaption    = quad.IRI(nsSchema + "caption")
	schemaIdentifier = quad.IRI(nsSchema + "identifier")
	schemaDate       = quad.IRI(nsSchema + "dateCreated")
	schemaGeo        = quad.IRI(nsSchema + "geo")
	schemaLatitude   = quad.IRI(nsSchema + "latitude")
	schemaLongitude  = quad.IRI(nsSchema + "longitude")
	schemaPlace      = quad.IRI(nsSchema + "Place")
	schemaPhoto      = quad.IRI(nsSchema + "Photograph")
	nifBegin         = quad.IRI(nsNIF + "beginIndex")
	nifEnd           = quad.IRI(nsNIF + "endIndex")
	nifAnchor        = quad.IRI(nsNIF + "anchorOf")
	itsIdentRef      = quad.IRI(nsITS + "taIdentRef")
	cgConfidence     = quad.IRI(model.Vocab + "confidence")
	cgContentHash    = quad.IRI(model.Vocab + "contentHash")
	cgArmedGroup     = quad.IRI(model.Vocab + "ArmedGroup")
	xsdDate          = quad.IRI(nsXSD + "date")
)

var (
	photoBase = model.Base + "photo/"
	graphBase = model.Base + "graph/"
)

var prefixes = []struct{ prefix, ns string }{
	{"capgraph", model.Vocab}, {"schema", nsSchema}, {"prov", nsProv}, {"nif", nsNIF},
	{"itsrdf", nsITS}, {"owl", nsOWL}, {"rdf", nsRDF}, {"xsd", nsXSD},
}

// compact writes iri as a prefixed name when a model namespace covers it.
func compact(iri string) string {
	for _, p := range prefixes {
		if rest, ok := strings.CutPrefix(iri, p.ns); ok {
			return p.prefix + ":" + rest
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
func (r *reader) each(ctx context.Context, d quad.Direction, v quad.Value, fn func(quad.Quad) bool) error {
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

// props reads the first value of each wanted predicate of subject s. Entity
// descriptions repeat in every caption graph, so it stops once it has them all.
func (r *reader) props(ctx context.Context, s quad.Value, want ...quad.IRI) (map[quad.IRI]quad.Value, error) {
	out := make(map[quad.IRI]quad.Value, len(want))
	seen := 0
	err := r.each(ctx, quad.Subject, s, func(q quad.Quad) bool {
		p, _ := q.Predicate.(quad.IRI)
		if _, ok := out[p]; ok || !slices.Contains(want, p) {
			return true
		}
		out[p] = q.Object
		seen++
		return seen < len(want)
	})
	return out, err
}

// A Node is a graph node as the API shows it.
type Node struct {
	IRI   string   `json:"iri"`
	Label string   `json:"label"`
	Kind  string   `json:"kind"` // person, place, group, org, agency, event, photographer, photo, other
	Lat   *float64 `json:"lat,omitempty"`
	Lon   *float64 `json:"lon,omitempty"`
}

// A Value is the object of a fact: a node or a literal.
type Value struct {
	IRI     string `json:"iri,omitempty"`
	Label   string `json:"label"`
	Literal bool   `json:"literal,omitempty"`
}

// A Fact is one statement about the entity, merged over the captions that
// state it.
type Fact struct {
	Predicate  string   `json:"predicate"` // prefixed name, e.g. "schema:memberOf"
	Inverse    bool     `json:"inverse"`   // true when the entity is the object
	Value      Value    `json:"value"`
	Captions   []string `json:"captions"`             // ids of the captions whose graphs state it
	Confidence float64  `json:"confidence,omitempty"` // highest over those captions; 0 when unknown
}

// A Mention is one span of a caption that names the entity. Start and End
// are code-point offsets into Text.
type Mention struct {
	Start      int     `json:"start"`
	End        int     `json:"end"`
	Anchor     string  `json:"anchor"`
	Confidence float64 `json:"confidence"`
}

// A Caption is a caption that supports facts about the entity.
type Caption struct {
	ID       string    `json:"id"`
	Photo    string    `json:"photo"`
	Text     string    `json:"text"`
	Date     string    `json:"date,omitempty"`
	Mentions []Mention `json:"mentions"`
}

// A Link is an edge of the neighbourhood graph.
type Link struct {
	Source string `json:"source"`
	Target string `json:"target"`
	Label  string `json:"label"`
}

// Entity is the response of GET /api/entity.
type Entity struct {
	Node
	Names     []string  `json:"names"`
	Facts     []Fact    `json:"facts"`
	Captions  []Caption `json:"captions"`
	Nodes     []Node    `json:"nodes"`
	Links     []Link    `json:"links"`
	Truncated bool      `json:"truncated"` // the view stopped at a size limit
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

// kindOf guesses a node's kind from its IRI, which encodes the entity type.
func kindOf(iri string) string {
	rest, ok := strings.CutPrefix(iri, model.Base)
	if !ok {
		return "other"
	}
	kind, _, _ := strings.Cut(rest, "/")
	switch kind {
	case "person", "place", "group", "org", "agency", "event", "photographer", "photo", "controller":
		return kind
	}
	return "other"
}

// label gives a readable text for a value.
func label(v quad.Value) string {
	switch v := v.(type) {
	case quad.IRI:
		s := string(v)
		if i := strings.LastIndexAny(s, "/#"); i >= 0 && i < len(s)-1 {
			s = s[i+1:]
		}
		if u, err := url.PathUnescape(s); err == nil {
			s = u
		}
		return s
	case quad.String:
		return string(v)
	case quad.TypedString:
		return string(v.Value)
	case quad.LangString:
		return string(v.Value)
	case nil:
		return ""
	}
	return v.String()
}

func number(v quad.Value) (float64, bool) {
	f, err := strconv.ParseFloat(label(v), 64)
	return f, err == nil
}

// Limits of one entity view.
const (
	viewBudget   = 50000 // quads read
	viewCaptions = 50    // captions listed with their text
	viewNodes    = 60    // nodes of the neighbourhood graph
)

// bookkeeping predicates are not shown as facts.
var bookkeeping = map[quad.IRI]bool{
	rdfSubject: true, rdfPredicate: true, rdfObject: true, itsIdentRef: true,
	schemaName: true, rdfType: true, schemaGeo: true,
}

// entity builds the view of one node: its facts merged over caption graphs,
// the captions that support them with the spans that mention the node, and
// its neighbourhood. It returns ok false when the store has no such node.
func entity(ctx context.Context, s *graph.Store, iri string) (e *Entity, ok bool, err error) {
	r := &reader{store: s, budget: viewBudget}
	n := quad.IRI(iri)
	e = &Entity{Node: Node{IRI: iri, Kind: kindOf(iri)}, Names: []string{}, Facts: []Fact{}, Captions: []Caption{}}

	type factKey struct {
		p       quad.IRI
		inverse bool
		v       quad.Value
	}
	facts := map[factKey]*Fact{}
	var order []factKey
	captionSet := map[string]bool{}
	var captionIDs []string
	addCaption := func(g quad.Value) string {
		id, ok := captionID(label2(g))
		if !ok {
			return ""
		}
		if !captionSet[id] {
			captionSet[id] = true
			captionIDs = append(captionIDs, id)
		}
		return id
	}
	addFact := func(k factKey, g quad.Value) {
		f := facts[k]
		if f == nil {
			f = &Fact{Predicate: compact(string(k.p)), Inverse: k.inverse, Value: valueOf(k.v), Captions: []string{}}
			facts[k] = f
			order = append(order, k)
		}
		if id := addCaption(g); id != "" && !slices.Contains(f.Captions, id) {
			f.Captions = append(f.Captions, id)
		}
	}
	isType := func(v quad.Value) {
		switch v {
		case schemaPlace:
			e.Kind = "place"
		case cgArmedGroup:
			e.Kind = "group"
		case schemaPhoto:
			e.Kind = "photo"
		}
	}
	found := false
	var geo quad.Value
	err = r.each(ctx, quad.Subject, n, func(q quad.Quad) bool {
		found = true
		p, _ := q.Predicate.(quad.IRI)
		switch p {
		case schemaName, schemaAltName:
			if s := label(q.Object); !slices.Contains(e.Names, s) {
				e.Names = append(e.Names, s)
			}
		case rdfType:
			isType(q.Object)
			return true
		case schemaGeo:
			geo = q.Object
			return true
		}
		if p == schemaName || p == schemaIdentifier || p == schemaCaption {
			return true
		}
		addFact(factKey{p, false, q.Object}, q.Label)
		return true
	})
	if err != nil {
		return nil, false, err
	}
	var mentions []quad.Value
	type stmt struct {
		node    quad.Value
		inverse bool // the entity is the statement's object
	}
	var stmts []stmt
	err = r.each(ctx, quad.Object, n, func(q quad.Quad) bool {
		found = true
		p, _ := q.Predicate.(quad.IRI)
		switch p {
		case itsIdentRef:
			mentions = append(mentions, q.Subject)
			addCaption(q.Label)
			return true
		case rdfSubject, rdfObject:
			stmts = append(stmts, stmt{q.Subject, p == rdfObject})
			return true
		}
		addFact(factKey{p, true, q.Subject}, q.Label)
		return true
	})
	if err != nil {
		return nil, false, err
	}
	if !found {
		return nil, false, nil
	}
	if len(e.Names) > 0 {
		e.Label = e.Names[0]
	} else {
		e.Label = label(n)
	}
	if geo != nil {
		if p, err := r.props(ctx, geo, schemaLatitude, schemaLongitude); err == nil {
			lat, ok1 := number(p[schemaLatitude])
			lon, ok2 := number(p[schemaLongitude])
			if ok1 && ok2 {
				e.Lat, e.Lon = &lat, &lon
			}
		}
	}
	// Confidence of facts: statement nodes name the entity as rdf:subject
	// or rdf:object. Only the facts already found are scored.
	for _, st := range stmts {
		other := rdfObject
		if st.inverse {
			other = rdfSubject
		}
		p, err := r.props(ctx, st.node, rdfPredicate, other, cgConfidence)
		if err != nil {
			return nil, false, err
		}
		pred, _ := p[rdfPredicate].(quad.IRI)
		if f := facts[factKey{pred, st.inverse, p[other]}]; f != nil {
			if c, ok := number(p[cgConfidence]); ok && c > f.Confidence {
				f.Confidence = c
			}
		}
	}
	for _, k := range order {
		e.Facts = append(e.Facts, *facts[k])
	}
	slices.SortStableFunc(e.Facts, func(a, b Fact) int {
		return cmp.Or(cmp.Compare(len(b.Captions), len(a.Captions)), strings.Compare(a.Predicate, b.Predicate))
	})

	// Captions and the spans that mention the entity.
	spans := map[string][]Mention{}
	for _, m := range mentions {
		id, ok := captionID(label2(m))
		if !ok {
			continue
		}
		if _, ok := spans[id]; !ok && len(spans) >= viewCaptions {
			e.Truncated = true
			continue
		}
		p, err := r.props(ctx, m, nifBegin, nifEnd, nifAnchor, cgConfidence)
		if err != nil {
			return nil, false, err
		}
		b, ok1 := number(p[nifBegin])
		en, ok2 := number(p[nifEnd])
		if !ok1 || !ok2 {
			continue
		}
		c, _ := number(p[cgConfidence])
		spans[id] = append(spans[id], Mention{Start: int(b), End: int(en), Anchor: label(p[nifAnchor]), Confidence: c})
	}
	if e.Kind == "photo" {
		if id, ok := captionID(iri); ok {
			captionIDs = append([]string{id}, captionIDs...)
		}
	}
	seen := map[string]bool{}
	for _, id := range captionIDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		if len(e.Captions) >= viewCaptions {
			e.Truncated = true
			break
		}
		photo := quad.IRI(photoBase + url.PathEscape(id))
		p, err := r.props(ctx, photo, schemaCaption, schemaDate)
		if err != nil {
			return nil, false, err
		}
		c := Caption{ID: id, Photo: string(photo), Text: label(p[schemaCaption]), Date: label(p[schemaDate]), Mentions: spans[id]}
		if c.Mentions == nil {
			c.Mentions = []Mention{}
		}
		slices.SortFunc(c.Mentions, func(a, b Mention) int { return cmp.Compare(a.Start, b.Start) })
		e.Captions = append(e.Captions, c)
	}
	slices.SortStableFunc(e.Captions, func(a, b Caption) int { return strings.Compare(b.Date, a.Date) })

	if err := neighbourhood(ctx, r, e); err != nil {
		return nil, false, err
	}
	e.Truncated = e.Truncated || r.truncated
	return e, true, nil
}

func label2(v quad.Value) string {
	if iri, ok := v.(quad.IRI); ok {
		return string(iri)
	}
	return ""
}

func valueOf(v quad.Value) Value {
	if iri, ok := v.(quad.IRI); ok {
		return Value{IRI: string(iri), Label: label(v)}
	}
	return Value{Label: label(v), Literal: true}
}

// neighbourhood fills e.Nodes and e.Links: the entity, the nodes its facts
// name, and the photos that support them with what else those photos show.
func neighbourhood(ctx context.Context, r *reader, e *Entity) error {
	nodes := map[string]int{}
	add := func(iri string) bool {
		if _, ok := nodes[iri]; ok {
			return true
		}
		if len(e.Nodes) >= viewNodes {
			e.Truncated = true
			return false
		}
		nodes[iri] = len(e.Nodes)
		e.Nodes = append(e.Nodes, Node{IRI: iri, Label: label(quad.IRI(iri)), Kind: kindOf(iri)})
		return true
	}
	links := map[[2]string]bool{}
	link := func(l Link) {
		if k := [2]string{l.Source, l.Target}; !links[k] {
			links[k] = true
			e.Links = append(e.Links, l)
		}
	}
	add(e.IRI)
	e.Nodes[0].Label, e.Nodes[0].Kind, e.Nodes[0].Lat, e.Nodes[0].Lon = e.Label, e.Kind, e.Lat, e.Lon
	for _, f := range e.Facts {
		if f.Value.IRI == "" || strings.Contains(f.Value.IRI, "#") {
			continue // literals, role and statement nodes
		}
		if !add(f.Value.IRI) {
			break
		}
		l := Link{Source: e.IRI, Target: f.Value.IRI, Label: f.Predicate}
		if f.Inverse {
			l.Source, l.Target = l.Target, l.Source
		}
		link(l)
	}
	// Photos of the captions shown, and what they show besides the entity.
	photos := 0
	for _, c := range e.Captions {
		if photos >= 12 {
			break
		}
		if c.Photo != e.IRI {
			if !add(c.Photo) {
				break
			}
			link(Link{Source: c.Photo, Target: e.IRI, Label: "mentions"})
		}
		photos++
		err := r.each(ctx, quad.Subject, quad.IRI(c.Photo), func(q quad.Quad) bool {
			o, ok := q.Object.(quad.IRI)
			p, _ := q.Predicate.(quad.IRI)
			if !ok || string(o) == e.IRI || bookkeeping[p] {
				return true
			}
			if add(string(o)) {
				link(Link{Source: c.Photo, Target: string(o), Label: compact(string(p))})
			}
			return true
		})
		if err != nil {
			return err
		}
	}
	// Names and coordinates of the nodes.
	for i := 1; i < len(e.Nodes); i++ {
		nd := &e.Nodes[i]
		if nd.Kind == "photo" {
			continue
		}
		p, err := r.props(ctx, quad.IRI(nd.IRI), schemaName, schemaGeo)
		if err != nil {
			return err
		}
		if s := label(p[schemaName]); s != "" {
			nd.Label = s
		}
		if geo := p[schemaGeo]; geo != nil {
			g, err := r.props(ctx, geo, schemaLatitude, schemaLongitude)
			if err != nil {
				return err
			}
			lat, ok1 := number(g[schemaLatitude])
			lon, ok2 := number(g[schemaLongitude])
			if ok1 && ok2 {
				nd.Lat, nd.Lon = &lat, &lon
			}
		}
	}
	if e.Links == nil {
		e.Links = []Link{}
	}
	for i := range e.Facts { // labels of fact values, from the nodes just named
		v := &e.Facts[i].Value
		if j, ok := nodes[v.IRI]; ok {
			v.Label = e.Nodes[j].Label
		} else if strings.Contains(v.IRI, "#role") {
			p, err := r.props(ctx, quad.IRI(v.IRI), schemaRoleName)
			if err != nil {
				return err
			}
			if s := label(p[schemaRoleName]); s != "" {
				v.Label = s + " (role)"
			}
		}
	}
	return nil
}
