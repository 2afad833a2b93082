package plan

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/iterator"
	"github.com/cayleygraph/cayley/graph/kv"
	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/cayley/query/shape"
	"github.com/cayleygraph/quad"
)

// join plans a step from a path, such as Out(p) after In(q): the quads
// whose direction dir holds a node of the path and whose other directions
// have fixed values, one or several each, and their direction s.Dir.
// Cayley's kv store reads every quad of each node of the path and keeps
// those with the fixed values; join scans, for each node, the index key
// prefixes of the node and the fixed values. With no path, the fixed
// filter with several values stands in for it: In([p, q]) from a set of
// nodes, or the values of Has(p, a, b) on a set of nodes. It returns nil
// when the step is not of that form or no index has such a prefix.
func (q *Store) join(s shape.NodesFrom) *indexJoin {
	filters, ok := s.Quads.(shape.Quads)
	if !ok {
		return nil
	}
	j := &indexJoin{q: q, result: s.Dir, generic: s, filter: make(map[quad.Direction][]uint64)}
	var fixed []quad.Direction
	// With no path, a fixed filter stands in for it: the first with several
	// values, or else the first whose values are tagged.
	var several, tagged *shape.QuadFilter
	tags := make(map[quad.Direction][]string)
	for i, f := range filters {
		// Values saved as they are read (In(p, "tag"), Out(null, "tag"))
		// are a filter, or none, whose values the quads give for the tags.
		values := f.Values
		if sv, ok := values.(shape.Save); ok {
			if _, all := sv.From.(shape.AllNodes); all {
				tags[f.Dir] = append(tags[f.Dir], sv.Tags...)
				continue
			}
			if _, ok := fixedIDs(sv.From); ok {
				values = sv.From
				tags[f.Dir] = append(tags[f.Dir], sv.Tags...)
				if tagged == nil {
					tagged = &filters[i]
				}
			}
		}
		if ids, ok := fixedIDs(values); ok {
			if _, dup := j.filter[f.Dir]; dup || len(ids) == 0 {
				return nil
			}
			j.filter[f.Dir] = ids
			fixed = append(fixed, f.Dir)
			// Not the result's: Has(p, a, b) on fixed nodes comes as the
			// nodes and a, b fixed, and only a, b can lead.
			if len(ids) > 1 && several == nil && f.Dir != s.Dir {
				several = &filters[i]
			}
			continue
		}
		if j.from != nil {
			return nil // two paths meet here: leave it to Cayley
		}
		j.from, j.dir = f.Values, f.Dir
	}
	if f := cmp.Or(several, tagged); j.from == nil && f != nil {
		j.from, j.dir = f.Values, f.Dir // its Save, if any, tags its nodes
		delete(j.filter, f.Dir)
		delete(tags, f.Dir)
		fixed = slices.DeleteFunc(fixed, func(d quad.Direction) bool { return d == f.Dir })
	}
	if len(tags) > 0 {
		j.save = tags
	}
	if j.from == nil || j.dir == j.result || len(fixed) == 0 {
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

// fixedIDs returns the node ids of a shape of fixed values, and false if
// it is not one or a value is not a kv node.
func fixedIDs(s shape.Shape) ([]uint64, bool) {
	f, ok := s.(shape.Fixed)
	if !ok {
		return nil, false
	}
	ids := make([]uint64, len(f))
	for i, v := range f {
		id, ok := v.(kv.Int64Value)
		if !ok {
			return nil, false
		}
		ids[i] = uint64(id)
	}
	return ids, true
}

// indexJoin is a shape.NodesFrom planned as an index nested-loop join:
// for each node of from (in direction dir), the quads under the index key
// prefix of the node and the filter's values. To check a node in the
// result's direction it scans the prefix of that node and the filter's
// values on lookup, and checks each quad's dir against from; with no such
// index Cayley's plan (generic) checks it.
type indexJoin struct {
	q       *Store
	result  quad.Direction
	dir     quad.Direction
	from    shape.Shape
	filter  map[quad.Direction][]uint64
	save    map[quad.Direction][]string
	next    *kv.QuadIndex
	lookup  *kv.QuadIndex
	generic shape.NodesFrom
}

func (j *indexJoin) BuildIterator(qs cgraph.QuadStore) iterator.Shape {
	return &joinIterator{j: j, qs: qs, from: j.from.BuildIterator(qs)}
}

func (j *indexJoin) Optimize(context.Context, shape.Optimizer) (shape.Shape, bool) { return j, false }

// prefixes returns the index key prefixes of node in direction d and
// every combination of the filter's values.
func (j *indexJoin) prefixes(ind *kv.QuadIndex, d quad.Direction, node uint64) [][]byte {
	combos := [][]uint64{nil}
	for _, x := range ind.Dirs[:len(j.filter)+1] {
		vals := j.filter[x]
		if x == d {
			vals = []uint64{node}
		}
		next := make([][]uint64, 0, len(combos)*len(vals))
		for _, c := range combos {
			for _, v := range vals {
				next = append(next, append(c[:len(c):len(c)], v))
			}
		}
		combos = next
	}
	keys := make([][]byte, len(combos))
	for i, c := range combos {
		keys[i] = appendBucket(nil, ind)
		for _, v := range c {
			keys[i] = binary.BigEndian.AppendUint64(keys[i], v)
		}
	}
	return keys
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
	from := it.from.Iterate()
	return &joinScan{joinPart: it.part(from), from: from}
}

func (it *joinIterator) Lookup() iterator.Index {
	if it.j.lookup == nil {
		return it.cayleys().Lookup()
	}
	from := it.from.Lookup()
	return &joinLookup{joinPart: it.part(from), from: from}
}

// part starts the scan or lookup of a join whose source iterates as src.
func (it *joinIterator) part(src iterator.Base) joinPart {
	links := &indexLinks{q: it.j.q, qa: shape.QuadsAction{Result: it.j.result, Save: it.j.save}}
	return joinPart{linksScan: linksScan{l: links}, j: it.j, src: src}
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

// joinPart is what a join's scan and lookup share: the quads under their
// prefixes, and the iterator of from, whose tags come with each result.
type joinPart struct {
	linksScan
	j   *indexJoin
	src iterator.Base
}

func (p *joinPart) TagResults(dst map[string]refs.Ref) {
	p.src.TagResults(dst)
	p.linksScan.TagResults(dst)
}

func (p *joinPart) Err() error {
	if p.err != nil {
		return p.err
	}
	return p.src.Err()
}

func (p *joinPart) Close() error { return errors.Join(p.linksScan.Close(), p.src.Close()) }

// joinScan lists, for each node of from, the live quads under its prefix.
type joinScan struct {
	joinPart
	from iterator.Scanner
}

func (s *joinScan) Next(ctx context.Context) bool {
	for !s.next(ctx) {
		if s.err != nil {
			return false
		}
		if !s.from.Next(ctx) {
			s.err = s.from.Err()
			return false
		}
		if node, ok := s.from.Result().(kv.Int64Value); ok {
			s.reset(s.j.prefixes(s.j.next, s.j.dir, uint64(node)))
		}
	}
	return true
}

// NextPath moves to from's next path to the same node, as Cayley's
// LinksTo does: the quad stays.
func (s *joinScan) NextPath(ctx context.Context) bool { return s.found && s.from.NextPath(ctx) }

func (s *joinScan) String() string { return fmt.Sprintf("IndexJoinScan(%v)", s.j.next) }

// joinLookup checks a node by scanning its quads with the filter's values
// and looking up each quad's dir in from.
type joinLookup struct {
	joinPart
	from iterator.Index
}

func (c *joinLookup) Contains(ctx context.Context, v refs.Ref) bool {
	node, ok := v.(kv.Int64Value)
	if !ok || c.err != nil {
		c.reset(nil)
		return false
	}
	c.reset(c.j.prefixes(c.j.lookup, c.j.result, uint64(node)))
	return c.advance(ctx)
}

// advance moves to the next live quad under the prefix whose dir is in from.
func (c *joinLookup) advance(ctx context.Context) bool {
	for c.next(ctx) {
		if c.from.Contains(ctx, c.link.dir(c.j.dir)) {
			return true
		}
		if c.err = c.from.Err(); c.err != nil {
			return false
		}
	}
	return false
}

func (c *joinLookup) NextPath(ctx context.Context) bool {
	if !c.found {
		return false
	}
	if c.from.NextPath(ctx) {
		return true
	}
	return c.advance(ctx)
}

func (c *joinLookup) String() string { return fmt.Sprintf("IndexJoinLookup(%v)", c.j.lookup) }
