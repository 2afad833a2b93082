package eval

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// A Mismatch is what one caption's prediction got wrong: the gold entities
// and relations it lacks (false negatives) and those it adds (false
// positives), one per distinct key, as first written on their side.
type Mismatch struct {
	ID                string     `json:"id"`
	Text              string     `json:"text"`                    // the gold caption
	NoPrediction      bool       `json:"no_prediction,omitempty"` // the caption was not predicted at all
	MissingEntities   []Entity   `json:"missing_entities,omitempty"`
	SpuriousEntities  []Entity   `json:"spurious_entities,omitempty"`
	MissingRelations  []Relation `json:"missing_relations,omitempty"`
	SpuriousRelations []Relation `json:"spurious_relations,omitempty"`
}

// Diff compares pred with gold as [Score] does and returns a Mismatch for
// each gold caption whose prediction is missing or differs, in gold order.
// Captions scored perfectly are left out, as are predictions whose id is not
// in the gold.
func Diff(gold, pred []Doc) []Mismatch {
	pairs, _ := join(gold, pred)
	ms := []Mismatch{}
	for _, p := range pairs {
		m := Mismatch{ID: p.id, Text: p.gold.Text, NoPrediction: p.pred == nil}
		var pd Doc
		if p.pred != nil {
			pd = *p.pred
		}
		m.MissingEntities, m.SpuriousEntities = split(distinct(p.gold.Entities, keyOfEntity), distinct(pd.Entities, keyOfEntity))
		m.MissingRelations, m.SpuriousRelations = split(distinct(p.gold.Relations, keyOfRelation), distinct(pd.Relations, keyOfRelation))
		if m.NoPrediction || len(m.MissingEntities)+len(m.SpuriousEntities)+len(m.MissingRelations)+len(m.SpuriousRelations) > 0 {
			ms = append(ms, m)
		}
	}
	return ms
}

// WriteDiff writes ms for people to read: per caption, its id and text,
// then a line per item, "-" for a missing one and "+" for a spurious one:
//
//	c1: Rebels walk in Idlib. REUTERS/Jane Doe
//	  - PLACE "Idlib"
//	  + PERSON "Jane Doe"
//	  - depicts_place "photo" -> "Idlib"
//
// The texts are quoted as Go strings, so spacing and odd characters show.
func WriteDiff(w io.Writer, ms []Mismatch) error {
	bw := bufio.NewWriter(w)
	for _, m := range ms {
		fmt.Fprintf(bw, "%s: %s\n", m.ID, m.Text)
		if m.NoPrediction {
			fmt.Fprintf(bw, "  (no prediction)\n")
		}
		for _, e := range m.MissingEntities {
			fmt.Fprintf(bw, "  - %s %s\n", e.Type, strconv.Quote(e.Text))
		}
		for _, e := range m.SpuriousEntities {
			fmt.Fprintf(bw, "  + %s %s\n", e.Type, strconv.Quote(e.Text))
		}
		for _, r := range m.MissingRelations {
			fmt.Fprintf(bw, "  - %s %s -> %s\n", r.Rel, strconv.Quote(r.Subj), strconv.Quote(r.Obj))
		}
		for _, r := range m.SpuriousRelations {
			fmt.Fprintf(bw, "  + %s %s -> %s\n", r.Rel, strconv.Quote(r.Subj), strconv.Quote(r.Obj))
		}
	}
	return bw.Flush()
}
