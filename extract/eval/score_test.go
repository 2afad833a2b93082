package eval_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/extract/eval"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden files")

func readFile(t testing.TB, name string) []eval.Doc {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	docs, err := eval.ReadDocs(f, filepath.Base(name))
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestCounts(t *testing.T) {
	tests := []struct {
		c       eval.Counts
		p, r, f float64
	}{
		{eval.Counts{}, 0, 0, 0},
		{eval.Counts{FP: 3}, 0, 0, 0},
		{eval.Counts{FN: 3}, 0, 0, 0},
		{eval.Counts{TP: 2}, 1, 1, 1},
		{eval.Counts{TP: 3, FP: 1, FN: 2}, 0.75, 0.6, 2.0 / 3},
	}
	for _, tt := range tests {
		if !near(tt.c.Precision(), tt.p) || !near(tt.c.Recall(), tt.r) || !near(tt.c.F1(), tt.f) {
			t.Errorf("%+v: P R F1 = %v %v %v, want %v %v %v", tt.c, tt.c.Precision(), tt.c.Recall(), tt.c.F1(), tt.p, tt.r, tt.f)
		}
	}
	b, err := json.Marshal(eval.Counts{TP: 1, FP: 1, FN: 2})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"tp":1,"fp":1,"fn":2,"precision":0.5,"recall":0.3333333333333333,"f1":0.4}`; string(b) != want {
		t.Errorf("json = %s, want %s", b, want)
	}
	var back eval.Counts
	if err := json.Unmarshal(b, &back); err != nil || back != (eval.Counts{TP: 1, FP: 1, FN: 2}) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
}

type ent = eval.Entity
type rel = eval.Relation

func TestScore(t *testing.T) {
	tests := []struct {
		name       string
		gold, pred []eval.Doc
		ents, rels eval.Counts
		missing    int
		unmatched  int
	}{
		{
			name: "member_of subject ignored",
			gold: []eval.Doc{{ID: "1", Text: "t", Relations: []rel{{"fighter", "member_of", "Nusra Front"}}}},
			pred: []eval.Doc{{ID: "1", Text: "t", Relations: []rel{{"Members", "member_of", "the Nusra Front"}}}},
			rels: eval.Counts{TP: 1},
		},
		{
			name: "other subjects count",
			gold: []eval.Doc{{ID: "1", Text: "t", Relations: []rel{{"Douma", "located_in", "Damascus"}}}},
			pred: []eval.Doc{{ID: "1", Text: "t", Relations: []rel{{"Duma", "located_in", "Damascus"}}}},
			rels: eval.Counts{FP: 1, FN: 1},
		},
		{
			name: "member_of with two role words and one group counts once",
			gold: []eval.Doc{{ID: "1", Text: "t", Relations: []rel{{"fighter", "member_of", "FSA"}, {"Nusra", "member_of", "FSA"}}}},
			pred: []eval.Doc{{ID: "1", Text: "t", Relations: []rel{{"soldier", "member_of", "FSA"}}}},
			rels: eval.Counts{TP: 1},
		},
		{
			name: "relation type matters",
			gold: []eval.Doc{{ID: "1", Text: "t", Relations: []rel{{"photo", "depicts_place", "Homs"}}}},
			pred: []eval.Doc{{ID: "1", Text: "t", Relations: []rel{{"photo", "event_at", "Homs"}}}},
			rels: eval.Counts{FP: 1, FN: 1},
		},
		{
			name: "entity type matters",
			gold: []eval.Doc{{ID: "1", Text: "t", Entities: []ent{{Text: "Reuters", Type: "AGENCY"}}}},
			pred: []eval.Doc{{ID: "1", Text: "t", Entities: []ent{{Text: "Reuters", Type: "ORGANIZATION"}}}},
			ents: eval.Counts{FP: 1, FN: 1},
		},
		{
			name: "duplicates and case variants count once on each side",
			gold: []eval.Doc{{ID: "1", Text: "t", Entities: []ent{{Text: "REUTERS", Type: "AGENCY"}, {Text: "Reuters", Type: "AGENCY"}, {Text: "Homs", Type: "PLACE"}}}},
			pred: []eval.Doc{{ID: "1", Text: "t", Entities: []ent{{Text: "Reuters", Type: "AGENCY"}, {Text: "Reuters", Type: "AGENCY"}, {Text: "Idlib", Type: "PLACE"}, {Text: "Idlib", Type: "PLACE"}}}},
			ents: eval.Counts{TP: 1, FP: 1, FN: 1},
		},
		{
			name: "entities are matched within their caption",
			gold: []eval.Doc{{ID: "1", Text: "t", Entities: []ent{{Text: "Homs", Type: "PLACE"}}}, {ID: "2", Text: "u"}},
			pred: []eval.Doc{{ID: "1", Text: "t"}, {ID: "2", Text: "u", Entities: []ent{{Text: "Homs", Type: "PLACE"}}}},
			ents: eval.Counts{FP: 1, FN: 1},
		},
		{
			name:    "missing prediction",
			gold:    []eval.Doc{{ID: "1", Text: "t", Entities: []ent{{Text: "Homs", Type: "PLACE"}, {Text: "AP", Type: "AGENCY"}}, Relations: []rel{{"photo", "distributed_by", "AP"}}}},
			ents:    eval.Counts{FN: 2},
			rels:    eval.Counts{FN: 1},
			missing: 1,
		},
		{
			name:      "predictions not in gold are ignored",
			gold:      []eval.Doc{{ID: "1", Text: "t", Entities: []ent{{Text: "Homs", Type: "PLACE"}}}},
			pred:      []eval.Doc{{ID: "1", Text: "t", Entities: []ent{{Text: "HOMS", Type: "PLACE"}}}, {ID: "9", Text: "x", Entities: []ent{{Text: "Idlib", Type: "PLACE"}}}},
			ents:      eval.Counts{TP: 1},
			unmatched: 1,
		},
		{
			name: "repeated ids are merged",
			gold: []eval.Doc{{ID: "1", Text: "t", Entities: []ent{{Text: "Homs", Type: "PLACE"}}}, {ID: "1", Text: "t", Entities: []ent{{Text: "Idlib", Type: "PLACE"}}}},
			pred: []eval.Doc{{ID: "1", Text: "t", Entities: []ent{{Text: "Idlib", Type: "PLACE"}}}},
			ents: eval.Counts{TP: 1, FN: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := eval.Score(tt.gold, tt.pred)
			if r.Entities != tt.ents || r.Relations != tt.rels || len(r.Missing) != tt.missing || len(r.Unmatched) != tt.unmatched {
				t.Errorf("got entities %+v relations %+v missing %v unmatched %v\nwant %+v %+v %d %d",
					r.Entities, r.Relations, r.Missing, r.Unmatched, tt.ents, tt.rels, tt.missing, tt.unmatched)
			}
		})
	}
}

// TestScoreFiles checks testdata/pred.jsonl against testdata/gold.jsonl,
// with counts worked out by hand (see the comments).
func TestScoreFiles(t *testing.T) {
	r := eval.Score(readFile(t, "testdata/gold.jsonl"), readFile(t, "testdata/pred.jsonl"))
	want := eval.Report{
		Captions: 4,
		// g1: 5 tp ("the Free Syrian Army" matches), "Aleppo province" fp, "Aleppo" fn.
		// g2: 4 tp ("Islamic State" matches "Islamic State (IS)", "JOHN DOE" "John Doe"),
		//     "IS" typed ORGANIZATION: fp, and its ARMED_GROUP gold fn.
		// g3: 5 tp: REUTERS/Reuters count once on each side, as do the two "Syria".
		// g4: no prediction, 3 fn.
		Entities: eval.Counts{TP: 14, FP: 2, FN: 5},
		// g1: 5 tp (member_of subject ignored), located_in to "Aleppo province" fp and fn.
		// g2: 3 tp, controlled_by "rebels" fp, alias_of and controlled_by "IS" fn.
		// g3: 5 tp. g4: 3 fn.
		Relations: eval.Counts{TP: 13, FP: 2, FN: 6},
		EntityTypes: map[string]eval.Counts{
			"ARMED_GROUP":  {TP: 2, FN: 1},
			"PLACE":        {TP: 4, FP: 1, FN: 2},
			"DATE":         {TP: 2},
			"AGENCY":       {TP: 3, FN: 1},
			"PHOTOGRAPHER": {TP: 3, FN: 1},
			"ORGANIZATION": {FP: 1},
		},
		RelationTypes: map[string]eval.Counts{
			"member_of":       {TP: 1},
			"depicts_place":   {TP: 3, FN: 1},
			"located_in":      {TP: 1, FP: 1, FN: 1},
			"taken_on":        {TP: 2},
			"distributed_by":  {TP: 3, FN: 1},
			"photographed_by": {TP: 3, FN: 1},
			"alias_of":        {FN: 1},
			"controlled_by":   {FP: 1, FN: 1},
		},
		Geocoded:  eval.Geocoded{Places: 4, WithCoordinates: 1}, // Al-Bab in g1
		Missing:   []string{"g4"},
		Unmatched: []string{"x9"},
	}
	got, _ := json.Marshal(r)
	wantJSON, _ := json.Marshal(want)
	if !bytes.Equal(got, wantJSON) {
		t.Errorf("got  %s\nwant %s", got, wantJSON)
	}
	if !near(r.Entities.Precision(), 14.0/16) || !near(r.Entities.Recall(), 14.0/19) || !near(r.Entities.F1(), 0.8) {
		t.Errorf("entities P R F1 = %v %v %v", r.Entities.Precision(), r.Entities.Recall(), r.Entities.F1())
	}
	if !near(r.Relations.Precision(), 13.0/15) || !near(r.Relations.Recall(), 13.0/19) || !near(r.Relations.F1(), 26.0/34) {
		t.Errorf("relations P R F1 = %v %v %v", r.Relations.Precision(), r.Relations.Recall(), r.Relations.F1())
	}
}

func TestGolden(t *testing.T) {
	gold, pred := readFile(t, "testdata/gold.jsonl"), readFile(t, "testdata/pred.jsonl")
	r := eval.Score(gold, pred)
	var table, diff, js bytes.Buffer
	if err := r.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if err := eval.WriteDiff(&diff, eval.Diff(gold, pred)); err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(&js)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]byte{"table": table.Bytes(), "diff": diff.Bytes(), "report-json": js.Bytes()} {
		t.Run(name, func(t *testing.T) {
			golden := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if want, err := os.ReadFile(golden); err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s is missing or stale (%v); run go test -update\ngot:\n%s", golden, err, got)
			}
		})
	}
}

func TestDiff(t *testing.T) {
	gold := []eval.Doc{
		{ID: "ok", Text: "t", Entities: []ent{{Text: "Homs", Type: "PLACE"}}},
		{ID: "bad", Text: "u", Entities: []ent{{Text: "Homs", Type: "PLACE"}, {Text: "homs", Type: "PLACE"}},
			Relations: []rel{{"fighter", "member_of", "FSA"}}},
		{ID: "none", Text: "v"},
	}
	pred := []eval.Doc{
		{ID: "ok", Text: "t", Entities: []ent{{Text: "HOMS", Type: "PLACE"}}},
		{ID: "bad", Text: "u", Entities: []ent{{Text: "Idlib", Type: "PLACE"}, {Text: "IDLIB", Type: "PLACE"}},
			Relations: []rel{{"soldier", "member_of", "FSA"}, {"photo", "depicts_place", "Idlib"}}},
	}
	ms := eval.Diff(gold, pred)
	if len(ms) != 2 || ms[0].ID != "bad" || ms[1].ID != "none" || !ms[1].NoPrediction {
		t.Fatalf("got %+v", ms)
	}
	m := ms[0]
	if len(m.MissingEntities) != 1 || m.MissingEntities[0].Text != "Homs" ||
		len(m.SpuriousEntities) != 1 || m.SpuriousEntities[0].Text != "Idlib" ||
		len(m.MissingRelations) != 0 || len(m.SpuriousRelations) != 1 {
		t.Errorf("got %+v", m)
	}
}

// TestDevSelf scores the shared development set against itself, which must
// be perfect for every type: normalisation never separates what it should
// join.
func TestDevSelf(t *testing.T) {
	const dev = "../../../shared/captions/dev.jsonl"
	if _, err := os.Stat(dev); err != nil {
		t.Skipf("no %s: %v", dev, err)
	}
	docs := readFile(t, dev)
	r := eval.Score(docs, docs)
	if r.Captions != len(docs) || len(r.Missing) != 0 || len(r.Unmatched) != 0 {
		t.Errorf("captions %d of %d, missing %v, unmatched %v", r.Captions, len(docs), r.Missing, r.Unmatched)
	}
	check := func(name string, c eval.Counts) {
		if c.F1() != 1 || c.Precision() != 1 || c.Recall() != 1 {
			t.Errorf("%s: %+v, F1 %v", name, c, c.F1())
		}
	}
	check("entities", r.Entities)
	check("relations", r.Relations)
	for typ, c := range r.EntityTypes {
		check(typ, c)
	}
	for typ, c := range r.RelationTypes {
		check(typ, c)
	}
	for _, typ := range extract.EntityTypes {
		if _, ok := r.EntityTypes[string(typ)]; !ok {
			t.Errorf("no %s in the development set", typ)
		}
	}
	if ms := eval.Diff(docs, docs); len(ms) != 0 {
		t.Errorf("Diff of the development set with itself: %d mismatches", len(ms))
	}
	// The same captions as extract output must score the same.
	var xs []eval.Doc
	for _, d := range docs {
		x := extract.Extraction{ID: d.ID, Text: d.Text}
		for _, e := range d.Entities {
			x.Entities = append(x.Entities, extract.Entity{Text: e.Text, Type: extract.EntityType(e.Type)})
		}
		for _, rl := range d.Relations {
			x.Relations = append(x.Relations, extract.Relation{Subj: rl.Subj, Rel: extract.RelationType(rl.Rel), Obj: rl.Obj})
		}
		xs = append(xs, eval.FromExtraction(x))
	}
	if r2 := eval.Score(docs, xs); r2.Entities != r.Entities || r2.Relations != r.Relations {
		t.Errorf("FromExtraction changes the score: %+v %+v", r2.Entities, r2.Relations)
	}
}
