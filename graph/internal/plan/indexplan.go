package plan

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/iterator"
	"github.com/cayleygraph/cayley/graph/kv"
	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/cayley/query/shape"
	"github.com/cayleygraph/quad"
	"github.com/cayleygraph/quad/pquads"
	lru "github.com/hashicorp/golang-lru/v2"
	hkv "github.com/hidal-go/hidalgo/kv"
	"github.com/hidal-go/hidalgo/kv/options"
)

// Store is the quad store that queries run on with the embedded
// store: Cayley's kv quad store, with a better plan for the step at the
// heart of every path, "the quads whose directions D have these values,
// and their direction R" (shape.QuadsAction).
//
// Cayley's kv store reads such quads through an index only when the fixed
// values fill every direction of its key: In(p) from one node, which fixes
// the object and predicate of the "ops" index (object, predicate,
// subject), is instead read as every quad that has the node as object,
// each fetched from the quad log, and filtered by predicate. And to check
// whether a node has such quads (Has, Save, SaveOpt, and And in general)
// it fetches every quad of the node. Both cost a random read of the log
// per quad of the node, not per quad asked for: 13 per photo for one
// SaveOpt, 2.6 per photo for In(schema:mentions) from an armed group.
//
// Store plans both on the index whose key starts with the fixed
// directions (and, to check a node, the node's direction), scanning that
// key prefix and fetching only the quads under it. Quads in an index may
// be dead (kv marks a deleted quad in the log, not in its indexes), so
// each is still fetched from the log and checked, as kv does. A step no
// index serves keeps Cayley's plan. A step from a path is an index join
// (indexjoin.go), and each query reads node values through one
// transaction (forQuery).
type Store struct {
	*kv.QuadStore
	db      hkv.KV
	indexes []kv.QuadIndex                 // the store's, in the order kv keeps them
	values  *lru.Cache[uint64, quad.Value] // node values by id, shared by queries
	caches  *readCaches                    // quads and node ids, shared by queries (readcache.go)
	names   *queryNames                    // set for one query by forQuery
	reads   *readCache                     // set for one query by forQuery
}

// New wraps qs, whose key-value store is db, reading the list
// of indexes kv keeps in its meta bucket.
func New(ctx context.Context, qs *kv.QuadStore, db hkv.KV) (*Store, error) {
	var list []kv.QuadIndex
	err := hkv.View(ctx, db, func(tx hkv.Tx) error {
		v, err := tx.Get(ctx, hkv.Key{[]byte("meta"), []byte("indexes")})
		if errors.Is(err, hkv.ErrNotFound) {
			return nil // a store older than kv's index list: Cayley plans every step
		} else if err != nil {
			return err
		}
		return json.Unmarshal(v, &list)
	})
	if err != nil {
		return nil, fmt.Errorf("read index list: %w", err)
	}
	values, err := lru.New[uint64, quad.Value](maxCachedValues)
	if err != nil {
		return nil, err
	}
	q := &Store{QuadStore: qs, db: db, values: values, caches: newReadCaches()}
	for _, ind := range list {
		if !ind.Unique { // a unique index holds one quad id per key, not a list
			q.indexes = append(q.indexes, ind)
		}
	}
	return q, nil
}

// prefixIndex returns the first index whose key starts with exactly the
// directions dirs, in any order, or nil.
func (q *Store) prefixIndex(dirs []quad.Direction) *kv.QuadIndex {
	for i, ind := range q.indexes {
		if len(dirs) > 0 && len(ind.Dirs) >= len(dirs) && sameDirs(ind.Dirs[:len(dirs)], dirs) {
			return &q.indexes[i]
		}
	}
	return nil
}

func sameDirs(a, b []quad.Direction) bool {
	for _, d := range b {
		if !slices.Contains(a, d) {
			return false
		}
	}
	return len(a) == len(b)
}

func (q *Store) OptimizeShape(ctx context.Context, s shape.Shape) (shape.Shape, bool) {
	switch s := s.(type) {
	case shape.QuadsAction:
		return q.optimizeQuadsAction(ctx, s)
	case shape.NodesFrom:
		if j := q.join(s); j != nil {
			return j, true
		}
	case shape.Unique:
		if d := q.distinct(s); d != nil {
			return d, true
		}
	}
	return q.QuadStore.OptimizeShape(ctx, s)
}

