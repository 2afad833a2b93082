package pgbulk

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cayleygraph/cayley/graph/refs"
	csql "github.com/cayleygraph/cayley/graph/sql"
	"github.com/cayleygraph/quad"
	"github.com/lib/pq"
)

// The derived tables hold, beside Cayley's, what the saved queries' SQL
// twins read instead of joining the quads a row at a time: each photo's
// identifier, dates, places, mentions and photographers; each statement
// of a relation; each mention's span; and tallies over every caption (how
// many photos name a group and show a place, what places and dates each
// photographer covers).
//
// Every row but the tallies' derives from the quads of one graph alone,
// and each write derives again, in its own transaction, the rows of the
// graphs it touched (Apply, a Loader's Commit): the tables agree with the
// quads that are committed whatever stops a build. The tallies move by
// what the graphs' old rows counted and what their new rows count.
//
// A store whose tables are missing or of another layout gets them at the
// first open for writing (CreateDerived), derived from every graph.
const derivedVersion = 1

// DerivedTables are the derived tables, for those who drop a store.
var DerivedTables = []string{"capgraph_derived", "capgraph_photos", "capgraph_photo_dates",
	"capgraph_statements", "capgraph_mentions", "capgraph_tallies"}

// derivedSchema creates the derived tables. Text is in the "C" collation,
// as the twins compare it and as Go does.
var derivedSchema = []string{
	`CREATE TABLE capgraph_photos (
		graph bytea PRIMARY KEY,
		photo bytea NOT NULL,
		iri text COLLATE "C" NOT NULL,
		id text COLLATE "C" NOT NULL, -- the least schema:identifier, or ''
		places bytea[] NOT NULL,      -- schema:contentLocation
		mentions bytea[] NOT NULL,    -- schema:mentions
		creators bytea[] NOT NULL     -- schema:creator
	)`,
	`CREATE INDEX capgraph_photos_photo ON capgraph_photos (photo)`,
	`CREATE TABLE capgraph_photo_dates (
		graph bytea NOT NULL,
		date text COLLATE "C" NOT NULL, -- schema:dateCreated, lexical
		datatype text COLLATE "C" NOT NULL,
		PRIMARY KEY (graph, date, datatype)
	)`,
	`CREATE INDEX capgraph_photo_dates_date ON capgraph_photo_dates (date, datatype)`,
	// Values are kept as the quads hold them and cast by the twins: a
	// value that does not cast fails a query, not the write.
	`CREATE TABLE capgraph_statements (
		graph bytea NOT NULL,
		statement bytea NOT NULL,
		subject bytea NOT NULL,
		predicate text COLLATE "C" NOT NULL,
		object bytea NOT NULL,
		confidence text
	)`,
	`CREATE INDEX capgraph_statements_graph ON capgraph_statements (graph)`,
	`CREATE INDEX capgraph_statements_spo ON capgraph_statements (subject, predicate, object)`,
	`CREATE TABLE capgraph_mentions (
		graph bytea NOT NULL,
		entity bytea NOT NULL,
		text text COLLATE "C" NOT NULL,
		begin_index text NOT NULL,
		end_index text NOT NULL
	)`,
	`CREATE INDEX capgraph_mentions_graph_entity ON capgraph_mentions (graph, entity)`,
	// kind 'm': photos that mention a and show place b; 'p': photos by
	// photographer a that show place b; 'd': photos by a dated b (the
	// date's lexical form in UTF-8; day-and-month dates are left out);
	// 'c': photos by a (b empty).
	`CREATE TABLE capgraph_tallies (
		kind "char" NOT NULL,
		a bytea NOT NULL,
		b bytea NOT NULL,
		photos bigint NOT NULL,
		PRIMARY KEY (kind, a, b) INCLUDE (photos)
	)`,
	`CREATE INDEX capgraph_tallies_top ON capgraph_tallies (kind, photos DESC) INCLUDE (a, b)`,
	`CREATE TABLE capgraph_derived (version int NOT NULL)`,
}

