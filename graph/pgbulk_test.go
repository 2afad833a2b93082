package graph

import (
	"database/sql"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/capgraph/capgraph/extract"

	"github.com/capgraph/capgraph/graph/internal/pgbulk"
)

// pgTables returns what a PostgreSQL store holds, in an order of its own:
// every node row with its reference count, every quad by its nodes' hashes
// (not its horizon or time), and the definitions of the tables' indexes
// and constraints.
func pgTables(t *testing.T, addr string) (nodes, quads, schema []string) {
	t.Helper()
	db, err := sql.Open("postgres", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []struct {
		out  *[]string
		text string
	}{
		{&nodes, `SELECT concat_ws('|', encode(hash, 'hex'), refs, encode(value, 'hex'), value_string, datatype, language, iri, bnode, value_int, value_bool, value_float, value_time) FROM nodes`},
		{&quads, `SELECT concat_ws('|', encode(subject_hash, 'hex'), encode(predicate_hash, 'hex'), encode(object_hash, 'hex'), encode(label_hash, 'hex')) FROM quads`},
		{&schema, `SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename IN ('nodes', 'quads')
			UNION ALL SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid IN ('nodes'::regclass, 'quads'::regclass)`},
	} {
		rows, err := db.Query(q.text)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			*q.out = append(*q.out, s)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		slices.Sort(*q.out)
	}
	return nodes, quads, schema
}

// TestPostgresBulkLoadIsCayleys builds the same captions into PostgreSQL
// through Cayley's writer and through the bulk load, and compares the
// tables row for row, with their indexes and constraints; then it adds and
// replaces captions in both through Cayley, which must find the
// bulk-loaded store as its own.
func TestPostgresBulkLoadIsCayleys(t *testing.T) {
	addr := os.Getenv("CAPGRAPH_TEST_POSTGRES")
	if addr == "" {
		t.Skip("CAPGRAPH_TEST_POSTGRES is unset: set it to a postgres:// URL of a scratch database to test the SQL backend")
	}
	if testing.Short() {
		t.Skip("writes 300 captions through Cayley's SQL writer")
	}
	defer func(n int) { pgbulk.ChunkQuads = n }(pgbulk.ChunkQuads)
	pgbulk.ChunkQuads = 997 // many chunks, a node in several
	xs := synthetic(t, 0, 300)
	again := xs[17] // the same caption, changed: the bulk load stops there
	again.Text += " Extra words."
	twice := slices.Concat(xs[:200], []extract.Extraction{again}, xs[200:])
	later := append(synthetic(t, 300, 40), xs[100:120]...)
	for i := range 20 {
		later[40+i].Text += " (Updated.)"
	}
	type tables struct{ nodes, quads, schema []string }
	build := func(noBulk bool, loads [2][]extract.Extraction) (tables, tables, LoadStats, LoadStats) {
		resetPostgres(t, addr)
		s, err := Open(t.Context(), addr, Options{BatchSize: 1 << 30})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		s.noBulk = noBulk
		st1 := loadAll(t, s, loads[0])
		var a tables
		a.nodes, a.quads, a.schema = pgTables(t, addr)
		st2 := loadAll(t, s, loads[1])
		var b tables
		b.nodes, b.quads, b.schema = pgTables(t, addr)
		return a, b, st1, st2
	}
	for _, tc := range []struct {
		name string
		xs   []extract.Extraction
	}{
		{"whole", xs},
		{"a caption twice", twice},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantFirst, wantLater, wst1, wst2 := build(true, [2][]extract.Extraction{tc.xs, later})
			gotFirst, gotLater, gst1, gst2 := build(false, [2][]extract.Extraction{tc.xs, later})
			if gst1 != wst1 || gst2 != wst2 {
				t.Errorf("bulk load stats %+v then %+v, Cayley's %+v then %+v", gst1, gst2, wst1, wst2)
			}
			for _, c := range []struct {
				what      string
				got, want tables
			}{{"first load", gotFirst, wantFirst}, {"later load", gotLater, wantLater}} {
				for _, part := range []struct {
					name      string
					got, want []string
				}{{"nodes", c.got.nodes, c.want.nodes}, {"quads", c.got.quads, c.want.quads}, {"schema", c.got.schema, c.want.schema}} {
					if !slices.Equal(part.got, part.want) {
						t.Errorf("%s: %s differ: bulk %d rows, Cayley %d; first differences:\n%s", c.what, part.name, len(part.got), len(part.want), firstDiff(part.got, part.want))
					}
				}
			}
			if len(wantFirst.quads) == 0 {
				t.Fatal("nothing was loaded")
			}
		})
	}
}

// firstDiff shows a few lines that one sorted list holds and the other does not.
func firstDiff(got, want []string) string {
	var out strings.Builder
	n := 0
	for i, j := 0, 0; (i < len(got) || j < len(want)) && n < 5; n++ {
		switch {
		case j >= len(want) || i < len(got) && got[i] < want[j]:
			fmt.Fprintf(&out, "  got only:  %s\n", strings.TrimSuffix(got[i], "\n"))
			i++
		case i >= len(got) || want[j] < got[i]:
			fmt.Fprintf(&out, "  want only: %s\n", strings.TrimSuffix(want[j], "\n"))
			j++
		default:
			i, j, n = i+1, j+1, n-1
		}
	}
	return out.String()
}

// TestPostgresExportIsBolts exports the same captions from PostgreSQL,
// bulk loaded and then added to through Cayley, and from the embedded
// store: the N-Quads and N-Triples are the same lines.
func TestPostgresExportIsBolts(t *testing.T) {
	pg := openPostgres(t)
	bolt := openTemp(t)
	xs := append(exampleExtractions(t), synthetic(t, 0, 150)...)
	more := synthetic(t, 150, 30)
	more[0].Text += " (Updated.)"
	for _, s := range []*Store{pg, bolt} {
		loadAll(t, s, xs)
		loadAll(t, s, more)
	}
	for _, f := range []Format{NQuads, NTriples} {
		var want, got strings.Builder
		if _, err := bolt.Export(t.Context(), &want, f); err != nil {
			t.Fatal(err)
		}
		if _, err := pg.Export(t.Context(), &got, f); err != nil {
			t.Fatal(err)
		}
		w, g := slices.Sorted(strings.Lines(want.String())), slices.Sorted(strings.Lines(got.String()))
		if len(w) < 1000 {
			t.Fatalf("%s: the embedded store exported %d lines", f, len(w))
		}
		if !slices.Equal(g, w) {
			t.Errorf("%s: PostgreSQL exported %d lines, the embedded store %d; first differences:\n%s", f, len(g), len(w), firstDiff(g, w))
		}
	}
}
