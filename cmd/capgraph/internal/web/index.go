package web

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/capgraph/capgraph/cmd/capgraph/internal/web/internal/photoindex"
	"github.com/capgraph/capgraph/extract/gazetteer"
	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/graph/model"
)

// index holds what the server reads once from the store: the short
// literals that search matches, places with coordinates, photo counts by
// date and the store's statistics.
type index struct {
	names  []name
	places []Node
	dates  []DateCount
	stats  graph.Stats
}

type name struct {
	value      string
	fold, key  string
	foldLength int
}

// A DateCount is the number of photos taken on one date.
type DateCount struct {
	Date  string `json:"date"` // xsd:date, gYearMonth or gYear lexical form
	Count int    `json:"count"`
}

const maxNameRunes = 80

// buildIndex scans every node of the store once.
func buildIndex(ctx context.Context, s *graph.Store) (*index, error) {
	ix := &index{}
	st, err := s.Stats(ctx)
	if err != nil {
		return nil, err
	}
	ix.stats = st
	var geos []graph.Term
	for v, err := range s.Nodes(ctx) {
		if err != nil {
			return nil, err
		}
		switch {
		case v.Kind == graph.LiteralTerm && v.Datatype == "" && v.Lang == "":
			str := v.Value
			if utf8.RuneCountInString(str) > maxNameRunes || looksLikeHash(str) {
				continue
			}
			f := gazetteer.Fold(str)
			ix.names = append(ix.names, name{value: str, fold: f, key: gazetteer.Key(str), foldLength: len(f)})
		case v.Kind == graph.LiteralTerm:
			if strings.HasPrefix(v.Datatype, string(model.XSDDate)) || strings.HasPrefix(v.Datatype, model.XSDNS+"gYear") {
				n := 0
				r := &reader{store: s, budget: 1 << 30}
				if err := r.each(ctx, graph.Object, v, func(q graph.Quad) bool {
					if q.Predicate == schemaDate {
						n++
					}
					return true
				}); err != nil {
					return nil, err
				}
				if n > 0 {
					ix.dates = append(ix.dates, DateCount{Date: v.Value, Count: n})
				}
			}
		case v.IsIRI():
			if strings.HasSuffix(v.Value, "#geo") {
				geos = append(geos, v)
			}
		}
	}
	for _, g := range geos {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := &reader{store: s, budget: 1000}
		p, err := r.props(ctx, g, schemaLatitude, schemaLongitude)
		if err != nil {
			return nil, err
		}
		lat, ok1 := number(p[schemaLatitude])
		lon, ok2 := number(p[schemaLongitude])
		if !ok1 || !ok2 {
			continue
		}
		iri := strings.TrimSuffix(g.Value, "#geo")
		nm, err := r.props(ctx, graph.IRI(iri), schemaName)
		if err != nil {
			return nil, err
		}
		lbl := label(nm[schemaName])
		if lbl == "" {
			lbl = label(graph.IRI(iri))
		}
		ix.places = append(ix.places, Node{IRI: iri, Label: lbl, Kind: "place", Lat: &lat, Lon: &lon})
	}
	slices.SortFunc(ix.names, func(a, b name) int { return cmp.Compare(a.foldLength, b.foldLength) })
	slices.SortFunc(ix.dates, func(a, b DateCount) int { return strings.Compare(a.Date, b.Date) })
	slices.SortFunc(ix.places, func(a, b Node) int { return strings.Compare(a.Label, b.Label) })
	return ix, nil
}

func looksLikeHash(s string) bool {
	if len(s) < 32 || strings.ContainsRune(s, ' ') {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdef:-sha", c) {
			return false
		}
	}
	return true
}

// A Hit is one search result.
type Hit struct {
	Node
	Match     string   `json:"match"`               // the name, alias or caption text that matched best
	Score     float64  `json:"score"`               // higher is better
	Photos    int      `json:"photos,omitempty"`    // photos linked to it (a place: or to a place within it)
	Context   string   `json:"context,omitempty"`   // a place's holders: "Aleppo Governorate, Syria"
	Spellings []string `json:"spellings,omitempty"` // every spelling that matched, best first
}

// searchPhotoIndex answers a search from the photo index: one hit per
// entity, by name, alternate name or caption id, and through the
// gazetteer's transliterations of places, groups and terms.
func searchPhotoIndex(ix *photoindex.Index, gaz *gazetteer.Index, q string) []Hit {
	found := ix.Search(q, maxHits)
	if gaz != nil {
		add := func(id string, score float64) {
			found, _ = ix.AddHit(found, model.EntityIRI(id), q, score)
		}
		if p, conf := gaz.Resolve(q); p != nil {
			add(p.ID, 85*conf)
		}
		for i, p := range gaz.PlacesByKey(q) {
			if i == 5 {
				break
			}
			add(p.ID, 75)
		}
		if g := gaz.Group(q); g != nil {
			add(g.ID, 85)
		}
		if t := gaz.Term(q); t != nil {
			add(t.ID, 85)
		}
	}
	out := make([]Hit, 0, min(len(found), maxHits))
	for _, h := range found[:min(len(found), maxHits)] {
		out = append(out, Hit{Node: Node{IRI: h.IRI, Label: h.Label, Kind: h.Kind}, Match: h.Spellings[0], Score: h.Score,
			Photos: h.Photos, Context: h.Context, Spellings: h.Spellings})
	}
	return out
}

