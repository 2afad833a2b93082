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

// objects returns the objects of subject's predicate in quads.
func objects(quads []quad.Quad, subject string, p quad.IRI) []quad.Value {
	var out []quad.Value
	for _, q := range quads {
		if q.Subject == quad.IRI(subject) && q.Predicate == p {
			out = append(out, q.Object)
		}
	}
	return out
}

// TestDateLiterals: each precision of date has its XML Schema type, a
// date without a year included ("--05-19" has a hyphen where "2019-05"
// has one).
func TestDateLiterals(t *testing.T) {
	for _, tt := range []struct{ value, precision, want string }{
		{"2013-01-16", "day", `"2013-01-16"^^<http://www.w3.org/2001/XMLSchema#date>`},
		{"2013-01", "month", `"2013-01"^^<http://www.w3.org/2001/XMLSchema#gYearMonth>`},
		{"2013", "year", `"2013"^^<http://www.w3.org/2001/XMLSchema#gYear>`},
		{"--05-19", "day", `"--05-19"^^<http://www.w3.org/2001/XMLSchema#gMonthDay>`},
	} {
		t.Run(tt.value, func(t *testing.T) {
			text := "photo on the day"
			x := extract.Extraction{ID: "c", Text: text,
				Entities:  []extract.Entity{{ID: "date:d", Text: "the day", Type: extract.Date, Start: 9, End: 16, Value: tt.value, Precision: tt.precision}},
				Relations: []extract.Relation{{Subj: extract.PhotoSubject, Rel: extract.TakenOn, Obj: "the day", SubjID: extract.PhotoID("c"), ObjID: "date:d"}}}
			got := objects(model.Quads(x, model.Provenance{}), model.PhotoIRI("c"), model.SchemaDateCreated)
			if len(got) != 1 || got[0].String() != tt.want {
				t.Errorf("schema:dateCreated %v, want %s", got, tt.want)
			}
		})
	}
}

// TestAlternateNames: an alias in a caption is an alternate name of its
// entity whichever of the two spellings comes first; the entity's own
// name is not one.
func TestAlternateNames(t *testing.T) {
	for _, tt := range []struct {
		name, subj, obj string
		want            []string
	}{
		{"alias in brackets", "FSA", "Free Syrian Army", []string{"FSA"}},
		{"name in brackets", "Free Syrian Army", "FSA", []string{"FSA"}},
		{"the name twice", "Free Syrian Army", "free Syrian army", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			const id = "group:free-syrian-army"
			text := tt.obj + " (" + tt.subj + ")"
			x := extract.Extraction{ID: "c", Text: text,
				Entities: []extract.Entity{
					{ID: id, Text: tt.obj, Canonical: "Free Syrian Army", Type: extract.ArmedGroup, End: len(tt.obj)},
					{ID: id, Text: tt.subj, Canonical: "Free Syrian Army", Type: extract.ArmedGroup, Start: len(tt.obj) + 2, End: len(text) - 1},
				},
				Relations: []extract.Relation{{Subj: tt.subj, Rel: extract.AliasOf, Obj: tt.obj, SubjID: id, ObjID: id}}}
			var got []string
			for _, v := range objects(model.Quads(x, model.Provenance{}), model.EntityIRI(id), model.SchemaAlternateName) {
				got = append(got, string(v.(quad.String)))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("alternate names %q, want %q", got, tt.want)
			}
		})
	}
}

// TestGeo: a place's point is written in the terms of schema.org, WGS84
// and GeoSPARQL, with its precision; its GeoNames link is the http form.
func TestGeo(t *testing.T) {
	for _, tt := range []struct {
		name      string
		entity    extract.Entity
		precision string
	}{
		{"country", extract.Entity{ID: "place:geonames:163843", GeoNamesID: 163843, Wikidata: "Q858", FeatureClass: "A", FeatureCode: "PCLI"}, "capital"},
		{"division", extract.Entity{ID: "place:adm1:SY.12", FeatureClass: "A", FeatureCode: "ADM1", Admin: []string{"Syria"}}, "admin-area"},
		{"town", extract.Entity{ID: "place:geonames:164816", GeoNamesID: 164816, FeatureClass: "P", FeatureCode: "PPLA3", Admin: []string{"Syria", "Idlib"}}, "settlement"},
		{"air base", extract.Entity{ID: "place:geonames:7910412", GeoNamesID: 7910412, FeatureClass: "S", FeatureCode: "AIRB", Admin: []string{"Syria", "Homs"}}, "feature"},
		{"hand-placed", extract.Entity{ID: "place:jobar", FeatureClass: "P", FeatureCode: "PPLX", Admin: []string{"Syria", "Damascus"}}, "approximate"},
		{"in its container", extract.Entity{ID: "place:burungu", GeoPrecision: "container", Admin: []string{"Democratic Republic of the Congo", "North Kivu"}}, "container"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := tt.entity
			e.Type, e.Text, e.End, e.Latitude, e.Longitude = extract.Place, "Place", 5, 35.93, 36.63
			x := extract.Extraction{ID: "c", Text: "Place", Entities: []extract.Entity{e}}
			qs := model.Quads(x, model.Provenance{})
			n := model.EntityIRI(e.ID)
			geo := n + "#geo"
			if got := objects(qs, geo, model.CapgraphGeoPrecision); len(got) != 1 || got[0] != quad.String(tt.precision) {
				t.Errorf("precision %v, want %q", got, tt.precision)
			}
			if got := objects(qs, geo, model.GeoAsWKT); len(got) != 1 || got[0].String() != `"POINT(36.63 35.93)"^^<http://www.opengis.net/ont/geosparql#wktLiteral>` {
				t.Errorf("WKT %v", got)
			}
			if got := objects(qs, n, model.WGS84Lat); len(got) != 1 || got[0] != model.Decimal(35.93) {
				t.Errorf("wgs84 lat %v", got)
			}
			if got := objects(qs, n, model.GeoHasGeometry); len(got) != 1 || got[0] != quad.IRI(geo) {
				t.Errorf("hasGeometry %v", got)
			}
			var want []quad.Value
			if e.GeoNamesID != 0 {
				want = append(want, quad.IRI("http://sws.geonames.org/"+e.ID[len("place:geonames:"):]+"/"))
			}
			if e.Wikidata != "" {
				want = append(want, quad.IRI("http://www.wikidata.org/entity/"+e.Wikidata))
			}
			if sameAs := objects(qs, n, model.OWLSameAs); !slices.Equal(sameAs, want) {
				t.Errorf("sameAs %v, want %v", sameAs, want)
			}
		})
	}
}

