package pgbulk

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/quad"
	"github.com/lib/pq"
)

// applyStatements write what Apply has copied into its temporary tables,
// in the order Cayley's writer does: nodes, added quads, deleted quads,
// reference counts, unreferenced nodes. The counts are those of the quads
// actually added and deleted (RETURNING), so a quad added twice or deleted
// when missing changes none.
var applyStatements = []struct{ what, sql string }{
	{"add nodes", `INSERT INTO nodes (` + strings.Join(nodeColumns, ", ") + `)
		SELECT ` + strings.Join(nodeColumns, ", ") + ` FROM pgapply_nodes
		ON CONFLICT (hash) DO NOTHING`},
	// In the order of spo_index and the unique indexes, so that inserts
	// into three of the seven indexes go left to right.
	{"add quads", `WITH added AS (
			INSERT INTO quads (subject_hash, predicate_hash, object_hash, label_hash, ts)
			SELECT subject_hash, predicate_hash, object_hash, label_hash, now()
			FROM pgapply_quads WHERE add
			ORDER BY subject_hash, predicate_hash, object_hash, label_hash
			ON CONFLICT DO NOTHING
			RETURNING subject_hash, predicate_hash, object_hash, label_hash)
		INSERT INTO pgapply_refs (hash, n)
		SELECT h, count(*) FROM added,
			LATERAL (VALUES (subject_hash), (predicate_hash), (object_hash), (label_hash)) AS v (h)
		WHERE h IS NOT NULL GROUP BY h`},
	{"delete quads", `WITH deleted AS (
			DELETE FROM quads q USING pgapply_quads d
			WHERE NOT d.add AND q.subject_hash = d.subject_hash AND q.predicate_hash = d.predicate_hash
				AND q.object_hash = d.object_hash AND q.label_hash IS NOT DISTINCT FROM d.label_hash
			RETURNING q.subject_hash, q.predicate_hash, q.object_hash, q.label_hash)
		INSERT INTO pgapply_refs (hash, n)
		SELECT h, -count(*) FROM deleted,
			LATERAL (VALUES (subject_hash), (predicate_hash), (object_hash), (label_hash)) AS v (h)
		WHERE h IS NOT NULL GROUP BY h`},
	// The temporary tables have no statistics but these, without which
	// the deletion of nodes reads the whole table.
	{"analyze", `ANALYZE pgapply_nodes, pgapply_quads, pgapply_refs`},
	{"count references", `UPDATE nodes SET refs = nodes.refs + r.n
		FROM (SELECT hash, sum(n) AS n FROM pgapply_refs GROUP BY hash) r
		WHERE nodes.hash = r.hash AND r.n <> 0`},
	// Only the nodes this call touched: Cayley's writer looks at every
	// node for one whose count is 0, a scan of the table per transaction
	// (1 s at 10^4 captions).
	{"delete unreferenced nodes", `DELETE FROM nodes
		WHERE hash IN (SELECT hash FROM pgapply_refs WHERE n < 0 UNION ALL SELECT hash FROM pgapply_nodes)
			AND refs <= 0`},
}

// Apply adds and deletes the quads of deltas in the PostgreSQL store that
// db reaches, in one transaction, as Cayley's writer would with IgnoreDup
// and IgnoreMissing: the same rows, the same reference counts. Cayley's
// writer sends a statement per node and per quad, and looks for nodes
// without references through the whole table; Apply copies the deltas
// into temporary tables and sends six statements. It derives again the
// derived tables' rows of the graphs the deltas name (CreateDerived must
// have made them). A done ctx rolls the transaction back.
func Apply(ctx context.Context, db *sql.DB, deltas []cgraph.Delta) (err error) {
	if len(deltas) == 0 {
		return nil
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	for _, q := range []string{
		`CREATE TEMPORARY TABLE pgapply_nodes (LIKE nodes) ON COMMIT DROP`,
		`CREATE TEMPORARY TABLE pgapply_quads (subject_hash bytea, predicate_hash bytea, object_hash bytea, label_hash bytea, add boolean) ON COMMIT DROP`,
		`CREATE TEMPORARY TABLE pgapply_refs (hash bytea, n bigint) ON COMMIT DROP`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	nodes := make(map[refs.ValueHash]quad.Value)
	quads := make([][]any, 0, len(deltas))
	for _, d := range deltas {
		add := d.Action == cgraph.Add
		row := make([]any, 5)
		for i, v := range [4]quad.Value{d.Quad.Subject, d.Quad.Predicate, d.Quad.Object, d.Quad.Label} {
			if v == nil {
				continue
			}
			h := refs.HashOf(v)
			row[i] = h[:]
			if add {
				nodes[h] = v
			}
		}
		row[4] = add
		quads = append(quads, row)
	}
	nodeRows := make([][]any, 0, len(nodes))
	for h, v := range nodes {
		row, err := nodeRow(h, v, 0) // counted as the quads go in
		if err != nil {
			return err
		}
		nodeRows = append(nodeRows, row)
	}
	if err := copyRows(ctx, tx, "pgapply_nodes", nodeColumns, nodeRows); err != nil {
		return fmt.Errorf("copy nodes: %w", err)
	}
	if err := copyRows(ctx, tx, "pgapply_quads", []string{"subject_hash", "predicate_hash", "object_hash", "label_hash", "add"}, quads); err != nil {
		return fmt.Errorf("copy quads: %w", err)
	}
	for _, st := range applyStatements {
		if _, err := tx.ExecContext(ctx, st.sql); err != nil {
			return fmt.Errorf("%s: %w", st.what, err)
		}
	}
	if err := derive(ctx, tx, `SELECT DISTINCT label_hash AS graph FROM pgapply_quads WHERE label_hash IS NOT NULL`, true); err != nil {
		return err
	}
	return tx.Commit()
}

// IndexLabels creates the index of the quads by label (graph) in the store
// at addr, unless it has one, so that deleting a node does not read the
// whole table to check that no quad names it as its graph. Any index that
// begins with label_hash will do, a user's own too. A bulk load keeps it,
// as it keeps every index of the quads.
func IndexLabels(ctx context.Context, addr string) error {
	db, err := sql.Open("postgres", addr)
	if err != nil {
		return err
	}
	defer db.Close()
	// A look at the catalogue first: CREATE INDEX IF NOT EXISTS takes a
	// lock on the table that waits for every write under way.
	var has bool
	err = db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_index
		WHERE indrelid = 'quads'::regclass AND indkey[0] = (
			SELECT attnum FROM pg_attribute WHERE attrelid = 'quads'::regclass AND attname = 'label_hash'))`).Scan(&has)
	if err != nil || has {
		return err
	}
	_, err = db.ExecContext(ctx, `CREATE INDEX IF NOT EXISTS label_index ON quads (label_hash)`)
	return err
}

// copyRows copies rows into table's cols, in tx.
func copyRows(ctx context.Context, tx *sql.Tx, table string, cols []string, rows [][]any) error {
	st, err := tx.PrepareContext(ctx, pq.CopyIn(table, cols...))
	if err != nil {
		return err
	}
	for _, r := range rows {
		if _, err := st.ExecContext(ctx, r...); err != nil {
			return errors.Join(err, st.Close())
		}
	}
	if _, err := st.ExecContext(ctx); err != nil {
		return errors.Join(err, st.Close())
	}
	return st.Close()
}