// contributions is what each photo of the graphs in pgderive_graphs adds
// to the tallies, from its derived rows.
const contributions = `
	SELECT t.kind, t.a, t.b FROM capgraph_photos ph
	JOIN pgderive_graphs g ON g.graph = ph.graph
	CROSS JOIN LATERAL (
		SELECT 'm'::"char", m, p FROM unnest(ph.mentions) m, unnest(ph.places) p
		UNION ALL
		SELECT 'p', c, p FROM unnest(ph.creators) c, unnest(ph.places) p
		UNION ALL
		SELECT 'c', c, '\x'::bytea FROM unnest(ph.creators) c
		UNION ALL
		SELECT 'd', c, convert_to(d.date, 'UTF8') FROM unnest(ph.creators) c
		JOIN capgraph_photo_dates d ON d.graph = ph.graph AND d.date NOT LIKE '--%'
	) AS t (kind, a, b)`

// deriveStatements derive again the rows of the graphs in pgderive_graphs,
// in order. <IRI> stands for the IRI's node hash (bindIRIs).
// Those that read quads are marked rows: a bulk load derives its rows as it
// copies its quads (graphRows), and runs only the others.
var deriveStatements = []struct {
	what, sql string
	rows      bool
}{
	{"count what was derived", `INSERT INTO pgderive_tallies (kind, a, b, n)
		SELECT kind, a, b, -count(*) FROM (` + contributions + `) c GROUP BY kind, a, b`, true},
	{"drop what was derived", `
		DELETE FROM capgraph_photos WHERE graph IN (SELECT graph FROM pgderive_graphs);
		DELETE FROM capgraph_photo_dates WHERE graph IN (SELECT graph FROM pgderive_graphs);
		DELETE FROM capgraph_statements WHERE graph IN (SELECT graph FROM pgderive_graphs);
		DELETE FROM capgraph_mentions WHERE graph IN (SELECT graph FROM pgderive_graphs)`, true},
	// Each statement reads its rows one look-up by index at a time
	// (LATERAL ... OFFSET 0, which PostgreSQL does not flatten into a
	// join), from rows it finds by one join with the graphs: a join of
	// several quads on (graph, subject) is estimated at one row, and
	// planned as a nested loop that scans the graphs for each (minutes at
	// 10^5 captions).
	{"derive photos", `INSERT INTO capgraph_photos (graph, photo, iri, id, places, mentions, creators)
		SELECT t.label_hash, t.subject_hash, n.value_string,
			COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads i JOIN nodes v ON v.hash = i.object_hash
				WHERE i.subject_hash = t.subject_hash AND i.predicate_hash = <https://schema.org/identifier>
					AND i.label_hash = t.label_hash), ''),
			ARRAY(SELECT object_hash FROM quads WHERE subject_hash = t.subject_hash
				AND predicate_hash = <https://schema.org/contentLocation> AND label_hash = t.label_hash ORDER BY 1),
			ARRAY(SELECT object_hash FROM quads WHERE subject_hash = t.subject_hash
				AND predicate_hash = <https://schema.org/mentions> AND label_hash = t.label_hash ORDER BY 1),
			ARRAY(SELECT object_hash FROM quads WHERE subject_hash = t.subject_hash
				AND predicate_hash = <https://schema.org/creator> AND label_hash = t.label_hash ORDER BY 1)
		FROM pgderive_graphs g
		JOIN quads t ON t.label_hash = g.graph AND t.predicate_hash = <http://www.w3.org/1999/02/22-rdf-syntax-ns#type>
			AND t.object_hash = <https://schema.org/Photograph>
		CROSS JOIN LATERAL (SELECT value_string FROM nodes WHERE hash = t.subject_hash OFFSET 0) n
		ON CONFLICT (graph) DO NOTHING`, true}, // a graph of two photos keeps one
	{"derive dates", `INSERT INTO capgraph_photo_dates (graph, date, datatype)
		SELECT ph.graph, v.value_string, COALESCE(v.datatype, '')
		FROM pgderive_graphs g JOIN capgraph_photos ph ON ph.graph = g.graph
		CROSS JOIN LATERAL (SELECT object_hash FROM quads WHERE subject_hash = ph.photo
			AND predicate_hash = <https://schema.org/dateCreated> AND label_hash = ph.graph OFFSET 0) d
		CROSS JOIN LATERAL (SELECT value_string, datatype FROM nodes WHERE hash = d.object_hash OFFSET 0) v
		WHERE v.value_string IS NOT NULL
		ON CONFLICT DO NOTHING`, true},
	{"derive statements", `INSERT INTO capgraph_statements (graph, statement, subject, predicate, object, confidence)
		SELECT s.label_hash, s.subject_hash, s.object_hash, p.iri, o.object_hash,
			(SELECT min(COALESCE(v.value_string, v.value_float::text, v.value_int::text) COLLATE "C") FROM quads c JOIN nodes v ON v.hash = c.object_hash
				WHERE c.subject_hash = s.subject_hash AND c.predicate_hash = <https://capgraph.org/ns#confidence> AND c.label_hash = s.label_hash)
		FROM pgderive_graphs g
		JOIN quads s ON s.label_hash = g.graph AND s.predicate_hash = <http://www.w3.org/1999/02/22-rdf-syntax-ns#subject>
		CROSS JOIN LATERAL (SELECT pn.value_string AS iri FROM quads q JOIN nodes pn ON pn.hash = q.object_hash AND pn.iri
			WHERE q.subject_hash = s.subject_hash AND q.predicate_hash = <http://www.w3.org/1999/02/22-rdf-syntax-ns#predicate>
				AND q.label_hash = s.label_hash OFFSET 0) p
		CROSS JOIN LATERAL (SELECT object_hash FROM quads
			WHERE subject_hash = s.subject_hash AND predicate_hash = <http://www.w3.org/1999/02/22-rdf-syntax-ns#object>
				AND label_hash = s.label_hash OFFSET 0) o`, true},
	{"derive mentions", `INSERT INTO capgraph_mentions (graph, entity, text, begin_index, end_index)
		SELECT m.label_hash, m.object_hash, t.v, b.v, e.v
		FROM pgderive_graphs g
		JOIN quads m ON m.label_hash = g.graph AND m.predicate_hash = <http://www.w3.org/2005/11/its/rdf#taIdentRef>
		CROSS JOIN LATERAL (SELECT v.value_string AS v FROM quads q JOIN nodes v ON v.hash = q.object_hash
			WHERE q.subject_hash = m.subject_hash AND q.label_hash = m.label_hash
				AND q.predicate_hash = <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#anchorOf> OFFSET 0) t
		CROSS JOIN LATERAL (SELECT COALESCE(v.value_string, v.value_int::text) AS v FROM quads q JOIN nodes v ON v.hash = q.object_hash
			WHERE q.subject_hash = m.subject_hash AND q.label_hash = m.label_hash
				AND q.predicate_hash = <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#beginIndex> OFFSET 0) b
		CROSS JOIN LATERAL (SELECT COALESCE(v.value_string, v.value_int::text) AS v FROM quads q JOIN nodes v ON v.hash = q.object_hash
			WHERE q.subject_hash = m.subject_hash AND q.label_hash = m.label_hash
				AND q.predicate_hash = <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#endIndex> OFFSET 0) e
		WHERE t.v IS NOT NULL AND b.v IS NOT NULL AND e.v IS NOT NULL`, true},
	{"count what is derived", `INSERT INTO pgderive_tallies (kind, a, b, n)
		SELECT kind, a, b, count(*) FROM (` + contributions + `) c GROUP BY kind, a, b`, false},
	// In key order, so that two writers take the rows' locks in the same
	// order.
	{"add to the tallies", `INSERT INTO capgraph_tallies (kind, a, b, photos)
		SELECT kind, a, b, sum(n) FROM pgderive_tallies GROUP BY kind, a, b HAVING sum(n) <> 0
		ORDER BY kind, a, b
		ON CONFLICT (kind, a, b) DO UPDATE SET photos = capgraph_tallies.photos + excluded.photos`, false},
	{"drop tallies of nothing", `DELETE FROM capgraph_tallies t USING pgderive_tallies d
		WHERE t.kind = d.kind AND t.a = d.a AND t.b = d.b AND t.photos <= 0`, false},
}

