package pgbulk

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"strings"
	"sync"

	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/quad"
	"github.com/cayleygraph/quad/pquads"
	"github.com/lib/pq"
)

// valueColumns are the columns of a node that hold its value, in the
// order decodeValue takes them.
const valueColumns = "value, value_string, datatype, language, iri, bnode, value_int, value_bool, value_float, value_time"

// Quads yields every quad of the PostgreSQL store at addr, in the table's
// order, from one query that joins each quad with its nodes' values:
// Cayley's iterator asks for each distinct node apart, a round trip each.
// Rows stream; nothing holds the whole store.
func Quads(ctx context.Context, addr string) iter.Seq2[quad.Quad, error] {
	return func(yield func(quad.Quad, error) bool) {
		db, err := sql.Open("postgres", addr)
		if err != nil {
			yield(quad.Quad{}, err)
			return
		}
		defer db.Close()
		var cols []string
		for _, t := range []string{"s", "p", "o", "l"} {
			for c := range strings.SplitSeq(valueColumns, ", ") {
				cols = append(cols, t+"."+c)
			}
		}
		// One read-only transaction: the quads and their nodes as of one
		// moment, even while a build writes.
		tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead})
		if err != nil {
			yield(quad.Quad{}, err)
			return
		}
		defer tx.Rollback()
		rows, err := tx.QueryContext(ctx, `SELECT `+strings.Join(cols, ", ")+`
			FROM quads q
			JOIN nodes s ON s.hash = q.subject_hash
			JOIN nodes p ON p.hash = q.predicate_hash
			JOIN nodes o ON o.hash = q.object_hash
			LEFT JOIN nodes l ON l.hash = q.label_hash`)
		if err != nil {
			yield(quad.Quad{}, err)
			return
		}
		defer rows.Close()
		var vals [4]nodeValue
		dest := dests(vals[:])
		for rows.Next() {
			if err := rows.Scan(dest...); err != nil {
				yield(quad.Quad{}, err)
				return
			}
			var q quad.Quad
			for i, p := range [4]*quad.Value{&q.Subject, &q.Predicate, &q.Object, &q.Label} {
				if *p, err = vals[i].value(); err != nil {
					yield(quad.Quad{}, err)
					return
				}
			}
			if !yield(q, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(quad.Quad{}, err)
		}
	}
}

// A nodeValue is a row of a node's value columns, as Cayley's SQL backend
// writes them (csql.NodeValues) and reads them back (its NameOf).
type nodeValue struct {
	data   []byte
	str    sql.NullString
	typ    sql.NullString
	lang   sql.NullString
	iri    sql.NullBool
	bnode  sql.NullBool
	vint   sql.NullInt64
	vbool  sql.NullBool
	vfloat sql.NullFloat64
	vtime  sql.NullTime
}

func (n *nodeValue) dest() []any {
	return []any{&n.data, &n.str, &n.typ, &n.lang, &n.iri, &n.bnode, &n.vint, &n.vbool, &n.vfloat, &n.vtime}
}

// dests is the scan destinations of vals, one after another.
func dests(vals []nodeValue) []any {
	out := make([]any, 0, 10*len(vals))
	for i := range vals {
		out = append(out, vals[i].dest()...)
	}
	return out
}

