// Package eval scores extractions against hand-annotated gold captions, as
// `capgraph eval` does, following the "Scoring" section of the caption
// guidelines (shared/captions/README.md).
//
// Within a caption, an entity is its key (type, [Normalize](text)) and a
// relation is its key (rel, Normalize(subj), Normalize(obj)), except that
// the subject of member_of is ignored: it is a role word copied from the
// caption, not a name. Each side of a caption is a set of keys: the gold
// lists one entry per distinct (text, type), and entries whose keys coincide
// after normalisation ("REUTERS" and "Reuters", or two member_of relations
// with different role words and one group) count once, on both sides. A
// predicted key that is also a gold key is a true positive; the other
// predicted keys are false positives and the other gold keys false
// negatives.
//
// Captions are joined by id. A gold caption without a prediction counts all
// its keys as false negatives; predictions whose id is not in the gold are
// not scored but are listed in [Report.Unmatched]. Counts are summed over
// captions before precision, recall and F1 are computed (micro-averaging),
// overall and per entity or relation type.
package eval

import (
	"encoding/json"

	"github.com/capgraph/capgraph/extract"
)

// Counts are the true positives, false positives and false negatives of a
// set of keys. Its JSON form adds precision, recall and f1.
type Counts struct {
	TP int `json:"tp"`
	FP int `json:"fp"`
	FN int `json:"fn"`
}

// Precision returns TP / (TP + FP), or 0 when nothing was predicted.
func (c Counts) Precision() float64 { return ratio(c.TP, c.TP+c.FP) }

// Recall returns TP / (TP + FN), or 0 when the gold is empty.
func (c Counts) Recall() float64 { return ratio(c.TP, c.TP+c.FN) }