// TestEntityWikidata: a group, organisation or agency that the gazetteer
// links to Wikidata is the same as that item; one it does not link has no
// owl:sameAs.
func TestEntityWikidata(t *testing.T) {
	for _, tt := range []struct {
		entity extract.Entity
		want   []quad.Value
	}{
		{extract.Entity{ID: "group:us-army", Type: extract.ArmedGroup, Wikidata: "Q9212"}, []quad.Value{quad.IRI("http://www.wikidata.org/entity/Q9212")}},
		{extract.Entity{ID: "org:un", Type: extract.Organization, Wikidata: "Q1065"}, []quad.Value{quad.IRI("http://www.wikidata.org/entity/Q1065")}},
		{extract.Entity{ID: "agency:reuters", Type: extract.Agency}, nil},
	} {
		e := tt.entity
		e.Text, e.End = "Name", 4
		qs := model.Quads(extract.Extraction{ID: "c", Text: "Name", Entities: []extract.Entity{e}}, model.Provenance{})
		if got := objects(qs, model.EntityIRI(e.ID), model.OWLSameAs); !slices.Equal(got, tt.want) {
			t.Errorf("%s: sameAs %v, want %v", e.ID, got, tt.want)
		}
	}
}

// TestJSONLDTerms: a term is neither a prefix (it would redefine every
// compact IRI of that prefix) nor another term, and names one IRI once.
func TestJSONLDTerms(t *testing.T) {
	names := make(map[string]bool)
	for _, p := range model.Prefixes {
		names[p.Prefix] = true
	}
	iris := make(map[quad.IRI]bool)
	for _, term := range model.JSONLDTerms {
		if names[term.Term] || iris[term.IRI] {
			t.Errorf("term %q (%s) repeats a prefix, a term or an IRI", term.Term, term.IRI)
		}
		names[term.Term], iris[term.IRI] = true, true
	}
}

// TestNamesInCapitals: a person's name set in capitals by a credit line
// is described in title case, so that the node's name does not depend on
// which spelling a store met first; other names are kept as written.
func TestNamesInCapitals(t *testing.T) {
	for _, tt := range []struct {
		typ        extract.EntityType
		text, want string
	}{
		{extract.Photographer, "ALI HAMDAN", "Ali Hamdan"},
		{extract.Photographer, "Ali Hamdan", "Ali Hamdan"},
		{extract.Person, "AL-HAJ O'NEILL", "Al-Haj O'Neill"},
		{extract.Photographer, "SALEH AL-HAMWI", "Saleh al-Hamwi"},
		{extract.Person, "JUAN DE LA CRUZ", "Juan de la Cruz"},
		{extract.Person, "MOHAMMED BIN SALMAN", "Mohammed bin Salman"},
		{extract.Person, "ÖZGÜR ÇELİK", "Özgür Çelik"},
		{extract.Person, "Bashar al-Assad", "Bashar al-Assad"},
		{extract.Organization, "UNICEF", "UNICEF"},
	} {
		e := extract.Entity{ID: "x:" + tt.text, Text: tt.text, Type: tt.typ, End: len([]rune(tt.text))}
		x := extract.Extraction{ID: "c", Text: tt.text, Entities: []extract.Entity{e}}
		got := objects(model.Quads(x, model.Provenance{}), model.EntityIRI(e.ID), model.SchemaName)
		if len(got) != 1 || got[0] != quad.String(tt.want) {
			t.Errorf("%s %q named %v, want %q", tt.typ, tt.text, got, tt.want)
		}
	}
}