// everyGraph is the graphs of a store, for derive.
const everyGraph = `SELECT DISTINCT label_hash AS graph FROM quads WHERE label_hash IS NOT NULL`

// iriToken is an <IRI> in a derive statement.
var iriToken = regexp.MustCompile(`<(https?://[^<>\s]+)>`)

// bindIRIs replaces each <IRI> of text by a placeholder, and returns the
// IRIs' node hashes to bind them to.
func bindIRIs(text string) (string, []any) {
	var args []any
	at := make(map[string]int)
	text = iriToken.ReplaceAllStringFunc(text, func(tok string) string {
		n, ok := at[tok]
		if !ok {
			h := refs.HashOf(quad.IRI(tok[1 : len(tok)-1]))
			args = append(args, h[:])
			n = len(args)
			at[tok] = n
		}
		return fmt.Sprintf("$%d", n)
	})
	return text, args
}

// derive derives again, in tx, the rows of the graphs that graphs (a
// query of one bytea column) returns, from their quads; or, unless
// fromQuads, only their tallies, from their rows.
func derive(ctx context.Context, tx *sql.Tx, graphs string, fromQuads bool) error {
	for _, q := range []string{
		// The statements look rows up by index: compiling them would cost
		// more than running them.
		`SET LOCAL jit = off`,
		`CREATE TEMPORARY TABLE pgderive_graphs ON COMMIT DROP AS ` + graphs,
		`CREATE TEMPORARY TABLE pgderive_tallies (kind "char", a bytea, b bytea, n bigint) ON COMMIT DROP`,
		`ANALYZE pgderive_graphs`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("derive: %w", err)
		}
	}
	for _, st := range deriveStatements {
		if st.rows && !fromQuads {
			continue
		}
		text, args := bindIRIs(st.sql)
		if _, err := tx.ExecContext(ctx, text, args...); err != nil {
			return fmt.Errorf("derive: %s: %w", st.what, err)
		}
	}
	_, err := tx.ExecContext(ctx, `DROP TABLE pgderive_graphs, pgderive_tallies`)
	return err
}

