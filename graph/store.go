// Package graph stores extractions in a Cayley quad store, one named graph
// per caption, and exports them as N-Quads, N-Triples, Turtle, JSON-LD or a
// flat CSV events view. It is the only package of capgraph that imports
// Cayley. docs/model.md describes the RDF it writes; package model builds
// it.
//
// graph is the door: [Store] opens, loads, queries, exports, counts and
// checks. The engines behind it live under internal/, each with one job;
// the first three copy a layout or an interface of Cayley's or bbolt's,
// and stand apart so that a reader sees where:
//   - boltkv, the key-value layer under the embedded store, which keeps
//     Cayley's value maps in two buckets instead of 131,072;
//   - bulk, which writes the first load into an empty embedded store in
//     that layout directly, sorted on disk, instead of through Cayley's
//     writer;
//   - plan, the query planner on the embedded store's indexes, and the
//     wrapper that keeps queries on PostgreSQL clear of a crash in Cayley's
//     SQL iterators;
//   - rdfterm, the N-Triples and Turtle term writers of the exporters;
//   - rows, which makes the rows of a saved query's batched result.
package graph

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/iterator"
	"github.com/cayleygraph/cayley/graph/kv"
	_ "github.com/cayleygraph/cayley/graph/memstore" // "" addresses
	_ "github.com/cayleygraph/cayley/graph/sql/postgres"
	"github.com/cayleygraph/cayley/query"
	_ "github.com/cayleygraph/cayley/query/gizmo" // Query languages
	"github.com/cayleygraph/cayley/query/shape"
	"github.com/cayleygraph/quad"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/graph/internal/boltkv"
	"github.com/capgraph/capgraph/graph/internal/bulk"
	"github.com/capgraph/capgraph/graph/internal/plan"
	"github.com/capgraph/capgraph/graph/model"
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
	// ExtractorVersion is recorded on each caption graph written by Load
	// and is part of its content hash.
	ExtractorVersion string
	// Now gives the generation time recorded by Load; nil means time.Now.
	Now func() time.Time
	// KeepGoing makes Load skip errors read from its sequence, counting
	// them in LoadStats.Skipped, instead of stopping at the first.
	KeepGoing bool
	// Progress, when set, is called by Load after each committed batch
	// with the running totals; during a bulk load, which commits once at
	// the end, after each BatchSize quads read.
	Progress func(LoadStats)
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
	opts Options
	log  *slog.Logger
	// noBulk makes Load write through Cayley even into an empty store, so
	// that tests can compare the two.
	noBulk bool
}

