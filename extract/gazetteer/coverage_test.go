package gazetteer_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/capgraph/capgraph/extract/gazetteer"
)

// devPath is the shared gold set, beside the repository (see
// shared/captions/README.md); the test skips when it is absent.
var devPath = filepath.Join("..", "..", "..", "shared", "captions", "dev.jsonl")

// TestDevCoverage reports how many gold entity strings of the development
// captions the gazetteer knows. It asserts only a floor, so the data can
// grow without editing the test; the misses are logged.
func TestDevCoverage(t *testing.T) {
	f, err := os.Open(devPath)
	if err != nil {
		t.Skipf("no gold set: %v", err)
	}
	defer f.Close()
	d, err := gazetteer.Load()
	if err != nil {
		t.Fatal(err)
	}
	ix := d.Index()
	found := map[string]int{}
	total := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var c struct {
			Entities []struct{ Text, Type string }
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		for _, e := range c.Entities {
			var ok bool
			switch e.Type {
			case "PLACE":
				p, _ := ix.Resolve(e.Text)
				ok = p != nil
			case "ARMED_GROUP":
				ok = ix.Group(e.Text) != nil
			case "AGENCY", "ORGANIZATION", "EVENT":
				ok = ix.Term(e.Text) != nil
			default:
				continue
			}
			total[e.Type]++
			if ok {
				found[e.Type]++
			} else {
				t.Logf("missing %s %q", e.Type, e.Text)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for typ, n := range total {
		t.Logf("%s: %d of %d found", typ, found[typ], n)
		if found[typ]*10 < n*8 {
			t.Errorf("%s: only %d of %d gold strings found, want 80%%", typ, found[typ], n)
		}
	}
}
