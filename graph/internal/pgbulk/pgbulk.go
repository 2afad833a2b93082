// Package pgbulk moves a whole store into and out of PostgreSQL, in the
// tables of Cayley's SQL backend, at bulk speed. Cayley's writer sends one
// INSERT per node and per quad and keeps six indexes and four foreign keys
// up to date on each; its iterator reads each distinct node in a query of
// its own.
//
// A Loader writes the first load into an empty store, in one
// transaction. It takes the store's two tables for itself, checks that
// they are empty, and drops the quads' indexes and constraints and the
// nodes' primary key, after reading their definitions from the catalogue.
// Each chunk of quads is copied into quads (COPY), and the chunk's nodes,
// with their reference counts, into a temporary table; Commit sums those
// into nodes, builds the indexes and constraints again as they were,
// tallies the derived rows (copied with each chunk) and commits; then it
// vacuums and analyses every table, so that the first queries find a
// visibility map and statistics. A killed or failed load therefore leaves
// the store as it was, empty, and the store a commit leaves is one Cayley
// wrote: the same rows, counts and indexes.
//
// [Apply] writes the later builds' transactions: their quads and nodes
// copied into temporary tables, and a few statements that add them with
// the reference counts, where Cayley's writer sends a statement per quad
// and per node.
//
// [Quads] reads every quad back in one query that joins the quads with
// their nodes.
//
// The derived tables (derived.go) keep, beside Cayley's, what the saved
// queries' SQL twins read: per graph, in the transaction that writes it.
//
// [Builds] makes the builds of one store take turns, and lets one that
// finds another writing hand its captions over to it, through a queue in
// two tables of capgraph's beside Cayley's.
package pgbulk

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cayleygraph/cayley/graph/refs"
	csql "github.com/cayleygraph/cayley/graph/sql"
	"github.com/cayleygraph/quad"
	"github.com/lib/pq"
)

// ChunkQuads is how many quads a Loader holds before it copies them.
var ChunkQuads = 50_000

// ErrNotEmpty reports a store that holds quads: a bulk load is only for
// an empty one.
var ErrNotEmpty = errors.New("store is not empty")

// nodeColumns are the columns of Cayley's nodes table, in the order a
// Loader copies them; every value type fills some of them.
var nodeColumns = []string{"hash", "refs", "value", "value_string", "datatype", "language",
	"iri", "bnode", "value_int", "value_bool", "value_float", "value_time"}

// A Loader holds a bulk load into one PostgreSQL store until Commit.
type Loader struct {
	ctx    context.Context
	db     *sql.DB
	tx     *sql.Tx
	now    time.Time               // every quad's ts, as Cayley's now() of one transaction
	graphs map[refs.ValueHash]bool // the graphs added, by hash
	quads  [][4][]byte             // the chunk's quads, as node hashes
	nodes  map[refs.ValueHash]*node
	rows   graphRows // the chunk's derived rows
	// rebuild is what Commit runs to put back what New dropped.
	rebuild []string
	total   int // quads copied
}

type node struct {
	v    quad.Value
	refs int
}

