package graph

import (
	"context"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/extract"
)

// TestDescriptionByIndex checks the index-backed description read against
// a read of every quad of the subject, for every entity the bundled
// examples describe: it fails when describe writes a predicate that
// model.DescriptionPredicates lacks.
func TestDescriptionByIndex(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Load(ctx, all(exampleExtractions(t)), LoadOptions{}); err != nil {
		t.Fatal(err)
	}

	subjects := make(map[quad.Value]bool)
	it := s.qs.QuadsAllIterator().Iterate()
	for it.Next(ctx) {
		q, err := s.qs.Quad(it.Result())
		if err != nil {
			t.Fatal(err)
		}
		if q.Label == entitiesGraph {
			subjects[q.Subject] = true
		}
	}
	it.Close()
	if len(subjects) < 20 {
		t.Fatalf("only %d described entities", len(subjects))
	}
	key := func(qs []quad.Quad) []string {
		var out []string
		for _, q := range qs {
			out = append(out, q.String())
		}
		slices.Sort(out)
		return out
	}
	for v := range subjects {
		got, err := s.description(ctx, v)
		if err != nil {
			t.Fatal(err)
		}
		want, err := s.subjectQuads(ctx, v, entitiesGraph)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := key(got), key(want); !slices.Equal(g, w) {
			t.Errorf("description of %v:\n got %q\nwant %q", v, g, w)
		}
	}
}

// exampleExtractions extracts the bundled example captions.
func exampleExtractions(t *testing.T) []extract.Extraction {
	t.Helper()
	x, err := extract.New()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join("..", "examples", "captions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var xs []extract.Extraction
	for e, err := range x.ExtractAll(context.Background(), extract.NewReader(f, extract.ReaderOptions{Name: f.Name()}).All(), 1) {
		if err != nil {
			t.Fatal(err)
		}
		xs = append(xs, e)
	}
	return xs
}

// all yields xs without error.
func all(xs []extract.Extraction) iter.Seq2[extract.Extraction, error] {
	return func(yield func(extract.Extraction, error) bool) {
		for _, x := range xs {
			if !yield(x, nil) {
				return
			}
		}
	}
}

func fixedNow() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

// testLoad is how the tests load: at a fixed time, under a version of their own.
var testLoad = LoadOptions{Now: fixedNow, ExtractorVersion: "test"}

func TestAddrHidesPassword(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"postgres://u:secret@db.example:5432/g?sslmode=disable", "postgres://u:xxxxx@db.example:5432/g?sslmode=disable"},
		{"postgresql://u@db/g", "postgresql://u@db/g"},
		{"/var/lib/capgraph", "/var/lib/capgraph"},
	} {
		if got := redact(tc.in); got != tc.want {
			t.Errorf("redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// A server that is not there: the error names the store, not its password.
	_, err := Open(context.Background(), "postgres://u:secret@127.0.0.1:1/g?sslmode=disable&connect_timeout=1", Options{})
	if err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("open error %v", err)
	}
}