const pgBackend = "postgres"

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
		s.bolt = new(boltkv.Handle)
		o := cgraph.Options{"no_bloom": true, "nosync": opts.NoSync, "timeout": opts.LockTimeout, "handle": s.bolt, "readonly": opts.ReadOnly}
		if _, statErr := os.Stat(filepath.Join(addr, boltkv.File)); errors.Is(statErr, fs.ErrNotExist) && !opts.ReadOnly {
			if err = cgraph.InitQuadStore(boltkv.Backend, addr, o); errors.Is(err, cgraph.ErrDatabaseExists) {
				err = nil
			}
		}
		if err == nil {
			s.qs, err = cgraph.NewQuadStore(boltkv.Backend, addr, o)
		}
	}
	if errors.Is(err, bolterrors.ErrTimeout) {
		err = ErrStoreInUse
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

// Close closes the store, releasing its lock.
func (s *Store) Close() error {
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
// only whole captions. The entities a caption names are described once in
// [EntitiesGraph]; a description that no caption references any more is
// deleted in the transaction that drops the last reference. An extraction
// whose content hash is already stored costs one read and no write. Load
// stops at the first error from xs unless Options.KeepGoing is set;
// batches already committed stay.
//
// The first Load into an empty embedded store is a bulk load (internal/bulk):
// it writes the same keys as Cayley would, about ten times faster, into a
// new file that replaces the empty one when Load ends. Until then nothing
// is committed: a crash or a cancelled ctx leaves the store empty, and an
// error from xs or a caption without an id commits what was read before it.
// If a caption's id comes twice, the bulk load commits at the second, and
// Load goes on through Cayley from there.
func (s *Store) Load(ctx context.Context, xs iter.Seq2[extract.Extraction, error]) (LoadStats, error) {
	if s.opts.ReadOnly {
		return LoadStats{}, fmt.Errorf("graph: load %s: %w", s.addr, ErrReadOnly)
	}
	var counts quadCounts
	st, err := s.load(ctx, xs, &counts)
	// What the load committed is counted, even when it stopped early.
	if cerr := s.writeQuadCounts(context.WithoutCancel(ctx), &counts); cerr != nil {
		err = errors.Join(err, fmt.Errorf("graph: write to %s: %w", s.addr, cerr))
	}
	if serr := s.sync(); err == nil {
		err = serr
	}
	return st, err
}

func (s *Store) load(ctx context.Context, xs iter.Seq2[extract.Extraction, error], counts *quadCounts) (LoadStats, error) {
	var (
		st      LoadStats
		pending LoadStats // counts of the batch not yet committed
		b       = batch{deleted: make(map[quad.Quad]bool), credits: make(map[credit]int)}
		inBatch = make(map[string]bool)
		prov    = model.Provenance{ExtractorVersion: s.opts.ExtractorVersion}
		// described holds the entity nodes whose stored description this
		// Load has already reconciled with an extraction.
		described = make(map[quad.Value]bool)
		// sinceRelease counts captions read since mapped pages were last
		// released.
		sinceRelease = 0
		// bulk writes the first load of an empty embedded store (internal/bulk);
		// staged counts what it holds, not yet committed.
		bulkLoad *bulk.Loader
		staged   LoadStats
		// bulkCounts are the tallies of what the bulk load holds.
		bulkCounts  = make(map[quad.Value]int)
		bulkCredits = make(map[credit]int)
		// bulkStats are the quad counts stats reports (statKeys).
		bulkStats = make(map[quad.Value]int)
		keys      []quad.Value // statKeys' scratch
	)
	bulkLoad, err := s.startBulk()
	if err != nil {
		return st, err
	}
	if bulkLoad == nil {
		if err := s.ensureTallies(ctx); err != nil {
			return st, fmt.Errorf("graph: count %s: %w", s.addr, err)
		}
	}
	defer func() {
		if bulkLoad != nil {
			bulkLoad.Abandon()
		}
	}()
	// endBulk commits the bulk load, if one is under way; a cancelled ctx
	// abandons it instead, leaving the store empty, as it was.
	endBulk := func() error {
		if bulkLoad == nil {
			return nil
		}
		bl := bulkLoad
		bulkLoad = nil
		if err := ctx.Err(); err != nil {
			bl.Abandon()
			return err
		}
		// The tallies, with their marker, only beside captions: a store
		// that a load of nothing left empty is bulk loaded next time.
		if staged.Added > 0 {
			if err := bl.Add(talliesGraph, talliesGraph, tallyQuads(bulkCounts, bulkCredits, nil), nil); err != nil {
				bl.Abandon()
				return fmt.Errorf("graph: bulk load %s: %w", s.addr, err)
			}
		}
		if err := s.commitBulk(bl); err != nil {
			bl.Abandon()
			return fmt.Errorf("graph: bulk load %s: %w", s.addr, err)
		}
		if staged.Added > 0 {
			counts.bulkLoaded(bulkStats)
		}
		st.Added += staged.Added
		st.Quads += staged.Quads
		staged = LoadStats{}
		return nil
	}
	flush := func() error {
		if err := endBulk(); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		// Tallies first: a credit that goes releases its agency and
		// photographer for collectOrphans.
		if err := s.talliesOf(ctx, &b); err != nil {
			return fmt.Errorf("graph: read %s: %w", s.addr, err)
		}
		n, err := s.collectOrphans(ctx, &b, described)
		if err != nil {
			return fmt.Errorf("graph: read %s: %w", s.addr, err)
		}
		pending.Quads += n
		pending.Removed += n
		countsWritten, err := counts.note(ctx, s, &b)
		if err != nil {
			return fmt.Errorf("graph: read %s: %w", s.addr, err)
		}
		// What the batch read may have met damage that Cayley dropped on
		// the way (a description it could not read is none): writing it
		// would make the store wrong where it was only damaged.
		if err := s.bolt.KV().Damaged(); err != nil {
			counts.broken = true
			return fmt.Errorf("graph: read %s: %w", s.addr, err)
		}
		for _, part := range b.transactions() {
			err := s.qs.ApplyDeltas(part, cgraph.IgnoreOpts{IgnoreDup: true, IgnoreMissing: true})
			s.written()
			if err != nil {
				counts.broken = true
				return fmt.Errorf("graph: write to %s: %w", s.addr, err)
			}
		}
		countsWritten()
		// Bound the RSS of long builds: each batch touches pages all over
		// the B-trees, so mapped pages pile up between releases.
		s.releaseMapped()
		sinceRelease = 0
		st.Added += pending.Added
		st.Replaced += pending.Replaced
		st.Quads += pending.Quads
		st.Removed += pending.Removed
		pending = LoadStats{}
		b.reset()
		clear(inBatch)
		if s.opts.Progress != nil {
			s.opts.Progress(st)
		}
		return nil
	}
	sinceProgress := 0 // quads staged by the bulk load since the last Progress
	items := prepare(xs, func() model.Provenance {
		p := prov
		p.Time = s.opts.Now()
		return p
	}, runtime.GOMAXPROCS(0), bulkLoad != nil)
	for m := range items {
		x, err := m.x, m.err
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
				s.log.Warn("skipped", "err", err)
				continue
			}
			return st, errors.Join(err, flush())
		}
		st.Captions++
		if bulkLoad != nil {
			g := quad.IRI(model.GraphIRI(x.ID))
			if !bulkLoad.Has(g) {
				own, desc := m.quads(prov, s.opts.Now)
				desc = newDescriptions(desc, described)
				for _, q := range own {
					if e := tallyLink(q); e != nil {
						bulkCounts[e]++
					}
				}
				credits(own, 1, bulkCredits)
				for _, qs := range [2][]quad.Quad{own, desc} {
					for _, q := range qs {
						keys = statKeys(q, keys[:0])
						for _, k := range keys {
							bulkStats[k]++
						}
					}
				}
				if err := bulkLoad.Add(g, quad.IRI(model.PhotoIRI(x.ID)), own, desc); err != nil {
					return st, fmt.Errorf("graph: bulk load %s: %w", s.addr, err)
				}
				staged.Added++
				staged.Quads += len(own) + len(desc)
				if sinceProgress += len(own) + len(desc); sinceProgress >= s.opts.BatchSize && s.opts.Progress != nil {
					sinceProgress = 0
					s.opts.Progress(LoadStats{Captions: st.Captions, Added: staged.Added, Quads: staged.Quads})
				}
				continue
			}
			// The same caption twice: commit the bulk load, and let the
			// ordinary path replace the first with this one.
			if err := flush(); err != nil {
				return st, err
			}
		}
		if inBatch[x.ID] { // the same caption twice: let the first land
			if err := flush(); err != nil {
				return st, err
			}
		}
		if stored, err := s.hasLiteral(ctx, quad.String(m.hash)); err != nil {
			return st, fmt.Errorf("graph: read %s: %w", s.addr, err)
		} else if stored {
			st.Unchanged++
			// A rerun over unchanged captions commits nothing, but its
			// look-ups map pages all over the store all the same.
			if sinceRelease++; sinceRelease >= releaseEvery {
				s.releaseMapped()
				sinceRelease = 0
			}
			continue
		}
		own, desc := m.quads(prov, s.opts.Now)
		old, err := s.captionQuads(ctx, x.ID)
		if err == nil && old != nil && !slices.ContainsFunc(old, isContentHash) {
			old, err = s.readPartWay(ctx, quad.IRI(model.GraphIRI(x.ID)), old, own)
		}
		if err != nil {
			return st, fmt.Errorf("graph: read %s: %w", s.addr, err)
		}
		credits(old, -1, b.credits)
		credits(own, 1, b.credits)
		if old == nil {
			pending.Added++
			for _, q := range own {
				b.add(q)
			}
			pending.Quads += len(own)
		} else {
			pending.Replaced++
			keep := make(map[quad.Quad]bool, len(old))
			for _, q := range old {
				keep[q] = false
			}
			for _, q := range own {
				if _, ok := keep[q]; ok {
					keep[q] = true
					continue
				}
				b.add(q)
				pending.Quads++
			}
			for _, q := range old {
				if !keep[q] {
					b.del(q)
					pending.Quads++
					pending.Removed++
				}
			}
		}
		n, err := s.describe(ctx, &b, desc, described)
		if err != nil {
			return st, fmt.Errorf("graph: read %s: %w", s.addr, err)
		}
		pending.Quads += n
		inBatch[x.ID] = true
		if len(b.deltas) >= s.opts.BatchSize {
			if err := flush(); err != nil {
				return st, err
			}
		}
	}
	return st, flush()
}

