package graph_test

import (
	"time"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/graph"
)

// genTime is the fixed generation time of test loads.
var genTime = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

func fixedNow() time.Time { return genTime }

// testLoad is how the tests load: at genTime, under a version of their own.
var testLoad = graph.LoadOptions{Now: fixedNow, ExtractorVersion: "test"}

// sample returns hand-made extractions of captions written for these
// tests, shaped as the extractor writes them.
func sample() []extract.Extraction {
	const text1 = "A fighter of the Free Syrian Army holds a rifle in the Jobar neighbourhood of Damascus, Syria, March 3, 2014. REUTERS/Jane Doe"
	const text2 = "Smoke rises over Douma, \"eastern Ghouta\", near Damascus, after air strikes by forces loyal to President Bashar al-Assad, Syria September 11, 2014. REUTERS/John Roe"
	return []extract.Extraction{
		{
			ID:   "ex-1",
			Text: text1,
			Entities: []extract.Entity{
				{ID: "group:free-syrian-army", Text: "Free Syrian Army", Type: extract.ArmedGroup, Start: 17, End: 33, Confidence: 0.95, GroupType: "rebel group", Aliases: []string{"FSA"}},
				{ID: "place:capgraph:jobar", Text: "Jobar", Type: extract.Place, Start: 55, End: 60, Confidence: 0.9, Latitude: 33.5319, Longitude: 36.3306, FeatureClass: "P", FeatureCode: "PPLX", Country: "SY", Admin: []string{"Syria", "Damascus"}},
				{ID: "place:geonames:170654", Text: "Damascus", Type: extract.Place, Start: 78, End: 86, Confidence: 0.98, GeoNamesID: 170654, Latitude: 33.5102, Longitude: 36.29128, FeatureClass: "P", FeatureCode: "PPLC", Country: "SY", Admin: []string{"Syria", "Damascus"}},
				{ID: "place:geonames:163843", Text: "Syria", Type: extract.Place, Start: 88, End: 93, Confidence: 0.99, GeoNamesID: 163843, Latitude: 35, Longitude: 38, FeatureClass: "A", FeatureCode: "PCLI", Country: "SY", Admin: []string{"Syria"}},
				{ID: "date:2014-03-03", Text: "March 3, 2014", Type: extract.Date, Start: 95, End: 108, Confidence: 0.99, Value: "2014-03-03", Precision: "day"},
				{ID: "agency:reuters", Text: "REUTERS", Type: extract.Agency, Start: 110, End: 117, Confidence: 0.99, Canonical: "Reuters"},
				{ID: "photographer:jane-doe", Text: "Jane Doe", Type: extract.Photographer, Start: 118, End: 126, Confidence: 0.97},
			},
			Relations: []extract.Relation{
				{Subj: "fighter", Rel: extract.MemberOf, Obj: "Free Syrian Army", ObjID: "group:free-syrian-army", Confidence: 0.8},
				{Subj: "photo", Rel: extract.DepictsPlace, Obj: "Jobar", SubjID: "photo:ex-1", ObjID: "place:capgraph:jobar", Confidence: 0.9},
				{Subj: "Jobar", Rel: extract.LocatedIn, Obj: "Damascus", SubjID: "place:capgraph:jobar", ObjID: "place:geonames:170654", Confidence: 0.85},
				{Subj: "Damascus", Rel: extract.LocatedIn, Obj: "Syria", SubjID: "place:geonames:170654", ObjID: "place:geonames:163843", Confidence: 0.9},
				{Subj: "photo", Rel: extract.TakenOn, Obj: "March 3, 2014", SubjID: "photo:ex-1", ObjID: "date:2014-03-03", Confidence: 0.95},
				{Subj: "photo", Rel: extract.PhotographedBy, Obj: "Jane Doe", SubjID: "photo:ex-1", ObjID: "photographer:jane-doe", Confidence: 0.97},
				{Subj: "photo", Rel: extract.DistributedBy, Obj: "REUTERS", SubjID: "photo:ex-1", ObjID: "agency:reuters", Confidence: 0.99},
			},
		},
		{
			ID:   "https://example.org/photos/ex 2?id=7",
			Text: text2,
			Entities: []extract.Entity{
				{ID: "place:geonames:170017", Text: "Douma", Type: extract.Place, Start: 17, End: 22, Confidence: 0.92, GeoNamesID: 170017, Latitude: 33.57175, Longitude: 36.4027, FeatureClass: "P", FeatureCode: "PPLA2", Country: "SY", Admin: []string{"Syria", "Rif Dimashq", "Douma District"}},
				{ID: "place:capgraph:eastern-ghouta", Text: "eastern Ghouta", Type: extract.Place, Start: 25, End: 39, Confidence: 0.8, Canonical: "Eastern Ghouta", Country: "SY"},
				{ID: "place:geonames:170654", Text: "Damascus", Type: extract.Place, Start: 47, End: 55, Confidence: 0.95, GeoNamesID: 170654, Latitude: 33.5102, Longitude: 36.29128, FeatureClass: "P", FeatureCode: "PPLC", Country: "SY", Admin: []string{"Syria", "Damascus"}},
				{ID: "person:bashar-al-assad", Text: "Bashar al-Assad", Type: extract.Person, Start: 104, End: 119, Confidence: 0.96},
				{ID: "place:geonames:163843", Text: "Syria", Type: extract.Place, Start: 121, End: 126, Confidence: 0.99, GeoNamesID: 163843, Latitude: 35, Longitude: 38, FeatureClass: "A", FeatureCode: "PCLI", Country: "SY", Admin: []string{"Syria"}},
				{ID: "date:2014-09", Text: "September 11, 2014", Type: extract.Date, Start: 127, End: 145, Confidence: 0.9, Value: "2014-09-11", Precision: "day"},
				{ID: "agency:reuters", Text: "REUTERS", Type: extract.Agency, Start: 147, End: 154, Confidence: 0.99, Canonical: "Reuters"},
				{ID: "photographer:john-roe", Text: "John Roe", Type: extract.Photographer, Start: 155, End: 163, Confidence: 0.97},
			},
			Relations: []extract.Relation{
				{Subj: "photo", Rel: extract.DepictsPlace, Obj: "Douma", SubjID: "photo:https://example.org/photos/ex 2?id=7", ObjID: "place:geonames:170017", Confidence: 0.9},
				{Subj: "Douma", Rel: extract.LocatedIn, Obj: "eastern Ghouta", SubjID: "place:geonames:170017", ObjID: "place:capgraph:eastern-ghouta", Confidence: 0.7},
				{Subj: "Douma", Rel: extract.ControlledBy, Obj: "rebels", SubjID: "place:geonames:170017", ObjID: "controller:rebels", Confidence: 0.6},
				{Subj: "photo", Rel: extract.TakenOn, Obj: "September 11, 2014", SubjID: "photo:https://example.org/photos/ex 2?id=7", ObjID: "date:2014-09", Confidence: 0.9},
				{Subj: "photo", Rel: extract.PhotographedBy, Obj: "John Roe", ObjID: "photographer:john-roe", Confidence: 0.97},
				{Subj: "photo", Rel: extract.DistributedBy, Obj: "REUTERS", ObjID: "agency:reuters", Confidence: 0.99},
			},
		},
	}
}
