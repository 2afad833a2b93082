// Package graph stores extractions in a Cayley quad store, one named graph
// per caption, and exports them as N-Quads, N-Triples, Turtle, JSON-LD or a
// flat CSV events view. It is the only package of capgraph that imports
// Cayley. docs/model.md describes the RDF it writes; package model builds
// it.
//
// graph is the door: [Store] opens, loads, queries, exports, counts and
// checks. The engines behind it live under internal/, each with one job;
// the first four copy a layout or an interface of Cayley's or bbolt's,
// and stand apart so that a reader sees where:
//   - boltkv, the key-value layer under the embedded store, which keeps
//     Cayley's value maps in two buckets instead of 131,072;
//   - bulk, which writes the first load into an empty embedded store in
//     that layout directly, sorted on disk, instead of through Cayley's
//     writer;
//   - pgbulk, the same for PostgreSQL in the tables of Cayley's SQL
//     backend (COPY, indexes built after the data), and the one-query read
//     that export streams from it;
//   - plan, the query planner on the embedded store's indexes, and the
//     wrapper that keeps queries on PostgreSQL clear of a crash in Cayley's
//     SQL iterators;
//   - rdfterm, the N-Triples and Turtle term writers of the exporters.
//
// Its files: store.go opens and closes a store and runs queries. load.go
// runs a load: ahead.go prepares each caption beside the writer, and one
// of two writers puts it in the store, bulkwrite.go into an empty store,
// cayleywrite.go through Cayley in batches (batch.go, the
// transactions) against what stored.go reads back of a caption's graph
// and an entity's description. tally.go keeps the counts; stats.go,
// export.go (with encode.go, its formats), describe.go, read.go and
// check.go answer the store's readers.
package graph

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/kv"
	_ "github.com/cayleygraph/cayley/graph/memstore" // "" addresses
	csql "github.com/cayleygraph/cayley/graph/sql"
	"github.com/cayleygraph/cayley/graph/sql/postgres"
	"github.com/cayleygraph/cayley/query"
	_ "github.com/cayleygraph/cayley/query/gizmo" // Query languages
	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/capgraph/capgraph/graph/internal/boltkv"
	"github.com/capgraph/capgraph/graph/internal/pgbulk"
	"github.com/capgraph/capgraph/graph/internal/plan"
)

// ErrStoreInUse reports that another process holds the embedded store's
// file lock.
var ErrStoreInUse = errors.New("store in use by another process: a build holds it alone, and readers (serve, query, export, stats) keep a build out")

// ErrReadOnly reports a write to a store opened with [Options.ReadOnly].
var ErrReadOnly = errors.New("store opened read-only")

// Options tune a [Store]. The zero value is ready to use.
type Options struct {
	// BatchSize is the number of quads written per transaction; batches
	// always hold whole captions. 0 means 5000: on a 10^5-caption store
	// that bounds the build's RSS to about 0.75 GB, against 1.4 GB at 20000,
	// for about a fifth more build time (BENCHMARKS.md).
	BatchSize int
	// Logger receives debug logs; nil means none.
	Logger *slog.Logger
	// NoSync skips fsync on each commit of the embedded store; Load syncs
	// once when it returns. A crash of the process still leaves whole
	// transactions; a crash of the machine during a Load may corrupt the
	// store.
	NoSync bool
	// LockTimeout is how long Open waits for another process to release the
	// embedded store; 0 means one second.
	LockTimeout time.Duration
	// ReadOnly opens an existing embedded store for reading only, under a
	// shared lock: any number of readers (serve, query, export, stats) may
	// hold it at once, while a writer (Load) waits for them all. Load on a
	// read-only store fails.
	ReadOnly bool
	// BaseIRI is where Export and Describe put the nodes that capgraph
	// mints, in place of [model.Base]: "https://example.org/photos/id/"
	// writes .../id/place/geonames/170654 as
	// https://example.org/photos/id/place/geonames/170654. The store keeps
	// model.Base, so a store can be exported under any base. "" is
	// model.Base.
	BaseIRI string
}

// A Store is a capgraph graph: a Cayley quad store holding one named graph
// per caption. A Store is safe for one Load at a time; export, stats and
// queries may run beside it.
type Store struct {
	qs   cgraph.QuadStore
	read cgraph.QuadStore // what queries run on: qs, plan.Store or plan.SQL{qs}
	bolt *boltkv.Handle   // the embedded store's database, else nil
	addr string
	// pgAddr is a PostgreSQL store's address, password included, for
	// its bulk load and export (internal/pgbulk); else "".
	pgAddr string
	// pgNodes answers a PostgreSQL store's look-ups of content hashes.
	pgNodes *pgbulk.Lookup
	// sqlPool runs a PostgreSQL store's SQL queries (QuerySQL), opened
	// on first use; sqlSettings are the SET LOCAL statements each runs
	// first.
	sqlMu       sync.Mutex
	sqlPool     *sql.DB
	sqlSettings string
	opts        Options
	log         *slog.Logger
	// noBulk makes Load write through Cayley even into an empty store, so
	// that tests can compare the two.
	noBulk bool
}

