package boltkv

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestCheckTree damages one field of a leaf page at a time, each in a way
// that would send bbolt's own check outside its map, and wants CheckTree
// to name the page; a sound file has no problems.
func TestCheckTree(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.bolt")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket([]byte("b"))
		if err != nil {
			return err
		}
		for i := range 500 { // several leaf pages under a branch page
			if err := b.Put(fmt.Appendf(nil, "key-%04d", i), []byte(strings.Repeat("v", 40))); err != nil {
				return err
			}
		}
		return nil
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	sound, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if problems, err := CheckTree(path); err != nil || len(problems) > 0 {
		t.Fatalf("sound file: %v %v", problems, err)
	}

	// The first leaf page of the bucket.
	f, _ := os.Open(path)
	m := CurrentMeta(f)
	f.Close()
	leaf := -1
	for id := 2; id < int(m.Pages); id++ {
		p := sound[id*int(m.PageSize):]
		if binary.LittleEndian.Uint64(p) == uint64(id) && binary.LittleEndian.Uint16(p[8:]) == leafPageFlag && binary.LittleEndian.Uint16(p[10:]) > 10 {
			leaf = id
			break
		}
	}
	if leaf < 0 {
		t.Fatal("no leaf page")
	}
	elem := leaf*int(m.PageSize) + pageHeaderSize + 3*elementSize
	for _, tc := range []struct {
		name string
		off  int  // in the file: the leaf page's header or its fourth element
		wide bool // a 32-bit field, else 16-bit
		val  uint32
		want string
	}{
		{"key offset", elem + 4, true, 1 << 30, "lies outside the page"},
		{"value size", elem + 12, true, 1 << 30, "lies outside the page"},
		{"element count", leaf*int(m.PageSize) + 10, false, 0xffff, "do not fit"},
		{"page flags", leaf*int(m.PageSize) + 8, false, 0x40, "not a branch or leaf"},
		{"page id", leaf * int(m.PageSize), true, 7777, "header says"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := append([]byte(nil), sound...)
			if tc.wide {
				binary.LittleEndian.PutUint32(b[tc.off:], tc.val)
			} else {
				binary.LittleEndian.PutUint16(b[tc.off:], uint16(tc.val))
			}
			p := filepath.Join(t.TempDir(), "x.bolt")
			if err := os.WriteFile(p, b, 0o600); err != nil {
				t.Fatal(err)
			}
			problems, err := CheckTree(p)
			if err != nil {
				t.Fatal(err)
			}
			if len(problems) == 0 || !strings.Contains(strings.Join(problems, "\n"), tc.want) {
				t.Errorf("problems %q, want one with %q", problems, tc.want)
			}
			if want := fmt.Sprintf("page %d", leaf); len(problems) > 0 && !strings.Contains(problems[0], want) {
				t.Errorf("problems %q do not name %s", problems, want)
			}
		})
	}
}
