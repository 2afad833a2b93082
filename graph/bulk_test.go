package graph

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	cproto "github.com/cayleygraph/cayley/graph/proto"
	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/quad"
	"github.com/cayleygraph/quad/pquads"
	bolt "go.etcd.io/bbolt"
	"google.golang.org/protobuf/proto"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/extract/synth"
	"github.com/capgraph/capgraph/graph/internal/boltkv"
	"github.com/capgraph/capgraph/graph/internal/bulk"
	"github.com/capgraph/capgraph/graph/model"
)

// synthetic returns n extractions of synthetic captions, starting at from.
func synthetic(t testing.TB, from, n int) []extract.Extraction {
	t.Helper()
	xs, err := synth.Extractions(3, from, n)
	if err != nil {
		t.Fatal(err)
	}
	return xs
}

func loadAll(t testing.TB, s *Store, xs []extract.Extraction) LoadStats {
	t.Helper()
	st, err := s.Load(context.Background(), func(yield func(extract.Extraction, error) bool) {
		for _, x := range xs {
			if !yield(x, nil) {
				return
			}
		}
	}, testLoad)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestBulkLoadIsCayleys builds the same captions through Cayley's writer
// and through the bulk load, and compares the two stores key by key, with
// ids replaced by the values they stand for: the bulk load must write
// exactly what Cayley would. Then it adds and replaces captions in both
// through Cayley, which must find the bulk-loaded store as its own.
func TestBulkLoadIsCayleys(t *testing.T) {
	if testing.Short() {
		t.Skip("extracts 700 synthetic captions")
	}
	xs := synthetic(t, 0, 600)
	twice := slices.Clone(xs[:400])
	again := xs[17] // the same caption, changed: the bulk load stops there
	again.Text += " Extra words."
	twice = append(twice, again)
	twice = append(twice, xs[400:]...)
	later := append(synthetic(t, 600, 100), xs[100:150]...)
	for i := range 50 {
		later[100+i].Text += " (Updated.)"
	}
	for _, tc := range []struct {
		name    string
		xs      []extract.Extraction
		records int // bulk.Records: small ones make many runs
	}{
		{"in memory", xs, 1 << 21},
		{"in runs", xs, 997},
		{"a caption twice", twice, 997},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func(n int) { bulk.Records = n }(bulk.Records)
			bulk.Records = tc.records
			// One batch a load: Cayley's path rewrites the tallies at
			// every batch, which a bulk load, writing them once, cannot
			// mirror key for key.
			open := func(noBulk bool) *Store {
				s, err := Open(context.Background(), filepath.Join(t.TempDir(), "g"), Options{BatchSize: 1 << 30})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { s.Close() })
				s.noBulk = noBulk
				return s
			}
			cayley, bulked := open(true), open(false)
			empty := bulked.bolt.DB()
			want, got := loadAll(t, cayley, tc.xs), loadAll(t, bulked, tc.xs)
			if got != want {
				t.Errorf("bulk load stats %+v, Cayley's %+v", got, want)
			}
			if bulked.bolt.DB() == empty {
				t.Fatal("the bulk load did not replace the empty database")
			}
			if entries, _ := filepath.Glob(filepath.Join(bulked.addr, "*")); len(entries) != 1 {
				t.Errorf("store directory holds %v, want only %s", entries, boltkv.File)
			}
			compareStores(t, cayley, bulked)

			want, got = loadAll(t, cayley, later), loadAll(t, bulked, later)
			if got != want || got.Replaced != 50 {
				t.Errorf("later load: bulk-loaded store %+v, Cayley's %+v", got, want)
			}
			compareStores(t, cayley, bulked)
		})
	}
}

func compareStores(t *testing.T, want, got *Store) {
	t.Helper()
	w, g := dumpStore(t, want.bolt.DB()), dumpStore(t, got.bolt.DB())
	if len(w) == 0 {
		t.Fatal("empty store")
	}
	if slices.Equal(w, g) {
		return
	}
	wm, gm := map[string]int{}, map[string]int{}
	for _, l := range w {
		wm[l]++
	}
	for _, l := range g {
		gm[l]++
	}
	n := 0
	for _, l := range w {
		if gm[l] < wm[l] && n < 10 {
			t.Errorf("missing: %s", l)
			n++
		}
	}
	for _, l := range g {
		if wm[l] < gm[l] && n < 20 {
			t.Errorf("extra:   %s", l)
			n++
		}
	}
	t.Fatalf("stores differ: %d lines against %d", len(g), len(w))
}

