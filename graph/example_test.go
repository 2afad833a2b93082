package graph_test

import (
	"context"
	"fmt"
	"log"
	"os"

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
	st, err := s.Load(ctx, func(yield func(extract.Extraction, error) bool) { yield(x, nil) })
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("added", st.Added, "quads", st.Quads)
	if _, err := s.Export(ctx, os.Stdout, graph.CSV); err != nil {
		log.Fatal(err)
	}
	// Output:
	// added 1 quads 19
	// photo,date,precision,place,admin1,admin2,country,latitude,longitude,armed_groups,people,photographer,agency,caption_id
	// https://capgraph.org/id/photo/ex-9,,,Aleppo,,,,,,,,,,ex-9
}
