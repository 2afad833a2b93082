package boltkv

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	cgraph "github.com/cayleygraph/cayley/graph"
)

// TestCreateIsWhole: a creation that stops after bbolt has made the file
// (here Cayley's init fails on a bad option; in life a build is killed)
// leaves no store file behind, and the next creation makes a whole one.
// A store file that bbolt began and nothing finished is one every later
// open refuses as damaged.
func TestCreateIsWhole(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "g")
	entries := func() []string {
		t.Helper()
		es, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range es {
			names = append(names, e.Name())
		}
		return names
	}
	if err := Create(dir, cgraph.Options{"upfront": "not a boolean"}); err == nil {
		t.Fatal("a creation whose Cayley init fails succeeded")
	}
	if _, err := os.Stat(filepath.Join(dir, File)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a stopped creation left %s (%v)", File, err)
	}
	if got := entries(); len(got) != 0 {
		t.Errorf("a stopped creation left %q", got)
	}

	if err := Create(dir, cgraph.Options{}); err != nil {
		t.Fatal(err)
	}
	if got := entries(); !slices.Equal(got, []string{File}) {
		t.Errorf("store directory holds %q, want only %s", got, File)
	}
	before, err := os.Stat(filepath.Join(dir, File))
	if err != nil {
		t.Fatal(err)
	}
	qs, err := cgraph.NewQuadStore(Backend, dir, cgraph.Options{})
	if err != nil {
		t.Fatalf("the created store does not open: %v", err)
	}
	qs.Close()

	// A second creation, as by a process that raced the first, keeps the
	// store that is there.
	if err := Create(dir, cgraph.Options{}); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(filepath.Join(dir, File))
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Error("a second creation replaced the store's file")
	}
}