// CreateDerived creates the derived tables in the store at addr, and
// derives them from every graph, unless they are there in this layout.
// It waits for the writes under way, and holds off new ones, while it
// derives.
func CreateDerived(ctx context.Context, addr string) error {
	db, err := sql.Open("postgres", addr)
	if err != nil {
		return err
	}
	defer db.Close()
	if ok, err := derivedCurrent(ctx, db); err != nil || ok {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// A lock that writers and other openers wait for, and readers do not.
	if _, err := tx.ExecContext(ctx, `LOCK TABLE quads IN SHARE ROW EXCLUSIVE MODE`); err != nil {
		return err
	}
	if ok, err := derivedCurrent(ctx, tx); err != nil || ok {
		return err
	}
	if err := createDerived(ctx, tx, true); err != nil {
		return err
	}
	if err := derive(ctx, tx, everyGraph, true); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return vacuum(ctx, db, DerivedTables)
}

// vacuum vacuums and analyses tables: a table written at once has no
// visibility map yet, so every index-only scan reads the table too until
// autovacuum gets to it a minute or more later; saved queries ran up to
// 3.5x slower meanwhile.
func vacuum(ctx context.Context, db *sql.DB, tables []string) error {
	for _, table := range tables {
		if _, err := db.ExecContext(ctx, `VACUUM (ANALYZE) `+pq.QuoteIdentifier(table)); err != nil {
			return err
		}
	}
	return nil
}

// createDerived drops the derived tables and creates them empty, in tx,
// with their indexes unless a bulk load will create them after its copies
// (indexDerived).
func createDerived(ctx context.Context, tx *sql.Tx, indexes bool) error {
	if _, err := tx.ExecContext(ctx, `DROP TABLE IF EXISTS `+joinIdents(DerivedTables)); err != nil {
		return err
	}
	for _, q := range derivedSchema {
		if strings.HasPrefix(q, "CREATE INDEX") && !indexes {
			continue
		}
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("create derived tables: %w", err)
		}
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO capgraph_derived (version) VALUES ($1)`, derivedVersion)
	return err
}

// indexDerived creates the derived tables' indexes, in tx.
func indexDerived(ctx context.Context, tx *sql.Tx) error {
	for _, q := range derivedSchema {
		if !strings.HasPrefix(q, "CREATE INDEX") {
			continue
		}
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("index derived tables: %w", err)
		}
	}
	return nil
}

// joinIdents quotes names as identifiers, joined by commas.
func joinIdents(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = pq.QuoteIdentifier(n)
	}
	return strings.Join(quoted, ", ")
}

// derivedCurrent reports whether every derived table is there, in this
// layout, and fails with ErrNewerDerived when a newer capgraph laid them
// out.
func derivedCurrent(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (bool, error) {
	// Every table, not only the version's: a user may drop one.
	var missing int
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM unnest($1::text[]) AS t (name) WHERE to_regclass(t.name) IS NULL`,
		pq.Array(DerivedTables)).Scan(&missing)
	if err != nil || missing > 0 {
		return false, err
	}
	var v int
	err = q.QueryRowContext(ctx, `SELECT version FROM capgraph_derived`).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err == nil && v > derivedVersion:
		// Deriving them again in the older layout would undo the newer
		// capgraph's, which would then undo this one's at its next open.
		return false, fmt.Errorf("%w: the store's are of layout %d, this capgraph writes layout %d", ErrNewerDerived, v, derivedVersion)
	}
	return v == derivedVersion, err
}

