package graph

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/capgraph/capgraph/graph/internal/boltkv"
)

func TestReleaseMapDropsMappedPages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	s, err := Open(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Load(context.Background(), all(exampleExtractions(t)), LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Export(context.Background(), io.Discard, NQuads); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, boltkv.File)
	before := mappedKB(t, file)
	if before == 0 {
		t.Fatal("reading the whole store left no page of it mapped; the test measures nothing")
	}
	s.releaseMapped()
	if after := mappedKB(t, file); after > before/4 {
		t.Errorf("%d kB of the store still resident after release, %d kB before", after, before)
	}
}

// mappedKB returns the resident kB of this process's mappings of file,
// from /proc/self/smaps.
func mappedKB(t *testing.T, file string) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	defer f.Close()
	kb, in := 0, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if fields := strings.Fields(line); len(fields) >= 5 && strings.Contains(fields[0], "-") {
			in = strings.HasSuffix(line, " "+file)
			continue
		}
		if rest, ok := strings.CutPrefix(line, "Rss:"); ok && in {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				t.Fatalf("smaps: %q: %v", line, err)
			}
			kb += n
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return kb
}
