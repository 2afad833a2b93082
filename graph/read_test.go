package graph_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/graph/model"
)

// TestOut: Out yields what Quads yields of a node, kept to the predicates
// asked for, with their objects, on the embedded and in-memory stores.
func TestOut(t *testing.T) {
	for name, addr := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t, addr(t))
			defer s.Close()
			load(t, s, sample())
			outMatchesQuads(t, s)
		})
	}
}

func outMatchesQuads(t *testing.T, s *graph.Store) {
	iri := func(s string) graph.Term { return graph.IRI(s) }
	ctx := context.Background()
	tests := []struct {
		node  string
		preds []graph.Term
	}{
		{model.PhotoIRI("ex-1"), []graph.Term{iri(string(model.SchemaContentLocation)), iri(string(model.SchemaDateCreated))}},
		{model.PhotoIRI("ex-1"), []graph.Term{iri(string(model.SchemaMentions))}},
		{model.Base + "place/geonames/170654", []graph.Term{iri(string(model.SchemaName)), iri(string(model.SchemaContainedInPlace)), iri(string(model.CapgraphLocatedIn))}},
		{model.Base + "group/free-syrian-army", []graph.Term{iri(string(model.SchemaAlternateName))}},
		{model.PhotoIRI("ex-1"), []graph.Term{iri("https://example.org/no-such-predicate")}},
		{model.PhotoIRI("ex-1"), nil},
		{model.Base + "no/such/node", []graph.Term{iri(string(model.SchemaName))}},
	}
	for _, tt := range tests {
		var want, got []string
		for q, err := range s.Quads(ctx, graph.Subject, iri(tt.node)) {
			if err != nil {
				t.Fatal(err)
			}
			if slices.Contains(tt.preds, q.Predicate) {
				want = append(want, fmt.Sprint(q.Predicate, q.Object))
			}
		}
		for q, err := range s.Out(ctx, iri(tt.node), tt.preds...) {
			if err != nil {
				t.Fatal(err)
			}
			if q.Subject != iri(tt.node) || q.Graph != (graph.Term{}) {
				t.Errorf("Out(%s): quad %v", tt.node, q)
			}
			got = append(got, fmt.Sprint(q.Predicate, q.Object))
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("Out(%s, %v) = %q, want %q", tt.node, tt.preds, got, want)
		}
		if len(tt.preds) == 1 && tt.preds[0].Value == string(model.SchemaMentions) && len(want) == 0 {
			t.Errorf("Out(%s): the sample photo mentions nothing; the test checks nothing", tt.node)
		}
	}
}

// TestVersion: an embedded store's version holds until a write commits;
// stores in memory have none.
func TestVersion(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, dir)
	v0, ok, err := s.Version(ctx)
	if err != nil || !ok {
		t.Fatalf("Version of a new store: %q %v %v", v0, ok, err)
	}
	load(t, s, sample()[:1])
	v1, _, _ := s.Version(ctx)
	if v1 == v0 {
		t.Errorf("version %q before and after a load", v1)
	}
	load(t, s, sample()[1:])
	v2, _, _ := s.Version(ctx)
	if v2 == v1 {
		t.Errorf("version %q before and after the second load", v2)
	}
	s.Close()
	s = open(t, dir)
	defer s.Close()
	if again, _, _ := s.Version(ctx); again != v2 {
		t.Errorf("version %q after reopening, %q before", again, v2)
	}
	mem := open(t, "")
	defer mem.Close()
	if v, ok, err := mem.Version(ctx); ok || err != nil {
		t.Errorf("Version of a store in memory: %q %v %v", v, ok, err)
	}
}