func (q *Store) optimizeQuadsAction(ctx context.Context, qa shape.QuadsAction) (shape.Shape, bool) {
	l := &indexLinks{q: q, qa: qa, filter: make(map[quad.Direction]uint64, len(qa.Filter))}
	var dirs []quad.Direction
	for d, v := range qa.Filter {
		id, ok := v.(kv.Int64Value)
		if !ok {
			return q.QuadStore.OptimizeShape(ctx, qa)
		}
		l.filter[d] = uint64(id)
		dirs = append(dirs, d)
	}
	l.next = q.prefixIndex(dirs)
	if _, fixed := l.filter[qa.Result]; !fixed {
		l.lookup = q.prefixIndex(append(dirs, qa.Result))
	}
	if l.next == nil && l.lookup == nil {
		return q.QuadStore.OptimizeShape(ctx, qa)
	}
	return l, true
}

// indexLinks is a shape.QuadsAction planned on key prefixes of kv's
// indexes: next to list its results, lookup to check one. Either may be
// nil, and then Cayley's plan does that part.
type indexLinks struct {
	q      *Store
	qa     shape.QuadsAction
	filter map[quad.Direction]uint64
	next   *kv.QuadIndex
	lookup *kv.QuadIndex
}

func (l *indexLinks) BuildIterator(cgraph.QuadStore) iterator.Shape {
	return &linksIterator{l: l}
}

func (l *indexLinks) Optimize(context.Context, shape.Optimizer) (shape.Shape, bool) { return l, false }

// appendPrefix appends the index key prefix that holds the quads with the
// filter's values and, unless node is nil, node in the result's direction,
// in prefix form (appendBucket).
func (l *indexLinks) appendPrefix(buf []byte, ind *kv.QuadIndex, node *uint64) []byte {
	n := len(l.filter)
	if node != nil {
		n++
	}
	buf = appendBucket(buf, ind)
	for _, d := range ind.Dirs[:n] {
		v, ok := l.filter[d]
		if !ok {
			v = *node
		}
		buf = binary.BigEndian.AppendUint64(buf, v)
	}
	return buf
}

// An index key prefix is kept in one byte string: the index's bucket
// name, a 0, and the values as kv.QuadIndex.Key writes them (8 bytes each,
// big-endian). It is the form the read cache keys prefixes by, and a scan
// that finds its prefix there builds no hkv.Key and allocates nothing.
func appendBucket(buf []byte, ind *kv.QuadIndex) []byte {
	for _, d := range ind.Dirs {
		buf = append(buf, d.Prefix())
	}
	return append(buf, 0)
}

// indexKey is the hkv.Key of a prefix. Direction prefixes are letters, so
// the first 0 ends the bucket name. The key shares p's bytes.
func indexKey(p []byte) hkv.Key {
	i := bytes.IndexByte(p, 0)
	return hkv.Key{p[:i:i], p[i+1:]}
}

// linksIterator is the iterator an indexLinks builds.
type linksIterator struct {
	l       *indexLinks
	generic iterator.Shape  // Cayley's plan, built when needed
	costs   *iterator.Costs // Stats' answer, once worked out
}

func (it *linksIterator) cayleys() iterator.Shape {
	if it.generic == nil {
		it.generic = it.l.qa.BuildIterator(it.l.q.QuadStore)
	}
	return it.generic
}

func (it *linksIterator) Iterate() iterator.Scanner {
	if it.l.next == nil {
		return it.cayleys().Iterate()
	}
	return &linksScan{l: it.l, prefixes: [][]byte{it.l.appendPrefix(nil, it.l.next, nil)}}
}

func (it *linksIterator) Lookup() iterator.Index {
	if it.l.lookup == nil {
		return it.cayleys().Lookup()
	}
	return &linksLookup{linksScan: linksScan{l: it.l}}
}

func (it *linksIterator) Optimize(context.Context) (iterator.Shape, bool) { return it, false }

func (it *linksIterator) SubIterators() []iterator.Shape { return nil }

func (it *linksIterator) String() string {
	return fmt.Sprintf("IndexLinks(%v, next %v, lookup %v)", it.l.qa.Result, it.l.next, it.l.lookup)
}

