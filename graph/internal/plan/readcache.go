package plan

import (
	"context"
	"sync/atomic"

	"github.com/cayleygraph/cayley/graph/kv"
	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/quad"
	lru "github.com/hashicorp/golang-lru/v2"
	hkv "github.com/hidal-go/hidalgo/kv"
)

// readCache keeps, for the queries of one state of the embedded store, what
// they read at random from its B-trees: the quads of kv's log by id, node
// ids by value, the quad ids under an index key prefix (when few, as for a
// node's name or a photo's date), and the planner's estimate of a prefix's
// size (up to 256 key reads each). A query reads one of each for
// nearly every step it takes (a node's id to start from, the keys under a
// prefix, each quad they list), at 2 to 6 µs a read on a 10^5-caption
// store, where a hit costs about 0.1 µs.
//
// All go stale when the store is written: a quad is marked dead in the
// log, a key lists new quads, and a node whose last quad is deleted and
// that is written again gets a new id. So every write replaces the cache (readCaches.reset), and
// a query uses the cache that was current when it began. A query that runs
// beside a write may read either state, as it may without the cache: kv
// reads each step in its own transaction.
//
// Node values by id are kept apart, in Store.values, for good: kv
// never gives a node id to another value.
type readCache struct {
	links    *lru.Cache[uint64, link]      // dead or missing quads as link{deleted: true}
	ids      *lru.Cache[string, uint64]    // by quad.Value.String(); 0 when absent
	prefixes *lru.Cache[string, []uint64]  // the quads under an index key prefix, when few
	sizes    *lru.Cache[string, refs.Size] // the planner's size of an index key prefix
}

// The bounds of a readCache: about 30 MB of links, 15 MB of ids, 20 MB of
// prefixes and 1 MB of sizes.
const (
	maxCachedLinks     = 1 << 18
	maxCachedIDs       = 1 << 17
	maxCachedPrefixes  = 1 << 17
	maxCachedPrefixIDs = 16
	maxCachedSizes     = 1 << 14
)

func newReadCache() *readCache {
	links, err := lru.New[uint64, link](maxCachedLinks)
	if err != nil {
		panic(err) // only for a size <= 0
	}
	ids, err := lru.New[string, uint64](maxCachedIDs)
	if err != nil {
		panic(err)
	}
	prefixes, err := lru.New[string, []uint64](maxCachedPrefixes)
	if err != nil {
		panic(err)
	}
	sizes, err := lru.New[string, refs.Size](maxCachedSizes)
	if err != nil {
		panic(err)
	}
	return &readCache{links: links, ids: ids, prefixes: prefixes, sizes: sizes}
}

// readCaches holds the current readCache of a store, shared by queries.
type readCaches struct{ current atomic.Pointer[readCache] }

func newReadCaches() *readCaches {
	c := new(readCaches)
	c.reset()
	return c
}

// reset drops what queries have kept; the store calls it after each write
// is committed.
// ResetCaches drops what queries have cached: a load changed the store.
func (q *Store) ResetCaches() { q.caches.reset() }

func (c *readCaches) reset() { c.current.Store(newReadCache()) }

func (c *readCaches) get() *readCache { return c.current.Load() }

// link reads quad id into l, through the cache when the query has one, and
// reports whether the quad is live.
func (q *Store) link(ctx context.Context, tx hkv.Tx, id uint64, l *link) (bool, error) {
	if q.reads != nil {
		if v, ok := q.reads.links.Get(id); ok {
			*l = v
			return !l.deleted, nil
		}
	}
	ok, err := readLink(ctx, tx, id, l)
	if err != nil {
		return false, err
	}
	if !ok {
		*l = link{deleted: true}
	}
	if q.reads != nil {
		q.reads.links.Add(id, *l)
	}
	return !l.deleted, nil
}

// ValueOf returns the id of node v, or nil when the store does not hold it.
// kv opens a transaction and reads a B-tree for each; Gizmo asks once for
// every node a query names, and the saved queries name hundreds at a time.
func (q *Store) ValueOf(v quad.Value) (refs.Ref, error) {
	if q.reads == nil || v == nil {
		return q.QuadStore.ValueOf(v)
	}
	key := v.String()
	if id, ok := q.reads.ids.Get(key); ok {
		if id == 0 {
			return nil, nil
		}
		return kv.Int64Value(id), nil
	}
	r, err := q.QuadStore.ValueOf(v)
	if err != nil {
		return nil, err
	}
	id, _ := r.(kv.Int64Value)
	q.reads.ids.Add(key, uint64(id))
	if id == 0 {
		return nil, nil
	}
	return id, nil
}

// keepID notes that node id has value v, when the query has a cache: a
// query that names nodes usually starts its next step from them.
func (q *Store) keepID(v quad.Value, id uint64) {
	if q.reads != nil && v != nil {
		q.reads.ids.Add(v.String(), id)
	}
}
