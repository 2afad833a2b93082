// Package graph stores extractions in a Cayley quad store, one named graph
// per caption, and exports them as N-Quads, N-Triples, Turtle, JSON-LD or a
// flat CSV events view. It is the only package of capgraph that imports
// Cayley. docs/model.md describes the RDF it writes.
package graph

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/kv"
	_ "github.com/cayleygraph/cayley/graph/memstore" // "" addresses
	_ "github.com/cayleygraph/cayley/graph/sql/postgres"
	"github.com/cayleygraph/cayley/query"
	_ "github.com/cayleygraph/cayley/query/gizmo" // Query languages
	"github.com/cayleygraph/quad"
	hkv "github.com/hidal-go/hidalgo/kv"
	hbolt "github.com/hidal-go/hidalgo/kv/bbolt"
	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/capgraph/capgraph/extract"
)

// ErrStoreInUse reports that another process holds the embedded store's
// file lock.
var ErrStoreInUse = errors.New("store in use by another process")

// Options tune a [Store]. The zero value is ready to use.
type Options struct {
	// BatchSize is the number of quads written per transaction; batches
	// always hold whole captions. 0 means 20000.
	BatchSize int
	// Logger receives debug logs; nil means none.
	Logger *slog.Logger
	// NoSync skips fsync on commit of the embedded store. A crash of the
	// process still leaves whole transactions; a crash of the machine may
	// lose or corrupt recent ones.
	NoSync bool
	// LockTimeout is how long Open waits for another process to release the
	// embedded store; 0 means one second.
	LockTimeout time.Duration
	// ExtractorVersion is recorded on each caption graph written by Load
	// and is part of its content hash.
	ExtractorVersion string
	// Now gives the generation time recorded by Load; nil means time.Now.
	Now func() time.Time
	// KeepGoing makes Load skip errors read from its sequence, counting
	// them in LoadStats.Skipped, instead of stopping at the first.
	KeepGoing bool
	// Progress, when set, is called by Load after each committed batch
	// with the running totals.
	Progress func(LoadStats)
}

// A Store is a capgraph graph: a Cayley quad store holding one named graph
// per caption. A Store is safe for one Load at a time; export, stats and
// queries may run beside it.
type Store struct {
	qs   cgraph.QuadStore
	addr string
	opts Options
	log  *slog.Logger
}

const (
	boltBackend = "capgraph-bbolt" // bbolt with a lock timeout
	boltFile    = "indexes.bolt"
	pgBackend   = "postgres"
)

func init() {
	// Cayley's kv stores index quads by subject and by object only, so
	// reading one caption's graph (on replace and export) would scan every
	// quad. Stores created here also index the label. This is the one
	// Cayley global capgraph sets: the list is read only when a store is
	// created, and only this package uses Cayley.
	kv.DefaultQuadIndexes = append(slices.Clone(kv.DefaultQuadIndexes), kv.QuadIndex{Dirs: []quad.Direction{quad.Label}})
	kv.Register(boltBackend, kv.Registration{
		InitFunc:     func(dir string, o cgraph.Options) (hkv.KV, error) { return openBolt(dir, o, true) },
		NewFunc:      func(dir string, o cgraph.Options) (hkv.KV, error) { return openBolt(dir, o, false) },
		IsPersistent: true,
	})
}

