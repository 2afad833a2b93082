package graph

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	cgraph "github.com/cayleygraph/cayley/graph"
	cbolt "github.com/cayleygraph/cayley/graph/kv/bbolt"
	bolt "go.etcd.io/bbolt"

	"github.com/capgraph/capgraph/graph/internal/boltkv"
)

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
	old := &Store{qs: qs, addr: dir, opts: Options{BatchSize: 5000}, log: slog.New(slog.DiscardHandler)}
	if _, err := old.Load(ctx, all(xs), LoadOptions{Now: fixedNow}); err != nil {
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

	s, err := Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st, err := s.Load(ctx, all(xs), LoadOptions{Now: fixedNow})
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
	if _, err := s.Load(context.Background(), all(exampleExtractions(t)[:3]), LoadOptions{}); err != nil {
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
	db, err := bolt.Open(filepath.Join(dir, boltkv.File), 0o644, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	kv, err := boltkv.New(db)
	if err != nil {
		t.Fatal(err)
	}
	return kv.Flat()
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
	if _, err := s.Load(context.Background(), all(exampleExtractions(t)), LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := bolt.Open(filepath.Join(dir, boltkv.File), 0o644, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.View(func(tx *bolt.Tx) error {
		for name, want := range boltkv.FillPercent {
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
