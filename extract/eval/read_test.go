package eval_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/capgraph/capgraph/extract/eval"
)

func TestReadDocs(t *testing.T) {
	in := "\ufeff{\"id\":\"a\",\"text\":\"One.\",\"entities\":[{\"text\":\"One\",\"type\":\"PLACE\",\"start\":0}]}\r\n" +
		"\n   \n" +
		`{"id":"b","text":"Two.","meta":{"k":1},"relations":[{"subj":"photo","rel":"depicts_place","obj":"Two"}]}`
	docs, err := eval.ReadDocs(strings.NewReader(in), "x.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2 || docs[0].ID != "a" || docs[1].ID != "b" ||
		docs[0].Entities[0] != (eval.Entity{Text: "One", Type: "PLACE"}) ||
		docs[1].Relations[0] != (eval.Relation{Subj: "photo", Rel: "depicts_place", Obj: "Two"}) {
		t.Errorf("got %+v", docs)
	}
}

func TestReadDocsErrors(t *testing.T) {
	ok := `{"id":"a","text":"A."}` + "\n"
	tests := []struct {
		name, in, msg string
		is            error
	}{
		{"syntax", ok + "\n{\"id\":\n", "gold.jsonl:3: invalid JSON: ", nil},
		{"trailing", `{"id":"a","text":"A."} x`, "gold.jsonl:1: invalid JSON: ", nil},
		{"type", ok + `{"id":7,"text":"B."}`, "gold.jsonl:2: invalid JSON: ", nil},
		{"array", `[]`, "gold.jsonl:1: invalid JSON: ", nil},
		{"no id", ok + `{"text":"B."}`, `gold.jsonl:2: missing "id"`, eval.ErrNoID},
		{"empty id", `{"id":"","text":"B."}`, `gold.jsonl:1: missing "id"`, eval.ErrNoID},
		{"null", `null`, `gold.jsonl:1: missing "id"`, eval.ErrNoID},
		{"no text", ok + `{"id":"b","text":"B."}` + "\n\n" + `{"id":"c"}`, `gold.jsonl:4: missing "text"`, eval.ErrNoText},
		{"duplicate", ok + "\n" + ok, `gold.jsonl:3: duplicate id "a" (first on line 1)`, eval.ErrDuplicateID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := eval.ReadDocs(strings.NewReader(tt.in), "gold.jsonl")
			if err == nil || !strings.HasPrefix(err.Error(), tt.msg) {
				t.Fatalf("err = %v, want prefix %q", err, tt.msg)
			}
			if _, ok := errors.AsType[*eval.ParseError](err); !ok {
				t.Errorf("err is %T, not *ParseError", err)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.is)
			}
		})
	}
}

func FuzzReadDocs(f *testing.F) {
	for _, name := range []string{"testdata/gold.jsonl", "testdata/pred.jsonl"} {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add(`{"id":"a","text":"b"}` + "\n" + `{"id":"a","text":"b"}`)
	f.Add("null\n\n{}")
	f.Add("\ufeff{\"id\":\"\",\"text\":\"\"}\r\n")
	f.Fuzz(func(t *testing.T, in string) {
		docs, err := eval.ReadDocs(strings.NewReader(in), "f.jsonl")
		lines := strings.Count(in, "\n") + 1
		if err != nil {
			pe, ok := errors.AsType[*eval.ParseError](err)
			if !ok {
				t.Fatalf("err is %T, not *ParseError: %v", err, err)
			}
			if pe.Line < 1 || pe.Line > lines || !strings.HasPrefix(err.Error(), "f.jsonl:") {
				t.Fatalf("bad error %q for %d lines", err, lines)
			}
			return
		}
		seen := map[string]bool{}
		for _, d := range docs {
			if d.ID == "" || d.Text == "" || seen[d.ID] {
				t.Fatalf("bad doc %+v", d)
			}
			seen[d.ID] = true
		}
		if len(docs) > lines {
			t.Fatalf("%d docs from %d lines", len(docs), lines)
		}
		// Scoring a file against itself is perfect.
		r := eval.Score(docs, docs)
		if r.Entities.FP+r.Entities.FN+r.Relations.FP+r.Relations.FN != 0 || len(eval.Diff(docs, docs)) != 0 {
			t.Fatalf("self-score not perfect: %+v", r)
		}
	})
}
