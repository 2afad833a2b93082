package bulk

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/quad"
	"github.com/cayleygraph/quad/pquads"
	bolt "go.etcd.io/bbolt"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/capgraph/capgraph/graph/internal/boltkv"
)

// A Loader writes the first load of an empty embedded store straight in
// the layout of Cayley's kv quad store, as package boltkv folds it, where
// Cayley's writer would look up, and rewrite, B-tree pages all over the
// file for every batch. On an empty store nothing needs looking up: every value is
// new the first time it is seen, so the bulk load
//
//   - gives each value and quad the next id, as Cayley's horizon does, and
//     appends its primitive to the "log" bucket, whose keys are ids and so
//     arrive in order;
//   - keeps the ids of the values that more than one caption may name in
//     memory (entities, literals, vocabulary), and forgets a caption's own
//     nodes (its graph, photo, mentions and statements) once the caption
//     is written;
//   - sorts the entries of the other buckets (the two quad indexes, the
//     value-to-id and reference-count maps) in runs on disk, and writes
//     each bucket once, in key order, in full pages.
//
// It writes a new database file beside the store's and renames it over the
// empty one when done, so a build killed half way leaves the store as it
// was: empty. The store's lock is held throughout.
type Loader struct {
	path    string   // the new database, renamed over the store's by commit
	runs    string   // directory of sorted runs
	db      *bolt.DB // the new database
	horizon uint64   // last id given, as Cayley's "horizon"
	size    int64    // quads written, as Cayley's "size"
	stamp   int64    // the timestamp of the caption's primitives

	shared  map[refs.ValueHash]sharedNode // values any caption may name
	caption map[quad.Value]int            // the caption's values, into nodes
	nodes   []captionNode
	own     ownNodes
	graphs  map[uint64]struct{} // caption graphs written, by hash of their IRI

	// The work is split in two goroutines: the caller's gives ids and
	// encodes what to write into chunks; a writer appends them to the log
	// and sorts the index entries.
	chunk   *bulkChunk
	chunks  chan *bulkChunk
	written chan error // the writer's result, once chunks is closed
	commits int        // transactions committed, by one writer at a time
	sorters [numSorters]*runSorter
}

// The sorted buckets, in the order of bulkChunk.records.
const (
	sortSP     = iota // quad index by subject, predicate
	sortOPS           // quad index by object, predicate, subject
	sortIDs           // value hash to node id
	sortCounts        // value hash to reference count
	numSorters
)

// A bulkChunk is what the caller's goroutine hands the writer: log entries
// (an 8-byte id then the primitive, in id order) and sorter records.
type bulkChunk struct {
	log     []byte
	ends    []int // end of each log entry in log
	records [numSorters][]record
}

// chunkEntries is how many log entries make a chunk.
const chunkEntries = 4096

// sharedNode is a value that other captions may name again.
type sharedNode struct {
	id   uint64
	refs uint32 // quads that name it, in any direction
}

type captionNode struct {
	hash refs.ValueHash
	id   uint64
	refs uint64
	own  bool // the caption's own node: no other caption names it
}

// ownNodes tells a caption's own nodes: its graph, its photo, and the
// nodes under its graph's IRI (mentions #m0.., statements #r0.., roles).
// docs/model.md makes them the caption's alone.
type ownNodes struct {
	graph, photo quad.IRI
	prefix       string
}

func (o ownNodes) has(v quad.Value) bool {
	iri, ok := v.(quad.IRI)
	return ok && (iri == o.graph || iri == o.photo || strings.HasPrefix(string(iri), o.prefix))
}

// Records is how many records each of the four sorters keeps in memory
// (32 bytes each) before it writes a run: 2^19 make 16 MiB a sorter, and a
// million captions about 160 runs an index. The sorters' memory is fixed;
// what grows with the load is the map of shared values, about 210 bytes a
// caption.
var Records = 1 << 19

// putsPerTx is how many keys one transaction appends to a bucket. bbolt
// holds them in one growing node until the commit splits it into pages, and
// searches that node on every put: 2^13 puts 2^21 sorted keys 10-20 %
// faster than 2^16 or 2^18 in a benchmark of bbolt alone.
const putsPerTx = 1 << 13

// bulkMmapSize is the address space a bulk load maps for its database: 64
// GiB, about a 4 x 10^6-caption store. Only the pages touched count
// towards the resident set.
const bulkMmapSize = 1 << 36

