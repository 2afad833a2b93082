package pgbulk

import (
	"database/sql"
	"slices"
	"testing"

	cgraph "github.com/cayleygraph/cayley/graph"
	_ "github.com/cayleygraph/cayley/graph/sql/postgres" // Cayley's writer, to compare with
	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/internal/pgtest"
)

// TestApplyIsCayleys applies the same deltas to two stores, through
// Cayley's writer and through Apply, and compares their quads after each
// step; and each node's reference count in Apply's store with the quads
// that name it, which is where Cayley's writer goes wrong: it counts a
// quad added twice twice, and keeps nodes of a quad deleted in the
// transaction that adds it again. The steps add quads twice, delete
// missing ones, take a node's last reference, and mix quads with and
// without a graph.
func TestApplyIsCayleys(t *testing.T) {
	cayley := pgtest.Schema(t, "capgraph_pgbulk_apply_cayley")
	ours := pgtest.Schema(t, "capgraph_pgbulk_apply_ours")
	var stores [2]cgraph.QuadStore
	for i, addr := range []string{cayley, ours} {
		if err := cgraph.InitQuadStore("postgres", addr, nil); err != nil {
			t.Fatal(err)
		}
		qs, err := cgraph.NewQuadStore("postgres", addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer qs.Close()
		stores[i] = qs
		if err := IndexLabels(t.Context(), addr); err != nil {
			t.Fatal(err)
		}
		if err := CreateDerived(t.Context(), addr); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("postgres", ours)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	g := quad.IRI("https://capgraph.org/graph/1")
	q := func(s, p string, o quad.Value, l quad.Value) quad.Quad {
		return quad.Quad{Subject: quad.IRI(s), Predicate: quad.IRI(p), Object: o, Label: l}
	}
	add := func(qs ...quad.Quad) []cgraph.Delta {
		var ds []cgraph.Delta
		for _, q := range qs {
			ds = append(ds, cgraph.Delta{Quad: q, Action: cgraph.Add})
		}
		return ds
	}
	del := func(qs ...quad.Quad) []cgraph.Delta {
		ds := add(qs...)
		for i := range ds {
			ds[i].Action = cgraph.Delete
		}
		return ds
	}
	a := q("photo/1", "name", quad.String("Aleppo"), g)
	b := q("photo/1", "count", quad.Int(3), g)
	c := q("photo/2", "name", quad.String("Aleppo"), nil)
	d := q("photo/2", "when", quad.TypedString{Value: "2014-03", Type: "http://www.w3.org/2001/XMLSchema#gYearMonth"}, g)
	for i, step := range [][]cgraph.Delta{
		add(a, b, c),
		add(a, d),                     // a again
		slices.Concat(del(b), add(b)), // Cayley adds first: b goes
		del(q("photo/9", "name", quad.String("nowhere"), g)), // missing
		slices.Concat(del(a), add(q("photo/1", "name", quad.LangString{Value: "Alep", Lang: "fr"}, g))),
		del(c, d), // photo/2 and the month go with their last quads
	} {
		if err := stores[0].ApplyDeltas(step, cgraph.IgnoreOpts{IgnoreDup: true, IgnoreMissing: true}); err != nil {
			t.Fatalf("step %d, Cayley: %v", i, err)
		}
		if err := Apply(t.Context(), db, step); err != nil {
			t.Fatalf("step %d, Apply: %v", i, err)
		}
		want, got := rows(t, cayley, quadRows), rows(t, ours, quadRows)
		if !slices.Equal(got, want) {
			t.Errorf("step %d: Apply left\n%q\nCayley's writer\n%q", i, got, want)
		}
		if got, want := rows(t, ours, nodeRows), rows(t, ours, namedNodeRows); !slices.Equal(got, want) {
			t.Errorf("step %d: Apply left nodes\n%q\nwhere its quads name\n%q", i, got, want)
		}
	}
}

const (
	// quadRows are a store's quads, by hashes.
	quadRows = `SELECT concat_ws(' ', encode(subject_hash, 'hex'), encode(predicate_hash, 'hex'), encode(object_hash, 'hex'), encode(label_hash, 'hex'))
		FROM quads ORDER BY 1`
	// nodeRows are its nodes with their reference counts; namedNodeRows
	// what they should be: the nodes its quads name, each with the number
	// of places it fills.
	nodeRows      = `SELECT encode(hash, 'hex') || ' ' || refs FROM nodes ORDER BY 1`
	namedNodeRows = `SELECT encode(h, 'hex') || ' ' || count(*) FROM quads,
			LATERAL (VALUES (subject_hash), (predicate_hash), (object_hash), (label_hash)) AS v (h)
		WHERE h IS NOT NULL GROUP BY h ORDER BY 1`
)

// rows returns what query reads from the store at addr, a string a row.
func rows(t *testing.T, addr, query string) []string {
	t.Helper()
	db, err := sql.Open("postgres", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rs, err := db.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	var out []string
	for rs.Next() {
		var s string
		if err := rs.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
