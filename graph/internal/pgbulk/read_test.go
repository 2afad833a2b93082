package pgbulk

import (
	"database/sql"
	"fmt"
	"slices"
	"testing"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/internal/pgtest"
)

// TestReferenced asks whether a node is still named when some of the
// quads that name it are excepted: none, a few, all but one (in a graph
// and not, first and last), and all; and, in the same query, for a node
// no quad names.
func TestReferenced(t *testing.T) {
	addr := pgtest.Schema(t, "capgraph_pgbulk_referenced")
	if err := cgraph.InitQuadStore("postgres", addr, nil); err != nil {
		t.Fatal(err)
	}
	if err := CreateDerived(t.Context(), addr); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("postgres", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	// 100 quads name the country, half of them in a graph and half in the
	// default one.
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

	allBut := func(keep quad.Quad) []quad.Quad {
		var out []quad.Quad
		for _, q := range named {
			if q != keep {
				out = append(out, q)
			}
		}
		return out
	}
	nowhere := quad.IRI("https://capgraph.org/id/place/xx")
	tests := []struct {
		name   string
		except []quad.Quad
		want   bool
	}{
		{"none excepted", nil, true},
		{"a few excepted", named[:3], true},
		{"all excepted", named, false},
	}
	for _, i := range []int{0, 1, 15, 16, 79, 80, 99} {
		tests = append(tests, struct {
			name   string
			except []quad.Quad
			want   bool
		}{fmt.Sprintf("all but quad %d", i), allBut(named[i]), true})
	}
	for _, tt := range tests {
		// With a node nothing names beside it, in one query.
		got, err := l.Referenced(t.Context(), []quad.Value{nowhere, country}, tt.except)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if want := []bool{false, tt.want}; !slices.Equal(got, want) {
			t.Errorf("%s: Referenced = %v, want %v", tt.name, got, want)
		}
	}
}