// Files a bulk load leaves behind when it is killed; the next load of the
// store removes them.
const (
	File         = boltkv.File + ".bulk"
	RunDirPrefix = "bulk-runs-"
)

// New starts a bulk load of the store in dir, removing what an
// earlier, killed one left there.
func New(dir string) (*Loader, error) {
	removeBulkLeftovers(dir)
	runs, err := os.MkdirTemp(dir, RunDirPrefix)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, File)
	// The map is sized for the whole file up front: bbolt remaps whenever
	// the file outgrows it, and on each remap copies every key and value
	// of the open transaction out of the old map.
	db, err := bolt.Open(path, 0o644, &bolt.Options{NoSync: true, NoGrowSync: true, NoFreelistSync: true, InitialMmapSize: bulkMmapSize})
	if err != nil {
		os.RemoveAll(runs)
		return nil, err
	}
	b := &Loader{
		path: path, runs: runs, db: db,
		shared:  make(map[refs.ValueHash]sharedNode),
		caption: make(map[quad.Value]int),
		graphs:  make(map[uint64]struct{}),
		chunk:   new(bulkChunk),
		chunks:  make(chan *bulkChunk, 4),
		written: make(chan error, 1),
	}
	for i := range b.sorters {
		b.sorters[i] = newRunSorter(runs, Records)
	}
	go func(chunks <-chan *bulkChunk) { b.written <- b.write(chunks) }(b.chunks)
	return b, nil
}

func removeBulkLeftovers(dir string) {
	os.Remove(filepath.Join(dir, File))
	old, _ := filepath.Glob(filepath.Join(dir, RunDirPrefix+"*"))
	for _, d := range old {
		os.RemoveAll(d)
	}
}

// write is the writer's goroutine: it appends the chunks' log entries to
// the log, in transactions of putsPerTx, and adds their records to the
// sorters. After an error it drains chunks without writing.
func (b *Loader) write(chunks <-chan *bulkChunk) error {
	var (
		tx  *bolt.Tx
		log *bolt.Bucket
		err error
		n   int
	)
	for c := range chunks {
		if err != nil {
			continue
		}
		start := 0
		for _, end := range c.ends {
			if tx == nil {
				if tx, err = b.db.Begin(true); err != nil {
					break
				}
				if log, err = tx.CreateBucketIfNotExists([]byte("log")); err != nil {
					break
				}
				log.FillPercent = 1
			}
			// bbolt keeps the key and value until the commit; chunks are
			// never reused.
			if err = log.Put(c.log[start:start+8], c.log[start+8:end]); err != nil {
				break
			}
			start = end
			if n++; n%putsPerTx == 0 {
				err, tx = tx.Commit(), nil
				if err != nil {
					break
				}
				b.committed()
			}
		}
		for i, rs := range c.records {
			for _, r := range rs {
				if err == nil {
					err = b.sorters[i].add(r)
				}
			}
		}
	}
	if tx != nil {
		if err != nil {
			tx.Rollback()
		} else {
			err = tx.Commit()
		}
	}
	return err
}

// send hands the current chunk to the writer, if it holds anything.
func (b *Loader) send() {
	if len(b.chunk.ends) == 0 && len(b.chunk.records[sortIDs]) == 0 {
		return
	}
	b.chunks <- b.chunk
	b.chunk = new(bulkChunk)
}

// has reports whether the caption with graph g may be in the load
// already. It keeps 64 bits of a hash of each graph's IRI, not the IRI: a
// million captions take 30 MB instead of 150. A false positive (about one
// in 10^7 loads of 10^6 captions) only ends the bulk load early; Load goes
// on through Cayley.
func (b *Loader) Has(g quad.IRI) bool {
	_, ok := b.graphs[graphKey(g)]
	return ok
}

func graphKey(g quad.IRI) uint64 {
	h := fnv.New64a()
	h.Write([]byte(g))
	return h.Sum64()
}

