package boltkv

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"time"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/kv"
	hkv "github.com/hidal-go/hidalgo/kv"
	bolt "go.etcd.io/bbolt"
)

const (
	// Backend is the name under which the layer is registered with
	// Cayley's kv quad store.
	Backend = "capgraph-bbolt"
	// File is the database file in a store's directory.
	File = "indexes.bolt"
)

func init() {
	// Cayley's kv stores index quads by (subject, predicate) and by
	// (object, predicate, subject). capgraph needs no other index: a
	// caption graph is read from its own subjects (docs/model.md), so no
	// Cayley global is changed here.
	kv.Register(Backend, kv.Registration{
		InitFunc:     func(dir string, o cgraph.Options) (hkv.KV, error) { return open(dir, o, true) },
		NewFunc:      func(dir string, o cgraph.Options) (hkv.KV, error) { return open(dir, o, false) },
		IsPersistent: true,
	})
}

// Create makes a new store in dir whole, or not at all: it initialises the
// database in a directory of its own inside dir and links the finished
// file in place. A process killed while bbolt wrote the file's first
// pages, or before Cayley wrote its metadata, would otherwise leave a
// file that every later open refuses as damaged. A link, unlike a
// rename, never replaces a store that another process created meanwhile.
func Create(dir string, o cgraph.Options) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(dir, ".new-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	opts := maps.Clone(o)
	delete(opts, "handle")
	opts["nosync"] = false
	if err := cgraph.InitQuadStore(Backend, tmp, opts); err != nil {
		return err
	}
	if err := os.Link(filepath.Join(tmp, File), filepath.Join(dir, File)); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

func open(dir string, o cgraph.Options, create bool) (hkv.KV, error) {
	if create {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	db, err := openLocked(filepath.Join(dir, File), o, create)
	if err != nil {
		return nil, err
	}
	kv, err := New(db)
	if err != nil {
		db.Close()
		return nil, err
	}
	if h, ok := o["handle"].(*Handle); ok {
		h.kv = kv
	}
	return kv, nil
}

// maxReopens bounds how often openLocked opens a file again because a
// bulk load replaced it meanwhile; each replacement is a whole first
// build, so more than a few means something else renames the file.
const maxReopens = 8

// openLocked opens the bbolt file at path under its lock, and makes sure
// that the file it locked is still the one at path. A bulk load renames
// a new file over the store's while it holds the old one's lock; a
// process waiting for that lock would otherwise get it on the old file,
// now nameless and empty, and write there (a build: its captions lost
// when it renames its own bulk load over the first's) or read there (a
// reader: an empty store for as long as it runs).
func openLocked(path string, o cgraph.Options, create bool) (*bolt.DB, error) {
	timeout, _ := o["timeout"].(time.Duration)
	nosync, _ := o["nosync"].(bool)
	readOnly, _ := o["readonly"].(bool)
	for range maxReopens {
		if !create {
			if err := CheckFile(path); err != nil {
				return nil, err
			}
		}
		var locked *os.File
		db, err := bolt.Open(path, 0o644, &bolt.Options{
			Timeout: timeout, NoSync: nosync, NoGrowSync: nosync, ReadOnly: readOnly,
			OpenFile: func(name string, flag int, perm os.FileMode) (*os.File, error) {
				f, err := os.OpenFile(name, flag, perm)
				locked = f
				return f, err
			},
		})
		if err != nil {
			return nil, err
		}
		held, err := locked.Stat()
		if err != nil {
			db.Close()
			return nil, err
		}
		now, err := os.Stat(path)
		if err == nil && os.SameFile(held, now) {
			return db, nil
		}
		db.Close()
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		create = false // it exists now, whole: a bulk load renamed it in place
	}
	return nil, fmt.Errorf("%s was replaced %d times while it was being opened", path, maxReopens)
}

// ErrDamaged reports a store file that is not a whole bbolt database.
var ErrDamaged = errors.New("store is damaged or not a capgraph store")

// CheckFile reads the two meta pages of a bbolt file before bbolt
// maps it: a file cut short (a full disk, a copy that stopped) would make
// bbolt read past the end of its map and kill the process with a fault
// that no recover catches. It wants a meta page whose checksum holds and
// a file as long as the pages that meta says exist.
func CheckFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	m := CurrentMeta(f)
	if !m.OK {
		return fmt.Errorf("%w: %s has no valid bbolt meta page", ErrDamaged, path)
	}
	if need := m.Pages * m.PageSize; uint64(st.Size()) < need {
		return fmt.Errorf("%w: %s ends at byte %d, but its pages reach byte %d (the file was cut short)", ErrDamaged, path, st.Size(), need)
	}
	return nil
}

// A Meta is what CheckFile reads of a bbolt meta page.
type Meta struct {
	OK                                    bool // magic and checksum hold
	PageSize, Root, Freelist, Pages, TxID uint64
}

// CurrentMeta returns the meta page bbolt would use: the valid one of
// the two with the higher txid.
func CurrentMeta(f *os.File) Meta {
	m0 := readMeta(f, 0)
	off := int64(os.Getpagesize()) // where bbolt looks when the first meta is bad
	if m0.OK {
		off = int64(m0.PageSize)
	}
	m := readMeta(f, off)
	if !m.OK || m0.OK && m0.TxID > m.TxID {
		m = m0
	}
	return m
}

// readMeta reads the meta page at off: after a 16-byte page header,
// magic, version, page size and flags (4 bytes each), the root bucket
// (16), the freelist page (8), the high-water page id (8), the txid (8)
// and an FNV-64a checksum of all that.
func readMeta(f *os.File, off int64) Meta {
	var buf [16 + 64]byte
	if _, err := f.ReadAt(buf[:], off); err != nil {
		return Meta{}
	}
	m := buf[16:]
	if binary.LittleEndian.Uint32(m[0:]) != 0xED0CDAED {
		return Meta{}
	}
	h := fnv.New64a()
	h.Write(m[:56])
	if h.Sum64() != binary.LittleEndian.Uint64(m[56:]) {
		return Meta{}
	}
	return Meta{OK: true, PageSize: uint64(binary.LittleEndian.Uint32(m[8:])),
		Root:     binary.LittleEndian.Uint64(m[16:]),
		Freelist: binary.LittleEndian.Uint64(m[32:]), Pages: binary.LittleEndian.Uint64(m[40:]),
		TxID: binary.LittleEndian.Uint64(m[48:])}
}

// A Handle receives the key-value layer that Cayley opens for a Store.
type Handle struct{ kv *KV }

// KV returns the key-value layer, or nil before the store opens.
func (h *Handle) KV() *KV {
	if h == nil {
		return nil
	}
	return h.kv
}

// DB returns the bbolt database under the store, or nil before it opens.
func (h *Handle) DB() *bolt.DB {
	if h == nil || h.kv == nil {
		return nil
	}
	return h.kv.db.Load()
}