const maxHits = 20

// search finds entities whose name, alias or mention text matches q:
// exactly, by prefix, by substring, by transliteration key, or through the
// gazetteer's place, group and term resolution.
func search(ctx context.Context, s *graph.Store, ix *index, gaz *gazetteer.Index, q string) ([]Hit, error) {
	q = strings.TrimSpace(q)
	fq, kq := gazetteer.Fold(q), gazetteer.Key(q)
	type cand struct {
		v     string
		score float64
	}
	var cands []cand
	if ix != nil {
		for _, n := range ix.names {
			var sc float64
			switch {
			case n.fold == fq:
				sc = 100
			case len(kq) >= 4 && n.key == kq:
				sc = 90
			case strings.HasPrefix(n.fold, fq):
				sc = 80
			case strings.Contains(n.fold, " "+fq):
				sc = 70
			case len(fq) >= 3 && strings.Contains(n.fold, fq):
				sc = 60
			default:
				continue
			}
			cands = append(cands, cand{n.value, sc})
		}
		slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(b.score, a.score) })
		if len(cands) > 3*maxHits {
			cands = cands[:3*maxHits]
		}
	} else { // the index is still being built: exact names only
		cands = append(cands, cand{q, 100})
	}
	hits := map[string]*Hit{}
	addHit := func(iri string, match string, sc float64) {
		if h := hits[iri]; h != nil {
			if sc > h.Score {
				h.Score, h.Match = sc, match
			}
			return
		}
		hits[iri] = &Hit{Node: Node{IRI: iri, Kind: photoindex.Kind(iri)}, Match: match, Score: sc}
	}
	r := &reader{store: s, budget: 20000}
	for _, c := range cands {
		var mentions []graph.Term
		err := r.each(ctx, graph.Object, graph.Literal(c.v), func(qd graph.Quad) bool {
			s := qd.Subject
			if !s.IsIRI() {
				return true
			}
			switch qd.Predicate {
			case schemaName, schemaAltName:
				addHit(s.Value, c.v, c.score)
			case schemaIdentifier:
				addHit(s.Value, c.v, c.score-5)
			case nifAnchor:
				if len(mentions) < 3 {
					mentions = append(mentions, s)
				}
			}
			return true
		})
		if err != nil {
			return nil, err
		}
		for _, m := range mentions {
			p, err := r.props(ctx, m, itsIdentRef)
			if err != nil {
				return nil, err
			}
			if e := p[itsIdentRef]; e.IsIRI() {
				addHit(e.Value, c.v, c.score-10)
			}
		}
	}
	// Transliteration through the gazetteer: the store names places,
	// groups and terms by gazetteer id.
	if gaz != nil && q != "" {
		var ids []string
		var scores []float64
		if p, conf := gaz.Resolve(q); p != nil {
			ids, scores = append(ids, p.ID), append(scores, 85*conf)
		}
		for i, p := range gaz.PlacesByKey(q) {
			if i == 5 {
				break
			}
			ids, scores = append(ids, p.ID), append(scores, 75)
		}
		if g := gaz.Group(q); g != nil {
			ids, scores = append(ids, g.ID), append(scores, 85)
		}
		if t := gaz.Term(q); t != nil {
			ids, scores = append(ids, t.ID), append(scores, 85)
		}
		for i, id := range ids {
			iri := model.EntityIRI(id)
			if hits[iri] != nil && hits[iri].Score >= scores[i] {
				continue
			}
			p, err := r.props(ctx, graph.IRI(iri), schemaName)
			if err != nil {
				return nil, err
			}
			if nm := label(p[schemaName]); nm != "" {
				addHit(iri, q, scores[i])
			}
		}
	}
	out := make([]Hit, 0, len(hits))
	for _, h := range hits {
		out = append(out, *h)
	}
	slices.SortFunc(out, func(a, b Hit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(len(a.Match), len(b.Match)), strings.Compare(a.IRI, b.IRI))
	})
	if len(out) > maxHits {
		out = out[:maxHits]
	}
	for i := range out {
		p, err := r.props(ctx, graph.IRI(out[i].IRI), schemaName, schemaIdentifier)
		if err != nil {
			return nil, err
		}
		out[i].Label = cmp.Or(label(p[schemaName]), label(p[schemaIdentifier]), label(graph.IRI(out[i].IRI)))
	}
	return out, nil
}
