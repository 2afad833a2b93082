package plan

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/iterator"
	"github.com/cayleygraph/cayley/graph/kv"
	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/cayley/query/shape"
	"github.com/cayleygraph/quad"
	hkv "github.com/hidal-go/hidalgo/kv"
	"github.com/hidal-go/hidalgo/kv/options"
)

// distinct plans the distinct values of one direction of the quads of
// fixed nodes: InPredicates and OutPredicates (Unique over the predicates
// of quads with the node as object, or as subject). Cayley reads every
// quad of the node from the log for its predicate, then drops repeats: a
// place in 1,000 photos is 3,000 log reads for a handful of predicates.
// An index whose key is the node's direction and then the wanted one
// ("ops" for InPredicates, "sp" for OutPredicates) holds the values in its
// keys, so distinct walks the keys and reads the log only to find one
// live quad per value. It returns nil for any other shape.
func (q *Store) distinct(u shape.Unique) *distinctLinks {
	switch from := u.From.(type) {
	case *indexLinks: // one fixed node: Cayley has made it a QuadsAction
		if len(from.qa.Save) > 0 || from.next == nil || len(from.filter) >= len(from.next.Dirs) ||
			from.next.Dirs[len(from.filter)] != from.qa.Result {
			return nil
		}
		head := make([]uint64, len(from.filter))
		for i, dir := range from.next.Dirs[:len(head)] {
			head[i] = from.filter[dir]
		}
		return &distinctLinks{q: q, ind: from.next, heads: [][]uint64{head}}
	case shape.NodesFrom: // several fixed nodes
		quads, ok := from.Quads.(shape.Quads)
		if !ok || len(quads) != 1 {
			return nil
		}
		ids, ok := fixedIDs(quads[0].Values)
		if !ok {
			return nil
		}
		ind := q.prefixIndex([]quad.Direction{quads[0].Dir})
		if ind == nil || len(ind.Dirs) < 2 || ind.Dirs[1] != from.Dir {
			return nil
		}
		d := &distinctLinks{q: q, ind: ind}
		for _, id := range ids {
			d.heads = append(d.heads, []uint64{id})
		}
		return d
	}
	return nil
}

// distinctLinks is a shape.Unique planned by distinct: the values that
// follow each head (the fixed values of the index's first directions) in
// the keys of ind.
type distinctLinks struct {
	q     *Store
	ind   *kv.QuadIndex
	heads [][]uint64
}

func (d *distinctLinks) BuildIterator(cgraph.QuadStore) iterator.Shape {
	return &distinctIterator{d: d}
}

func (d *distinctLinks) Optimize(context.Context, shape.Optimizer) (shape.Shape, bool) {
	return d, false
}

type distinctIterator struct{ d *distinctLinks }

func (it *distinctIterator) Iterate() iterator.Scanner { return &distinctScan{d: it.d} }

func (it *distinctIterator) Lookup() iterator.Index {
	return &distinctLookup{distinctScan: distinctScan{d: it.d}}
}

func (it *distinctIterator) Stats(ctx context.Context) (iterator.Costs, error) {
	// A node has a few predicates each way; reading them costs a walk of
	// its keys, as Cayley's plan does with a log read per quad.
	return iterator.Costs{NextCost: 2, ContainsCost: 2, Size: refs.Size{Value: 8 * int64(len(it.d.heads))}}, nil
}

func (it *distinctIterator) Optimize(context.Context) (iterator.Shape, bool) { return it, false }

func (it *distinctIterator) SubIterators() []iterator.Shape { return nil }

func (it *distinctIterator) String() string {
	return fmt.Sprintf("Distinct(%v, %d nodes)", it.d.ind, len(it.d.heads))
}

// distinctScan lists the values in each prefix's keys that have a live
// quad, each once.
type distinctScan struct {
	d      *distinctLinks
	tx     hkv.Tx
	keys   hkv.Iterator
	next   [][]uint64 // heads still to scan
	at     int        // where the value starts in the keys of the head scanned
	seen   map[uint64]bool
	result uint64
	ids    []uint64
	err    error
}

