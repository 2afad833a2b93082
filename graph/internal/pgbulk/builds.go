package pgbulk

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"slices"

	"github.com/lib/pq"
)

// buildLockClass is the first key of the advisory lock that Builds
// takes ("capg"); the second is the store's quads table.
const buildLockClass = 0x63617067

// The tables of the hand-off, beside Cayley's. handedTable holds the
// captions waiting builds handed over; doneTable what the build that
// wrote them counted, until the build that handed them reads it.
const (
	handedTable = "capgraph_handed"
	doneTable   = "capgraph_handed_done"
)

// CreateHandoff creates the tables of the hand-off in the store at addr
// unless they exist.
func CreateHandoff(ctx context.Context, addr string) error {
	db, err := sql.Open("postgres", addr)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, `
		CREATE UNLOGGED TABLE IF NOT EXISTS `+handedTable+` (
			id bigserial PRIMARY KEY,
			build text NOT NULL,
			backend int NOT NULL,
			model text NOT NULL,
			extractor text NOT NULL,
			payload bytea NOT NULL,
			claimed_by text
		);
		ALTER TABLE `+handedTable+` ALTER COLUMN payload SET STORAGE EXTERNAL;
		CREATE TABLE IF NOT EXISTS `+doneTable+` (
			build text NOT NULL,
			stats bytea NOT NULL,
			done_at timestamptz NOT NULL DEFAULT now()
		)`)
	return err
}

// Builds is one build's place among the builds of a store. Builds write
// one at a time, because a build reads what it then rewrites (a tally it
// adds to, an entity's description it brings up to date): two at once
// would both add to the count they read. The build that holds the lock
// writes; one that finds it held hands its captions over (Hand) and waits
// (Lock), and the writing build, once through its own, claims them
// (Claim), writes them, and records what it counted (Done), which the
// waiting one reads when its turn comes (Results). So N builds started at
// once take about as long as one build of all their input: the waiting
// ones only extract, in parallel with the writer.
//
// A caption is removed from the queue only in the transaction that
// records it done, after the writer committed it, and a writer that fails
// or dies leaves its claims to the next: a caption handed over is written
// at least once, and the content hash makes a second write a no-op. A
// writer claims only the captions of builds still connected: one killed
// before its turn keeps none, as a killed first build keeps none, unless
// the writer claimed them in the second PostgreSQL takes to notice.
type Builds struct {
	db      *sql.DB
	conn    *sql.Conn // holds the advisory lock
	backend int       // conn's server process
	held    bool
}

// A Handed is a caption handed over: the payload is opaque here.
type Handed struct {
	ID        int64  // its place in the queue, from Claim
	Build     string // the build that handed it over
	Model     string // the graph model its build writes; only a writer of the same one claims it
	Extractor string // the extractor version that read it
	Payload   []byte
}

// OpenBuilds connects to the store at addr, whose hand-off tables exist
// (CreateHandoff), without taking the lock.
func OpenBuilds(ctx context.Context, addr string) (*Builds, error) {
	db, conn, err := openConn(ctx, addr)
	if err != nil {
		return nil, err
	}
	b := &Builds{db: db, conn: conn}
	if err := conn.QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&b.backend); err != nil {
		b.Close()
		return nil, err
	}
	// A server process waiting for a lock does not notice that its
	// client is gone: without this, a build killed while it waits would
	// stay connected, and its captions would be written, until its turn.
	// (PostgreSQL 14 and later; earlier ones lack the setting.)
	if _, err := conn.ExecContext(ctx, `SET client_connection_check_interval = 1000`); err != nil {
		if e := (*pq.Error)(nil); !errors.As(err, &e) || e.Code != "42704" { // undefined_object
			b.Close()
			return nil, err
		}
	}
	return b, nil
}

// lockKey keys the lock by the table, so that stores in other schemas of
// the same database do not wait for each other.
const lockKey = `$1::int, 'quads'::regclass::oid::int`