// startBulk begins a bulk load when the store is an embedded one with
// nothing in it, laid out as a bulk load writes (flat, Cayley's default
// indexes); otherwise it returns nil, and Load writes through Cayley.
func (s *Store) startBulk() (*bulk.Loader, error) {
	db := s.bolt.DB()
	if db == nil || s.noBulk || !s.bolt.KV().Flat() {
		return nil, nil
	}
	if ok, err := bulk.Fits(db); err != nil || !ok {
		return nil, err
	}
	b, err := bulk.New(s.addr)
	if err != nil {
		return nil, fmt.Errorf("graph: bulk load %s: %w", s.addr, err)
	}
	return b, nil
}

// commitBulk completes bl and puts its database in place of the store's
// empty one.
func (s *Store) commitBulk(bl *bulk.Loader) error {
	live := s.bolt.DB()
	start := time.Now()
	quads, nodes := bl.Size()
	s.log.Debug("bulk load: writing sorted buckets", "quads", quads, "nodes", nodes)
	db, err := bl.Commit(live)
	if err != nil {
		return err
	}
	s.log.Debug("bulk load: written", "took", time.Since(start).Round(time.Millisecond))
	old := s.bolt.KV().Swap(db)
	s.written()
	return old.Close()
}

// newDescriptions returns the quads of desc about the entities that
// described does not hold yet, and adds those to it: on an empty store the
// first extraction that names an entity describes it, as describe does.
func newDescriptions(desc []quad.Quad, described map[quad.Value]bool) []quad.Quad {
	var fresh map[quad.Value]bool
	for _, q := range desc {
		if !described[q.Subject] {
			if fresh == nil {
				fresh = make(map[quad.Value]bool)
			}
			fresh[q.Subject] = true
		}
	}
	if fresh == nil {
		return nil
	}
	out := make([]quad.Quad, 0, len(desc))
	for _, q := range desc {
		if fresh[q.Subject] {
			out = append(out, q)
		}
	}
	for v := range fresh {
		described[v] = true
	}
	return out
}

