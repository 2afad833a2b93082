package model_test

import (
	"slices"
	"testing"

	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/graph/model"
)

// TestContainment: a place sits inside the last area of its admin chain,
// even when it is named like that area (a town named like its
// governorate); an admin area whose chain ends with itself sits inside
// the area above it.
func TestContainment(t *testing.T) {
	const (
		country  = model.Base + "place/country/SY"
		aleppoGv = model.Base + "place/admin/SY/Aleppo"
	)
	for _, tt := range []struct {
		name   string
		entity extract.Entity
		want   string // the node the place is contained in
	}{
		{"town named like its governorate",
			extract.Entity{ID: "place:geonames:170063", Text: "Aleppo", FeatureClass: "P", FeatureCode: "PPLA", Admin: []string{"Syria", "Aleppo"}},
			aleppoGv},
		{"town in a governorate of another name",
			extract.Entity{ID: "place:geonames:164816", Text: "Saraqib", Canonical: "Saraqeb", FeatureClass: "P", FeatureCode: "PPLA3", Admin: []string{"Syria", "Idlib"}},
			model.Base + "place/admin/SY/Idlib"},
		{"the governorate itself",
			extract.Entity{ID: "place:geonames:170062", Text: "Aleppo", Canonical: "Aleppo", FeatureClass: "A", FeatureCode: "ADM1", Admin: []string{"Syria", "Aleppo"}},
			country},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := tt.entity
			e.Type, e.Country, e.End = extract.Place, "SY", len(e.Text)
			if e.Canonical == "" {
				e.Canonical = e.Text
			}
			x := extract.Extraction{ID: "c", Text: e.Text, Entities: []extract.Entity{e}}
			var got []string
			for _, q := range model.Quads(x, model.Provenance{}) {
				if q.Subject == quad.IRI(model.EntityIRI(e.ID)) && q.Predicate == model.SchemaContainedInPlace {
					got = append(got, string(q.Object.(quad.IRI)))
				}
			}
			if !slices.Equal(got, []string{tt.want}) {
				t.Errorf("contained in %q, want %q", got, tt.want)
			}
		})
	}
}