// value is the node's value; nil for a row with no columns set, which a
// LEFT JOIN gives a quad without a label.
func (n *nodeValue) value() (quad.Value, error) {
	switch {
	case n.str.Valid:
		s := strings.ReplaceAll(n.str.String, `\x00`, "\x00") // Cayley escapes NUL, which PostgreSQL's text refuses
		switch {
		case n.iri.Bool:
			return quad.IRI(s), nil
		case n.bnode.Bool:
			return quad.BNode(s), nil
		case n.lang.Valid:
			return quad.LangString{Value: quad.String(s), Lang: n.lang.String}, nil
		case n.typ.Valid:
			return quad.TypedString{Value: quad.String(s), Type: quad.IRI(n.typ.String)}, nil
		}
		return quad.String(s), nil
	case n.vint.Valid:
		return quad.Int(n.vint.Int64), nil
	case n.vbool.Valid:
		return quad.Bool(n.vbool.Bool), nil
	case n.vfloat.Valid:
		return quad.Float(n.vfloat.Float64), nil
	case n.vtime.Valid:
		return quad.Time(n.vtime.Time.UTC()), nil
	case n.data != nil:
		v, err := pquads.UnmarshalValue(n.data)
		if err != nil {
			return nil, fmt.Errorf("unmarshal value: %w", err)
		}
		return v, nil
	}
	return nil, nil
}

// A Lookup answers a build's look-ups in a PostgreSQL store, each in one
// round trip by a prepared statement: Cayley's iterator plans, writes and
// sends a query of its own each time, and another for each node it has
// not seen. The statements are prepared at the first look-up, not when
// the Lookup is made: preparing waits for a lock on the tables, which a
// bulk load holds until it commits, and a build that hands its captions
// to the load under way (Queue) must not wait for it to open the store.
type Lookup struct {
	db *sql.DB

	mu         sync.Mutex // guards the statements while they are prepared
	has        *sql.Stmt
	quads      *sql.Stmt
	graph      *sql.Stmt
	referenced *sql.Stmt
}

// NewLookup returns a Lookup on the store at addr.
func NewLookup(ctx context.Context, addr string) (*Lookup, error) {
	db, err := sql.Open("postgres", addr)
	if err != nil {
		return nil, err
	}
	return &Lookup{db: db}, nil
}

// prepare prepares the statements unless they are; a failure is returned
// and tried again at the next look-up.
func (l *Lookup) prepare(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.referenced != nil {
		return nil
	}
	var cols []string
	for _, t := range []string{"s", "p", "o"} {
		for c := range strings.SplitSeq(valueColumns, ", ") {
			cols = append(cols, t+"."+c)
		}
	}
	spo := `SELECT ` + strings.Join(cols, ", ") + `
		FROM quads q
		JOIN nodes s ON s.hash = q.subject_hash
		JOIN nodes p ON p.hash = q.predicate_hash
		JOIN nodes o ON o.hash = q.object_hash`
	var has, quads, graph, referenced *sql.Stmt
	has, err := l.db.PrepareContext(ctx, `SELECT EXISTS (SELECT 1 FROM nodes WHERE hash = $1)`)
	if err == nil {
		quads, err = l.db.PrepareContext(ctx, spo+` WHERE q.subject_hash = ANY($1) AND q.label_hash = $2`)
	}
	if err == nil {
		graph, err = l.db.PrepareContext(ctx, spo+` WHERE q.label_hash = $1`)
	}
	if err == nil {
		// The quads excepted are hashed once (NOT IN a subquery);
		// each node is then an index look-up that stops at its first
		// quad not excepted.
		referenced, err = l.db.PrepareContext(ctx, `WITH excepted AS MATERIALIZED (
				SELECT * FROM unnest($2::bytea[], $3::bytea[], $4::bytea[], $5::bytea[]) AS e(s, p, o, l)
			)
			SELECT v.h FROM unnest($1::bytea[]) AS v(h)
			WHERE EXISTS (SELECT 1 FROM quads q WHERE q.object_hash = v.h
				AND (q.subject_hash, q.predicate_hash, q.object_hash, COALESCE(q.label_hash, '\x'::bytea))
					NOT IN (SELECT s, p, o, l FROM excepted))`)
	}
	if err != nil {
		for _, st := range []*sql.Stmt{has, quads, graph} {
			if st != nil {
				st.Close()
			}
		}
		return err
	}
	l.has, l.quads, l.graph, l.referenced = has, quads, graph, referenced
	return nil
}