// ErrNewerDerived is the error of a write to a store whose derived tables
// a newer capgraph laid out.
var ErrNewerDerived = errors.New("the derived tables are of a newer capgraph: write to this store with that one")

// CheckDerived derives the derived tables from every graph afresh, into
// temporary tables of the same names (which the statements then find
// first on the search path), and lists each table that differs from the
// store's: the rows the store has that a fresh derivation has not, and
// the other way. It writes nothing of the store's, and takes no lock that
// a query waits for.
func CheckDerived(ctx context.Context, db *sql.DB) ([]string, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if ok, err := derivedCurrent(ctx, tx); err != nil || !ok {
		if err == nil {
			return []string{"the derived tables are missing or of an older layout: open the store for writing once to derive them"}, nil
		}
		return nil, err
	}
	var schema string
	if err := tx.QueryRowContext(ctx, `SELECT relnamespace::regnamespace::text FROM pg_class WHERE oid = 'capgraph_photos'::regclass`).Scan(&schema); err != nil {
		return nil, err
	}
	tables := DerivedTables[1:] // not the version
	for _, t := range tables {
		q := fmt.Sprintf(`CREATE TEMPORARY TABLE %[1]s (LIKE %[2]s.%[1]s INCLUDING ALL) ON COMMIT DROP`, pq.QuoteIdentifier(t), schema)
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return nil, err
		}
	}
	if err := derive(ctx, tx, everyGraph, true); err != nil {
		return nil, err
	}
	var problems []string
	for _, t := range tables {
		var extra, missing int64
		q := fmt.Sprintf(`SELECT
			(SELECT count(*) FROM (SELECT * FROM %[2]s.%[1]s EXCEPT ALL SELECT * FROM pg_temp.%[1]s) x),
			(SELECT count(*) FROM (SELECT * FROM pg_temp.%[1]s EXCEPT ALL SELECT * FROM %[2]s.%[1]s) x)`, pq.QuoteIdentifier(t), schema)
		if err := tx.QueryRowContext(ctx, q).Scan(&extra, &missing); err != nil {
			return nil, err
		}
		if extra > 0 || missing > 0 {
			problems = append(problems, fmt.Sprintf("derived table %s has %d rows that the quads do not give, and lacks %d that they do; opening the store for writing after dropping it derives it again", t, extra, missing))
		}
	}
	return problems, nil
}

// graphRows are the derived rows of one graph, as the derive statements
// would make them from its quads, in the columns' order. A bulk load
// copies them beside the graph's quads: deriving 10^5 graphs from the
// quads once loaded took longer than the load.
type graphRows struct {
	photos, dates, statements, mentions [][]any
}

