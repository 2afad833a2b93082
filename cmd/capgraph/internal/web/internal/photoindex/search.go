package photoindex

import (
	"cmp"
	"slices"
	"strings"

	"github.com/capgraph/capgraph/extract/gazetteer"
)

// A name is one spelling of an entity: its schema:name or a
// schema:alternateName, folded for matching.
type name struct {
	value     string
	fold, key string
	entity    int32
}

// A Hit is an entity that a search matched, once however many of its
// spellings matched.
type Hit struct {
	Entity
	Photos    int      `json:"photos"`
	Context   string   `json:"context,omitempty"` // for a place, what it is and the places that hold it: "administrative area, Syria"
	Spellings []string `json:"spellings"`         // the names that matched, best first
	Score     float64  `json:"score"`             // higher is better
}

// Match scores, best first.
const (
	scoreExact     = 100
	scoreCaptionID = 95
	scoreKey       = 90 // the same transliteration key (gazetteer.Key)
	scorePrefix    = 80
	scoreWord      = 70 // a word of the name starts with the query
	scoreInside    = 60
)

// Search returns up to limit entities, and the photo whose caption id is
// q, matching q by name or alternate name: exactly, by transliteration
// key, by prefix, by a word's prefix or inside a name, all after folding
// case and diacritics. Hits rank by score, then by photos.
func (ix *Index) Search(q string, limit int) []Hit {
	fq, kq := gazetteer.Fold(q), gazetteer.Key(q)
	if fq == "" {
		return []Hit{}
	}
	best := map[int32]*Hit{}
	for _, n := range ix.names {
		var sc float64
		switch {
		case n.fold == fq:
			sc = scoreExact
		case len(kq) >= 4 && n.key == kq:
			sc = scoreKey
		case strings.HasPrefix(n.fold, fq):
			sc = scorePrefix
		case strings.Contains(n.fold, " "+fq) || strings.Contains(n.fold, "-"+fq):
			sc = scoreWord
		case len(fq) >= 3 && strings.Contains(n.fold, fq):
			sc = scoreInside
		default:
			continue
		}
		ix.addHit(best, n.entity, n.value, sc)
	}
	out := make([]Hit, 0, len(best)+1)
	if i, ok := ix.byCaption[q]; ok {
		p := ix.photos[i]
		out = append(out, Hit{Entity: Entity{IRI: p.IRI, Label: p.CaptionID, Kind: "photo"}, Photos: 1, Spellings: []string{q}, Score: scoreCaptionID})
	}
	for _, h := range best {
		out = append(out, *h)
	}
	rank(out)
	return out[:min(len(out), limit)]
}

// AddHit raises the entity iri's score in hits to score for spelling,
// or adds it; the gazetteer's transliterations come in this way. It
// reports whether the index holds the entity.
func (ix *Index) AddHit(hits []Hit, iri, spelling string, score float64) ([]Hit, bool) {
	n, ok := ix.byIRI[iri]
	if !ok {
		return hits, false
	}
	for k := range hits {
		if hits[k].IRI == iri {
			if !slices.Contains(hits[k].Spellings, spelling) {
				hits[k].Spellings = append(hits[k].Spellings, spelling)
			}
			hits[k].Score = max(hits[k].Score, score)
			rank(hits)
			return hits, true
		}
	}
	h := map[int32]*Hit{}
	ix.addHit(h, n, spelling, score)
	hits = append(hits, *h[n])
	rank(hits)
	return hits, true
}

func (ix *Index) addHit(best map[int32]*Hit, n int32, spelling string, sc float64) {
	h := best[n]
	if h == nil {
		h = &Hit{Entity: ix.entities[n], Photos: len(ix.linkedTo(n)), Context: ix.context(n)}
		best[n] = h
	}
	if sc > h.Score {
		h.Score = sc
		h.Spellings = append([]string{spelling}, h.Spellings...)
	} else if !slices.Contains(h.Spellings, spelling) {
		h.Spellings = append(h.Spellings, spelling)
	}
}

func rank(hits []Hit) {
	slices.SortStableFunc(hits, func(a, b Hit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(b.Photos, a.Photos), strings.Compare(a.Label, b.Label), strings.Compare(a.IRI, b.IRI))
	})
}

// context says what place n is, when it is a country or an
// administrative area, and names the places that hold it, nearest first,
// following the first holder up: "administrative area, Syria".
func (ix *Index) context(n int32) string {
	var parts []string
	if c := ix.classes[n]; c != "" {
		parts = append(parts, c)
	}
	seen := map[int32]bool{n: true}
	for range 4 {
		hs := ix.holders[n]
		if len(hs) == 0 || seen[hs[0]] {
			break
		}
		n = hs[0]
		seen[n] = true
		parts = append(parts, ix.entities[n].Label)
	}
	return strings.Join(parts, ", ")
}
