package graph

import (
	"context"
	"fmt"
	"slices"

	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/graph/model"
)

// A cayleyWriter writes captions through Cayley, in batches of whole
// captions: each caption's graph is compared with the stored one and only
// the difference is written, with the descriptions, tallies and counts it
// changes, in one transaction (or two: batch.transactions).
type cayleyWriter struct {
	*loading
	b       batch
	pending LoadStats       // counts of the batch not yet committed
	inBatch map[string]bool // the captions of the batch
	// sinceRelease counts captions read since mapped pages were last
	// released.
	sinceRelease int
}

// cayleyWriter returns a writer through Cayley for a store whose tallies
// may need counting first (ensureTallies).
func (l *loading) cayleyWriter(ctx context.Context) (*cayleyWriter, error) {
	if err := l.s.ensureTallies(ctx); err != nil {
		return nil, fmt.Errorf("graph: count %s: %w", l.s.addr, err)
	}
	return l.newCayleyWriter(), nil
}

func (l *loading) newCayleyWriter() *cayleyWriter {
	return &cayleyWriter{
		loading: l,
		b:       batch{deleted: make(map[quad.Quad]bool), credits: make(map[credit]int)},
		inBatch: make(map[string]bool),
	}
}

func (w *cayleyWriter) write(ctx context.Context, m *prepared) (bool, error) {
	s, x := w.s, m.x
	if w.inBatch[x.ID] { // the same caption twice: let the first land
		if err := w.commit(ctx); err != nil {
			return false, err
		}
	}
	if stored, err := s.hasLiteral(ctx, quad.String(m.hash)); err != nil {
		return false, fmt.Errorf("graph: read %s: %w", s.addr, err)
	} else if stored {
		w.st.Unchanged++
		// A rerun over unchanged captions commits nothing, but its
		// look-ups map pages all over the store all the same.
		if w.sinceRelease++; w.sinceRelease >= releaseEvery {
			s.releaseMapped()
			w.sinceRelease = 0
		}
		return true, nil
	}
	own, desc := m.quads(w.opts.Now)
	old, err := s.captionQuads(ctx, x.ID)
	if err == nil && old != nil && !slices.ContainsFunc(old, isContentHash) {
		old, err = s.readPartWay(ctx, quad.IRI(model.GraphIRI(x.ID)), old, own)
	}
	if err != nil {
		return false, fmt.Errorf("graph: read %s: %w", s.addr, err)
	}
	b := &w.b
	credits(old, -1, b.credits)
	credits(own, 1, b.credits)
	if old == nil {
		w.pending.Added++
		for _, q := range own {
			b.add(q)
		}
		w.pending.Quads += len(own)
	} else {
		w.pending.Replaced++
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
			w.pending.Quads++
		}
		for _, q := range old {
			if !keep[q] {
				b.del(q)
				w.pending.Quads++
				w.pending.Removed++
			}
		}
	}
	n, err := s.describe(ctx, b, desc, w.described)
	if err != nil {
		return false, fmt.Errorf("graph: read %s: %w", s.addr, err)
	}
	w.pending.Quads += n
	w.inBatch[x.ID] = true
	if len(b.deltas) >= s.opts.BatchSize {
		if err := w.commit(ctx); err != nil {
			return false, err
		}
	}
	return true, nil
}

func (w *cayleyWriter) commit(ctx context.Context) error {
	s, b := w.s, &w.b
	if err := ctx.Err(); err != nil {
		return err
	}
	// Tallies first: a credit that goes releases its agency and
	// photographer for collectOrphans.
	if err := s.talliesOf(ctx, b); err != nil {
		return fmt.Errorf("graph: read %s: %w", s.addr, err)
	}
	n, err := s.collectOrphans(ctx, b, w.described)
	if err != nil {
		return fmt.Errorf("graph: read %s: %w", s.addr, err)
	}
	w.pending.Quads += n
	w.pending.Removed += n
	countsWritten, err := w.counts.note(ctx, s, b)
	if err != nil {
		return fmt.Errorf("graph: read %s: %w", s.addr, err)
	}
	// What the batch read may have met damage that Cayley dropped on
	// the way (a description it could not read is none): writing it
	// would make the store wrong where it was only damaged.
	if err := s.bolt.KV().Damaged(); err != nil {
		w.counts.broken = true
		return fmt.Errorf("graph: read %s: %w", s.addr, err)
	}
	for _, part := range b.transactions() {
		err := s.apply(ctx, part)
		if err != nil {
			w.counts.broken = true
			return fmt.Errorf("graph: write to %s: %w", s.addr, err)
		}
	}
	countsWritten()
	// Bound the RSS of long builds: each batch touches pages all over
	// the B-trees, so mapped pages pile up between releases.
	s.releaseMapped()
	w.sinceRelease = 0
	w.st.Added += w.pending.Added
	w.st.Replaced += w.pending.Replaced
	w.st.Quads += w.pending.Quads
	w.st.Removed += w.pending.Removed
	w.pending = LoadStats{}
	b.reset()
	clear(w.inBatch)
	w.opts.Progress(w.st)
	return nil
}

func (w *cayleyWriter) totals() LoadStats {
	st := w.st
	st.add(w.pending)
	return st
}

// abandon has nothing to do: what is not committed is only in memory.
func (w *cayleyWriter) abandon() {}
