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
	// Handed counts, of Captions, those that another build of the same
	// PostgreSQL store wrote, this load having handed them over (see
	// [Store.Load]).
	Handed int
	// Took counts the captions other builds handed over that this load
	// wrote; they are not in the counts above, but in those builds'.
	Took int
}

// add adds d's counts to st's.
func (st *LoadStats) add(d LoadStats) {
	st.Captions += d.Captions
	st.Added += d.Added
	st.Replaced += d.Replaced
	st.Unchanged += d.Unchanged
	st.Quads += d.Quads
	st.Removed += d.Removed
	st.Handed += d.Handed
	st.Took += d.Took
}

// minus returns st's counts less d's.
func (st LoadStats) minus(d LoadStats) LoadStats {
	return LoadStats{
		Captions:  st.Captions - d.Captions,
		Added:     st.Added - d.Added,
		Replaced:  st.Replaced - d.Replaced,
		Unchanged: st.Unchanged - d.Unchanged,
		Quads:     st.Quads - d.Quads,
		Removed:   st.Removed - d.Removed,
		Handed:    st.Handed - d.Handed,
		Took:      st.Took - d.Took,
	}
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
//
// Loads into one PostgreSQL store write one at a time. A Load that finds
// another writing hands its extractions over to it, through a queue in
// the store, and waits: the writing one writes them after its own, in
// the same bulk load if it is one, and counts them in the waiting load's
// LoadStats (Handed), not its own (Took). So several builds started at
// once take about as long as one build of all their input (handoff.go).
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
	l := &loading{
		s:         s,
		opts:      opts,
		prov:      model.Provenance{ExtractorVersion: opts.ExtractorVersion},
		described: make(map[quad.Value]bool),
	}
	if s.pgAddr != "" {
		err := l.runInTurn(ctx, xs)
		return l.st, err
	}
	err := l.finish(ctx, l.run(ctx, l.own(xs), nil))
	return l.st, err
}

// finish writes the quad counts of what the load committed, even when it
// stopped early with err, and syncs the store.
func (l *loading) finish(ctx context.Context, err error) error {
	s := l.s
	if cerr := s.writeQuadCounts(context.WithoutCancel(ctx), &l.counts); cerr != nil {
		err = errors.Join(err, fmt.Errorf("graph: write to %s: %w", s.addr, cerr))
	}
	if serr := s.sync(); err == nil {
		err = serr
	}
	return err
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
	// id names the load among the builds of a PostgreSQL store, and took
	// counts what it wrote of other builds' captions, by build.
	id   string
	took map[string]*LoadStats
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
	// totals returns the load's counts with what is staged.
	totals() LoadStats
	// abandon drops what is staged and not committed.
	abandon()
}

// own returns the load's own extractions, to prepare.
func (l *loading) own(xs iter.Seq2[extract.Extraction, error]) iter.Seq[*prepared] {
	return func(yield func(*prepared) bool) {
		for x, err := range xs {
			if !yield(&prepared{x: x, err: err, prov: l.prov}) {
				return
			}
		}
	}
}

// run writes the extractions of own, if any, into the store through the writer the
// store calls for, then, with builds, those other builds handed over.
func (l *loading) run(ctx context.Context, own iter.Seq[*prepared], builds *pgbulk.Builds) error {
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
	if own != nil {
		if err := l.write(ctx, &w, own, bw != nil); err != nil {
			return err
		}
	}
	for builds != nil {
		hs, err := builds.Claim(ctx, l.id, model.Version, handedClaim)
		if err != nil {
			return errors.Join(fmt.Errorf("graph: read %s: %w", l.s.addr, err), w.commit(ctx))
		}
		if len(hs) == 0 {
			break
		}
		if err := l.write(ctx, &w, l.handed(hs), bw != nil); err != nil {
			return err
		}
	}
	return w.commit(ctx)
}

// write prepares the extractions of in and writes them with *w, which it
// replaces by a writer through Cayley when a bulk load cannot take one.
func (l *loading) write(ctx context.Context, w *writer, in iter.Seq[*prepared], bulk bool) error {
	for m := range prepare(ctx, in, l.opts.Now, runtime.GOMAXPROCS(0), bulk) {
		if m.err != nil && m.handedBy != "" {
			// Not this load's input to stop at: a caption that does
			// not decode would stop every build that claims it.
			l.s.log.Error("dropped a caption another build handed over", "err", m.err)
			continue
		}
		if m.err != nil {
			if err := (*w).commit(ctx); err != nil {
				return errors.Join(m.err, err)
			}
			return m.err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if m.x.ID == "" {
			return errors.Join(fmt.Errorf("graph: load: caption %q has no id", short(m.x.Text)), (*w).commit(ctx))
		}
		other := m.handedBy != "" && m.handedBy != l.id
		var before LoadStats
		if other {
			before = (*w).totals()
		}
		l.st.Captions++
		ok, err := (*w).write(ctx, m)
		if err != nil {
			return err
		}
		if !ok {
			if err := (*w).commit(ctx); err != nil {
				return err
			}
			// The bulk load wrote the tallies: nothing to count.
			*w = l.newCayleyWriter()
			if _, err := (*w).write(ctx, m); err != nil {
				return err
			}
		}
		if other {
			l.tookFrom(m.handedBy, (*w).totals().minus(before))
		}
	}
	return nil
}