// pgBackend is Cayley's PostgreSQL backend with one change: its estimate
// of a table's rows reads the table that the search path finds. Cayley's
// reads pg_class by name alone, so in a database that holds several
// stores, a schema each, it took any schema's quads, and planned Gizmo
// queries on a store of 150 captions for another's size: 40x slower.
const pgBackend = "capgraph-postgres"

func init() {
	csql.Register(pgBackend, csql.Registration{
		Driver:             "postgres",
		HashType:           `BYTEA`,
		BytesType:          `BYTEA`,
		HorizonType:        `BIGSERIAL`,
		TimeType:           `timestamp with time zone`,
		QueryDialect:       postgres.QueryDialect,
		ConditionalIndexes: true,
		FillFactor:         true,
		Error:              postgres.ConvError,
		Estimated: func(table string) string {
			return `SELECT COALESCE((SELECT reltuples::bigint FROM pg_class WHERE oid = to_regclass('` + table + `')), -1)`
		},
		RunTx: postgres.RunTxPostgres,
	})
}

// ErrDamaged reports a store file that is not a whole bbolt database.
var ErrDamaged = boltkv.ErrDamaged

// Open opens the store at addr, creating it on first use. addr is a
// directory for the embedded bbolt store, a postgres:// or postgresql://
// URL for Cayley's SQL backend (which also serves CockroachDB), or "" for
// a store in memory.
func Open(ctx context.Context, addr string, opts Options) (*Store, error) {
	if opts.BatchSize <= 0 {
		opts.BatchSize = 5000
	}
	if opts.LockTimeout <= 0 {
		opts.LockTimeout = time.Second
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Store{addr: addr, opts: opts, log: log}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("graph: open %s: %w", addr, err)
	}
	var err error
	switch {
	case addr == "":
		s.addr = "memory"
		s.qs, err = cgraph.NewQuadStore("memstore", "", nil)
	case strings.HasPrefix(addr, "postgres://"), strings.HasPrefix(addr, "postgresql://"):
		s.addr, s.pgAddr = redact(addr), addr
		if err = initPostgres(ctx, addr, !opts.ReadOnly); err == nil {
			s.qs, err = cgraph.NewQuadStore(pgBackend, addr, nil)
		}
	default:
		s.bolt = new(boltkv.Handle)
		o := cgraph.Options{"no_bloom": true, "nosync": opts.NoSync, "timeout": opts.LockTimeout, "handle": s.bolt, "readonly": opts.ReadOnly}
		if _, statErr := os.Stat(filepath.Join(addr, boltkv.File)); errors.Is(statErr, fs.ErrNotExist) && !opts.ReadOnly {
			err = boltkv.Create(addr, o)
		}
		if err == nil {
			s.qs, err = cgraph.NewQuadStore(boltkv.Backend, addr, o)
		}
	}
	if errors.Is(err, bolterrors.ErrTimeout) {
		err = ErrStoreInUse
	}
	if err == nil && s.pgAddr != "" {
		if s.pgNodes, err = pgbulk.NewLookup(ctx, s.pgAddr); err != nil {
			s.qs.Close()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("graph: open %s: %w", s.addr, err)
	}
	s.read = s.qs
	switch kqs, ok := s.qs.(*kv.QuadStore); {
	case ok && s.bolt != nil:
		q, err := plan.New(ctx, kqs, s.bolt.KV())
		if err != nil {
			s.qs.Close()
			return nil, fmt.Errorf("graph: open %s: %w", s.addr, err)
		}
		s.read = q
	case addr != "":
		s.read = plan.SQL{QuadStore: s.qs}
	}
	log.Debug("opened store", "store", s.addr)
	return s, nil
}

// initPostgres creates Cayley's tables in the database at addr unless they
// exist, and, when writable, the index of quads by graph that Cayley
// leaves out: without it, deleting a node makes PostgreSQL check every quad
// for one whose label it is (label_hash_fk), 90 ms at 10^4 captions, and a
// build deletes a few nodes per transaction. Opens of one store take
// turns at this (pgbulk.LockInit): two builds that open a new store at
// once would otherwise both create the tables, and one fail.
func initPostgres(ctx context.Context, addr string, writable bool) (err error) {
	unlock, err := pgbulk.LockInit(ctx, addr)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, unlock()) }()
	err = cgraph.InitQuadStore(pgBackend, addr, nil)
	if errors.Is(err, cgraph.ErrDatabaseExists) {
		err = nil
	}
	if err == nil && writable {
		err = pgbulk.IndexLabels(ctx, addr)
	}
	if err == nil && writable {
		err = pgbulk.CreateHandoff(ctx, addr)
	}
	if err == nil {
		// Derived tables are an index, not captions: a store opened to
		// read gets them too, if its user may create them. One that may
		// not answers the SQL twins with ErrNoDerived.
		if derr := pgbulk.CreateDerived(ctx, addr); writable {
			err = derr
		}
	}
	return err
}