// add writes one caption: own are the quads of its graph g, desc the
// entity descriptions not written before.
func (b *Loader) Add(g, photo quad.IRI, own, desc []quad.Quad) error {
	b.graphs[graphKey(g)] = struct{}{}
	b.own = ownNodes{graph: g, photo: photo, prefix: string(g) + "#"}
	b.stamp = time.Now().UnixNano()
	clear(b.caption)
	b.nodes = b.nodes[:0]
	for _, qs := range [2][]quad.Quad{own, desc} {
		for _, q := range qs {
			if err := b.quad(q); err != nil {
				return err
			}
		}
	}
	for _, n := range b.nodes {
		if !n.own {
			s := b.shared[n.hash]
			if uint64(s.refs)+n.refs > math.MaxUint32 {
				return fmt.Errorf("value %x named by more than 2^32 quads", n.hash)
			}
			s.refs += uint32(n.refs)
			b.shared[n.hash] = s
			continue
		}
		b.valueMaps(n.hash, n.id, n.refs)
	}
	if len(b.chunk.ends) >= chunkEntries {
		b.send()
	}
	return nil
}

// valueMaps records a node's entries in the value maps.
func (b *Loader) valueMaps(h refs.ValueHash, id, refs uint64) {
	var r record
	copy(r.key[:], h[:])
	r.val = id
	b.chunk.records[sortIDs] = append(b.chunk.records[sortIDs], r)
	r.val = refs
	b.chunk.records[sortCounts] = append(b.chunk.records[sortCounts], r)
}

func (b *Loader) quad(q quad.Quad) error {
	var dir [4]uint64 // subject, predicate, object, label
	for i, v := range [4]quad.Value{q.Subject, q.Predicate, q.Object, q.Label} {
		if v == nil {
			continue
		}
		id, err := b.node(v)
		if err != nil {
			return err
		}
		dir[i] = id
	}
	b.horizon++
	id := b.horizon
	p := b.beginEntry(id)
	for i, d := range dir {
		if d != 0 {
			p = protowire.AppendTag(p, protowire.Number(2+i), protowire.VarintType)
			p = protowire.AppendVarint(p, d)
		}
	}
	b.endEntry(b.appendStamp(p))
	b.size++
	var r record
	binary.BigEndian.PutUint64(r.key[0:], dir[0])
	binary.BigEndian.PutUint64(r.key[8:], dir[1])
	r.val = id
	b.chunk.records[sortSP] = append(b.chunk.records[sortSP], r)
	binary.BigEndian.PutUint64(r.key[0:], dir[2])
	binary.BigEndian.PutUint64(r.key[8:], dir[1])
	binary.BigEndian.PutUint64(r.key[16:], dir[0])
	b.chunk.records[sortOPS] = append(b.chunk.records[sortOPS], r)
	return nil
}

// node returns the id of v, giving it the next one if it is new.
func (b *Loader) node(v quad.Value) (uint64, error) {
	if i, ok := b.caption[v]; ok {
		b.nodes[i].refs++
		return b.nodes[i].id, nil
	}
	n := captionNode{hash: refs.HashOf(v), refs: 1, own: b.own.has(v)}
	s, seen := b.shared[n.hash]
	if seen && !n.own {
		n.id = s.id
	} else {
		b.horizon++
		n.id = b.horizon
		val, err := pquads.MarshalValue(v)
		if err != nil {
			return 0, err
		}
		p := b.appendStamp(b.beginEntry(n.id))
		p = protowire.AppendTag(p, 8, protowire.BytesType)
		b.endEntry(protowire.AppendBytes(p, val))
		if !n.own {
			b.shared[n.hash] = sharedNode{id: n.id}
		}
	}
	b.caption[v] = len(b.nodes)
	b.nodes = append(b.nodes, n)
	return n.id, nil
}

// beginEntry starts the log entry of primitive id: its key, then the
// primitive's first field, the id again.
func (b *Loader) beginEntry(id uint64) []byte {
	p := binary.BigEndian.AppendUint64(b.chunk.log, id)
	p = protowire.AppendTag(p, 1, protowire.VarintType)
	return protowire.AppendVarint(p, id)
}

func (b *Loader) endEntry(p []byte) {
	b.chunk.log = p
	b.chunk.ends = append(b.chunk.ends, len(p))
}

// appendStamp adds the primitive's timestamp, field 7 of Cayley's
// Primitive, which comes before the value (field 8) as proto.Marshal
// orders them.
func (b *Loader) appendStamp(p []byte) []byte {
	p = protowire.AppendTag(p, 7, protowire.VarintType)
	return protowire.AppendVarint(p, uint64(b.stamp))
}