func openBolt(dir string, o cgraph.Options, create bool) (hkv.KV, error) {
	if create {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	timeout, _ := o["timeout"].(time.Duration)
	nosync, _ := o["nosync"].(bool)
	db, err := hbolt.Open(filepath.Join(dir, boltFile), &bolt.Options{Timeout: timeout, NoSync: nosync, NoGrowSync: nosync})
	if err != nil {
		return nil, err
	}
	return db, nil
}

// Open opens the store at addr, creating it on first use. addr is a
// directory for the embedded bbolt store, a postgres:// or postgresql://
// URL for Cayley's SQL backend (which also serves CockroachDB), or "" for
// a store in memory.
func Open(ctx context.Context, addr string, opts Options) (*Store, error) {
	if opts.BatchSize <= 0 {
		opts.BatchSize = 20000
	}
	if opts.LockTimeout <= 0 {
		opts.LockTimeout = time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
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
		s.addr = redact(addr)
		if err = cgraph.InitQuadStore(pgBackend, addr, nil); err == nil || errors.Is(err, cgraph.ErrDatabaseExists) {
			s.qs, err = cgraph.NewQuadStore(pgBackend, addr, nil)
		}
	default:
		o := cgraph.Options{"no_bloom": true, "nosync": opts.NoSync, "timeout": opts.LockTimeout}
		if _, statErr := os.Stat(filepath.Join(addr, boltFile)); errors.Is(statErr, fs.ErrNotExist) {
			if err = cgraph.InitQuadStore(boltBackend, addr, o); errors.Is(err, cgraph.ErrDatabaseExists) {
				err = nil
			}
		}
		if err == nil {
			s.qs, err = cgraph.NewQuadStore(boltBackend, addr, o)
		}
	}
	if errors.Is(err, bolterrors.ErrTimeout) {
		err = ErrStoreInUse
	}
	if err != nil {
		return nil, fmt.Errorf("graph: open %s: %w", s.addr, err)
	}
	log.Debug("opened store", "store", s.addr)
	return s, nil
}

// redact hides the password of a database URL in messages.
func redact(addr string) string {
	at := strings.LastIndex(addr, "@")
	scheme := strings.Index(addr, "://")
	if at < 0 || scheme < 0 {
		return addr
	}
	userinfo := addr[scheme+3 : at]
	if i := strings.Index(userinfo, ":"); i >= 0 {
		return addr[:scheme+3] + userinfo[:i] + ":xxxxx" + addr[at:]
	}
	return addr
}

// Close closes the store, releasing its lock.
func (s *Store) Close() error {
	if err := s.qs.Close(); err != nil {
		return fmt.Errorf("graph: close %s: %w", s.addr, err)
	}
	return nil
}

// QuadStore returns the underlying Cayley quad store, for queries.
func (s *Store) QuadStore() cgraph.QuadStore { return s.qs }

// Query runs a query in one of Cayley's languages ("gizmo", "graphql",
// "mql") and yields up to limit results (0 means no limit), each collated
// as JSON-ready values.
func (s *Store) Query(ctx context.Context, lang, text string, limit int) iter.Seq2[any, error] {
	return func(yield func(any, error) bool) {
		it, err := query.Execute(ctx, s.qs, lang, text, query.Options{Collation: query.JSON, Limit: limit})
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
		if err := it.Err(); err != nil {
			yield(nil, fmt.Errorf("graph: query: %w", err))
		}
	}
}

// LoadStats counts what [Store.Load] did.
type LoadStats struct {
	Captions  int // extractions read
	Added     int // captions new to the store
	Replaced  int // captions whose stored graph changed
	Unchanged int // captions already stored with the same content
	Skipped   int // errors skipped under Options.KeepGoing
	Quads     int // quads added or removed
	Removed   int // of Quads, quads removed from replaced graphs
}

// Load writes extractions into the store: each caption's facts replace
// its named graph in the same transaction as its content-hash marker, and
// transactions hold whole captions, so a crash or a cancelled ctx leaves
// only whole captions. An extraction whose content hash is already stored
// costs one read and no write. Load stops at the first error from xs
// unless Options.KeepGoing is set; batches already committed stay.
func (s *Store) Load(ctx context.Context, xs iter.Seq2[extract.Extraction, error]) (LoadStats, error) {
	var (
		st      LoadStats
		pending LoadStats // counts of the batch not yet committed
		deltas  []cgraph.Delta
		inBatch = make(map[string]bool)
		prov    = Provenance{ExtractorVersion: s.opts.ExtractorVersion}
	)
	flush := func() error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if len(deltas) > 0 {
			if err := s.qs.ApplyDeltas(deltas, cgraph.IgnoreOpts{IgnoreDup: true, IgnoreMissing: true}); err != nil {
				return fmt.Errorf("graph: write to %s: %w", s.addr, err)
			}
		}
		st.Added += pending.Added
		st.Replaced += pending.Replaced
		st.Quads += pending.Quads
		st.Removed += pending.Removed
		pending = LoadStats{}
		deltas = deltas[:0]
		clear(inBatch)
		if s.opts.Progress != nil {
			s.opts.Progress(st)
		}
		return nil
	}
	for x, err := range xs {
		if err != nil {
			if s.opts.KeepGoing {
				st.Skipped++
				s.log.Warn("skipped", "err", err)
				continue
			}
			if ferr := flush(); ferr != nil {
				return st, errors.Join(err, ferr)
			}
			return st, err
		}
		if err := ctx.Err(); err != nil {
			return st, err
		}
		if x.ID == "" {
			err := fmt.Errorf("graph: load: caption %q has no id", short(x.Text))
			if s.opts.KeepGoing {
				st.Skipped++
				continue
			}
			return st, err
		}
		st.Captions++
		if inBatch[x.ID] { // the same caption twice: let the first land
			if err := flush(); err != nil {
				return st, err
			}
		}
		hash := ContentHash(x, s.opts.ExtractorVersion)
		if stored, err := s.isObject(ctx, quad.String(hash)); err != nil {
			return st, fmt.Errorf("graph: read %s: %w", s.addr, err)
		} else if stored {
			st.Unchanged++
			continue
		}
		prov.Time = s.opts.Now()
		quads := Quads(x, prov)
		old, err := s.graphQuads(ctx, quad.IRI(GraphIRI(x.ID)))
		if err != nil {
			return st, err
		}
		if old == nil {
			pending.Added++
			for _, q := range quads {
				deltas = append(deltas, cgraph.Delta{Quad: q, Action: cgraph.Add})
			}
			pending.Quads += len(quads)
		} else {
			pending.Replaced++
			keep := make(map[quad.Quad]bool, len(old))
			for _, q := range old {
				keep[q] = false
			}
			for _, q := range quads {
				if _, ok := keep[q]; ok {
					keep[q] = true
					continue
				}
				deltas = append(deltas, cgraph.Delta{Quad: q, Action: cgraph.Add})
				pending.Quads++
			}
			for _, q := range old {
				if !keep[q] {
					deltas = append(deltas, cgraph.Delta{Quad: q, Action: cgraph.Delete})
					pending.Quads++
					pending.Removed++
				}
			}
		}
		inBatch[x.ID] = true
		if len(deltas) >= s.opts.BatchSize {
			if err := flush(); err != nil {
				return st, err
			}
		}
	}
	return st, flush()
}

