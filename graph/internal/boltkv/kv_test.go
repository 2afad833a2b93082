package boltkv

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	cgraph "github.com/cayleygraph/cayley/graph"
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
				kv := &KV{flat: flat}
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

func TestBoltTxLast(t *testing.T) {
	db, err := bolt.Open(filepath.Join(t.TempDir(), "db"), 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	kv, err := New(db)
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
		if got := tx.(*Tx).Last(hkv.Key{[]byte("ops"), []byte(tt.prefix)}); string(got) != tt.want {
			t.Errorf("last(%q) = %q, want %q", tt.prefix, got, tt.want)
		}
	}
	if got := tx.(*Tx).Last(hkv.Key{[]byte("nope"), []byte("a")}); got != nil {
		t.Errorf("last in a missing bucket = %q", got)
	}
}