// redact hides the password of a database URL in messages.
func redact(addr string) string {
	at := strings.LastIndex(addr, "@")
	scheme := strings.Index(addr, "://")
	if at < 0 || scheme < 0 {
		return addr
	}
	userinfo := addr[scheme+3 : at]
	if before, _, ok := strings.Cut(userinfo, ":"); ok {
		return addr[:scheme+3] + before + ":xxxxx" + addr[at:]
	}
	return addr
}

// Addr returns the store's address as messages should show it: a database
// URL without its password.
func (s *Store) Addr() string { return s.addr }

// Version returns a token that names the content of an embedded store
// as of now: it changes whenever a write commits, so that what a reader
// derived from the store and saved (serve's photo index) can tell whether
// it still holds. ok is false for a store in memory or in PostgreSQL,
// which keep no such token.
func (s *Store) Version(ctx context.Context) (version string, ok bool, err error) {
	db := s.bolt.DB()
	if db == nil {
		return "", false, nil
	}
	var txid int
	if err := db.View(func(tx *bolt.Tx) error { txid = tx.ID(); return nil }); err != nil {
		return "", false, fmt.Errorf("graph: version of %s: %w", s.addr, err)
	}
	horizon, err := s.bolt.KV().Horizon(ctx)
	if err != nil {
		return "", false, fmt.Errorf("graph: version of %s: %w", s.addr, err)
	}
	return fmt.Sprintf("bolt tx %d, horizon %d", txid, horizon), true, nil
}

// Close closes the store, releasing its lock.
func (s *Store) Close() error {
	if s.pgNodes != nil {
		s.pgNodes.Close()
	}
	if s.sqlPool != nil {
		s.sqlPool.Close()
	}
	if err := s.qs.Close(); err != nil {
		return fmt.Errorf("graph: close %s: %w", s.addr, err)
	}
	return nil
}

// Query runs a query in one of Cayley's languages ("gizmo", "graphql",
// "mql") and yields up to limit results (0 means no limit), each collated
// as JSON-ready values. A saved query's result may stand for many rows
// (queries/rows makes them).
func (s *Store) Query(ctx context.Context, lang, text string, limit int) iter.Seq2[any, error] {
	if limit < 0 {
		limit = 0
	}
	return func(yield func(any, error) bool) {
		read := s.read
		if q, ok := read.(*plan.Store); ok {
			q = q.ForQuery()
			defer q.EndQuery()
			read = q
		}
		it, err := query.Execute(ctx, read, lang, text, query.Options{Collation: query.JSON, Limit: limit})
		if err != nil {
			yield(nil, fmt.Errorf("graph: query: %w", err))
			return
		}
		defer it.Close()
		for it.Next(ctx) {
			if !yield(it.Result(), nil) {
				return
			}
		}
		if err := cmp.Or(it.Err(), s.bolt.KV().Damaged()); err != nil {
			yield(nil, fmt.Errorf("graph: query: %w", err))
		}
	}
}

// noDamage sets *err, when it is nil, to the damage that a read of the
// store has met, which Cayley may have dropped on the way (see
// [boltkv.KV.Damaged]): an answer read from part of a store is not given
// as the whole.
func (s *Store) noDamage(err *error, op string) {
	if *err != nil {
		return
	}
	if d := s.bolt.KV().Damaged(); d != nil {
		*err = fmt.Errorf("graph: %s %s: %w", op, s.addr, d)
	}
}

// written drops what queries keep of the store's state (package plan): a
// write has committed, or may have.
func (s *Store) written() {
	if q, ok := s.read.(*plan.Store); ok {
		q.ResetCaches()
	}
}

// apply writes deltas in one transaction, adding a quad that is there
// and deleting one that is not changing nothing. A PostgreSQL store takes
// them set by set (pgbulk.Apply): Cayley's writer sends a statement per
// quad and per node, and scans the nodes table once per transaction.
func (s *Store) apply(ctx context.Context, deltas []cgraph.Delta) error {
	defer s.written()
	if s.pgAddr == "" {
		return s.qs.ApplyDeltas(deltas, cgraph.IgnoreOpts{IgnoreDup: true, IgnoreMissing: true})
	}
	db, _, err := s.sqlDB(ctx)
	if err != nil {
		return err
	}
	return pgbulk.Apply(ctx, db, deltas)
}

// releaseEvery is how many captions or quads a read-only stretch of work
// (an unchanged rerun, an export) reads between releases of the mapped
// pages.
const releaseEvery = 4096

// releaseMapped drops bbolt's mapped pages from the process's resident set
// (see boltkv.ReleaseMap); a no-op on other backends.
func (s *Store) releaseMapped() {
	if db := s.bolt.DB(); db != nil {
		boltkv.ReleaseMap(db)
	}
}

// sync makes what Load wrote durable when commits skip fsync.
func (s *Store) sync() error {
	db := s.bolt.DB()
	if !s.opts.NoSync || db == nil {
		return nil
	}
	if err := db.Sync(); err != nil {
		return fmt.Errorf("graph: sync %s: %w", s.addr, err)
	}
	return nil
}

func short(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "..."
	}
	return s
}
