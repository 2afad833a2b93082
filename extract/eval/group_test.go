package eval

import (
	"bytes"
	"strings"
	"testing"
)

func TestByCountry(t *testing.T) {
	gold := []Doc{
		{ID: "a", Entities: []Entity{{Text: "Aleppo", Type: "PLACE"}}},
		{ID: "b", Entities: []Entity{{Text: "Goma", Type: "PLACE"}, {Text: "M23", Type: "ARMED_GROUP"}}},
		{ID: "c", Entities: []Entity{{Text: "Idlib", Type: "PLACE"}}},
		{ID: "d", Entities: []Entity{{Text: "a man", Type: "PERSON"}}},
	}
	pred := []Doc{
		// The depicted place decides, not the first place.
		{ID: "a", Entities: []Entity{{Text: "Beirut", Type: "PLACE", Country: "LB"}, {Text: "Aleppo", Type: "PLACE", Country: "SY"}},
			Relations: []Relation{{Subj: "photo", Rel: "depicts_place", Obj: "Aleppo"}}},
		{ID: "b", Entities: []Entity{{Text: "Goma", Type: "PLACE", Country: "CD"}}},
		{ID: "c", Entities: []Entity{{Text: "Idlib", Type: "PLACE", Country: "SY"}}},
		{ID: "d"},
	}
	groups := ByCountry(gold, pred)
	var got []string
	for _, g := range groups {
		got = append(got, g.Country)
	}
	if strings.Join(got, ",") != "SY,,CD" && strings.Join(got, ",") != "SY,CD," {
		t.Fatalf("groups %q, want SY first, then CD and the caption placed nowhere", got)
	}
	for _, g := range groups {
		switch g.Country {
		case "SY":
			if g.Captions != 2 || g.Entities.Recall() != 1 || g.Entities.FP != 1 {
				t.Errorf("SY: %d captions, entity recall %.3f, %d spurious", g.Captions, g.Entities.Recall(), g.Entities.FP)
			}
		case "CD":
			if g.Captions != 1 || g.Entities.FN != 1 {
				t.Errorf("CD: %d captions, %d missed", g.Captions, g.Entities.FN)
			}
		}
	}
	var b bytes.Buffer
	if err := WriteGroups(&b, groups); err != nil || !strings.Contains(b.String(), "SY              2  0.667 1.000 0.800") {
		t.Errorf("table:\n%s", b.String())
	}
}