// written drops what queries keep of the store's state (package plan): a
// write has committed, or may have.
func (s *Store) written() {
	if q, ok := s.read.(*plan.Store); ok {
		q.ResetCaches()
	}
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

// A batch is the deltas of one transaction.
type batch struct {
	deltas     []cgraph.Delta
	deleted    map[quad.Quad]bool // quads the batch deletes
	candidates []quad.Value       // nodes that lost a reference in the batch
	credits    map[credit]int     // what the batch changes of each credit (tally.go)
}

func (b *batch) add(q quad.Quad) {
	b.deltas = append(b.deltas, cgraph.Delta{Quad: q, Action: cgraph.Add})
}

func (b *batch) del(q quad.Quad) {
	b.deltas = append(b.deltas, cgraph.Delta{Quad: q, Action: cgraph.Delete})
	b.deleted[q] = true
	if iri, ok := q.Object.(quad.IRI); ok {
		b.candidates = append(b.candidates, iri)
	}
	if iri, ok := q.Subject.(quad.IRI); ok && q.Label == entitiesGraph {
		b.candidates = append(b.candidates, iri)
	}
}

// transactions splits the batch into the deltas of each transaction: one,
// unless an added quad names a node that loses more quads than it gains in
// the batch. Cayley's kv backends resolve the nodes of added quads only
// among those whose reference count does not fall, and would write such a
// quad without that node; then the deletions go first in a transaction of
// their own. A crash between the two leaves the caption without its
// content hash, holding only quads of its new graph, and the next build
// completes it. It would also leave tallies deleted and not yet rewritten,
// so the first transaction takes the tallies' marker away and the second
// puts it back: a store without it has its tallies counted anew by the
// next build (ensureTallies), and check reports them.
func (b *batch) transactions() [][]cgraph.Delta {
	if len(b.deltas) == 0 {
		return nil
	}
	if len(b.deleted) == 0 {
		return [][]cgraph.Delta{b.deltas}
	}
	net := make(map[quad.Value]int)
	for _, d := range b.deltas {
		inc := 1
		if d.Action == cgraph.Delete {
			inc = -1
		}
		for _, v := range [...]quad.Value{d.Quad.Subject, d.Quad.Predicate, d.Quad.Object, d.Quad.Label} {
			if v != nil {
				net[v] += inc
			}
		}
	}
	split := false
	for _, d := range b.deltas {
		if d.Action == cgraph.Add && (net[d.Quad.Subject] < 0 || net[d.Quad.Predicate] < 0 || net[d.Quad.Object] < 0 || net[d.Quad.Label] < 0) {
			split = true
			break
		}
	}
	if !split {
		return [][]cgraph.Delta{b.deltas}
	}
	var dels, adds []cgraph.Delta
	for _, d := range b.deltas {
		if d.Action == cgraph.Delete {
			dels = append(dels, d)
		} else {
			adds = append(adds, d)
		}
	}
	dels = append(dels, cgraph.Delta{Quad: talliesMarker, Action: cgraph.Delete})
	adds = append(adds, cgraph.Delta{Quad: talliesMarker, Action: cgraph.Add})
	return [][]cgraph.Delta{dels, adds}
}

func (b *batch) reset() {
	b.deltas = b.deltas[:0]
	clear(b.deleted)
	b.candidates = b.candidates[:0]
	clear(b.credits)
}

// describe makes the stored description of each entity node in desc equal
// to desc, the first time this Load meets the node: it adds what is
// missing and deletes what the extraction no longer says. It returns the
// number of quads added or removed.
func (s *Store) describe(ctx context.Context, b *batch, desc []quad.Quad, described map[quad.Value]bool) (int, error) {
	n := 0
	for i := 0; i < len(desc); {
		subj := desc[i].Subject
		j := i
		for j < len(desc) && desc[j].Subject == subj {
			j++
		}
		// Quads of one subject are contiguous except when an admin chain
		// or a later entity adds to a subject seen before: gather them.
		want := make(map[quad.Quad]bool)
		for _, q := range desc[i:] {
			if q.Subject == subj {
				want[q] = true
			}
		}
		i = j
		if described[subj] {
			continue
		}
		described[subj] = true
		stored, err := s.description(ctx, subj)
		if err != nil {
			return n, err
		}
		for _, q := range stored {
			if want[q] {
				delete(want, q)
			} else {
				b.del(q)
				n++
			}
		}
		for _, q := range desc {
			if want[q] {
				b.add(q)
				delete(want, q)
				n++
			}
		}
	}
	return n, nil
}

// collectOrphans adds to b the deletion of every entity description that
// no quad references once b is applied: the nodes that lost a reference in
// b, and in turn the admin areas those held. It returns the number of
// quads it deletes.
func (s *Store) collectOrphans(ctx context.Context, b *batch, described map[quad.Value]bool) (int, error) {
	if len(b.candidates) == 0 {
		return 0, nil
	}
	added := make(map[quad.Value]bool)
	for _, d := range b.deltas {
		if d.Action == cgraph.Add {
			added[d.Quad.Object] = true
		}
	}
	n := 0
	done := make(map[quad.Value]bool)
	for len(b.candidates) > 0 {
		c := b.candidates[len(b.candidates)-1]
		b.candidates = b.candidates[:len(b.candidates)-1]
		if done[c] || added[c] {
			continue
		}
		desc, err := s.description(ctx, c)
		if err != nil {
			return n, err
		}
		if len(desc) == 0 {
			continue // not an entity: a photo, a literal's type, ...
		}
		used, err := s.referenced(ctx, c, b.deleted)
		if err != nil || used {
			if err != nil {
				return n, err
			}
			continue
		}
		// Only a collected node is done: one still referenced is checked
		// again if a later collection removes its last reference (an old
		// admin area held only by districts that go with it).
		done[c] = true
		delete(described, c)
		for _, q := range desc {
			if !b.deleted[q] {
				b.del(q) // queues its object (geo node, admin area) as a candidate
				n++
			}
		}
	}
	return n, nil
}

// referenced reports whether a stored quad not in deleted has v as its
// object.
func (s *Store) referenced(ctx context.Context, v quad.Value, deleted map[quad.Quad]bool) (bool, error) {
	ref, err := s.qs.ValueOf(v)
	if err != nil || ref == nil {
		return false, err
	}
	sc := s.qs.QuadIterator(quad.Object, ref).Iterate()
	defer sc.Close()
	for sc.Next(ctx) {
		q, err := s.qs.Quad(sc.Result())
		if err != nil {
			return false, err
		}
		if !deleted[q] {
			return true, nil
		}
	}
	return false, sc.Err()
}

// subjectQuads returns the quads with subject v labelled g.
func (s *Store) subjectQuads(ctx context.Context, v quad.Value, g quad.IRI) ([]quad.Quad, error) {
	ref, err := s.qs.ValueOf(v)
	if err != nil || ref == nil {
		return nil, err
	}
	return s.appendQuads(ctx, nil, s.qs.QuadIterator(quad.Subject, ref), g)
}

// appendQuads appends the quads of it labelled g to out; g "" keeps all.
func (s *Store) appendQuads(ctx context.Context, out []quad.Quad, it iterator.Shape, g quad.IRI) ([]quad.Quad, error) {
	sc := it.Iterate()
	defer sc.Close()
	for sc.Next(ctx) {
		q, err := s.qs.Quad(sc.Result())
		if err != nil {
			return out, err
		}
		if g == "" || q.Label == g {
			out = append(out, q)
		}
	}
	return out, sc.Err()
}

// description returns the stored description of entity node v: its quads
// in the entities graph. On the kv stores it scans the subject-predicate
// index once per description predicate, so its cost does not grow with
// the number of captions that name v; elsewhere it reads every quad with
// subject v.
func (s *Store) description(ctx context.Context, v quad.Value) ([]quad.Quad, error) {
	kqs, ok := s.qs.(*kv.QuadStore)
	if !ok {
		return s.labelledQuads(ctx, v, entitiesGraph)
	}
	ref, err := kqs.ValueOf(v)
	if err != nil || ref == nil {
		return nil, err
	}
	var out []quad.Quad
	for _, p := range model.DescriptionPredicates {
		pref, err := kqs.ValueOf(p)
		if err != nil {
			return nil, err
		}
		if pref == nil {
			continue
		}
		scan := kv.IndexScan{Index: subjectPredicate, Values: []uint64{uint64(ref.(kv.Int64Value)), uint64(pref.(kv.Int64Value))}}
		if out, err = s.appendQuads(ctx, out, scan.BuildIterator(kqs), entitiesGraph); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// labelledQuads returns the quads with subject v labelled g, filtered by
// the store (one SQL query on the SQL backends) rather than here.
func (s *Store) labelledQuads(ctx context.Context, v quad.Value, g quad.IRI) ([]quad.Quad, error) {
	ref, err := s.qs.ValueOf(v)
	if err != nil || ref == nil {
		return nil, err
	}
	gref, err := s.qs.ValueOf(g)
	if err != nil || gref == nil {
		return nil, err
	}
	sel := shape.Quads{
		{Dir: quad.Subject, Values: shape.Fixed{ref}},
		{Dir: quad.Label, Values: shape.Fixed{gref}},
	}
	return s.appendQuads(ctx, nil, shape.BuildIterator(ctx, s.qs, sel), "")
}

// subjectPredicate is the first of Cayley's default kv quad indexes, which
// every capgraph store is created with.
var subjectPredicate = kv.QuadIndex{Dirs: []quad.Direction{quad.Subject, quad.Predicate}}

// captionQuads returns every quad of caption id's graph, or nil when it
// has none. Cayley indexes quads by subject and object only, so the graph
// is read from its own nodes: the graph node, the photo, the mentions
// <g>#m0, #m1, ... and statements <g>#r0, #r1, ... up to the first that is
// absent, and every other <g>#... node they name; a fact whose subject is
// an entity is rebuilt from its statement (rdf:subject, rdf:predicate,
// rdf:object).
func (s *Store) captionQuads(ctx context.Context, id string) ([]quad.Quad, error) {
	return s.captionQuadsOf(ctx, quad.IRI(model.GraphIRI(id)), quad.IRI(model.PhotoIRI(id)))
}

func (s *Store) captionQuadsOf(ctx context.Context, g, photo quad.IRI) ([]quad.Quad, error) {
	own, err := s.subjectQuads(ctx, g, g)
	if err != nil || len(own) == 0 {
		return nil, err
	}
	var (
		out   = own
		local = string(g) + "#"
		seen  = map[quad.Value]bool{g: true}
		queue = []quad.Value{photo}
	)
	for _, kind := range []string{"m", "r"} {
		for i := 0; ; i++ {
			n := quad.IRI(local + kind + strconv.Itoa(i))
			qs, err := s.subjectQuads(ctx, n, g)
			if err != nil {
				return nil, err
			}
			if len(qs) == 0 {
				break
			}
			seen[n] = true
			out = append(out, qs...)
		}
	}
	note := func(v quad.Value) {
		if iri, ok := v.(quad.IRI); ok && strings.HasPrefix(string(iri), local) && !seen[iri] {
			queue = append(queue, iri)
		}
	}
	for _, q := range out {
		note(q.Object)
	}
	for len(queue) > 0 {
		n := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		qs, err := s.subjectQuads(ctx, n, g)
		if err != nil {
			return nil, err
		}
		for _, q := range qs {
			note(q.Object)
		}
		out = append(out, qs...)
	}
	// Facts rebuilt from their statements.
	type spo struct{ s, p, o quad.Value }
	facts := make(map[quad.Value]*spo)
	for _, q := range out {
		switch q.Predicate {
		case model.RDFSubject, model.RDFPredicate, model.RDFObject:
		default:
			continue
		}
		f := facts[q.Subject]
		if f == nil {
			f = new(spo)
			facts[q.Subject] = f
		}
		switch q.Predicate {
		case model.RDFSubject:
			f.s = q.Object
		case model.RDFPredicate:
			f.p = q.Object
		case model.RDFObject:
			f.o = q.Object
		}
	}
	have := make(map[quad.Quad]bool, len(out))
	for _, q := range out {
		have[q] = true
	}
	for _, f := range facts {
		if f.s == nil || f.p == nil || f.o == nil {
			continue
		}
		q := quad.Quad{Subject: f.s, Predicate: f.p, Object: f.o, Label: g}
		if !have[q] {
			have[q] = true
			out = append(out, q)
		}
	}
	return out, nil
}

func isContentHash(q quad.Quad) bool { return q.Predicate == model.CapgraphContentHash }

// readPartWay completes old, the stored graph of a caption that a stopped
// build left part-way (its content hash went in the first transaction of
// a split batch, and the second never came: batch.transactions). Such a
// graph may lack a mention or statement that captionQuads stops at, so
// the nodes that own, the caption's new graph, names are read too: what
// is there already is then kept, not added again, and the counts of
// quads (tally.go) move only by what the store gains or loses.
func (s *Store) readPartWay(ctx context.Context, g quad.IRI, old, own []quad.Quad) ([]quad.Quad, error) {
	have := make(map[quad.Quad]bool, len(old))
	read := make(map[quad.Value]bool)
	for _, q := range old {
		have[q] = true
		read[q.Subject] = true
	}
	for _, q := range own {
		if read[q.Subject] {
			continue
		}
		read[q.Subject] = true
		qs, err := s.subjectQuads(ctx, q.Subject, g)
		if err != nil {
			return nil, err
		}
		for _, q := range qs {
			if !have[q] {
				have[q] = true
				old = append(old, q)
			}
		}
	}
	return old, nil
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

// hasLiteral reports whether a literal is the object of a quad in the
// store. In the embedded store that is one look-up: a literal can only be
// an object, and Cayley's kv store deletes a value once no quad names it,
// so a value found is named. Elsewhere it is isObject.
func (s *Store) hasLiteral(ctx context.Context, v quad.Value) (bool, error) {
	if s.bolt == nil {
		return s.isObject(ctx, v)
	}
	ref, err := s.qs.ValueOf(v)
	return err == nil && ref != nil, err
}
