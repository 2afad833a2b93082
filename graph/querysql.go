package graph

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/lib/pq"

	"github.com/capgraph/capgraph/graph/model"
)

// ErrNotSQL reports a query in SQL on a store that is not PostgreSQL's.
var ErrNotSQL = errors.New("the store is not a PostgreSQL store: SQL queries run only there")

// ErrNoDerived reports a PostgreSQL store without the tables that capgraph
// derives from its quads for the saved queries' SQL twins, which it
// creates when it opens a store, and could not.
var ErrNoDerived = errors.New("the store has no tables derived for the saved queries, and its user may not create them: open it once as one who may")

// SQL reports whether the store is a PostgreSQL store, which
// [Store.QuerySQL] reads.
func (s *Store) SQL() bool { return s.pgAddr != "" }

// QuerySQL runs one SQL statement on a PostgreSQL store's tables (those of
// Cayley's SQL backend, nodes and quads, and the capgraph_* tables that
// capgraph derives from them, docs/scaling.md), in a read-only transaction, and
// yields up to limit rows (0 means all), each a map from column name to a
// string, an int64, a float64, a bool or nil. args bind the statement's
// placeholders ($1, ...): a [Term] binds as its node's hash (the key of
// nodes and the *_hash columns of quads), a []Term as an array of them,
// and anything else as itself. It is how saved queries' SQL twins run
// (queries.Query.BindSQL).
func (s *Store) QuerySQL(ctx context.Context, text string, args []any, limit int) iter.Seq2[any, error] {
	return func(yield func(any, error) bool) {
		if !s.SQL() {
			yield(nil, fmt.Errorf("graph: query %s: %w", s.addr, ErrNotSQL))
			return
		}
		err := s.querySQL(ctx, text, sqlArgs(args), limit, yield)
		if pqErr, ok := errors.AsType[*pq.Error](err); ok && pqErr.Code == "42P01" && strings.Contains(pqErr.Message, "capgraph_") {
			err = fmt.Errorf("%w: %w", ErrNoDerived, err) // undefined_table
		}
		if err != nil {
			yield(nil, fmt.Errorf("graph: query %s: %w", s.addr, err))
		}
	}
}

func (s *Store) querySQL(ctx context.Context, text string, args []any, limit int, yield func(any, error) bool) error {
	db, settings, err := s.sqlDB(ctx)
	if err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if settings != "" {
		if _, err := tx.ExecContext(ctx, settings); err != nil {
			return err
		}
	}
	rs, err := tx.QueryContext(ctx, text, args...)
	if err != nil {
		return err
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for n := 0; rs.Next(); n++ {
		if limit > 0 && n == limit {
			return nil
		}
		if err := rs.Scan(ptrs...); err != nil {
			return err
		}
		row := make(map[string]any, len(cols))
		for i, c := range cols {
			if b, ok := vals[i].([]byte); ok {
				row[c] = string(b)
			} else {
				row[c] = vals[i]
			}
		}
		if !yield(row, nil) {
			return nil
		}
	}
	return rs.Err()
}

// pgQuerySettings hold for each SQL query on PostgreSQL. PostgreSQL
// compiles a plan it costs high (a join over 10^5 photos) before running
// it, 0.3 s, more than most queries take. And its estimates for pairs of
// predicate and object are off by 10-20x, which can make a scan of every
// node, or a merge join that reads the whole nodes index (4.5 s for 162
// photos of one week), look cheaper than a few thousand look-ups by key.
const pgQuerySettings = `SET LOCAL jit = off; SET LOCAL enable_seqscan = off; SET LOCAL enable_mergejoin = off`

// sqlDB returns the store's connection pool for QuerySQL, opening it on
// first use, and the settings for the server it reaches: CockroachDB
// speaks PostgreSQL's protocol but has neither setting. A failure is not
// kept: the next query tries again.
func (s *Store) sqlDB(ctx context.Context) (*sql.DB, string, error) {
	s.sqlMu.Lock()
	defer s.sqlMu.Unlock()
	if s.sqlPool != nil {
		return s.sqlPool, s.sqlSettings, nil
	}
	db, err := sql.Open("postgres", s.pgAddr)
	if err != nil {
		return nil, "", err
	}
	var version string
	if err := db.QueryRowContext(ctx, `SELECT version()`).Scan(&version); err != nil {
		db.Close()
		return nil, "", err
	}
	s.sqlPool = db
	if !strings.Contains(version, "CockroachDB") {
		s.sqlSettings = pgQuerySettings
	}
	return s.sqlPool, s.sqlSettings, nil
}

// sqlArgs binds Terms as node hashes.
func sqlArgs(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch a := a.(type) {
		case Term:
			out[i] = nodeHash(a)
		case []Term:
			hs := make(pq.ByteaArray, len(a))
			for j, t := range a {
				hs[j] = nodeHash(t)
			}
			out[i] = hs
		default:
			out[i] = a
		}
	}
	return out
}

func nodeHash(t Term) []byte {
	h := refs.HashOf(t.value())
	return h[:]
}

// HasPhotos reports whether the store holds a photo: whether any caption
// has been built into it.
func (s *Store) HasPhotos(ctx context.Context) (bool, error) {
	if s.SQL() {
		// One index probe, where Cayley's SQL iterator reads every photo's
		// type quad before the first (0.4 s at 10^5 captions).
		args := []any{IRI(string(model.RDFType)), IRI(string(model.SchemaPhotograph))}
		for r, err := range s.QuerySQL(ctx, `SELECT EXISTS (SELECT 1 FROM quads WHERE predicate_hash = $1 AND object_hash = $2) AS some`, args, 1) {
			if err != nil {
				return false, err
			}
			return r.(map[string]any)["some"] == true, nil
		}
		return false, nil
	}
	prog := fmt.Sprintf(`g.V("%s").In("%s").Limit(1).All()`, model.SchemaPhotograph, model.RDFType) // quad.IRI prints as <IRI>
	for _, err := range s.Query(ctx, "gizmo", prog, 1) {
		return err == nil, err
	}
	return false, nil
}
