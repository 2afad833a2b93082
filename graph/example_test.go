package graph_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"slices"
	"strings"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/graph"
)

func ExampleOpen() {
	ctx := context.Background()
	s, err := graph.Open(ctx, "", graph.Options{}) // "" is a store in memory
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	x := extract.Extraction{
		ID:   "ex-9",
		Text: "Children play in Aleppo. REUTERS",
		Entities: []extract.Entity{
			{ID: "place:geonames:170063", Text: "Aleppo", Type: extract.Place, Start: 17, End: 23, Confidence: 0.9, GeoNamesID: 170063},
		},
		Relations: []extract.Relation{
			{Subj: "photo", Rel: extract.DepictsPlace, Obj: "Aleppo", ObjID: "place:geonames:170063", Confidence: 0.8},
		},
	}
	st, err := s.Load(ctx, func(yield func(extract.Extraction, error) bool) { yield(x, nil) }, graph.LoadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("added", st.Added, "quads", st.Quads)
	if _, err := s.Export(ctx, os.Stdout, graph.CSV); err != nil {
		log.Fatal(err)
	}
	// Output:
	// added 1 quads 25
	// photo,date,precision,place,admin1,admin2,country,latitude,longitude,geo_precision,armed_groups,people,photographer,agency,caption_id
	// https://capgraph.org/id/photo/ex-9,,,Aleppo,,,,,,,,,,,ex-9
}

// ExampleStore_Quads lists what points at a place: the photo that shows
// it, the mention that names it, and the statement of that fact.
func ExampleStore_Quads() {
	ctx := context.Background()
	s, err := graph.Open(ctx, "", graph.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	x := extract.Extraction{
		ID:   "ex-9",
		Text: "Children play in Aleppo. REUTERS",
		Entities: []extract.Entity{
			{ID: "place:geonames:170063", Text: "Aleppo", Type: extract.Place, Start: 17, End: 23, Confidence: 0.9, GeoNamesID: 170063},
		},
		Relations: []extract.Relation{
			{Subj: "photo", Rel: extract.DepictsPlace, Obj: "Aleppo", ObjID: "place:geonames:170063", Confidence: 0.8},
		},
	}
	if _, err := s.Load(ctx, func(yield func(extract.Extraction, error) bool) { yield(x, nil) }, graph.LoadOptions{}); err != nil {
		log.Fatal(err)
	}
	var lines []string
	for q, err := range s.Quads(ctx, graph.Object, graph.IRI("https://capgraph.org/id/place/geonames/170063")) {
		if err != nil {
			log.Fatal(err)
		}
		lines = append(lines, fmt.Sprint(q.Subject, " ", q.Predicate))
	}
	slices.Sort(lines)
	fmt.Println(strings.Join(lines, "\n"))
	// Output:
	// <https://capgraph.org/id/graph/ex-9#m0> <http://www.w3.org/2005/11/its/rdf#taIdentRef>
	// <https://capgraph.org/id/graph/ex-9#r0> <http://www.w3.org/1999/02/22-rdf-syntax-ns#object>
	// <https://capgraph.org/id/photo/ex-9> <https://schema.org/contentLocation>
}

// ExampleReadNQuads reads back what Export writes: here, the caption graphs
// each quad belongs to.
func ExampleReadNQuads() {
	doc := `<https://capgraph.org/id/photo/ex-9> <https://schema.org/identifier> "ex-9" <https://capgraph.org/id/graph/ex-9> .
<https://capgraph.org/id/photo/ex-9> <https://schema.org/dateCreated> "2016-03"^^<http://www.w3.org/2001/XMLSchema#gYearMonth> <https://capgraph.org/id/graph/ex-9> .
`
	for q, err := range graph.ReadNQuads(strings.NewReader(doc)) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(q.Graph.Value, q.Predicate.Value, q.Object)
	}
	// Output:
	// https://capgraph.org/id/graph/ex-9 https://schema.org/identifier "ex-9"
	// https://capgraph.org/id/graph/ex-9 https://schema.org/dateCreated "2016-03"^^<http://www.w3.org/2001/XMLSchema#gYearMonth>
}

// ExampleStore_Describe prints the document a place's IRI dereferences
// to: its description and its point.
func ExampleStore_Describe() {
	ctx := context.Background()
	s, err := graph.Open(ctx, "", graph.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	x := extract.Extraction{
		ID:   "ex-9",
		Text: "Children play in Aleppo. REUTERS",
		Entities: []extract.Entity{
			{ID: "place:geonames:170063", Text: "Aleppo", Type: extract.Place, Start: 17, End: 23, Confidence: 0.9,
				GeoNamesID: 170063, Latitude: 36.20124, Longitude: 37.16117, FeatureClass: "P", FeatureCode: "PPLA"},
		},
	}
	if _, err := s.Load(ctx, func(yield func(extract.Extraction, error) bool) { yield(x, nil) }, graph.LoadOptions{}); err != nil {
		log.Fatal(err)
	}
	if _, err := s.Describe(ctx, os.Stdout, "https://capgraph.org/id/place/geonames/170063", graph.NTriples); err != nil {
		log.Fatal(err)
	}
	// Output:
	// <https://capgraph.org/id/place/geonames/170063#geo> <http://www.opengis.net/ont/geosparql#asWKT> "POINT(37.16117 36.20124)"^^<http://www.opengis.net/ont/geosparql#wktLiteral> .
	// <https://capgraph.org/id/place/geonames/170063#geo> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.opengis.net/ont/geosparql#Geometry> .
	// <https://capgraph.org/id/place/geonames/170063#geo> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://schema.org/GeoCoordinates> .
	// <https://capgraph.org/id/place/geonames/170063#geo> <https://capgraph.org/ns#geoPrecision> "settlement" .
	// <https://capgraph.org/id/place/geonames/170063#geo> <https://schema.org/latitude> "36.20124"^^<http://www.w3.org/2001/XMLSchema#decimal> .
	// <https://capgraph.org/id/place/geonames/170063#geo> <https://schema.org/longitude> "37.16117"^^<http://www.w3.org/2001/XMLSchema#decimal> .
	// <https://capgraph.org/id/place/geonames/170063> <http://www.opengis.net/ont/geosparql#hasGeometry> <https://capgraph.org/id/place/geonames/170063#geo> .
	// <https://capgraph.org/id/place/geonames/170063> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://schema.org/Place> .
	// <https://capgraph.org/id/place/geonames/170063> <http://www.w3.org/2002/07/owl#sameAs> <http://sws.geonames.org/170063/> .
	// <https://capgraph.org/id/place/geonames/170063> <http://www.w3.org/2003/01/geo/wgs84_pos#lat> "36.20124"^^<http://www.w3.org/2001/XMLSchema#decimal> .
	// <https://capgraph.org/id/place/geonames/170063> <http://www.w3.org/2003/01/geo/wgs84_pos#long> "37.16117"^^<http://www.w3.org/2001/XMLSchema#decimal> .
	// <https://capgraph.org/id/place/geonames/170063> <https://schema.org/geo> <https://capgraph.org/id/place/geonames/170063#geo> .
	// <https://capgraph.org/id/place/geonames/170063> <https://schema.org/name> "Aleppo" .
}