// TryLock takes the lock if no other build holds it, and reports whether
// it did.
func (b *Builds) TryLock(ctx context.Context) (bool, error) {
	err := b.conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock(`+lockKey+`)`, buildLockClass).Scan(&b.held)
	return b.held, err
}

// Lock waits for the lock and takes it.
func (b *Builds) Lock(ctx context.Context) error {
	if _, err := b.conn.ExecContext(ctx, `SELECT pg_advisory_lock(`+lockKey+`)`, buildLockClass); err != nil {
		return err
	}
	b.held = true
	return nil
}

// Close releases the lock, if held, and the connections (PostgreSQL drops
// a connection's advisory locks when it closes, so a build that dies
// releases it too).
func (b *Builds) Close() error {
	var err error
	if b.held {
		_, err = b.conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock(`+lockKey+`)`, buildLockClass)
		b.held = false
	}
	return errors.Join(err, b.conn.Close(), b.db.Close())
}

// Hand adds hs to the queue in one transaction.
func (b *Builds) Hand(ctx context.Context, hs []Handed) error {
	if len(hs) == 0 {
		return nil
	}
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	rows := make([][]any, len(hs))
	for i, h := range hs {
		rows[i] = []any{h.Build, b.backend, h.Model, h.Extractor, h.Payload}
	}
	if err := copyRows(ctx, tx, handedTable, []string{"build", "backend", "model", "extractor", "payload"}, rows); err != nil {
		return err
	}
	return tx.Commit()
}

// Withdraw takes out of the queue what build handed over and no writer
// has claimed, and returns how many.
func (b *Builds) Withdraw(ctx context.Context, build string) (int64, error) {
	res, err := b.db.ExecContext(ctx, `DELETE FROM `+handedTable+` WHERE build = $1 AND claimed_by IS NULL`, build)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Claim marks up to limit of the queued captions of model as writer's and
// returns them in the order they were handed over. Only the holder of the
// lock claims, so a caption another build claimed is one that build failed
// to record done: it is claimed again. What builds no longer connected
// handed over and nobody claimed is dropped.
func (b *Builds) Claim(ctx context.Context, writer, model string, limit int) ([]Handed, error) {
	if _, err := b.db.ExecContext(ctx, `DELETE FROM `+handedTable+`
		WHERE claimed_by IS NULL AND backend NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL)`); err != nil {
		return nil, err
	}
	rows, err := b.db.QueryContext(ctx, `UPDATE `+handedTable+` SET claimed_by = $1
		WHERE id IN (SELECT id FROM `+handedTable+`
			WHERE claimed_by IS DISTINCT FROM $1 AND model = $2
			ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
		RETURNING id, build, model, extractor, payload`, writer, model, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var hs []Handed
	for rows.Next() {
		var h Handed
		if err := rows.Scan(&h.ID, &h.Build, &h.Model, &h.Extractor, &h.Payload); err != nil {
			return nil, err
		}
		hs = append(hs, h)
	}
	slices.SortFunc(hs, func(a, b Handed) int { return cmp.Compare(a.ID, b.ID) })
	return hs, rows.Err()
}

// Done removes from the queue what writer claimed, and records for each
// build that handed some of it over what writer counted (stats, opaque
// here), in one transaction. Records nobody read in a week go.
func (b *Builds) Done(ctx context.Context, writer string, stats map[string][]byte) error {
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM `+handedTable+` WHERE claimed_by = $1`, writer); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM `+doneTable+` WHERE done_at < now() - interval '7 days'`); err != nil {
		return err
	}
	for build, st := range stats {
		if _, err := tx.ExecContext(ctx, `INSERT INTO `+doneTable+` (build, stats) VALUES ($1, $2)`, build, st); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Results returns, and removes, what writers recorded done for build.
func (b *Builds) Results(ctx context.Context, build string) ([][]byte, error) {
	rows, err := b.db.QueryContext(ctx, `DELETE FROM `+doneTable+` WHERE build = $1 RETURNING stats`, build)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][]byte
	for rows.Next() {
		var st []byte
		if err := rows.Scan(&st); err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, rows.Err()
}
