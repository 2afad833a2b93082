package boltkv

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"

	hkv "github.com/hidal-go/hidalgo/kv"
	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// KV is the key-value layer under Cayley's kv quad store, on bbolt. It
// replaces hidalgo's bbolt adapter for two reasons that cost load time:
//
//   - The adapter looks up (and on writes, creates) the top-level bucket
//     for every key; a Tx keeps the buckets it has opened.
//   - Cayley spreads its value-to-id and reference-count maps over 2 x
//     65,536 buckets named 'v' or 'n' followed by the first two bytes of
//     the value's hash. In a flat store those live in two buckets, "v" and
//     "n", with the two bytes moved to the front of the key: one B-tree of
//     full pages each instead of 65,536 small ones, and no bucket headers
//     to rewrite in every commit.
//
// Keys keep their meaning: fold maps a Cayley key to where it is stored,
// unfold maps it back, and the mapping is one-to-one. Stores written
// before the flat layout (with v<h0><h1> buckets) are opened unflattened.
type KV struct {
	db   atomic.Pointer[bolt.DB] // swapped once by a bulk load (package bulk)
	flat bool

	// open counts the transactions begun and not yet ended, so that Close
	// can wait for them: bbolt's own Close takes the lock that ending a
	// read transaction needs, then waits for the transaction to end. A
	// query stopped by Ctrl-C ends its transaction on a goroutine of
	// Cayley's, after the command has begun closing the store, and the two
	// waited for each other for good.
	mu    sync.Mutex
	ended sync.Cond // signalled when open falls to 0
	open  int

	damaged atomic.Pointer[error] // the first ErrDamaged a read met
}

// New returns the key-value layer over db, flat unless db already
// holds Cayley's per-hash buckets.
func New(db *bolt.DB) (*KV, error) {
	kv := &KV{flat: true}
	kv.db.Store(db)
	err := db.View(func(tx *bolt.Tx) error {
		c := tx.Cursor()
		for _, p := range []byte{'n', 'v'} {
			if k, _ := c.Seek([]byte{p}); len(k) == 3 && k[0] == p {
				kv.flat = false
			}
		}
		return nil
	})
	return kv, err
}

// Flat reports whether kv stores Cayley's per-hash buckets flattened, the
// layout that a bulk load writes.
func (kv *KV) Flat() bool { return kv.flat }

// Close waits for the transactions still open to end, then closes the
// database.
func (kv *KV) Close() error {
	kv.mu.Lock()
	kv.ended.L = &kv.mu
	for kv.open > 0 {
		kv.ended.Wait()
	}
	kv.mu.Unlock()
	return kv.db.Load().Close()
}

// Swap makes db the database under kv and returns the one it replaces;
// both must have kv's layout. Transactions begun before go on in the old
// one.
func (kv *KV) Swap(db *bolt.DB) *bolt.DB { return kv.db.Swap(db) }

func (kv *KV) Tx(ctx context.Context, rw bool) (hkv.Tx, error) {
	tx, err := kv.db.Load().Begin(rw)
	if err != nil {
		return nil, err
	}
	kv.mu.Lock()
	kv.open++
	kv.mu.Unlock()
	return &Tx{tx: tx, flat: kv.flat, kv: kv}, nil
}

// end counts a transaction of kv's as ended, once.
func (t *Tx) end() {
	if t.kv == nil {
		return
	}
	kv := t.kv
	t.kv = nil
	kv.mu.Lock()
	if kv.open--; kv.open == 0 {
		kv.ended.Broadcast()
	}
	kv.mu.Unlock()
}

func (kv *KV) View(ctx context.Context, fn func(hkv.Tx) error) error {
	return hkv.View(ctx, kv, fn)
}

// Horizon reads the last id Cayley gave a node or quad: "horizon" in its
// meta bucket, 0 in a store without one. Cayley's all-quads iterator reads
// it too but drops the error, and an unreadable meta page then looks like
// an empty log: a reader that walks the log checks here first.
func (kv *KV) Horizon(ctx context.Context) (uint64, error) {
	var h uint64
	err := kv.View(ctx, func(tx hkv.Tx) error {
		v, err := tx.Get(ctx, hkv.Key{[]byte("meta"), []byte("horizon")})
		switch {
		case errors.Is(err, hkv.ErrNotFound):
			return nil
		case err != nil:
			return err
		case len(v) != 8:
			return fmt.Errorf("%w: horizon is %d bytes, not 8", ErrDamaged, len(v))
		}
		h = binary.LittleEndian.Uint64(v)
		return nil
	})
	return h, err
}