// linksScan lists the quads under index key prefixes, in key order, with
// the quad's direction qa.Result as its result.
type linksScan struct {
	l        *indexLinks
	prefixes [][]byte  // to scan after keys, in prefix form (appendBucket)
	one      [1][]byte // the buffer of a lookup's one prefix
	tx       hkv.Tx
	keys     hkv.Iterator
	ids      []uint64 // quads still to read, in buf
	buf      []uint64
	link     link // the current quad, when found
	found    bool
	err      error
	// The prefix being scanned, while its quads may still be few enough
	// for the query's readCache (keeping).
	prefix  string
	keeping bool
}

// reset starts a scan of prefixes, dropping what is left of the last one.
func (s *linksScan) reset(prefixes [][]byte) {
	if s.keys != nil {
		s.err = errors.Join(s.err, s.keys.Close())
		s.keys = nil
	}
	s.prefixes, s.ids, s.found, s.keeping = prefixes, nil, false, false
}

// next moves to the next live quad under the prefixes.
func (s *linksScan) next(ctx context.Context) bool {
	s.found = false
	if s.err != nil {
		return false
	}
	if s.tx == nil {
		if s.tx, s.err = s.l.q.db.Tx(ctx, false); s.err != nil {
			return false
		}
	}
	for {
		for len(s.ids) == 0 {
			if s.keys == nil {
				if len(s.prefixes) == 0 {
					return false
				}
				if s.startPrefix(ctx) {
					continue // read from the cache
				}
			}
			if !s.keys.Next(ctx) {
				if s.err = s.endKeys(); s.err != nil {
					return false
				}
				continue
			}
			if s.buf, s.err = decodeIDs(s.buf[:0], s.keys.Val()); s.err != nil {
				return false
			}
			if s.keeping {
				if s.err = s.readAhead(ctx); s.err != nil {
					return false
				}
			}
			s.ids = s.buf
		}
		id := s.ids[0]
		s.ids = s.ids[1:]
		live, err := s.l.q.link(ctx, s.tx, id, &s.link)
		if err != nil {
			s.err = err
			return false
		}
		if live {
			s.found = true
			return true
		}
	}
}

// startPrefix moves to the next prefix: its quads from the query's
// readCache, reporting true, or a scan of its keys.
func (s *linksScan) startPrefix(ctx context.Context) bool {
	p := s.prefixes[0]
	s.prefixes = s.prefixes[1:]
	s.keeping = false
	if c := s.l.q.reads; c != nil {
		if ids, ok := c.prefixes.Get(lookupKey(p)); ok {
			s.buf = append(s.buf[:0], ids...) // s.buf is overwritten later; the cache's list is not
			s.ids = s.buf
			return true
		}
		s.prefix, s.keeping = string(p), true
		s.buf = s.buf[:0] // no keys is no quads
	}
	s.keys = s.tx.Scan(ctx, options.WithPrefixKV(indexKey(p)))
	return false
}

// readAhead reads the rest of a prefix that is being kept into s.buf, which
// holds its first key's quads, and keeps it once it ends, unless it
// proves too long to keep. Read as it is used, a lookup that stops at its
// first live quad, as Contains does, would never reach the end, and would
// seek the B-tree again at every query.
func (s *linksScan) readAhead(ctx context.Context) error {
	for len(s.buf) <= maxCachedPrefixIDs {
		if !s.keys.Next(ctx) {
			return s.endKeys()
		}
		var err error
		if s.buf, err = decodeIDs(s.buf, s.keys.Val()); err != nil {
			return err
		}
	}
	s.keeping = false // too many: read the rest as it is used
	return nil
}

// endKeys closes the scan of a prefix that has no more keys, keeping its
// quads, all in s.buf, if it is being kept.
func (s *linksScan) endKeys() error {
	err := errors.Join(s.keys.Err(), s.keys.Close())
	s.keys = nil
	if err == nil && s.keeping {
		s.l.q.reads.prefixes.Add(s.prefix, slices.Clone(s.buf))
	}
	s.keeping = false
	return err
}

func (s *linksScan) Next(ctx context.Context) bool { return s.next(ctx) }

