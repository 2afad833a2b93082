package graph

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"runtime"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/graph/internal/pgbulk"
	"github.com/capgraph/capgraph/graph/model"
)

// LoadStats counts what [Store.Load] did.
type LoadStats struct {
	Captions  int // extractions read
	Added     int // captions new to the store
	Replaced  int // captions whose stored graph changed
	Unchanged int // captions already stored with the same content
	Quads     int // quads added or removed
	Removed   int // of Quads, quads removed from replaced graphs
}

// LoadOptions tune one [Store.Load]. The zero value is ready to use.
type LoadOptions struct {
	// ExtractorVersion is recorded on each caption graph written and is
	// part of its content hash.
	ExtractorVersion string
	// Now gives the generation time recorded on each caption graph; nil
	// means time.Now.
	Now func() time.Time
	// Progress, when set, is called after each committed batch with the
	// running totals; during a bulk load, which commits once at the end,
	// after each Options.BatchSize quads read.
	Progress func(LoadStats)
}

// Load writes extractions into the store: each caption's facts replace
// its named graph in the same transaction as its content-hash marker, and
// transactions hold whole captions, so a crash or a cancelled ctx leaves
// only whole captions. The entities a caption names are described once in
// [EntitiesGraph]; a description that no caption references any more is
// deleted in the transaction that drops the last reference. An extraction
// whose content hash is already stored costs one read and no write. Load
// stops at the first error from xs, or at a caption without an id;
// batches already committed stay, and the counts that Stats reads are
// written for them when Load returns (quadCounts).
//
// The first Load into an empty embedded or PostgreSQL store is a bulk load:
// it writes what Cayley would, ten to forty times faster, into a new file
// that replaces the empty one when Load ends (internal/bulk), or in one
// PostgreSQL transaction that holds the tables until it commits
// (internal/pgbulk). Until then nothing is committed: a crash or a
// cancelled ctx leaves the store empty, and an error from xs or a caption
// without an id commits what was read before it.
// If a caption's id comes twice, the bulk load commits at the second, and
// Load goes on through Cayley from there.
func (s *Store) Load(ctx context.Context, xs iter.Seq2[extract.Extraction, error], opts LoadOptions) (LoadStats, error) {
	if s.opts.ReadOnly {
		return LoadStats{}, fmt.Errorf("graph: load %s: %w", s.addr, ErrReadOnly)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Progress == nil {
		opts.Progress = func(LoadStats) {}
	}
	if s.pgAddr != "" {
		unlock, err := pgbulk.LockBuilds(ctx, s.pgAddr, func() {
			s.log.Info("waiting for another build of the store to finish", "store", s.addr)
		})
		if err != nil {
			return LoadStats{}, fmt.Errorf("graph: load %s: %w", s.addr, err)
		}
		defer unlock()
	}
	l := &loading{
		s:         s,
		opts:      opts,
		prov:      model.Provenance{ExtractorVersion: opts.ExtractorVersion},
		described: make(map[quad.Value]bool),
	}
	err := l.run(ctx, xs)
	// What the load committed is counted, even when it stopped early.
	if cerr := s.writeQuadCounts(context.WithoutCancel(ctx), &l.counts); cerr != nil {
		err = errors.Join(err, fmt.Errorf("graph: write to %s: %w", s.addr, cerr))
	}
	if serr := s.sync(); err == nil {
		err = serr
	}
	return l.st, err
}

// A loading is one Load under way: what its writers share.
type loading struct {
	s    *Store
	opts LoadOptions
	prov model.Provenance // without its time, which each caption takes
	st   LoadStats        // what is committed
	// counts are the quad counts the committed batches changed.
	counts quadCounts
	// described holds the entity nodes whose stored description this
	// Load has already reconciled with an extraction.
	described map[quad.Value]bool
}

// A writer is where a Load puts captions: a bulk load into an empty store
// (bulkWriter), Cayley's writer otherwise (cayleyWriter).
type writer interface {
	// write stages the caption m, committing on the way as the writer
	// sees fit. It reports false when the writer cannot take m (the bulk
	// writer, given a caption it holds already): Load then commits it and
	// writes m through Cayley.
	write(ctx context.Context, m *prepared) (bool, error)
	// commit writes what is staged; a done ctx drops it instead.
	commit(ctx context.Context) error
	// abandon drops what is staged and not committed.
	abandon()
}

// run reads xs into the store through the writer the store calls for.
func (l *loading) run(ctx context.Context, xs iter.Seq2[extract.Extraction, error]) error {
	var w writer
	bw, err := l.startBulk(ctx)
	if err != nil {
		return err
	}
	if bw != nil {
		w = bw
	} else if w, err = l.cayleyWriter(ctx); err != nil {
		return err
	}
	defer func() { w.abandon() }()
	items := prepare(ctx, xs, func() model.Provenance {
		p := l.prov
		p.Time = l.opts.Now()
		return p
	}, runtime.GOMAXPROCS(0), bw != nil)
	for m := range items {
		if m.err != nil {
			if err := w.commit(ctx); err != nil {
				return errors.Join(m.err, err)
			}
			return m.err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if m.x.ID == "" {
			return errors.Join(fmt.Errorf("graph: load: caption %q has no id", short(m.x.Text)), w.commit(ctx))
		}
		l.st.Captions++
		ok, err := w.write(ctx, m)
		if err != nil {
			return err
		}
		if !ok {
			if err := w.commit(ctx); err != nil {
				return err
			}
			// The bulk load wrote the tallies: nothing to count.
			w = l.newCayleyWriter()
			if _, err := w.write(ctx, m); err != nil {
				return err
			}
		}
	}
	return w.commit(ctx)
}