func (kv *KV) Update(ctx context.Context, fn func(hkv.Tx) error) error {
	return hkv.Update(ctx, kv, fn)
}

// hashed reports whether p names one of Cayley's per-hash buckets.
func hashed(p []byte) bool { return len(p) == 3 && (p[0] == 'v' || p[0] == 'n') }

// fold returns where key k is stored in a flat store.
func fold(k hkv.Key) hkv.Key {
	if len(k) == 0 || !hashed(k[0]) {
		return k
	}
	out := make(hkv.Key, 0, max(len(k), 2))
	out = append(out, k[0][:1:1])
	var first []byte
	if len(k) > 1 {
		first = k[1]
	}
	out = append(out, append(append(make([]byte, 0, 2+len(first)), k[0][1:3]...), first...))
	if len(k) > 2 {
		out = append(out, k[2:]...)
	}
	return out
}

// unfold is the inverse of fold.
func unfold(k hkv.Key) hkv.Key {
	if len(k) < 2 || len(k[0]) != 1 || (k[0][0] != 'v' && k[0][0] != 'n') || len(k[1]) < 2 {
		return k
	}
	out := hkv.Key{{k[0][0], k[1][0], k[1][1]}, k[1][2:]}
	return append(out, k[2:]...)
}

// FillPercent is how full bbolt packs the pages of a bucket it splits,
// for Cayley's buckets whose keys mostly arrive in order: quad and node
// ids in "log", subject-then-predicate ids in "sp" (new subjects get new,
// higher ids). At bbolt's default of one half, appending leaves every page
// half empty; packed, those buckets take half the pages to store and to
// write. "ops" and the hash-keyed maps take keys all over and keep the
// default.
var FillPercent = map[string]float64{"log": 1.0, "sp": 0.9}

// A Tx is one bbolt transaction.
type Tx struct {
	tx   *bolt.Tx
	flat bool
	top  map[string]*bolt.Bucket // top-level buckets opened so far
	kv   *KV                     // that counts it open; nil once it ended
}

func (t *Tx) key(k hkv.Key) hkv.Key {
	if t.flat {
		return fold(k)
	}
	return k
}

func (t *Tx) root() *bolt.Bucket { return t.tx.Cursor().Bucket() }

// bucket returns the bucket that holds the last part of k, creating the
// buckets on its path when create is set, or nil when one is missing.
func (t *Tx) bucket(k hkv.Key, create bool) (*bolt.Bucket, error) {
	if len(k) <= 1 {
		return t.root(), nil
	}
	b := t.top[string(k[0])]
	if b == nil {
		var err error
		if create {
			b, err = t.tx.CreateBucketIfNotExists(k[0])
		} else {
			b = t.tx.Bucket(k[0])
		}
		if b == nil {
			return nil, writeErr(err)
		}
		if f, ok := FillPercent[string(k[0])]; ok {
			b.FillPercent = f
		}
		if t.top == nil {
			t.top = make(map[string]*bolt.Bucket)
		}
		t.top[string(k[0])] = b
	}
	for _, p := range k[1 : len(k)-1] {
		var err error
		next := b
		if create {
			next, err = b.CreateBucketIfNotExists(p)
		} else {
			next = b.Bucket(p)
		}
		if next == nil {
			return nil, writeErr(err)
		}
		b = next
	}
	return b, nil
}

func writeErr(err error) error {
	if errors.Is(err, bolterrors.ErrTxNotWritable) {
		return hkv.ErrReadOnly
	}
	return err
}

// PageFault turns a panic into ErrDamaged, remembers it as kv's damage,
// and restores the goroutine's fault setting that [Guard] changed. Defer
// it directly, as
//
//	defer kv.PageFault(&err, Guard())
//
// since recover works only there; kv may be nil. bbolt panics on a page it
// cannot read ("unknown page type", a page past the high-water mark),
// which a sound file never has; a file that shrank under its map faults
// (SIGBUS), which Guard turns into a panic. Cayley calls the kv layer from
// goroutines of its own (Gizmo's), where either would end the process, so
// every read here returns them as errors; Stats and Export catch what
// reaches them by other ways.
func (kv *KV) PageFault(err *error, restore bool) {
	debug.SetPanicOnFault(restore)
	v := recover()
	if v == nil {
		return
	}
	if f, ok := v.(interface{ Addr() uintptr }); ok && f.Addr() >= 1<<16 {
		v = fmt.Sprintf("reading a mapped page at %#x faulted: was the file cut or replaced while open?", f.Addr())
	}
	damage := fmt.Errorf("%w: %v", ErrDamaged, v)
	*err = damage
	if kv != nil {
		kv.damaged.CompareAndSwap(nil, &damage)
	}
}