// New begins a bulk load into the PostgreSQL store at addr, whose tables
// Cayley has created. It returns ErrNotEmpty, having changed nothing, if
// the store holds a quad. A load that another one holds the tables for
// waits for it to end.
func New(ctx context.Context, addr string) (*Loader, error) {
	db, err := sql.Open("postgres", addr)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	// Most builds are not the first: tell them without taking the tables.
	var some bool
	if err := db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM quads)`).Scan(&some); err != nil || some {
		db.Close()
		if err == nil {
			err = ErrNotEmpty
		}
		return nil, err
	}
	l := &Loader{ctx: ctx, db: db, graphs: make(map[refs.ValueHash]bool), nodes: make(map[refs.ValueHash]*node)}
	if err := l.begin(); err != nil {
		l.Abandon()
		return nil, err
	}
	return l, nil
}

func (l *Loader) begin() error {
	tx, err := l.db.BeginTx(l.ctx, nil)
	if err != nil {
		return err
	}
	l.tx = tx
	if _, err := tx.Exec(`LOCK TABLE nodes, quads IN ACCESS EXCLUSIVE MODE`); err != nil {
		return err
	}
	var some bool
	if err := tx.QueryRow(`SELECT EXISTS (SELECT 1 FROM quads) OR EXISTS (SELECT 1 FROM nodes)`).Scan(&some); err != nil {
		return err
	}
	if some {
		return ErrNotEmpty
	}
	if err := tx.QueryRow(`SELECT now()`).Scan(&l.now); err != nil {
		return err
	}
	// What to build again at Commit, in order: the quads' plain indexes,
	// then the primary key, then the foreign keys that need it. drop[i]
	// undoes l.rebuild[i]; they run backwards.
	var drop, cons, consDrop []string
	rows, err := tx.Query(`SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid), contype
		FROM pg_constraint
		WHERE conrelid IN ('nodes'::regclass, 'quads'::regclass) AND contype IN ('p', 'f')
		ORDER BY contype DESC, conname`) // p before f
	if err != nil {
		return err
	}
	for rows.Next() {
		var table, name, def, typ string
		if err := rows.Scan(&table, &name, &def, &typ); err != nil {
			rows.Close()
			return err
		}
		if table == "quads" && typ == "p" {
			continue // the horizon: filled by its sequence, kept
		}
		consDrop = append(consDrop, fmt.Sprintf(`ALTER TABLE %s DROP CONSTRAINT %s`, pq.QuoteIdentifier(table), pq.QuoteIdentifier(name)))
		cons = append(cons, fmt.Sprintf(`ALTER TABLE %s ADD CONSTRAINT %s %s`, pq.QuoteIdentifier(table), pq.QuoteIdentifier(name), def))
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return err
	}
	rows, err = tx.Query(`SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid)
		FROM pg_index i LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid
		WHERE i.indrelid = 'quads'::regclass AND c.oid IS NULL
		ORDER BY 1`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var name, def string
		if err := rows.Scan(&name, &def); err != nil {
			rows.Close()
			return err
		}
		drop = append(drop, `DROP INDEX `+name)
		l.rebuild = append(l.rebuild, def)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return err
	}
	drop, l.rebuild = append(drop, consDrop...), append(l.rebuild, cons...)
	for _, q := range slices.Backward(drop) {
		if _, err := tx.Exec(q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	if _, err := tx.Exec(`CREATE TEMPORARY TABLE pgbulk_nodes (LIKE nodes) ON COMMIT DROP`); err != nil {
		return err
	}
	// An empty store's derived tables are empty, or stale; their indexes
	// wait for the copies, as the quads' do.
	return createDerived(l.ctx, tx, false)
}

// Has reports whether the graph g was added.
func (l *Loader) Has(g quad.IRI) bool {
	return l.graphs[refs.HashOf(g)]
}

// Add adds the quads of one caption's graph g and the descriptions that it
// is the first to give. photo is not used: PostgreSQL keeps every node in
// one table.
func (l *Loader) Add(g, photo quad.IRI, own, desc []quad.Quad) error {
	l.graphs[refs.HashOf(g)] = true
	l.rows.deriveGraph(g, own)
	for _, qs := range [2][]quad.Quad{own, desc} {
		for _, q := range qs {
			var row [4][]byte
			for i, v := range [4]quad.Value{q.Subject, q.Predicate, q.Object, q.Label} {
				if v == nil {
					continue
				}
				h := refs.HashOf(v)
				n := l.nodes[h]
				if n == nil {
					n = &node{v: v}
					l.nodes[h] = n
				}
				n.refs++
				row[i] = h[:]
			}
			l.quads = append(l.quads, row)
		}
	}
	if len(l.quads) >= ChunkQuads {
		return l.flush()
	}
	return nil
}

// flush copies the chunk's quads and nodes.
func (l *Loader) flush() error {
	if len(l.quads) == 0 {
		return nil
	}
	quads := make([][]any, len(l.quads))
	for i, r := range l.quads {
		row := make([]any, 5)
		for j, h := range r {
			if h != nil {
				row[j] = h
			}
		}
		row[4] = l.now
		quads[i] = row
	}
	if err := copyRows(l.ctx, l.tx, "quads", []string{"subject_hash", "predicate_hash", "object_hash", "label_hash", "ts"}, quads); err != nil {
		return fmt.Errorf("copy quads: %w", err)
	}
	nodes := make([][]any, 0, len(l.nodes))
	for h, n := range l.nodes {
		row, err := nodeRow(h, n.v, n.refs)
		if err != nil {
			return err
		}
		nodes = append(nodes, row)
	}
	if err := copyRows(l.ctx, l.tx, "pgbulk_nodes", nodeColumns, nodes); err != nil {
		return fmt.Errorf("copy nodes: %w", err)
	}
	for _, d := range []struct {
		table string
		cols  []string
		rows  *[][]any
	}{
		{"capgraph_photos", []string{"graph", "photo", "iri", "id", "places", "mentions", "creators"}, &l.rows.photos},
		{"capgraph_photo_dates", []string{"graph", "date", "datatype"}, &l.rows.dates},
		{"capgraph_statements", []string{"graph", "statement", "subject", "predicate", "object", "confidence"}, &l.rows.statements},
		{"capgraph_mentions", []string{"graph", "entity", "text", "begin_index", "end_index"}, &l.rows.mentions},
	} {
		if err := copyRows(l.ctx, l.tx, d.table, d.cols, *d.rows); err != nil {
			return fmt.Errorf("copy %s: %w", d.table, err)
		}
		*d.rows = (*d.rows)[:0]
	}
	l.total += len(l.quads)
	l.quads = l.quads[:0]
	clear(l.nodes)
	return nil
}

// nodeRow is the row of nodes for v, as Cayley's writer fills it
// (csql.NodeValues), in nodeColumns' order.
func nodeRow(h refs.ValueHash, v quad.Value, n int) ([]any, error) {
	typ, values, err := csql.NodeValues(csql.NodeHash{ValueHash: h}, v)
	if err != nil {
		return nil, err
	}
	row := make([]any, len(nodeColumns))
	row[0], row[1] = values[0], n
	for i, col := range typ.Columns() {
		for j, c := range nodeColumns {
			if c == col {
				row[j] = values[1+i]
			}
		}
	}
	return row, nil
}

// Size returns the quads added so far.
func (l *Loader) Size() int { return l.total + len(l.quads) }

// Commit writes what was added and commits it.
func (l *Loader) Commit() error {
	if err := l.flush(); err != nil {
		return err
	}
	tx := l.tx
	for _, q := range []string{
		`SET LOCAL maintenance_work_mem = '256MB'`,
		// One row a node: the sum of its chunks' references. Its value
		// columns are the same in every chunk.
		`INSERT INTO nodes (` + strings.Join(nodeColumns, ", ") + `)
		SELECT hash, sum(refs), (array_agg(value))[1], min(value_string), min(datatype), min(language),
			bool_or(iri), bool_or(bnode), min(value_int), bool_or(value_bool), min(value_float), min(value_time)
		FROM pgbulk_nodes GROUP BY hash`,
	} {
		if _, err := tx.Exec(q); err != nil {
			return err
		}
	}
	for _, q := range l.rebuild {
		if _, err := tx.Exec(q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	// The tallies, from the derived rows copied beside the quads.
	if err := indexDerived(l.ctx, tx); err != nil {
		return err
	}
	if err := derive(l.ctx, tx, `SELECT graph FROM capgraph_photos`, false); err != nil {
		return err
	}
	l.tx = nil
	if err := tx.Commit(); err != nil {
		l.Abandon()
		return err
	}
	if err := vacuum(l.ctx, l.db, append([]string{"nodes", "quads"}, DerivedTables...)); err != nil {
		l.db.Close()
		return err
	}
	return l.db.Close()
}

// Abandon drops what was added: the store stays empty.
func (l *Loader) Abandon() {
	if l.tx != nil {
		l.tx.Rollback()
		l.tx = nil
	}
	l.db.Close()
}