// NextPath is false: each quad is its own result, as in Cayley's HasA.
func (s *linksScan) NextPath(context.Context) bool { return false }

func (s *linksScan) Result() refs.Ref {
	if !s.found {
		return nil
	}
	return s.link.dir(s.l.qa.Result)
}

func (s *linksScan) TagResults(dst map[string]refs.Ref) {
	if !s.found {
		return
	}
	for d, tags := range s.l.qa.Save {
		v := s.link.dir(d)
		for _, t := range tags {
			dst[t] = v
		}
	}
}

func (s *linksScan) Err() error { return s.err }

func (s *linksScan) Close() error {
	s.reset(nil)
	err := s.err
	if s.tx != nil {
		err = errors.Join(err, s.tx.Close())
		s.tx = nil
	}
	return err
}

func (s *linksScan) String() string { return fmt.Sprintf("IndexLinksScan(%v)", s.l.next) }

// linksLookup checks a node by scanning the prefix of its quads: the
// filter's values and the node in the result's direction. NextPath moves
// to the node's next quad, as Cayley's HasA does.
type linksLookup struct{ linksScan }

func (c *linksLookup) Contains(ctx context.Context, v refs.Ref) bool {
	node, ok := v.(kv.Int64Value)
	if !ok || c.err != nil {
		c.reset(nil)
		return false
	}
	id := uint64(node)
	c.one[0] = c.l.appendPrefix(c.one[0][:0], c.l.lookup, &id)
	c.reset(c.one[:])
	return c.next(ctx)
}

func (c *linksLookup) NextPath(ctx context.Context) bool { return c.next(ctx) }

func (c *linksLookup) String() string { return fmt.Sprintf("IndexLinksLookup(%v)", c.l.lookup) }

// ForQuery returns q for one query, which reads node values (NameOf)
// through names, and quads and node ids through the store's current
// readCache; EndQuery ends it.
func (q *Store) ForQuery() *Store {
	c := *q
	c.reads = q.caches.get()
	c.names = &queryNames{db: q.db, values: q.values, keep: c.keepID}
	return &c
}

func (q *Store) EndQuery() error { return q.names.close() }

// NameOf returns a node's value. Gizmo asks it for every tag of every
// result; kv opens a read transaction and decodes the value for each. In
// a query (forQuery), values are read through one transaction and kept
// for later queries: kv never gives a node id to another value, so a
// kept value cannot go stale.
func (q *Store) NameOf(v refs.Ref) (quad.Value, error) {
	id, ok := v.(kv.Int64Value)
	if q.names == nil || !ok || id == 0 {
		return q.QuadStore.NameOf(v)
	}
	if qv, ok := q.names.value(uint64(id)); ok {
		return qv, nil
	}
	return q.QuadStore.NameOf(v)
}

// maxCachedValues bounds the node values queries keep: about 20 MB.
const maxCachedValues = 1 << 17

// queryNames reads node values for one query, keeping them in values.
// Gizmo calls NameOf from its own goroutine while the query's caller may
// end it, hence the lock.
type queryNames struct {
	mu     sync.Mutex
	db     hkv.KV
	tx     hkv.Tx
	closed bool
	values *lru.Cache[uint64, quad.Value]
	keep   func(quad.Value, uint64) // told each value read from the store
}

// value returns node id's value, kept or read through this query's
// transaction, and false when neither gives it: a value not kept after
// the query ended, an error, or a node written since the transaction
// began. kv then reads it afresh.
func (n *queryNames) value(id uint64) (quad.Value, bool) {
	if v, ok := n.values.Get(id); ok {
		return v, true
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return nil, false
	}
	ctx := context.Background()
	if n.tx == nil {
		tx, err := n.db.Tx(ctx, false)
		if err != nil {
			return nil, false
		}
		n.tx = tx
	}
	p, err := readPrimitive(ctx, n.tx, id)
	if err != nil || p == nil || !p.IsNode() {
		return nil, false
	}
	v, err := pquads.UnmarshalValue(p.Value)
	if err != nil {
		return nil, false
	}
	n.values.Add(id, v)
	n.keep(v, id)
	return v, true
}

func (n *queryNames) close() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.closed = true
	if n.tx == nil {
		return nil
	}
	err := n.tx.Close()
	n.tx = nil
	return err
}