// Guard makes a fault on a mapped page panic on this goroutine rather
// than end the process, until the deferred [KV.PageFault] it is passed to.
func Guard() (restore bool) { return debug.SetPanicOnFault(true) }

// Damaged returns the first ErrDamaged that a read of kv met, or nil.
// Cayley drops some errors of the reads under it (a count it cannot read
// is 0, a node it cannot read is none), so a caller that must not answer
// from part of the store asks here when it has done.
func (kv *KV) Damaged() error {
	if kv == nil {
		return nil
	}
	if p := kv.damaged.Load(); p != nil {
		return *p
	}
	return nil
}

func (t *Tx) Get(ctx context.Context, k hkv.Key) (_ hkv.Value, err error) {
	defer t.kv.PageFault(&err, Guard())
	k = t.key(k)
	b, err := t.bucket(k, false)
	if err != nil {
		return nil, err
	}
	if b == nil || len(k) == 0 {
		return nil, hkv.ErrNotFound
	}
	v := b.Get(k[len(k)-1])
	if v == nil {
		return nil, hkv.ErrNotFound
	}
	return v, nil
}

// Last returns the greatest key that starts with prefix, as stored
// (the last part of the key), or nil if there is none.
func (t *Tx) Last(prefix hkv.Key) (last []byte) {
	var err error
	defer func() {
		if err != nil {
			last = nil
		}
	}()
	defer t.kv.PageFault(&err, Guard())
	prefix = t.key(prefix)
	b, err := t.bucket(prefix, false)
	if err != nil || b == nil || len(prefix) == 0 {
		return nil
	}
	p := prefix[len(prefix)-1]
	c := b.Cursor()
	// Seek past every key with the prefix: to the prefix plus one, its
	// last byte below 0xff increased and what follows cut.
	var k []byte
	if end := prefixEnd(p); end == nil {
		k, _ = c.Last()
	} else if k, _ = c.Seek(end); k == nil {
		k, _ = c.Last()
	} else {
		k, _ = c.Prev()
	}
	if !bytes.HasPrefix(k, p) {
		return nil
	}
	return k
}

// prefixEnd returns the least key greater than every key starting with
// p, or nil if there is none (p is empty or all 0xff).
func prefixEnd(p []byte) []byte {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] < 0xff {
			end := bytes.Clone(p[:i+1])
			end[i]++
			return end
		}
	}
	return nil
}

func (t *Tx) GetBatch(ctx context.Context, keys []hkv.Key) ([]hkv.Value, error) {
	vals := make([]hkv.Value, len(keys))
	for i, k := range keys {
		v, err := t.Get(ctx, k)
		if err != nil && !errors.Is(err, hkv.ErrNotFound) {
			return nil, err
		}
		vals[i] = v
	}
	return vals, nil
}

// Put writes v at k. A key whose last part is empty, with no value, only
// creates the bucket it names, as hkv.CreateBucket asks.
func (t *Tx) Put(ctx context.Context, k hkv.Key, v hkv.Value) error {
	if len(k) == 0 {
		return errors.New("graph: empty key")
	}
	if len(k[len(k)-1]) == 0 && len(v) == 0 {
		k = t.key(k[:len(k)-1])
		if t.flat && len(k) == 2 && len(k[1]) == 2 && (k[0][0] == 'v' || k[0][0] == 'n') {
			k = k[:1] // a per-hash bucket is part of the flat one
		}
		_, err := t.bucket(append(k, nil), true)
		return err
	}
	k = t.key(k)
	b, err := t.bucket(k, true)
	if err != nil {
		return err
	}
	return writeErr(b.Put(k[len(k)-1], v))
}

