package graph

import (
	"context"
	"errors"
	"fmt"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/iterator"
	"github.com/cayleygraph/cayley/graph/kv"
	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/cayley/query/shape"
	"github.com/cayleygraph/quad"
)

// join plans a step from a path, such as Out(p) after In(q): the quads
// whose direction from holds a node of the path and whose other
// directions have fixed values, and their direction s.Dir. Cayley's kv
// store reads every quad of each node of the path and keeps those with
// the fixed values; join scans, for each node, the index key prefix of
// the node and the fixed values. It returns nil when the step is not of
// that form or no index has such a prefix.
func (q *boltQueries) join(s shape.NodesFrom) *indexJoin {
	filters, ok := s.Quads.(shape.Quads)
	if !ok {
		return nil
	}
	j := &indexJoin{q: q, result: s.Dir, generic: s, filter: make(map[quad.Direction]uint64)}
	var fixed []quad.Direction
	for _, f := range filters {
		if v, ok := shape.One(f.Values); ok {
			id, ok := v.(kv.Int64Value)
			if _, dup := j.filter[f.Dir]; !ok || dup {
				return nil
			}
			j.filter[f.Dir] = uint64(id)
			fixed = append(fixed, f.Dir)
			continue
		}
		if sv, ok := f.Values.(shape.Save); ok {
			if _, all := sv.From.(shape.AllNodes); all {
				if j.save == nil {
					j.save = make(map[quad.Direction][]string)
				}
				j.save[f.Dir] = append(j.save[f.Dir], sv.Tags...)
				continue
			}
		}
		if j.from != nil {
			return nil // two paths meet here: leave it to Cayley
		}
		j.from, j.dir = f.Values, f.Dir
	}
	if j.from == nil || j.dir == j.result || len(fixed) == 0 {
		return nil
	}
	if _, ok := j.filter[j.dir]; ok {
		return nil
	}
	j.next = q.prefixIndex(append(fixed[:len(fixed):len(fixed)], j.dir))
	if _, ok := j.filter[j.result]; !ok {
		j.lookup = q.prefixIndex(append(fixed[:len(fixed):len(fixed)], j.result))
	}
	if j.next == nil {
		return nil
	}
	return j
}

// indexJoin is a shape.NodesFrom planned as an index nested-loop join:
// for each node of from (in direction dir), the quads under the index key
// prefix of the node and the filter's values. To check a node in the
// result's direction it scans the prefix of that node and the filter's
// values on lookup, and checks each quad's dir against from; with no such
// index Cayley's plan (generic) checks it.
type indexJoin struct {
	q       *boltQueries
	result  quad.Direction
	dir     quad.Direction
	from    shape.Shape
	filter  map[quad.Direction]uint64
	save    map[quad.Direction][]string
	next    *kv.QuadIndex
	lookup  *kv.QuadIndex
	generic shape.NodesFrom
}

func (j *indexJoin) BuildIterator(qs cgraph.QuadStore) iterator.Shape {
	return &joinIterator{j: j, qs: qs, from: j.from.BuildIterator(qs)}
}

func (j *indexJoin) Optimize(context.Context, shape.Optimizer) (shape.Shape, bool) { return j, false }

// key returns the index key prefix of the filter's values and node in
// direction d.
func (j *indexJoin) key(ind *kv.QuadIndex, d quad.Direction, node uint64) []uint64 {
	vals := make([]uint64, len(j.filter)+1)
	for i, x := range ind.Dirs[:len(vals)] {
		if x == d {
			vals[i] = node
		} else {
			vals[i] = j.filter[x]
		}
	}
	return vals
}

type joinIterator struct {
	j       *indexJoin
	qs      cgraph.QuadStore
	from    iterator.Shape
	generic iterator.Shape
}

func (it *joinIterator) cayleys() iterator.Shape {
	if it.generic == nil {
		it.generic = it.j.generic.BuildIterator(it.qs)
	}
	return it.generic
}

func (it *joinIterator) Iterate() iterator.Scanner {
	return &joinScan{linksScan: linksScan{l: &indexLinks{q: it.j.q, qa: shape.QuadsAction{Result: it.j.result, Save: it.j.save}}}, j: it.j, from: it.from.Iterate()}
}

func (it *joinIterator) Lookup() iterator.Index {
	if it.j.lookup == nil {
		return it.cayleys().Lookup()
	}
	return &joinLookup{linksScan: linksScan{l: &indexLinks{q: it.j.q, qa: shape.QuadsAction{Result: it.j.result, Save: it.j.save}}}, j: it.j, from: it.from.Lookup()}
}

