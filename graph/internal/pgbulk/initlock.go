package pgbulk

import (
	"context"
	"database/sql"
	"errors"
)

// initLockClass is the first key of the advisory lock that LockInit
// takes ("capi"); the second is a hash of the store's schema, since the
// tables it guards may not exist yet.
const initLockClass = 0x63617069

// LockInit waits until no other process is creating the tables of the
// store at addr, and keeps them from starting until unlock is called.
// PostgreSQL's CREATE ... IF NOT EXISTS is not safe against itself: two
// sessions that create one table at once can both find it missing, and
// the second then fails on the catalogue ("type "nodes" already exists",
// a duplicate key, a duplicate table, by timing). Under the lock the
// second finds the first's tables.
func LockInit(ctx context.Context, addr string) (unlock func() error, err error) {
	db, conn, err := openConn(ctx, addr)
	if err != nil {
		return nil, err
	}
	const key = `$1::int, hashtext(coalesce(current_schema(), ''))`
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(`+key+`)`, initLockClass); err != nil {
		return nil, errors.Join(err, conn.Close(), db.Close())
	}
	return func() error {
		// Closing the connection releases the lock even when the unlock
		// fails.
		_, err := conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock(`+key+`)`, initLockClass)
		return errors.Join(err, conn.Close(), db.Close())
	}, nil
}

// openConn opens the store at addr and one connection of it, for a
// session's advisory lock.
func openConn(ctx context.Context, addr string) (*sql.DB, *sql.Conn, error) {
	db, err := sql.Open("postgres", addr)
	if err != nil {
		return nil, nil, err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	return db, conn, nil
}
