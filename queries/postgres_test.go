package queries_test

import (
	"bytes"
	"context"
	"maps"
	"path/filepath"
	"testing"

	_ "github.com/lib/pq"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/extract/synth"
	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/internal/pgtest"
	"github.com/capgraph/capgraph/queries"
)

// TestBuiltinsOnPostgres runs every built-in on a bulk-loaded PostgreSQL
// store and on bbolt over the same 150 generated captions, as Gizmo and
// as its SQL twin, and wants the same rows: with every optional entity
// parameter given and left empty. It compares the twins again after a
// second build into both, which changes 50 of the captions and adds 50:
// PostgreSQL takes it transaction by transaction (pgbulk.Apply), which
// must keep the tables the twins read as the bulk load derives them. (Before
// graph's plan.SQL wrapper, people and groups-in-place crashed the
// process on PostgreSQL, a nil dereference inside Cayley's SQL iterator.)
func TestBuiltinsOnPostgres(t *testing.T) {
	// A schema of its own: graph's tests use the same database at the
	// same time, in another process.
	addr := pgtest.Schema(t, "capgraph_queries_test")

	first, err := synth.Extractions(7, 0, 150)
	if err != nil {
		t.Fatal(err)
	}
	load := func(s *graph.Store, xs []extract.Extraction) {
		if _, err := s.Load(context.Background(), func(yield func(extract.Extraction, error) bool) {
			for _, x := range xs {
				if !yield(x, nil) {
					return
				}
			}
		}, graph.LoadOptions{ExtractorVersion: extract.Version}); err != nil {
			t.Fatal(err)
		}
	}
	open := func(addr string) *graph.Store {
		s, err := graph.Open(context.Background(), addr, graph.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	pg := open(addr)
	load(pg, first)
	bolt := open(filepath.Join(t.TempDir(), "db"))
	load(bolt, first)
	t.Run("bulk", func(t *testing.T) { compareBuiltins(t, pg, bolt, true) })
	second, err := synth.Extractions(8, 100, 100)
	if err != nil {
		t.Fatal(err)
	}
	load(pg, second)
	load(bolt, second)
	// The tables the twins read, kept write by write, are what a fresh
	// derivation from the quads gives.
	if r, err := pg.Check(t.Context()); err != nil || len(r.Problems) > 0 {
		t.Fatalf("check after the second build: %v %q", err, r.Problems)
	}
	// Gizmo on PostgreSQL reads the quads, not the derived tables: once is
	// enough.
	t.Run("changed", func(t *testing.T) { compareBuiltins(t, pg, bolt, false) })
}

// compareBuiltins runs every built-in on pg and on bolt, which hold the
// same captions, and wants the same rows from the SQL twin on pg as from
// Gizmo on bolt, and from Gizmo on pg too if gizmoOnPG.
func compareBuiltins(t *testing.T, pg, bolt *graph.Store, gizmoOnPG bool) {
	all := map[string]string{"place": "Aleppo", "group": "Free Syrian Army", "name": "Aleppo",
		"photographer": "", "from": "2014-01-01", "to": "2018-12-31", "subject": "Aleppo", "relation": "located_in", "object": "Syria"}
	for _, q := range queries.Builtin() {
		runs := []map[string]string{{}}
		for k, v := range all {
			if _, ok := q.Param(k); ok {
				runs[0][k] = v
			}
		}
		// An optional entity left empty means every one: run that too.
		for _, p := range q.Params {
			if p.Resolve != "" && !p.Required {
				run := maps.Clone(runs[0])
				switch {
				case run[p.Name] != "":
					run[p.Name] = ""
				case p.Name == "photographer": // one who is in the store
					run[p.Name] = runGizmo(t, bolt, q, nil)[0]["label"].(string)
				default:
					run[p.Name] = "Free Syrian Army"
				}
				runs = append(runs, run)
			}
		}
		for _, values := range runs {
			t.Run(q.Name, func(t *testing.T) {
				cols := q.Columns
				want := format(cols, runGizmo(t, bolt, q, values))
				if gizmoOnPG {
					got := format(cols, runGizmo(t, pg, q, values))
					if !bytes.Equal(got, want) {
						t.Errorf("%v: PostgreSQL rows differ from bbolt's:\n got %s\nwant %s", values, got, want)
					}
				}
				if q.SQL != "" {
					got := format(cols, runSQL(t, pg, q, values))
					if !bytes.Equal(got, want) {
						t.Errorf("%v: the SQL twin's rows differ from bbolt's:\n got %s\nwant %s", values, got, want)
					}
				}
				if len(want) == 0 && q.Name != "aliases" {
					t.Logf("%s %v: no rows on either store", q.Name, values)
				}
			})
		}
	}
}

// runSQL runs q's SQL twin on a PostgreSQL store.
func runSQL(t testing.TB, s *graph.Store, q queries.Query, values map[string]string) []row {
	t.Helper()
	text, args, err := q.BindSQL(values, variants(t, q, values))
	if err != nil {
		t.Fatal(err)
	}
	var out []row
	for r, err := range s.QuerySQL(t.Context(), text, args, 0) {
		if err != nil {
			t.Fatalf("%s: %v", q.Name, err)
		}
		out = append(out, r.(map[string]any))
	}
	return out
}