func short(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "..."
	}
	return s
}

// graphQuads returns every quad labelled g, or nil when there is none.
func (s *Store) graphQuads(ctx context.Context, g quad.IRI) ([]quad.Quad, error) {
	ref, err := s.qs.ValueOf(g)
	if err != nil {
		return nil, fmt.Errorf("graph: read %s: %w", s.addr, err)
	}
	if ref == nil {
		return nil, nil
	}
	var out []quad.Quad
	sc := s.qs.QuadIterator(quad.Label, ref).Iterate()
	defer sc.Close()
	for sc.Next(ctx) {
		q, err := s.qs.Quad(sc.Result())
		if err != nil {
			return nil, fmt.Errorf("graph: read %s: %w", s.addr, err)
		}
		out = append(out, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("graph: read %s: %w", s.addr, err)
	}
	return out, nil
}

// isObject reports whether some quad has v as its object. (The SQL
// backend's ValueOf returns a hash even for values it does not hold.)
func (s *Store) isObject(ctx context.Context, v quad.Value) (bool, error) {
	ref, err := s.qs.ValueOf(v)
	if err != nil || ref == nil {
		return false, err
	}
	sc := s.qs.QuadIterator(quad.Object, ref).Iterate()
	defer sc.Close()
	ok := sc.Next(ctx)
	return ok, sc.Err()
}