// F1 returns the harmonic mean of precision and recall,
// 2·TP / (2·TP + FP + FN), or 0 when both gold and prediction are empty.
func (c Counts) F1() float64 { return ratio(2*c.TP, 2*c.TP+c.FP+c.FN) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func (c *Counts) add(d Counts) {
	c.TP += d.TP
	c.FP += d.FP
	c.FN += d.FN
}

// MarshalJSON writes c as {"tp","fp","fn","precision","recall","f1"}.
// Unmarshalling reads back tp, fp and fn and ignores the rest.
func (c Counts) MarshalJSON() ([]byte, error) {
	type counts Counts // without the method
	return json.Marshal(struct {
		counts
		Precision float64 `json:"precision"`
		Recall    float64 `json:"recall"`
		F1        float64 `json:"f1"`
	}{counts(c), c.Precision(), c.Recall(), c.F1()})
}

// A Report is the result of [Score].
type Report struct {
	Captions  int    `json:"captions"` // distinct gold ids scored
	Entities  Counts `json:"entities"`
	Relations Counts `json:"relations"`
	// EntityTypes and RelationTypes hold the counts of each type found in
	// the gold or the prediction, keyed by type as written ("PLACE",
	// "located_in"). They sum to Entities and Relations.
	EntityTypes   map[string]Counts `json:"entity_types"`
	RelationTypes map[string]Counts `json:"relation_types"`
	// Geocoded counts the places found (true-positive PLACE keys) and how
	// many of them the prediction gives coordinates.
	Geocoded Geocoded `json:"geocoded"`
	// Missing lists the gold ids that have no prediction, in gold order.
	Missing []string `json:"missing"`
	// Unmatched lists the predicted ids that are not in the gold, in
	// prediction order. They are not scored; a long list usually means the
	// wrong files were compared.
	Unmatched []string `json:"unmatched"`
}

// Geocoded is the share of correctly found places that carry coordinates.
type Geocoded struct {
	Places          int `json:"places"`
	WithCoordinates int `json:"with_coordinates"`
}

// Ratio returns WithCoordinates / Places, or 0 when no place was found.
func (g Geocoded) Ratio() float64 { return ratio(g.WithCoordinates, g.Places) }

// geocoded counts the true-positive places of one caption and those with
// coordinates.
func geocoded(gold, pred keyed[entityKey, Entity]) Geocoded {
	var g Geocoded
	for _, k := range pred.keys {
		if _, ok := gold.first[k]; !ok || k.typ != string(extract.Place) {
			continue
		}
		g.Places++
		if pred.first[k].Latitude != nil {
			g.WithCoordinates++
		}
	}
	return g
}

type entityKey struct{ typ, text string }

type relationKey struct{ rel, subj, obj string }

func keyOfEntity(e Entity) entityKey { return entityKey{e.Type, Normalize(e.Text)} }

func keyOfRelation(r Relation) relationKey {
	k := relationKey{rel: r.Rel, obj: Normalize(r.Obj)}
	if r.Rel != string(extract.MemberOf) { // the subject is a role word
		k.subj = Normalize(r.Subj)
	}
	return k
}

// keyed is the distinct keys of a list, in order of first appearance, with
// the first item that gave each key.
type keyed[K comparable, T any] struct {
	keys  []K
	first map[K]T
}

func distinct[K comparable, T any](items []T, key func(T) K) keyed[K, T] {
	s := keyed[K, T]{first: make(map[K]T, len(items))}
	for _, it := range items {
		k := key(it)
		if _, ok := s.first[k]; !ok {
			s.first[k] = it
			s.keys = append(s.keys, k)
		}
	}
	return s
}

// split returns the items of gold missing from pred and of pred missing
// from gold.
func split[K comparable, T any](gold, pred keyed[K, T]) (missing, spurious []T) {
	for _, k := range gold.keys {
		if _, ok := pred.first[k]; !ok {
			missing = append(missing, gold.first[k])
		}
	}
	for _, k := range pred.keys {
		if _, ok := gold.first[k]; !ok {
			spurious = append(spurious, pred.first[k])
		}
	}
	return missing, spurious
}

// tally adds the keys of one caption to m, by type: a gold key also
// predicted is a true positive, another gold key a false negative and a
// predicted key not in the gold a false positive.
func tally[K comparable, T any](m map[string]Counts, gold, pred keyed[K, T], typ func(K) string) {
	for _, k := range gold.keys {
		c := m[typ(k)]
		if _, ok := pred.first[k]; ok {
			c.TP++
		} else {
			c.FN++
		}
		m[typ(k)] = c
	}
	for _, k := range pred.keys {
		if _, ok := gold.first[k]; !ok {
			c := m[typ(k)]
			c.FP++
			m[typ(k)] = c
		}
	}
}

// A pair is a gold caption and its prediction.
type pair struct {
	id         string
	gold, pred *Doc // pred nil when missing
}

// join pairs gold and predicted captions by id. Repeated ids on one side
// are merged: their entities and relations are pooled.
func join(gold, pred []Doc) (pairs []pair, unmatched []string) {
	merge := func(docs []Doc) (map[string]*Doc, []string) {
		byID := make(map[string]*Doc, len(docs))
		var order []string
		for _, d := range docs {
			if m, ok := byID[d.ID]; ok {
				m.Entities = append(m.Entities, d.Entities...)
				m.Relations = append(m.Relations, d.Relations...)
				continue
			}
			c := d
			c.Entities = append([]Entity(nil), d.Entities...)
			c.Relations = append([]Relation(nil), d.Relations...)
			byID[d.ID] = &c
			order = append(order, d.ID)
		}
		return byID, order
	}
	g, gorder := merge(gold)
	p, porder := merge(pred)
	for _, id := range gorder {
		pairs = append(pairs, pair{id, g[id], p[id]})
	}
	unmatched = []string{}
	for _, id := range porder {
		if _, ok := g[id]; !ok {
			unmatched = append(unmatched, id)
		}
	}
	return pairs, unmatched
}

// Score compares the predictions pred with the gold captions gold and
// returns the counts, as the package comment describes. The documents of
// either side may come in any order; documents sharing an id are merged.
func Score(gold, pred []Doc) Report {
	pairs, unmatched := join(gold, pred)
	r := Report{
		Captions:      len(pairs),
		EntityTypes:   map[string]Counts{},
		RelationTypes: map[string]Counts{},
		Missing:       []string{},
		Unmatched:     unmatched,
	}
	for _, p := range pairs {
		var pd Doc
		if p.pred == nil {
			r.Missing = append(r.Missing, p.id)
		} else {
			pd = *p.pred
		}
		ge, pe := distinct(p.gold.Entities, keyOfEntity), distinct(pd.Entities, keyOfEntity)
		tally(r.EntityTypes, ge, pe, func(k entityKey) string { return k.typ })
		g := geocoded(ge, pe)
		r.Geocoded.Places += g.Places
		r.Geocoded.WithCoordinates += g.WithCoordinates
		tally(r.RelationTypes, distinct(p.gold.Relations, keyOfRelation), distinct(pd.Relations, keyOfRelation),
			func(k relationKey) string { return k.rel })
	}
	for _, c := range r.EntityTypes {
		r.Entities.add(c)
	}
	for _, c := range r.RelationTypes {
		r.Relations.add(c)
	}
	return r
}
