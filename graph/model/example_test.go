package model_test

import (
	"fmt"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/graph/model"
)

func ExampleEntityIRI() {
	fmt.Println(model.EntityIRI("place:geonames:170063"))
	fmt.Println(model.PhotoIRI("ex 9"))
	fmt.Println(model.GraphOfPhoto(model.PhotoIRI("ex 9")))
	// Output:
	// https://capgraph.org/id/place/geonames/170063
	// https://capgraph.org/id/photo/ex%209
	// https://capgraph.org/id/graph/ex%209 true
}

// ExampleQuads shows where the quads of one extraction go: the caption's
// own facts into its named graph, the place's description into the shared
// entities graph.
func ExampleQuads() {
	x := extract.Extraction{
		ID:   "ex-9",
		Text: "Children play in Aleppo. REUTERS",
		Entities: []extract.Entity{
			{ID: "place:geonames:170063", Text: "Aleppo", Type: extract.Place, Start: 17, End: 23, Confidence: 0.9, GeoNamesID: 170063},
		},
	}
	perGraph := map[string]int{}
	for _, q := range model.Quads(x, model.Provenance{}) {
		perGraph[q.Label.String()]++
	}
	fmt.Println(perGraph["<"+model.GraphIRI(x.ID)+">"] > 0, perGraph["<"+model.EntitiesGraph+">"])
	// Output:
	// true 3
}
