package graph

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"runtime"
	"slices"
	"time"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/graph/internal/bulk"
	"github.com/capgraph/capgraph/graph/model"
)

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
// batches already committed stay, and the counts that Stats reads are
// written for them when Load returns (quadCounts).
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
	items := prepare(ctx, xs, func() model.Provenance {
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