// Has reports whether the store holds v. Cayley deletes a node with its
// last quad, so a node is held exactly while a quad names it.
func (l *Lookup) Has(ctx context.Context, v quad.Value) (bool, error) {
	h := refs.HashOf(v)
	if err := l.prepare(ctx); err != nil {
		return false, err
	}
	var ok bool
	err := l.has.QueryRowContext(ctx, h[:]).Scan(&ok)
	return ok, err
}

// Quads appends to out the quads in graph g whose subject is one of
// subjects, in no particular order.
func (l *Lookup) Quads(ctx context.Context, out []quad.Quad, subjects []quad.Value, g quad.Value) ([]quad.Quad, error) {
	if err := l.prepare(ctx); err != nil {
		return out, err
	}
	gh := refs.HashOf(g)
	rows, err := l.quads.QueryContext(ctx, hashArray(subjects), gh[:])
	if err != nil {
		return out, err
	}
	return scanQuads(rows, out, g)
}

// Graph appends to out every quad in graph g, in no particular order:
// one read of the index by graph (IndexLabels).
func (l *Lookup) Graph(ctx context.Context, out []quad.Quad, g quad.Value) ([]quad.Quad, error) {
	if err := l.prepare(ctx); err != nil {
		return out, err
	}
	gh := refs.HashOf(g)
	rows, err := l.graph.QueryContext(ctx, gh[:])
	if err != nil {
		return out, err
	}
	return scanQuads(rows, out, g)
}

// scanQuads appends the quads of rows, each a subject, predicate and
// object in valueColumns, to out with graph g, and closes rows.
func scanQuads(rows *sql.Rows, out []quad.Quad, g quad.Value) ([]quad.Quad, error) {
	defer rows.Close()
	var vals [3]nodeValue
	dest := dests(vals[:])
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return out, err
		}
		q := quad.Quad{Label: g}
		for i, p := range [3]*quad.Value{&q.Subject, &q.Predicate, &q.Object} {
			v, err := vals[i].value()
			if err != nil {
				return out, err
			}
			*p = v
		}
		out = append(out, q)
	}
	return out, rows.Err()
}

// Referenced reports, for each node of vs, whether the store holds a quad
// naming it as object that is not one of except, in one query. Each
// node's look-up stops at the first such quad: a country is the object of
// a quad in most captions.
func (l *Lookup) Referenced(ctx context.Context, vs []quad.Value, except []quad.Quad) ([]bool, error) {
	if err := l.prepare(ctx); err != nil {
		return nil, err
	}
	hs := hashArray(vs)
	var cols [4]pq.ByteaArray
	for _, q := range except {
		for i, v := range [4]quad.Value{q.Subject, q.Predicate, q.Object, q.Label} {
			b := []byte{} // no graph: matched as the empty string, not NULL
			if v != nil {
				h := refs.HashOf(v)
				b = h[:]
			}
			cols[i] = append(cols[i], b)
		}
	}
	rows, err := l.referenced.QueryContext(ctx, hs, cols[0], cols[1], cols[2], cols[3])
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	named := make(map[string]bool)
	for rows.Next() {
		var h []byte
		if err := rows.Scan(&h); err != nil {
			return nil, err
		}
		named[string(h)] = true
	}
	out := make([]bool, len(vs))
	for i, h := range hs {
		out[i] = named[string(h)]
	}
	return out, rows.Err()
}

// hashArray returns the hashes of vs, as a query parameter.
func hashArray(vs []quad.Value) pq.ByteaArray {
	hs := make(pq.ByteaArray, len(vs))
	for i, v := range vs {
		h := refs.HashOf(v)
		hs[i] = h[:]
	}
	return hs
}

// Close closes the Lookup's connections.
func (l *Lookup) Close() error {
	var errs []error
	for _, st := range []*sql.Stmt{l.has, l.quads, l.graph, l.referenced} {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	return errors.Join(append(errs, l.db.Close())...)
}
