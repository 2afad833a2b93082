package graph

import (
	"database/sql"
	"os"
	"testing"

	_ "github.com/lib/pq"
)

// ResetPostgres is resetPostgres, for the package's external tests.
var ResetPostgres = resetPostgres

// resetPostgres drops Cayley's tables, and those of the hand-off between
// builds, so that each test starts empty.
func resetPostgres(t *testing.T, addr string) {
	t.Helper()
	db, err := sql.Open("postgres", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`DROP TABLE IF EXISTS quads, nodes, capgraph_handed, capgraph_handed_done CASCADE`); err != nil {
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
