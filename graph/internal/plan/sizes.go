package plan

import (
	"context"
	"encoding/binary"
	"unsafe"

	"github.com/cayleygraph/cayley/graph/iterator"
	"github.com/cayleygraph/cayley/graph/refs"
	hkv "github.com/hidal-go/hidalgo/kv"
	"github.com/hidal-go/hidalgo/kv/options"

	"github.com/capgraph/capgraph/graph/internal/boltkv"
)

// sizeScanKeys bounds the index keys Stats reads to size a prefix.
const sizeScanKeys = 256

// Stats works its answer out once: Cayley asks each iterator of a nested
// plan again at every level it optimizes, and a prefix's size costs up to
// sizeScanKeys key reads. A path that tagged a step after Has spent more
// time there than in reading its 124 results.
func (it *linksIterator) Stats(ctx context.Context) (iterator.Costs, error) {
	if it.costs != nil {
		return *it.costs, nil
	}
	c, err := it.stats(ctx)
	if err == nil {
		it.costs = &c
	}
	return c, err
}

func (it *linksIterator) stats(ctx context.Context) (iterator.Costs, error) {
	var c iterator.Costs
	if it.l.next == nil || it.l.lookup == nil {
		var err error
		if c, err = it.cayleys().Stats(ctx); err != nil {
			return c, err
		}
	}
	if it.l.lookup != nil {
		c.ContainsCost = 2 // a key seek and a log read, as kv's NextCost
	}
	if it.l.next != nil {
		c.NextCost = 2
		size, err := it.l.q.keptPrefixSize(ctx, it.l.appendPrefix(nil, it.l.next, nil))
		if err != nil {
			return c, err
		}
		c.Size = size
	}
	return c, nil
}

// lookupKey is p's bytes as a string, without a copy, to look a prefix up
// in the read cache: Get keeps no key. Add needs string(p).
func lookupKey(p []byte) string { return unsafe.String(unsafe.SliceData(p), len(p)) }

// keptPrefixSize is prefixSize of p, in prefix form, kept in the query's
// readCache: the planner asks for the same sizes at every query.
func (q *Store) keptPrefixSize(ctx context.Context, p []byte) (refs.Size, error) {
	if q.reads != nil {
		if size, ok := q.reads.sizes.Get(lookupKey(p)); ok {
			return size, nil
		}
	}
	size, err := q.prefixSize(ctx, indexKey(p))
	if err == nil && q.reads != nil {
		q.reads.sizes.Add(string(p), size)
	}
	return size, err
}

// prefixSize counts the quad ids under an index key prefix, reading at
// most sizeScanKeys keys. Past that it estimates the keys from their ids:
// the next direction's id in the first key, the last read and the last
// under the prefix, as ids are given in order of writing. An
// underestimate is what costs: Cayley's And walks the side it thinks
// smaller and checks the other, and a photo type prefix called a
// thousand at 10^6 captions had it walk a million photos to check a few
// thousand. The size is never exact: an index lists dead quads too (kv
// marks them in its log), and Cayley answers Count() with an exact size
// without iterating.
func (q *Store) prefixSize(ctx context.Context, prefix hkv.Key) (refs.Size, error) {
	var size refs.Size
	err := hkv.View(ctx, q.db, func(tx hkv.Tx) error {
		kit := tx.Scan(ctx, options.WithPrefixKV(prefix))
		defer kit.Close()
		var ids []uint64
		var first, last []byte
		for keys := 1; kit.Next(ctx); keys++ {
			k := kit.Key()
			if first == nil {
				first = k[len(k)-1]
			}
			last = k[len(k)-1]
			var err error
			if ids, err = decodeIDs(ids[:0], kit.Val()); err != nil {
				return err
			}
			size.Value += int64(len(ids))
			if keys == sizeScanKeys {
				size.Value = estimateSize(size.Value, keys, first, last, lastKey(tx, prefix), len(prefix[len(prefix)-1]))
				return kit.Err()
			}
		}
		return kit.Err()
	})
	return size, err
}

// lastKey returns the greatest key under prefix, or nil.
func lastKey(tx hkv.Tx, prefix hkv.Key) []byte {
	if t, ok := tx.(*boltkv.Tx); ok {
		return t.Last(prefix)
	}
	return nil
}

// estimateSize scales ids, counted in the first n keys (first to last)
// under a prefix that is at bytes long, to every key up to end: by the id
// that follows the prefix, assuming the keys' ids are as dense past the
// first n as within them. Without such an id it guesses 4x.
func estimateSize(ids int64, n int, first, last, end []byte, at int) int64 {
	if len(first) < at+8 || len(last) < at+8 || len(end) < at+8 {
		return 4 * ids
	}
	a := binary.BigEndian.Uint64(first[at:])
	b := binary.BigEndian.Uint64(last[at:])
	z := binary.BigEndian.Uint64(end[at:])
	if b <= a || z < b {
		return 4 * ids
	}
	keys := float64(n-1)*float64(z-a)/float64(b-a) + 1
	return int64(float64(ids) * keys / float64(n))
}