// dumpStore lists every key of a flat store as text, with each id written
// as the value or quad it stands for, sorted.
func dumpStore(t *testing.T, db *bolt.DB) []string {
	t.Helper()
	var out []string
	err := db.View(func(tx *bolt.Tx) error {
		values := map[uint64]string{}
		quads := map[uint64]*cproto.Primitive{}
		byHash := map[refs.ValueHash]string{}
		err := tx.Bucket([]byte("log")).ForEach(func(k, v []byte) error {
			var p cproto.Primitive
			if err := proto.Unmarshal(v, &p); err != nil {
				return err
			}
			if binary.BigEndian.Uint64(k) != p.ID || p.Timestamp == 0 {
				return fmt.Errorf("log key %x holds id %d, time %d", k, p.ID, p.Timestamp)
			}
			if !p.IsNode() {
				quads[p.ID] = &p
				return nil
			}
			val, err := pquads.UnmarshalValue(p.Value)
			if err != nil {
				return err
			}
			values[p.ID] = quad.ToString(val)
			byHash[refs.HashOf(val)] = quad.ToString(val)
			return nil
		})
		if err != nil {
			return err
		}
		name := func(id uint64) string {
			if id == 0 {
				return "-"
			}
			if v, ok := values[id]; ok {
				return v
			}
			return "?deleted" // a node whose last quad was deleted
		}
		quadText := func(id uint64) string {
			p := quads[id]
			if p == nil {
				return fmt.Sprintf("?quad%d", id)
			}
			return fmt.Sprintf("%s %s %s %s deleted=%v", name(p.Subject), name(p.Predicate), name(p.Object), name(p.Label), p.Deleted)
		}
		for id := range values {
			out = append(out, "node "+values[id])
		}
		for id := range quads {
			out = append(out, "quad "+quadText(id))
		}
		ids := func(key []byte) string {
			var parts []string
			for len(key) >= 8 {
				parts = append(parts, name(binary.BigEndian.Uint64(key)))
				key = key[8:]
			}
			return strings.Join(parts, " ")
		}
		for _, index := range []string{"sp", "ops"} {
			err := tx.Bucket([]byte(index)).ForEach(func(k, v []byte) error {
				var list []string
				for len(v) > 0 {
					id, n := binary.Uvarint(v)
					if n <= 0 {
						return fmt.Errorf("%s: bad list", index)
					}
					list = append(list, quadText(id))
					v = v[n:]
				}
				out = append(out, index+" "+ids(k)+" : "+strings.Join(list, " | "))
				return nil
			})
			if err != nil {
				return err
			}
		}
		for _, m := range []string{"v", "n"} {
			err := tx.Bucket([]byte(m)).ForEach(func(k, v []byte) error {
				var h refs.ValueHash
				if len(k) != 2+len(h) || string(k[:2]) != string(k[2:4]) {
					return fmt.Errorf("%s: key %x", m, k)
				}
				copy(h[:], k[2:])
				n, _ := binary.Uvarint(v)
				if m == "v" {
					if name(n) != byHash[h] {
						return fmt.Errorf("v: %s maps to %d, %s", byHash[h], n, name(n))
					}
					out = append(out, "v "+name(n))
				} else {
					out = append(out, fmt.Sprintf("n %s %d", byHash[h], n))
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		return tx.Bucket([]byte("meta")).ForEach(func(k, v []byte) error {
			out = append(out, fmt.Sprintf("meta %s %x", k, v))
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestBulkLoadCancelled shows that a first load whose context ends leaves
// the store empty and usable, and nothing of the bulk load behind.
func TestBulkLoadCancelled(t *testing.T) {
	xs := synthetic(t, 0, 50)
	dir := filepath.Join(t.TempDir(), "g")
	s, err := Open(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	_, err = s.Load(ctx, func(yield func(extract.Extraction, error) bool) {
		for i, x := range xs {
			if i == 30 {
				cancel()
			}
			if !yield(x, nil) {
				return
			}
		}
	}, LoadOptions{})
	if err == nil {
		t.Fatal("cancelled load returned no error")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != boltkv.File {
		t.Errorf("store directory holds %v after a cancelled bulk load", entries)
	}
	st, err := s.Stats(context.Background())
	if err != nil || st.Quads != 0 {
		t.Fatalf("after a cancelled first load: %d quads, %v", st.Quads, err)
	}
	if got := loadAll(t, s, xs); got.Added != 50 {
		t.Errorf("load after cancel: %+v", got)
	}
}

// TestBulkLoadLeftovers shows that a load removes what a killed bulk load
// left in the store directory.
func TestBulkLoadLeftovers(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "g")
	s, err := Open(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := os.WriteFile(filepath.Join(dir, bulk.File), []byte("half a database"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, bulk.RunDirPrefix+"123", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	loadAll(t, s, synthetic(t, 0, 5))
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("store directory holds %v", entries)
	}
}

// TestHasLiteral shows that the one-read check of a content hash in the
// embedded store agrees with a scan for a quad: the hash of a replaced
// caption is gone, the new one is there, on a bulk-loaded store and after
// Cayley's writer replaced captions in it.
func TestHasLiteral(t *testing.T) {
	xs := synthetic(t, 0, 20)
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "g"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	check := func(x extract.Extraction, want bool) {
		t.Helper()
		h := quad.String(model.ContentHash(x, "test"))
		got, err := s.hasLiteral(context.Background(), h)
		if err != nil {
			t.Fatal(err)
		}
		scan, err := s.isObject(context.Background(), h)
		if err != nil {
			t.Fatal(err)
		}
		if got != want || scan != want {
			t.Errorf("caption %s: hasLiteral %v, isObject %v, want %v", x.ID, got, scan, want)
		}
	}
	loadAll(t, s, xs)
	changed := slices.Clone(xs[:5])
	for i := range changed {
		changed[i].Text += " Changed."
		check(xs[i], true)
		check(changed[i], false)
	}
	loadAll(t, s, changed)
	for i := range changed {
		check(xs[i], false)
		check(changed[i], true)
	}
	check(xs[10], true)
}

// TestBulkLoadAfterAnEmptyLoad loads nothing into a new store, then
// captions: the second load is still the first build, a bulk load.
func TestBulkLoadAfterAnEmptyLoad(t *testing.T) {
	s := openTemp(t)
	loadAll(t, s, nil)
	empty := s.bolt.DB()
	loadAll(t, s, synthetic(t, 0, 5))
	if s.bolt.DB() == empty {
		t.Error("the load after an empty one went through Cayley's writer, not the bulk load")
	}
	checkTallies(t, s, "after the bulk load")
}

// TestBulkLoadWritesFreelist reads the bbolt meta pages of a store that a
// bulk load wrote: the current one must point at a freelist page, so that
// the next open does not rebuild the freelist from every page.
func TestBulkLoadWritesFreelist(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "g")
	s, err := Open(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	loadAll(t, s, synthetic(t, 0, 50))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, boltkv.File))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if m := boltkv.CurrentMeta(f); !m.OK || m.Freelist == ^uint64(0) {
		t.Errorf("the bulk-loaded store's meta (%+v) has no freelist page", m)
	}
}

// TestOpenWaitingForABulkLoad: a store opened while another holds it for
// a first build waits, then opens the file that build renamed into place,
// not the empty one it replaced: two builds into one new store keep both
// inputs, and a reader sees the first build's captions.
func TestOpenWaitingForABulkLoad(t *testing.T) {
	ctx := t.Context()
	dir := filepath.Join(t.TempDir(), "g")
	first, err := Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	type opened struct {
		s   *Store
		err error
	}
	waiting := make(chan opened, 2)
	for _, readOnly := range []bool{false, true} {
		go func() {
			s, err := Open(ctx, dir, Options{LockTimeout: time.Minute, ReadOnly: readOnly})
			waiting <- opened{s, err}
		}()
	}
	time.Sleep(200 * time.Millisecond) // both wait for the lock
	loadAll(t, first, synthetic(t, 0, 20))
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		o := <-waiting
		if o.err != nil {
			t.Fatal(o.err)
		}
		if o.s.opts.ReadOnly {
			// 20, or 30 when the other build got the lock first.
			if st, err := o.s.Stats(ctx); err != nil || st.Captions != 20 && st.Captions != 30 {
				t.Errorf("the reader sees %d captions (%v), want the first build's 20 or all 30", st.Captions, err)
			}
		} else {
			loadAll(t, o.s, synthetic(t, 20, 10))
		}
		if err := o.s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(ctx, dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if st, err := s.Stats(ctx); err != nil || st.Captions != 30 {
		t.Errorf("the store holds %d captions (%v), want 30 of both builds", st.Captions, err)
	}
}