// joinFanout is the quads per node of from that Stats assumes.
const joinFanout = 2

func (it *joinIterator) Stats(ctx context.Context) (iterator.Costs, error) {
	c, err := it.from.Stats(ctx)
	if err != nil {
		return c, err
	}
	out := iterator.Costs{NextCost: c.NextCost + 2, ContainsCost: c.ContainsCost + 2, Size: refs.Size{Value: c.Size.Value * joinFanout}}
	if it.j.lookup == nil {
		g, err := it.cayleys().Stats(ctx)
		if err != nil {
			return out, err
		}
		out.ContainsCost = g.ContainsCost
	}
	return out, nil
}

func (it *joinIterator) Optimize(context.Context) (iterator.Shape, bool) { return it, false }

func (it *joinIterator) SubIterators() []iterator.Shape { return []iterator.Shape{it.from} }

func (it *joinIterator) String() string {
	return fmt.Sprintf("IndexJoin(%v from %v, next %v, lookup %v)", it.j.result, it.j.dir, it.j.next, it.j.lookup)
}

// joinScan lists, for each node of from, the live quads under its prefix.
type joinScan struct {
	linksScan
	j    *indexJoin
	from iterator.Scanner
}

func (s *joinScan) Next(ctx context.Context) bool {
	for {
		if s.prefix != nil && s.next(ctx) {
			return true
		}
		if s.err != nil {
			return false
		}
		if s.keys != nil {
			s.err = s.keys.Close()
			s.keys = nil
		}
		s.prefix = nil
		if !s.from.Next(ctx) {
			s.err = s.from.Err()
			return false
		}
		if node, ok := s.from.Result().(kv.Int64Value); ok {
			s.prefix = s.j.next.Key(s.j.key(s.j.next, s.j.dir, uint64(node)))
		}
	}
}

// NextPath moves to from's next path to the same node, as Cayley's
// LinksTo does: the quad stays.
func (s *joinScan) NextPath(ctx context.Context) bool { return s.prim != nil && s.from.NextPath(ctx) }

func (s *joinScan) TagResults(dst map[string]refs.Ref) {
	s.from.TagResults(dst)
	s.linksScan.TagResults(dst)
}

func (s *joinScan) Err() error {
	if s.err != nil {
		return s.err
	}
	return s.from.Err()
}

func (s *joinScan) Close() error { return errors.Join(s.linksScan.Close(), s.from.Close()) }

func (s *joinScan) String() string { return fmt.Sprintf("IndexJoinScan(%v)", s.j.next) }

// joinLookup checks a node by scanning its quads with the filter's values
// and looking up each quad's dir in from.
type joinLookup struct {
	linksScan
	j    *indexJoin
	from iterator.Index
}

func (c *joinLookup) Contains(ctx context.Context, v refs.Ref) bool {
	if c.keys != nil {
		c.err = errors.Join(c.err, c.keys.Close())
		c.keys = nil
	}
	c.ids, c.prim = c.ids[:0], nil
	node, ok := v.(kv.Int64Value)
	if !ok || c.err != nil {
		return false
	}
	c.prefix = c.j.lookup.Key(c.j.key(c.j.lookup, c.j.result, uint64(node)))
	return c.advance(ctx)
}

// advance moves to the next live quad under the prefix whose dir is in from.
func (c *joinLookup) advance(ctx context.Context) bool {
	for c.next(ctx) {
		d, err := c.l.q.QuadDirection(c.prim, c.j.dir)
		if err != nil {
			c.err = err
			return false
		}
		if c.from.Contains(ctx, d) {
			return true
		}
		if c.err = c.from.Err(); c.err != nil {
			return false
		}
	}
	return false
}

func (c *joinLookup) NextPath(ctx context.Context) bool {
	if c.prim == nil {
		return false
	}
	if c.from.NextPath(ctx) {
		return true
	}
	return c.advance(ctx)
}

func (c *joinLookup) TagResults(dst map[string]refs.Ref) {
	c.from.TagResults(dst)
	c.linksScan.TagResults(dst)
}

func (c *joinLookup) Err() error {
	if c.err != nil {
		return c.err
	}
	return c.from.Err()
}

func (c *joinLookup) Close() error { return errors.Join(c.linksScan.Close(), c.from.Close()) }

func (c *joinLookup) String() string { return fmt.Sprintf("IndexJoinLookup(%v)", c.j.lookup) }
