package graph

import (
	"database/sql"
	"errors"
	"os"
	"strings"
	"testing"
)

// TestCheckPostgres checks a PostgreSQL store: sound after a load, and
// then with a node's reference count raised and a node that no quad
// names, as builders that raced each other left them, a tally changed
// and a mention span lost.
func TestCheckPostgres(t *testing.T) {
	s := openPostgres(t)
	loadAll(t, s, exampleExtractions(t))
	r, err := s.Check(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Problems) > 0 || r.Captions == 0 || r.Quads == 0 {
		t.Fatalf("after a load: %+v", r)
	}
	db, err := sql.Open("postgres", os.Getenv("CAPGRAPH_TEST_POSTGRES"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`UPDATE nodes SET refs = refs + 1 WHERE value_string = 'Idlib'`,
		`INSERT INTO nodes (hash, refs, value_string) VALUES ('\x00112233445566778899aabbccddeeff00112233', 1, 'left behind')`,
		`UPDATE capgraph_tallies SET photos = photos + 1 WHERE ctid = (SELECT min(ctid) FROM capgraph_tallies)`,
		`DELETE FROM capgraph_mentions WHERE ctid = (SELECT min(ctid) FROM capgraph_mentions)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	r, err = s.Check(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(r.Problems, "\n")
	for _, want := range []string{
		`node "Idlib" counts`,
		`node "left behind" is named by no quad but counts 1 references`,
		`derived table capgraph_tallies has 1 rows that the quads do not give, and lacks 1 that they do`,
		`derived table capgraph_mentions has 0 rows that the quads do not give, and lacks 1 that they do`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
	if len(r.Problems) != 4 {
		t.Errorf("%d problems, want 4:\n%s", len(r.Problems), got)
	}
}

// TestNoDerivedPostgres runs an SQL query on a store that lost a derived
// table, as one whose user may not create them would be: the error says
// what is missing.
func TestNoDerivedPostgres(t *testing.T) {
	s := openPostgres(t)
	loadAll(t, s, exampleExtractions(t))
	db, err := sql.Open("postgres", os.Getenv("CAPGRAPH_TEST_POSTGRES"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`DROP TABLE capgraph_tallies`); err != nil {
		t.Fatal(err)
	}
	for _, err := range s.QuerySQL(t.Context(), `SELECT count(*) AS n FROM capgraph_tallies`, nil, 0) {
		if !errors.Is(err, ErrNoDerived) {
			t.Fatalf("got %v, want ErrNoDerived", err)
		}
		return
	}
	t.Fatal("no error")
}
