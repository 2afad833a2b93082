package graph

import (
	"context"
	"slices"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/quad"
)

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
	// The nodes met for the first time, in the order desc first names
	// them. Quads of one subject are contiguous except when an admin
	// chain or a later entity adds to a subject seen before.
	var fresh []quad.Value
	for _, q := range desc {
		if !described[q.Subject] && !slices.Contains(fresh, q.Subject) {
			fresh = append(fresh, q.Subject)
		}
	}
	if len(fresh) == 0 {
		return 0, nil
	}
	stored, err := s.descriptions(ctx, fresh)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, subj := range fresh {
		described[subj] = true
		want := make(map[quad.Quad]bool)
		for _, q := range desc {
			if q.Subject == subj {
				want[q] = true
			}
		}
		for _, q := range stored[subj] {
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
// quads it deletes. It works in rounds, each reading the descriptions of
// its candidates and whether they are still referenced in one go: a node
// still referenced only by a quad that a later collection deletes is a
// candidate again, since deleting a quad makes its object one (batch.del).
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
		var round []quad.Value
		inRound := make(map[quad.Value]bool)
		for _, c := range b.candidates {
			if !done[c] && !added[c] && !inRound[c] {
				inRound[c] = true
				round = append(round, c)
			}
		}
		b.candidates = b.candidates[:0]
		descs, err := s.descriptions(ctx, round)
		if err != nil {
			return n, err
		}
		// Only entities: not a photo, a literal's type, ...
		entities := slices.DeleteFunc(round, func(c quad.Value) bool { return len(descs[c]) == 0 })
		used, err := s.referenced(ctx, entities, b.deleted)
		if err != nil {
			return n, err
		}
		for i, c := range entities {
			if used[i] {
				continue
			}
			// Only a collected node is done: one still referenced is
			// checked again if a later collection removes its last
			// reference (an old admin area held only by districts that
			// go with it).
			done[c] = true
			delete(described, c)
			for _, q := range descs[c] {
				if !b.deleted[q] {
					b.del(q) // queues its object (geo node, admin area) as a candidate
					n++
				}
			}
		}
	}
	return n, nil
}

// referenced reports, for each of vs, whether a stored quad not in
// deleted has it as its object: on PostgreSQL in one query.
func (s *Store) referenced(ctx context.Context, vs []quad.Value, deleted map[quad.Quad]bool) ([]bool, error) {
	if len(vs) == 0 {
		return nil, nil
	}
	if s.pgNodes != nil {
		want := make(map[quad.Value]bool, len(vs))
		for _, v := range vs {
			want[v] = true
		}
		var except []quad.Quad
		for q := range deleted {
			if want[q.Object] {
				except = append(except, q)
			}
		}
		return s.pgNodes.Referenced(ctx, vs, except)
	}
	out := make([]bool, len(vs))
	for i, v := range vs {
		used, err := s.referencedByIterator(ctx, v, deleted)
		if err != nil {
			return nil, err
		}
		out[i] = used
	}
	return out, nil
}

// referencedByIterator reports whether a stored quad not in deleted has v as
// its object.
func (s *Store) referencedByIterator(ctx context.Context, v quad.Value, deleted map[quad.Quad]bool) (bool, error) {
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
