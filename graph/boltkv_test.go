package graph

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	cgraph "github.com/cayleygraph/cayley/graph"
	cbolt "github.com/cayleygraph/cayley/graph/kv/bbolt"
	"github.com/cayleygraph/cayley/graph/kv/kvtest"
	hkv "github.com/hidal-go/hidalgo/kv"
	bolt "go.etcd.io/bbolt"
)

// TestBoltKVCayley runs Cayley's own quad-store conformance suite over the
// key-value layer, in the flat layout and in the layout of older stores.
func TestBoltKVCayley(t *testing.T) {
	if testing.Short() {
		t.Skip("Cayley's suite takes a while")
	}
	// The suite's path tests read Cayley's data/testdata.nq four
	// directories above the working directory.
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/cayleygraph/cayley").Output()
	if err != nil {
		t.Fatalf("locate Cayley's module: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "data", "testdata.nq"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	wd := filepath.Join(root, "a", "b", "c", "d")
	if err := os.MkdirAll(wd, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "data", "testdata.nq"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(wd)
	for _, flat := range []bool{true, false} {
		name := "flat"
		if !flat {
			name = "per-hash-buckets"
		}
		t.Run(name, func(t *testing.T) {
			kvtest.TestAll(t, func(t testing.TB) (hkv.KV, cgraph.Options, func()) {
				db, err := bolt.Open(filepath.Join(t.TempDir(), "kv.bolt"), 0o644, nil)
				if err != nil {
					t.Fatal(err)
				}
				kv := &boltKV{flat: flat}
				kv.db.Store(db)
				return kv, nil, func() { db.Close() }
			}, nil)
		})
	}
}

func TestFold(t *testing.T) {
	for _, tc := range []struct {
		in, want hkv.Key
	}{
		{hkv.Key{[]byte("v\x01\x02"), []byte("\x01\x02hash")}, hkv.Key{[]byte("v"), []byte("\x01\x02\x01\x02hash")}},
		{hkv.Key{[]byte("n\xff\x00"), []byte("h")}, hkv.Key{[]byte("n"), []byte("\xff\x00h")}},
		{hkv.Key{[]byte("v\x01\x02")}, hkv.Key{[]byte("v"), []byte("\x01\x02")}},
		{hkv.Key{[]byte("v\x01\x02"), []byte("a"), []byte("b")}, hkv.Key{[]byte("v"), []byte("\x01\x02a"), []byte("b")}},
		{hkv.Key{[]byte("log"), []byte("\x00\x01")}, hkv.Key{[]byte("log"), []byte("\x00\x01")}},
		{hkv.Key{[]byte("sp"), []byte("x")}, hkv.Key{[]byte("sp"), []byte("x")}},
		{hkv.Key{[]byte("vv"), []byte("x")}, hkv.Key{[]byte("vv"), []byte("x")}},
		{nil, nil},
	} {
		got := fold(tc.in)
		if got.Compare(tc.want) != 0 {
			t.Errorf("fold(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if len(tc.in) >= 2 {
			if back := unfold(got); back.Compare(tc.in) != 0 {
				t.Errorf("unfold(fold(%q)) = %q", tc.in, back)
			}
		}
	}
}

// TestBoltKVOlderStore opens a store written through hidalgo's adapter,
// with Cayley's 2 x 65,536 per-hash buckets, and checks that it reads and
// loads into it without duplicating what it holds.
func TestBoltKVOlderStore(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "db")
	if err := cgraph.InitQuadStore(cbolt.Type, dir, cgraph.Options{"no_bloom": true}); err != nil {
		t.Fatal(err)
	}
	qs, err := cgraph.NewQuadStore(cbolt.Type, dir, cgraph.Options{"no_bloom": true})
	if err != nil {
		t.Fatal(err)
	}
	xs := exampleExtractions(t)
	old := &Store{qs: qs, addr: dir, opts: Options{BatchSize: 5000, Now: fixedNow}, log: slog.New(slog.DiscardHandler)}
	if _, err := old.Load(ctx, all(xs)); err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	if _, err := old.Export(ctx, &want, NQuads); err != nil {
		t.Fatal(err)
	}
	qs.Close()
	if flat := isFlat(t, dir); flat {
		t.Fatal("a store with per-hash buckets was taken for a flat one")
	}

	s, err := Open(ctx, dir, Options{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st, err := s.Load(ctx, all(xs))
	if err != nil {
		t.Fatal(err)
	}
	if st.Unchanged != len(xs) {
		t.Errorf("reload over the older store: %+v, want all %d unchanged", st, len(xs))
	}
	var got strings.Builder
	if _, err := s.Export(ctx, &got, NQuads); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("export changed after reopening the older store")
	}
}

func TestBoltKVNewStoreIsFlat(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	s, err := Open(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(context.Background(), all(exampleExtractions(t)[:3])); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if !isFlat(t, dir) {
		t.Error("a new store was not written flat")
	}
}

// isFlat reports whether the store in dir has the flat layout.
func isFlat(t *testing.T, dir string) bool {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, boltFile), 0o644, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	kv, err := newBoltKV(db)
	if err != nil {
		t.Fatal(err)
	}
	return kv.flat
}

// TestBoltKVPacksAppendedBuckets: the buckets whose keys arrive in order
// are written with full pages, not bbolt's half-full ones.
func TestBoltKVPacksAppendedBuckets(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	s, err := Open(context.Background(), dir, Options{BatchSize: 500})
	if err != nil {
		t.Fatal(err)
	}
	s.noBulk = true // Cayley's writer: a bulk load packs every bucket
	if _, err := s.Load(context.Background(), all(exampleExtractions(t))); err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := bolt.Open(filepath.Join(dir, boltFile), 0o644, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.View(func(tx *bolt.Tx) error {
		for name, want := range fillPercent {
			st := tx.Bucket([]byte(name)).Stats()
			pages := st.LeafPageN + st.LeafOverflowN
			if pages < 4 {
				t.Fatalf("bucket %q has %d leaf pages, too few to judge", name, pages)
			}
			fill := float64(st.LeafInuse) / float64(pages*db.Info().PageSize)
			t.Logf("bucket %q: %d leaf pages, %.0f%% full", name, pages, 100*fill)
			if fill < want-0.15 {
				t.Errorf("bucket %q: leaf pages %.0f%% full, want about %.0f%%", name, 100*fill, 100*want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestBoltTxLast(t *testing.T) {
	db, err := bolt.Open(filepath.Join(t.TempDir(), "db"), 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	kv, err := newBoltKV(db)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	err = hkv.Update(ctx, kv, func(tx hkv.Tx) error {
		for _, k := range []string{"a", "ab", "abc", "ac", "b", "\xff", "\xff\x01", "\xff\xff"} {
			if err := tx.Put(ctx, hkv.Key{[]byte("ops"), []byte(k)}, []byte{1}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	tx, err := kv.Tx(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	for _, tt := range []struct{ prefix, want string }{
		{"ab", "abc"}, {"a", "ac"}, {"abc", "abc"}, {"b", "b"}, {"c", ""}, {"", "\xff\xff"},
		{"\xff", "\xff\xff"}, {"\xff\x01", "\xff\x01"}, {"0", ""},
	} {
		if got := tx.(*boltTx).last(hkv.Key{[]byte("ops"), []byte(tt.prefix)}); string(got) != tt.want {
			t.Errorf("last(%q) = %q, want %q", tt.prefix, got, tt.want)
		}
	}
	if got := tx.(*boltTx).last(hkv.Key{[]byte("nope"), []byte("a")}); got != nil {
		t.Errorf("last in a missing bucket = %q", got)
	}
}
