package graph

import (
	"database/sql"
	"os"
	"strings"
	"testing"

	_ "github.com/lib/pq"

	"github.com/capgraph/capgraph/graph/internal/pgbulk"
)

// ResetPostgres is resetPostgres, for the package's external tests.
var ResetPostgres = resetPostgres

// resetPostgres drops Cayley's tables, those of the hand-off between
// builds and the derived ones, so that each test starts empty.
func resetPostgres(t *testing.T, addr string) {
	t.Helper()
	db, err := sql.Open("postgres", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tables := append([]string{"quads", "nodes", "capgraph_handed", "capgraph_handed_done"}, pgbulk.DerivedTables...)
	if _, err := db.Exec(`DROP TABLE IF EXISTS ` + strings.Join(tables, ", ") + ` CASCADE`); err != nil {
		t.Fatalf("reset %s: %v", addr, err)
	}
}

// openPostgres opens the scratch PostgreSQL database that
// CAPGRAPH_TEST_POSTGRES names, emptied, or skips the test.
func openPostgres(t *testing.T) *Store {
	t.Helper()
	addr := os.Getenv("CAPGRAPH_TEST_POSTGRES")
	if addr == "" {
		t.Skip("CAPGRAPH_TEST_POSTGRES is unset: set it to a postgres:// URL of a scratch database to test the SQL backend")
	}
	resetPostgres(t, addr)
	s, err := Open(t.Context(), addr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