// commit writes the sorted buckets and the metadata, with meta copied
// from the store's live database, and leaves the new database complete
// and synced, ready to be renamed over the store's.
func (b *Loader) commit(live *bolt.DB) error {
	for h, s := range b.shared {
		b.valueMaps(h, s.id, uint64(s.refs))
		if len(b.chunk.records[sortIDs]) >= chunkEntries {
			b.send()
		}
	}
	b.shared = nil
	b.send()
	close(b.chunks)
	b.chunks = nil
	if err := <-b.written; err != nil {
		return err
	}
	hashKey := func(dst []byte, r record) []byte { // the flat layout: two bytes of the hash, then the hash
		return append(append(dst, r.key[:2]...), r.key[:quad.HashSize]...)
	}
	for _, m := range []struct {
		bucket string
		sorter int
		key    func([]byte, record) []byte
		list   bool // an index: the ids of one key make one list
	}{
		{"sp", sortSP, fixedKey(16), true},
		{"ops", sortOPS, fixedKey(24), true},
		{"v", sortIDs, hashKey, false},
		{"n", sortCounts, hashKey, false},
	} {
		if err := b.writeSorted(m.bucket, b.sorters[m.sorter], m.key, m.list); err != nil {
			return fmt.Errorf("bucket %s: %w", m.bucket, err)
		}
		b.sorters[m.sorter].close()
	}
	// The load skipped writing bbolt's freelist at each commit; the last
	// commit writes it, or the store's next open in write mode would walk
	// every page to rebuild it (minutes and gigabytes at 10^6 captions).
	b.db.NoFreelistSync = false
	err := live.View(func(ltx *bolt.Tx) error {
		return b.db.Update(func(tx *bolt.Tx) error {
			meta, err := tx.CreateBucketIfNotExists([]byte("meta"))
			if err != nil {
				return err
			}
			if lm := ltx.Bucket([]byte("meta")); lm != nil {
				if err := lm.ForEach(func(k, v []byte) error { return meta.Put(k, v) }); err != nil {
					return err
				}
			}
			if meta.Get([]byte("indexes")) == nil {
				return errors.New("the store has no index metadata")
			}
			for k, n := range map[string]uint64{"horizon": b.horizon, "size": uint64(b.size)} {
				v := make([]byte, 8)
				binary.LittleEndian.PutUint64(v, n)
				if err := meta.Put([]byte(k), v); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	return b.db.Sync()
}

func fixedKey(n int) func([]byte, record) []byte {
	return func(dst []byte, r record) []byte { return append(dst, r.key[:n]...) }
}

// A putBatch is the keys and values of one transaction, in key order, in
// one buffer: each entry is a key then its value, ends[2i] ends the key.
type putBatch struct {
	buf  []byte
	ends []int
}

// writeSorted writes a sorter's records into a bucket in key order, in
// full pages. The caller's goroutine merges the runs into batches of
// putsPerTx keys; another writes each batch in one transaction.
func (b *Loader) writeSorted(bucket string, s *runSorter, key func([]byte, record) []byte, list bool) error {
	batches := make(chan *putBatch, 2)
	written := make(chan error, 1)
	go func() {
		var err error
		for pb := range batches {
			if err == nil {
				err = b.putAll(bucket, pb)
				b.committed()
			}
		}
		written <- err
	}()
	var (
		pb      = new(putBatch)
		keyEnd  = -1 // end of the key being gathered in pb.buf, or -1
		lastKey = make([]byte, 0, 24)
		scratch = make([]byte, 0, 24)
	)
	endEntry := func() {
		if keyEnd >= 0 {
			pb.ends = append(pb.ends, keyEnd, len(pb.buf))
			keyEnd = -1
		}
	}
	err := s.merge(func(r record) error {
		scratch = key(scratch[:0], r)
		if list && keyEnd >= 0 && string(scratch) == string(lastKey) {
			pb.buf = binary.AppendUvarint(pb.buf, r.val)
			return nil
		}
		if !list && keyEnd >= 0 && string(scratch) == string(lastKey) {
			return fmt.Errorf("two entries for key %x: a value named as two nodes", scratch)
		}
		endEntry()
		if len(pb.ends) >= 2*putsPerTx {
			select {
			case batches <- pb:
			case err := <-written:
				written <- err
				return err
			}
			pb = &putBatch{buf: make([]byte, 0, cap(pb.buf)), ends: make([]int, 0, cap(pb.ends))}
		}
		pb.buf = append(pb.buf, scratch...)
		keyEnd = len(pb.buf)
		lastKey = append(lastKey[:0], scratch...)
		pb.buf = binary.AppendUvarint(pb.buf, r.val)
		return nil
	})
	endEntry()
	if err == nil && len(pb.ends) > 0 {
		batches <- pb
	}
	close(batches)
	if werr := <-written; err == nil {
		err = werr
	}
	return err
}

// committed counts a commit, and every releaseCommits drops the database's
// mapped pages from the resident set (see boltkv.ReleaseMap). Each transaction
// reads the pages the one before it wrote through the map, so without this
// a 10^6-caption load peaked at 2.5 GB RSS, most of it mapped pages. It
// is called from one goroutine at a time.
func (b *Loader) committed() {
	if b.commits++; b.commits%releaseCommits == 0 {
		boltkv.ReleaseMap(b.db)
	}
}

// releaseCommits is how many commits a bulk load makes between releases
// of its mapped pages: about 2 million keys.
const releaseCommits = 256

// putAll writes one batch into bucket in one transaction.
func (b *Loader) putAll(bucket string, pb *putBatch) error {
	return b.db.Update(func(tx *bolt.Tx) error {
		bk, err := tx.CreateBucketIfNotExists([]byte(bucket))
		if err != nil {
			return err
		}
		bk.FillPercent = 1
		start := 0
		for i := 0; i < len(pb.ends); i += 2 {
			k, end := pb.ends[i], pb.ends[i+1]
			if err := bk.Put(pb.buf[start:k], pb.buf[k:end]); err != nil {
				return err
			}
			start = end
		}
		return nil
	})
}

// abandon removes what the bulk load wrote.
func (b *Loader) Abandon() {
	if b.chunks != nil {
		close(b.chunks)
		b.chunks = nil
		<-b.written
	}
	if b.db != nil {
		b.db.Close()
		os.Remove(b.path)
	}
	for _, s := range b.sorters {
		s.close()
	}
	os.RemoveAll(b.runs)
}

// Commit completes the load and puts its database in place of live, the
// store's empty one, and returns it; the caller swaps it in and closes
// live. The new file is renamed over the old while both are open and
// locked, so no other process finds the store unlocked meanwhile.
func (b *Loader) Commit(live *bolt.DB) (*bolt.DB, error) {
	if err := b.commit(live); err != nil {
		return nil, err
	}
	os.RemoveAll(b.runs)
	if err := os.Rename(b.path, live.Path()); err != nil {
		return nil, err
	}
	if d, err := os.Open(filepath.Dir(live.Path())); err == nil {
		err = d.Sync() // the rename itself
		d.Close()
		if err != nil {
			return nil, err
		}
	}
	db := b.db
	b.db = nil // the caller's now: Abandon must not close it
	return db, nil
}

// Size returns the quads and the nodes staged so far.
func (b *Loader) Size() (quads int64, nodes uint64) { return b.size, b.horizon - uint64(b.size) }

// Fits reports whether live, a store's database, can take a bulk load: it
// holds nothing and has Cayley's default indexes, in the flat layout.
func Fits(live *bolt.DB) (bool, error) {
	empty := false
	err := live.View(func(tx *bolt.Tx) error {
		meta := tx.Bucket([]byte("meta"))
		if meta == nil {
			return nil
		}
		h := meta.Get([]byte("horizon"))
		empty = (h == nil || binary.LittleEndian.Uint64(h) == 0) && string(meta.Get([]byte("indexes"))) == indexesJSON
		return nil
	})
	return empty, err
}

// indexesJSON is what Cayley's Init writes as the "indexes" metadata for
// its default indexes; a store holding other indexes is not bulk loaded.
var indexesJSON = func() string {
	b, _ := json.Marshal([]struct {
		Dirs   []quad.Direction `json:"dirs"`
		Unique bool             `json:"unique"`
	}{
		{Dirs: []quad.Direction{quad.Subject, quad.Predicate}},
		{Dirs: []quad.Direction{quad.Object, quad.Predicate, quad.Subject}},
	})
	return string(b)
}()