var (
	rdfType          = quad.IRI("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
	schemaPhotograph = quad.IRI("https://schema.org/Photograph")
)

// deriveGraph adds to r the rows of graph g, whose quads are qs (those of
// other graphs are passed over).
func (r *graphRows) deriveGraph(g quad.IRI, qs []quad.Quad) {
	gh := hashBytes(g)
	// subject -> predicate IRI -> objects, each quad once, as the quads
	// table holds them.
	facts := make(map[refs.ValueHash]map[string][]quad.Value)
	subjects := make(map[refs.ValueHash]quad.Value)
	seen := make(map[[3]refs.ValueHash]bool)
	var order []refs.ValueHash // subjects in the order first seen
	for _, q := range qs {
		if q.Label != g {
			continue
		}
		p, ok := q.Predicate.(quad.IRI)
		if !ok {
			continue
		}
		sh := refs.HashOf(q.Subject)
		k := [3]refs.ValueHash{sh, refs.HashOf(p), refs.HashOf(q.Object)}
		if seen[k] {
			continue
		}
		seen[k] = true
		if facts[sh] == nil {
			facts[sh] = make(map[string][]quad.Value)
			subjects[sh] = q.Subject
			order = append(order, sh)
		}
		facts[sh][string(p)] = append(facts[sh][string(p)], q.Object)
	}
	photoDone := false
	for _, sh := range order {
		f := facts[sh]
		if !photoDone && slices.ContainsFunc(f[string(rdfType)], func(v quad.Value) bool { return v == schemaPhotograph }) {
			photoDone = true // a graph of two photos keeps one
			iri, _ := nodeText(subjects[sh])
			id, some := "", false
			for _, v := range f["https://schema.org/identifier"] {
				if t, ok := nodeText(v); ok && (!some || t < id) {
					id, some = t, true
				}
			}
			r.photos = append(r.photos, []any{gh, sh[:], iri, id,
				sortedHashes(f["https://schema.org/contentLocation"]), sortedHashes(f["https://schema.org/mentions"]),
				sortedHashes(f["https://schema.org/creator"])})
			dates := make(map[[2]string]bool)
			for _, v := range f["https://schema.org/dateCreated"] {
				t, ok := nodeText(v)
				k := [2]string{t, nodeDatatype(v)}
				if ok && !dates[k] {
					dates[k] = true
					r.dates = append(r.dates, []any{gh, k[0], k[1]})
				}
			}
		}
		for _, subj := range f["http://www.w3.org/1999/02/22-rdf-syntax-ns#subject"] {
			var conf any // NULL without one
			for _, v := range f["https://capgraph.org/ns#confidence"] {
				if t, ok := nodeNumber(v); ok && (conf == nil || t < conf.(string)) {
					conf = t
				}
			}
			for _, p := range f["http://www.w3.org/1999/02/22-rdf-syntax-ns#predicate"] {
				iri, ok := p.(quad.IRI)
				if !ok {
					continue
				}
				pred, _ := nodeText(iri)
				for _, obj := range f["http://www.w3.org/1999/02/22-rdf-syntax-ns#object"] {
					r.statements = append(r.statements, []any{gh, sh[:], hashBytes(subj), pred, hashBytes(obj), conf})
				}
			}
		}
		for _, ent := range f["http://www.w3.org/2005/11/its/rdf#taIdentRef"] {
			for _, tv := range f["http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#anchorOf"] {
				text, ok := nodeText(tv)
				if !ok {
					continue
				}
				for _, bv := range f["http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#beginIndex"] {
					begin, ok := nodeIndex(bv)
					if !ok {
						continue
					}
					for _, ev := range f["http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#endIndex"] {
						if end, ok := nodeIndex(ev); ok {
							r.mentions = append(r.mentions, []any{gh, hashBytes(ent), text, begin, end})
						}
					}
				}
			}
		}
	}
}

// hashBytes is v's node hash.
func hashBytes(v quad.Value) []byte {
	h := refs.HashOf(v)
	return h[:]
}

// sortedHashes is the node hashes of vs in byte order, as ORDER BY sorts
// bytea: a bytea[] to copy.
func sortedHashes(vs []quad.Value) pq.ByteaArray {
	hs := hashArray(vs)
	slices.SortFunc(hs, bytes.Compare)
	return hs
}

// nodeText is v's value_string in the nodes table, and whether it has one.
func nodeText(v quad.Value) (string, bool) {
	_, vals, err := csql.NodeValues(csql.NodeHash{}, v)
	if err != nil || len(vals) < 2 {
		return "", false
	}
	s, ok := vals[1].(string)
	return s, ok
}

// nodeDatatype is v's datatype in the nodes table, or "".
func nodeDatatype(v quad.Value) string {
	if t, ok := v.(quad.TypedString); ok {
		return string(t.Type)
	}
	return ""
}

// nodeIndex is COALESCE(value_string, value_int::text) of v's node.
func nodeIndex(v quad.Value) (string, bool) {
	if i, ok := v.(quad.Int); ok {
		return strconv.FormatInt(int64(i), 10), true
	}
	return nodeText(v)
}

// nodeNumber is COALESCE(value_string, value_float::text, value_int::text)
// of v's node.
func nodeNumber(v quad.Value) (string, bool) {
	if f, ok := v.(quad.Float); ok {
		return strconv.FormatFloat(float64(f), 'g', -1, 64), true
	}
	return nodeIndex(v)
}
