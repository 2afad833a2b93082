package graph

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/graph/internal/bulk"
	"github.com/capgraph/capgraph/graph/internal/pgbulk"
	"github.com/capgraph/capgraph/graph/model"
)

// A stager holds a bulk load until it is committed: internal/bulk for the
// embedded store, internal/pgbulk for PostgreSQL.
type stager interface {
	Has(g quad.IRI) bool
	Add(g, photo quad.IRI, own, desc []quad.Quad) error
	Abandon()
}

// A bulkWriter writes the first load of an empty store: the captions are
// staged, and committed at once, into a new file that replaces the empty
// one (internal/bulk) or in one PostgreSQL transaction (internal/pgbulk).
// The tallies and the quad counts are counted on the way, since there is
// nothing stored to read them from.
type bulkWriter struct {
	*loading
	bulk stager // nil once committed or abandoned
	// finish commits bulk: the embedded store's file goes in place of
	// the empty one, PostgreSQL's transaction commits.
	finish func() error
	staged LoadStats // what bulk holds, not yet committed
	// tallies and credits are the tallies of what bulk holds; stats are
	// the quad counts Stats reports (statKeys).
	tallies map[quad.Value]int
	credits map[credit]int
	stats   map[quad.Value]int
	keys    []quad.Value // statKeys' scratch
	// sinceProgress counts the quads staged since the last Progress.
	sinceProgress int
	// contents holds the content hash of each caption staged, by graph,
	// where builds hand captions over (PostgreSQL): their inputs may
	// overlap, and a caption staged already with the same content is
	// unchanged, where one with other content ends the bulk load.
	contents map[refs.ValueHash]refs.ValueHash
}

func (w *bulkWriter) write(ctx context.Context, m *prepared) (bool, error) {
	g := quad.IRI(model.GraphIRI(m.x.ID))
	var gh, content refs.ValueHash
	if w.contents != nil {
		gh, content = refs.HashOf(g), refs.HashOf(quad.String(m.hash))
	}
	if w.bulk.Has(g) {
		if w.contents != nil && w.contents[gh] == content {
			w.staged.Unchanged++
			return true, nil
		}
		return false, nil
	}
	if w.contents != nil {
		w.contents[gh] = content
	}
	own, desc := m.quads(w.opts.Now)
	desc = newDescriptions(desc, w.described)
	for _, q := range own {
		if e := tallyLink(q); e != nil {
			w.tallies[e]++
		}
	}
	credits(own, 1, w.credits)
	for _, qs := range [2][]quad.Quad{own, desc} {
		for _, q := range qs {
			w.keys = statKeys(q, w.keys[:0])
			for _, k := range w.keys {
				w.stats[k]++
			}
		}
	}
	if err := w.bulk.Add(g, quad.IRI(model.PhotoIRI(m.x.ID)), own, desc); err != nil {
		return false, fmt.Errorf("graph: bulk load %s: %w", w.s.addr, err)
	}
	w.staged.Added++
	w.staged.Quads += len(own) + len(desc)
	if w.sinceProgress += len(own) + len(desc); w.sinceProgress >= w.s.opts.BatchSize {
		w.sinceProgress = 0
		w.opts.Progress(LoadStats{Captions: w.st.Captions, Added: w.staged.Added, Quads: w.staged.Quads})
	}
	return true, nil
}

// commit commits the bulk load; a done ctx abandons it instead, leaving
// the store empty, as it was.
func (w *bulkWriter) commit(ctx context.Context) error {
	bl := w.bulk
	if bl == nil {
		return nil
	}
	w.bulk = nil
	if err := ctx.Err(); err != nil {
		bl.Abandon()
		return err
	}
	s := w.s
	// The tallies, with their marker, only beside captions: a store
	// that a load of nothing left empty is bulk loaded next time.
	if w.staged.Added > 0 {
		if err := bl.Add(talliesGraph, talliesGraph, tallyQuads(w.tallies, w.credits, nil), nil); err != nil {
			bl.Abandon()
			return fmt.Errorf("graph: bulk load %s: %w", s.addr, err)
		}
	}
	if err := w.finish(); err != nil {
		bl.Abandon()
		return fmt.Errorf("graph: bulk load %s: %w", s.addr, err)
	}
	if w.staged.Added > 0 {
		w.counts.bulkLoaded(w.stats)
	}
	w.st.Added += w.staged.Added
	w.st.Unchanged += w.staged.Unchanged
	w.st.Quads += w.staged.Quads
	w.staged = LoadStats{}
	w.opts.Progress(w.st)
	return nil
}

func (w *bulkWriter) totals() LoadStats {
	st := w.st
	st.Added += w.staged.Added
	st.Unchanged += w.staged.Unchanged
	st.Quads += w.staged.Quads
	return st
}

func (w *bulkWriter) abandon() {
	if w.bulk != nil {
		w.bulk.Abandon()
		w.bulk = nil
	}
}

// startBulk begins a bulk load when the store is empty and either an
// embedded one laid out as a bulk load writes (flat, Cayley's default
// indexes) or a PostgreSQL one; otherwise it returns nil, and Load writes
// through Cayley.
func (l *loading) startBulk(ctx context.Context) (*bulkWriter, error) {
	s := l.s
	var (
		b      stager
		finish func() error
	)
	switch db := s.bolt.DB(); {
	case s.noBulk:
		return nil, nil
	case db != nil:
		if !s.bolt.KV().Flat() {
			return nil, nil
		}
		if ok, err := bulk.Fits(db); err != nil || !ok {
			return nil, err
		}
		bl, err := bulk.New(s.addr)
		if err != nil {
			return nil, fmt.Errorf("graph: bulk load %s: %w", s.addr, err)
		}
		b, finish = bl, func() error { return s.commitBulk(bl) }
	case s.pgAddr != "":
		pl, err := pgbulk.New(ctx, s.pgAddr)
		if errors.Is(err, pgbulk.ErrNotEmpty) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("graph: bulk load %s: %w", s.addr, err)
		}
		b, finish = pl, func() error {
			start := time.Now()
			s.log.Debug("bulk load: building indexes", "quads", pl.Size())
			err := pl.Commit()
			s.log.Debug("bulk load: committed", "took", time.Since(start).Round(time.Millisecond))
			return err
		}
	default:
		return nil, nil
	}
	w := &bulkWriter{
		loading: l,
		bulk:    b,
		finish:  finish,
		tallies: make(map[quad.Value]int),
		credits: make(map[credit]int),
		stats:   make(map[quad.Value]int),
	}
	if s.pgAddr != "" {
		w.contents = make(map[refs.ValueHash]refs.ValueHash)
	}
	return w, nil
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
