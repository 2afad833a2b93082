package graph

import (
	"database/sql"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/capgraph/capgraph/graph/internal/pgbulk"
	"github.com/capgraph/capgraph/internal/pgtest"
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

// TestDerivedReopenPostgres: a store that lost one derived table gets it
// back, rows and all, at its next open; one whose tables a newer capgraph
// laid out refuses to be opened for writing rather than lay them out
// again.
func TestDerivedReopenPostgres(t *testing.T) {
	s := openPostgres(t)
	loadAll(t, s, exampleExtractions(t))
	addr := os.Getenv("CAPGRAPH_TEST_POSTGRES")
	db, err := sql.Open("postgres", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	count := func() (n int) {
		t.Helper()
		if err := db.QueryRow(`SELECT count(*) FROM capgraph_statements`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	want := count()
	s.Close()
	if _, err := db.Exec(`DROP TABLE capgraph_statements`); err != nil {
		t.Fatal(err)
	}
	s, err = Open(t.Context(), addr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := count(); got != want || want == 0 {
		t.Errorf("capgraph_statements has %d rows after the open, want %d", got, want)
	}
	s.Close()

	if _, err := db.Exec(`UPDATE capgraph_derived SET version = version + 1`); err != nil {
		t.Fatal(err)
	}
	if s, err := Open(t.Context(), addr, Options{}); !errors.Is(err, pgbulk.ErrNewerDerived) {
		if err == nil {
			s.Close()
		}
		t.Fatalf("open for writing: %v, want ErrNewerDerived", err)
	}
	if got := count(); got != want {
		t.Errorf("the refused open left %d statements, want %d", got, want)
	}
}

// TestOpensAtOncePostgres opens a new PostgreSQL store from several
// goroutines at once, as builds started together do: every open creates
// or finds the tables, and none fails on another's CREATE.
func TestOpensAtOncePostgres(t *testing.T) {
	addr := pgtest.Schema(t, "capgraph_graph_opens_at_once")
	for round := range 3 {
		if round > 0 {
			addr = pgtest.Schema(t, "capgraph_graph_opens_at_once")
		}
		errs := make([]error, 8)
		var wg sync.WaitGroup
		for i := range errs {
			wg.Go(func() {
				s, err := Open(t.Context(), addr, Options{ReadOnly: i%4 == 3})
				if err == nil {
					err = s.Close()
				}
				errs[i] = err
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
}
