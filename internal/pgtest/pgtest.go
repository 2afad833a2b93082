// Package pgtest gives a test a PostgreSQL schema of its own in the
// scratch database that CAPGRAPH_TEST_POSTGRES names (.ci/run sets it to
// a local server), so that the packages' tests, which go test runs at
// once, never meet in the same tables.
package pgtest

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"testing"

	_ "github.com/lib/pq" // the driver
)

// Env names the scratch database.
const Env = "CAPGRAPH_TEST_POSTGRES"

// Schema empties the schema name (dropping it with everything in it and
// creating it again) and returns the database's address with name as its
// search path. Without Env it skips the test.
func Schema(tb testing.TB, name string) string {
	tb.Helper()
	addr := os.Getenv(Env)
	if addr == "" {
		tb.Skip(Env + " is unset: set it to a postgres:// URL of a scratch database to test the SQL backend")
	}
	db, err := sql.Open("postgres", addr)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(fmt.Sprintf(`DROP SCHEMA IF EXISTS %[1]s CASCADE; CREATE SCHEMA %[1]s`, name)); err != nil {
		tb.Fatal(err)
	}
	u, err := url.Parse(addr)
	if err != nil {
		tb.Fatal(err)
	}
	v := u.Query()
	v.Set("search_path", name)
	u.RawQuery = v.Encode()
	return u.String()
}