func (s *distinctScan) Next(ctx context.Context) bool {
	s.result = 0
	if s.seen == nil {
		s.seen, s.next = make(map[uint64]bool), s.d.heads
	}
	for s.err == nil {
		key, ok := s.nextKey(ctx)
		if !ok {
			return false
		}
		if len(key) < s.at+8 {
			s.err = fmt.Errorf("graph: short index key %x", key)
			return false
		}
		v := binary.BigEndian.Uint64(key[s.at:])
		if s.seen[v] {
			continue
		}
		live, err := s.anyLive(ctx, s.keys.Val())
		if err != nil {
			s.err = err
			return false
		}
		if live {
			s.seen[v], s.result = true, v
			return true
		}
	}
	return false
}

// nextKey moves to the next key under the heads and returns its bytes
// past the index's name.
func (s *distinctScan) nextKey(ctx context.Context) ([]byte, bool) {
	if s.tx == nil {
		if s.tx, s.err = s.d.q.db.Tx(ctx, false); s.err != nil {
			return nil, false
		}
	}
	for {
		if s.keys == nil {
			if len(s.next) == 0 {
				return nil, false
			}
			s.keys = s.tx.Scan(ctx, options.WithPrefixKV(s.d.ind.Key(s.next[0])))
			s.at = 8 * len(s.next[0])
			s.next = s.next[1:]
		}
		if s.keys.Next(ctx) {
			k := s.keys.Key()
			return k[len(k)-1], true
		}
		s.err = errors.Join(s.keys.Err(), s.keys.Close())
		s.keys = nil
		if s.err != nil {
			return nil, false
		}
	}
}

// anyLive reports whether an index value lists a quad that is not dead.
func (s *distinctScan) anyLive(ctx context.Context, val []byte) (bool, error) {
	var err error
	if s.ids, err = decodeIDs(s.ids[:0], val); err != nil {
		return false, err
	}
	var l link
	for _, id := range s.ids {
		live, err := s.d.q.link(ctx, s.tx, id, &l)
		if err != nil || live {
			return live, err
		}
	}
	return false, nil
}

func (s *distinctScan) Result() refs.Ref {
	if s.result == 0 {
		return nil
	}
	return kv.Int64Value(s.result)
}

func (s *distinctScan) TagResults(map[string]refs.Ref) {}

// NextPath is false: Unique gives each value once.
func (s *distinctScan) NextPath(context.Context) bool { return false }

func (s *distinctScan) Err() error { return s.err }

func (s *distinctScan) Close() error {
	err := s.err
	if s.keys != nil {
		err = errors.Join(err, s.keys.Close())
		s.keys = nil
	}
	if s.tx != nil {
		err = errors.Join(err, s.tx.Close())
		s.tx = nil
	}
	return err
}

func (s *distinctScan) String() string { return "DistinctScan" }

// distinctLookup checks a value by scanning, under each prefix, the keys
// that continue with it for a live quad.
type distinctLookup struct{ distinctScan }

func (c *distinctLookup) Contains(ctx context.Context, v refs.Ref) bool {
	c.result = 0
	id, ok := v.(kv.Int64Value)
	if !ok || c.err != nil {
		return false
	}
	if c.tx == nil {
		if c.tx, c.err = c.d.q.db.Tx(ctx, false); c.err != nil {
			return false
		}
	}
	for _, head := range c.d.heads {
		keys := c.tx.Scan(ctx, options.WithPrefixKV(c.d.ind.Key(append(head[:len(head):len(head)], uint64(id)))))
		for keys.Next(ctx) {
			live, err := c.anyLive(ctx, keys.Val())
			if err != nil {
				c.err = errors.Join(err, keys.Close())
				return false
			}
			if live {
				c.result = uint64(id)
				c.err = keys.Close()
				return c.err == nil
			}
		}
		if c.err = errors.Join(keys.Err(), keys.Close()); c.err != nil {
			return false
		}
	}
	return false
}

func (c *distinctLookup) String() string { return "DistinctLookup" }
