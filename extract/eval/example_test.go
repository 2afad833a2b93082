package eval_test

import (
	"fmt"
	"os"

	"github.com/capgraph/capgraph/extract/eval"
)

func ExampleScore() {
	gold := []eval.Doc{{
		ID:   "ex1",
		Text: "Rebel fighters of the Lions Brigade rest in Al-Tina village. AP Photo/Mia Rowe",
		Entities: []eval.Entity{
			{Text: "Lions Brigade", Type: "ARMED_GROUP"},
			{Text: "Al-Tina", Type: "PLACE"},
			{Text: "AP", Type: "AGENCY"},
			{Text: "Mia Rowe", Type: "PHOTOGRAPHER"},
		},
		Relations: []eval.Relation{
			{Subj: "Rebel fighters", Rel: "member_of", Obj: "Lions Brigade"},
			{Subj: "photo", Rel: "depicts_place", Obj: "Al-Tina"},
		},
	}}
	pred := []eval.Doc{{
		ID:   "ex1",
		Text: gold[0].Text,
		Entities: []eval.Entity{
			{Text: "the Lions Brigade", Type: "ARMED_GROUP"}, // leading article dropped: a match
			{Text: "Al-Tina village", Type: "PLACE"},         // generic word kept: no match
			{Text: "AP", Type: "AGENCY"},
		},
		Relations: []eval.Relation{
			{Subj: "fighters", Rel: "member_of", Obj: "Lions Brigade"}, // subject ignored: a match
		},
	}}
	r := eval.Score(gold, pred)
	fmt.Printf("entities  P %.2f R %.2f F1 %.2f %+v\n", r.Entities.Precision(), r.Entities.Recall(), r.Entities.F1(), r.Entities)
	fmt.Printf("relations P %.2f R %.2f F1 %.2f %+v\n", r.Relations.Precision(), r.Relations.Recall(), r.Relations.F1(), r.Relations)
	fmt.Printf("PLACE %+v\n", r.EntityTypes["PLACE"])
	eval.WriteDiff(os.Stdout, eval.Diff(gold, pred))
	// Output:
	// entities  P 0.67 R 0.50 F1 0.57 {TP:2 FP:1 FN:2}
	// relations P 1.00 R 0.50 F1 0.67 {TP:1 FP:0 FN:1}
	// PLACE {TP:0 FP:1 FN:1}
	// ex1: Rebel fighters of the Lions Brigade rest in Al-Tina village. AP Photo/Mia Rowe
	//   - PLACE "Al-Tina"
	//   - PHOTOGRAPHER "Mia Rowe"
	//   + PLACE "Al-Tina village"
	//   - depicts_place "photo" -> "Al-Tina"
}

func ExampleNormalize() {
	for _, s := range []string{"Islamic State (IS)", "The Associated Press", "Al-Mallah", "José Núñez", "U.S."} {
		fmt.Printf("%q\n", eval.Normalize(s))
	}
	// Output:
	// "islamic state"
	// "associated press"
	// "al mallah"
	// "jose nunez"
	// "us"
}
