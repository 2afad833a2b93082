package pgbulk

import (
	"database/sql"
	"fmt"
	"testing"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/internal/pgtest"
)

// TestReferenced asks whether a node is still named when some of the
// quads that name it are excepted: none, a few, all but one (on every
// page, the last included), and all; and for a node no quad names.
func TestReferenced(t *testing.T) {
	addr := pgtest.Schema(t, "capgraph_pgbulk_referenced")
	if err := cgraph.InitQuadStore("postgres", addr, nil); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("postgres", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	// 100 quads name the country, spread over three pages (16, 64, 256),
	// half of them in a graph and half in the default one.
	country := quad.IRI("https://capgraph.org/id/place/sy")
	var named []quad.Quad
	var deltas []cgraph.Delta
	for i := range 100 {
		q := quad.Quad{Subject: quad.IRI(fmt.Sprintf("https://capgraph.org/id/photo/%d", i)), Predicate: quad.IRI("https://schema.org/contentLocation"), Object: country}
		if i%2 == 0 {
			q.Label = quad.IRI(fmt.Sprintf("https://capgraph.org/graph/%d", i))
		}
		named = append(named, q)
		deltas = append(deltas, cgraph.Delta{Quad: q, Action: cgraph.Add})
	}
	if err := Apply(t.Context(), db, deltas); err != nil {
		t.Fatal(err)
	}
	l, err := NewLookup(t.Context(), addr)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()

	allBut := func(keep quad.Quad) func(quad.Quad) bool {
		return func(q quad.Quad) bool { return q != keep }
	}
	tests := []struct {
		name   string
		v      quad.Value
		except func(quad.Quad) bool
		want   bool
	}{
		{"none excepted", country, func(quad.Quad) bool { return false }, true},
		{"all excepted", country, func(quad.Quad) bool { return true }, false},
		{"a node nothing names", quad.IRI("https://capgraph.org/id/place/xx"), func(quad.Quad) bool { return false }, false},
	}
	for i, q := range named {
		tests = append(tests, struct {
			name   string
			v      quad.Value
			except func(quad.Quad) bool
			want   bool
		}{fmt.Sprintf("all but quad %d", i), country, allBut(q), true})
	}
	for _, tt := range tests {
		got, err := l.Referenced(t.Context(), tt.v, tt.except)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got != tt.want {
			t.Errorf("%s: Referenced = %v, want %v", tt.name, got, tt.want)
		}
	}
}
