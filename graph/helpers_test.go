package graph_test

import (
	"database/sql"
	"slices"
	"strings"
	"testing"

	_ "github.com/lib/pq"
)

// resetPostgres drops Cayley's tables so that each test starts empty.
func resetPostgres(t *testing.T, addr string) {
	t.Helper()
	db, err := sql.Open("postgres", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`DROP TABLE IF EXISTS quads, nodes CASCADE`); err != nil {
		t.Fatalf("reset %s: %v", addr, err)
	}
}

func sortedLines(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}
