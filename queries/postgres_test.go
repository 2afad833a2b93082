package queries_test

import (
	"bytes"
	"context"
	"database/sql"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/lib/pq"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/extract/synth"
	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/queries"
)

// TestBuiltinsOnPostgres runs every built-in on PostgreSQL and on bbolt
// over the same 150 generated captions and wants the same rows. Before
// graph.sqlQueries, people and groups-in-place crashed the process there
// (a nil dereference inside Cayley's SQL iterator).
func TestBuiltinsOnPostgres(t *testing.T) {
	addr := os.Getenv("CAPGRAPH_TEST_POSTGRES")
	if addr == "" {
		t.Skip("CAPGRAPH_TEST_POSTGRES not set (.ci/run sets it to a local PostgreSQL)")
	}
	// A schema of its own: graph's tests use the same database at the
	// same time, in another process.
	db, err := sql.Open("postgres", addr)
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`DROP SCHEMA IF EXISTS capgraph_queries_test CASCADE`,
		`CREATE SCHEMA capgraph_queries_test`,
	} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	u, err := url.Parse(addr)
	if err != nil {
		t.Fatal(err)
	}
	v := u.Query()
	v.Set("search_path", "capgraph_queries_test")
	u.RawQuery = v.Encode()
	addr = u.String()

	xs, err := synth.Extractions(7, 0, 150)
	if err != nil {
		t.Fatal(err)
	}
	load := func(addr string) *graph.Store {
		s, err := graph.Open(context.Background(), addr, graph.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		if _, err := s.Load(context.Background(), func(yield func(extract.Extraction, error) bool) {
			for _, x := range xs {
				if !yield(x, nil) {
					return
				}
			}
		}, graph.LoadOptions{ExtractorVersion: extract.Version}); err != nil {
			t.Fatal(err)
		}
		return s
	}
	pg, bolt := load(addr), load(filepath.Join(t.TempDir(), "db"))
	for _, q := range queries.Builtin() {
		t.Run(q.Name, func(t *testing.T) {
			values := map[string]string{"place": "Aleppo", "group": "Free Syrian Army", "name": "Aleppo",
				"photographer": "", "from": "2014-01-01", "to": "2018-12-31", "subject": "Aleppo", "relation": "located_in", "object": "Syria"}
			for k := range values {
				if _, ok := q.Param(k); !ok {
					delete(values, k)
				}
			}
			cols := q.Columns
			want := format(cols, runGizmo(t, bolt, q, values))
			got := format(cols, runGizmo(t, pg, q, values))
			if !bytes.Equal(got, want) {
				t.Errorf("PostgreSQL rows differ from bbolt's:\n got %s\nwant %s", got, want)
			}
			if len(want) == 0 && q.Name != "aliases" && q.Name != "provenance" {
				t.Logf("%s: no rows on either store", q.Name)
			}
		})
	}
}