func (t *Tx) Del(ctx context.Context, k hkv.Key) error {
	k = t.key(k)
	b, err := t.bucket(k, false)
	if err != nil || b == nil || len(k) == 0 {
		return err
	}
	return writeErr(b.Delete(k[len(k)-1]))
}

func (t *Tx) Commit(ctx context.Context) error {
	defer t.end()
	return t.tx.Commit()
}

// Close rolls back the transaction; after Commit it does nothing.
func (t *Tx) Close() error {
	defer t.end()
	if err := t.tx.Rollback(); err != nil && !errors.Is(err, bolterrors.ErrTxClosed) {
		return err
	}
	return nil
}

func (t *Tx) Scan(ctx context.Context, opts ...hkv.IteratorOption) hkv.Iterator {
	it := &prefixIter{tx: t}
	it.WithPrefix(nil)
	return hkv.ApplyIteratorOptions(it, opts)
}

// A prefixIter walks the keys under a prefix in order, depth first through
// nested buckets.
type prefixIter struct {
	tx    *Tx
	base  *bolt.Bucket // the deepest bucket the prefix names, nil if none
	path  hkv.Key      // the stored key of base
	first []byte       // what keys directly in base must start with
	stack []iterLevel
	k, v  []byte
	done  bool
	err   error // ErrDamaged after a page bbolt could not read
}

type iterLevel struct {
	b    *bolt.Bucket
	c    *bolt.Cursor
	name []byte // the key of b in its parent; nil for base
}

var _ hkv.PrefixIterator = (*prefixIter)(nil)

// WithPrefix restricts the iterator to keys starting with pref.
func (it *prefixIter) WithPrefix(pref hkv.Key) hkv.Iterator {
	it.seek(pref)
	return it // apart from seek: a recovered panic would return nil
}

func (it *prefixIter) seek(pref hkv.Key) {
	defer func() {
		if it.err != nil {
			it.base, it.done = nil, true
		}
	}()
	defer it.tx.kv.PageFault(&it.err, Guard())
	pref = it.tx.key(pref)
	it.base, it.path, it.first = nil, nil, nil
	if len(pref) == 0 {
		it.base = it.tx.root()
	} else if b, err := it.tx.bucket(pref, false); err == nil && b != nil {
		it.base, it.path, it.first = b, pref[:len(pref)-1], pref[len(pref)-1]
	}
	it.Reset()
}

func (it *prefixIter) Reset() {
	if it.err != nil {
		return // a damaged page stays damaged
	}
	it.stack = it.stack[:0]
	it.k, it.v, it.done = nil, nil, it.base == nil
	if it.base != nil {
		it.stack = append(it.stack, iterLevel{b: it.base})
	}
}

func (it *prefixIter) Next(ctx context.Context) (ok bool) {
	defer func() {
		if it.err != nil {
			it.done, it.k, it.v, ok = true, nil, nil, false
		}
	}()
	defer it.tx.kv.PageFault(&it.err, Guard())
	for !it.done && len(it.stack) > 0 {
		top := &it.stack[len(it.stack)-1]
		var k, v []byte
		switch {
		case top.c != nil:
			k, v = top.c.Next()
		case len(it.stack) == 1 && len(it.first) > 0:
			top.c = top.b.Cursor()
			k, v = top.c.Seek(it.first)
		default:
			top.c = top.b.Cursor()
			k, v = top.c.First()
		}
		if k == nil || (len(it.stack) == 1 && !bytes.HasPrefix(k, it.first)) {
			it.stack = it.stack[:len(it.stack)-1]
			continue
		}
		if v == nil {
			if sub := top.b.Bucket(k); sub != nil {
				it.stack = append(it.stack, iterLevel{b: sub, name: k})
				continue
			}
		}
		it.k, it.v = k, v
		return true
	}
	it.done = true
	it.k, it.v = nil, nil
	return false
}

func (it *prefixIter) Key() hkv.Key {
	if it.k == nil {
		return nil
	}
	k := it.path.Clone()
	for _, l := range it.stack[1:] {
		k = append(k, bytes.Clone(l.name))
	}
	k = append(k, bytes.Clone(it.k))
	if it.tx.flat {
		return unfold(k)
	}
	return k
}

func (it *prefixIter) Val() hkv.Value { return it.v }
func (it *prefixIter) Err() error     { return it.err }

func (it *prefixIter) Close() error {
	it.stack, it.k, it.v, it.done = nil, nil, nil, true
	return nil
}
