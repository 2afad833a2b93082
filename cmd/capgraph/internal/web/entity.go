package web

import (
	"cmp"
	"context"
	"net/url"
	"slices"
	"strings"

	"github.com/capgraph/capgraph/cmd/capgraph/internal/web/internal/photoindex"
	"github.com/capgraph/capgraph/graph"
)

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
	Credit   string    `json:"credit,omitempty"`
	Mentions []Mention `json:"mentions"`
	// Entities are what the photo is linked to (research lists only).
	Entities []photoindex.Entity `json:"entities,omitempty"`
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

// Limits of one entity view.
const (
	viewBudget   = 50000 // quads read
	viewCaptions = 50    // captions listed with their text
	viewNodes    = 60    // nodes of the neighbourhood graph
)

// bookkeeping predicates are not shown as facts.
var bookkeeping = map[graph.Term]bool{
	rdfSubject: true, rdfPredicate: true, rdfObject: true, itsIdentRef: true,
	schemaName: true, rdfType: true, schemaGeo: true,
}

// entity builds the view of one node: its facts merged over caption graphs,
// the captions that support them with the spans that mention the node, and
// its neighbourhood. It returns ok false when the store has no such node.
func entity(ctx context.Context, s *graph.Store, iri string) (e *Entity, ok bool, err error) {
	r := &reader{store: s, budget: viewBudget}
	n := graph.IRI(iri)
	e = &Entity{Node: Node{IRI: iri, Kind: photoindex.Kind(iri)}, Names: []string{}, Facts: []Fact{}, Captions: []Caption{}}

	type factKey struct {
		p       graph.Term
		inverse bool
		v       graph.Term
	}
	facts := map[factKey]*Fact{}
	var order []factKey
	captionSet := map[string]bool{}
	var captionIDs []string
	addCaption := func(g graph.Term) string {
		id, ok := captionID(iriOf(g))
		if !ok {
			return ""
		}
		if !captionSet[id] {
			captionSet[id] = true
			captionIDs = append(captionIDs, id)
		}
		return id
	}
	addFact := func(k factKey, g graph.Term) {
		f := facts[k]
		if f == nil {
			f = &Fact{Predicate: compact(k.p.Value), Inverse: k.inverse, Value: valueOf(k.v), Captions: []string{}}
			facts[k] = f
			order = append(order, k)
		}
		if id := addCaption(g); id != "" && !slices.Contains(f.Captions, id) {
			f.Captions = append(f.Captions, id)
		}
	}
	isType := func(v graph.Term) {
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
	var geo graph.Term
	err = r.each(ctx, graph.Subject, n, func(q graph.Quad) bool {
		found = true
		p := q.Predicate
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
		addFact(factKey{p, false, q.Object}, q.Graph)
		return true
	})
	if err != nil {
		return nil, false, err
	}
	var mentions []graph.Term
	type stmt struct {
		node    graph.Term
		inverse bool // the entity is the statement's object
	}
	var stmts []stmt
	err = r.each(ctx, graph.Object, n, func(q graph.Quad) bool {
		found = true
		p := q.Predicate
		switch p {
		case itsIdentRef:
			mentions = append(mentions, q.Subject)
			addCaption(q.Graph)
			return true
		case rdfSubject, rdfObject:
			stmts = append(stmts, stmt{q.Subject, p == rdfObject})
			return true
		}
		addFact(factKey{p, true, q.Subject}, q.Graph)
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
	if geo != (graph.Term{}) {
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
		pred := p[rdfPredicate]
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
		id, ok := captionID(iriOf(m))
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
		photo := graph.IRI(photoBase + url.PathEscape(id))
		p, err := r.props(ctx, photo, schemaCaption, schemaDate)
		if err != nil {
			return nil, false, err
		}
		c := Caption{ID: id, Photo: photo.Value, Text: label(p[schemaCaption]), Date: label(p[schemaDate]), Mentions: spans[id]}
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
		e.Nodes = append(e.Nodes, Node{IRI: iri, Label: label(graph.IRI(iri)), Kind: photoindex.Kind(iri)})
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
		err := r.each(ctx, graph.Subject, graph.IRI(c.Photo), func(q graph.Quad) bool {
			o, p := q.Object, q.Predicate
			if !o.IsIRI() || o.Value == e.IRI || bookkeeping[p] {
				return true
			}
			if add(o.Value) {
				link(Link{Source: c.Photo, Target: o.Value, Label: compact(p.Value)})
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
		p, err := r.props(ctx, graph.IRI(nd.IRI), schemaName, schemaGeo)
		if err != nil {
			return err
		}
		if s := label(p[schemaName]); s != "" {
			nd.Label = s
		}
		if geo, ok := p[schemaGeo]; ok {
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
			p, err := r.props(ctx, graph.IRI(v.IRI), schemaRoleName)
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
