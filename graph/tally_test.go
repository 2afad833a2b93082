package graph

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/graph/model"
)

// TestTalliesMatchARecount loads, replaces and deletes through both write
// paths in batches of every size, and after each load compares the kept
// tallies with a count of the store from scratch.
func TestTalliesMatchARecount(t *testing.T) {
	xs := synthetic(t, 0, 160)
	// The same captions with other captions' facts: replacing them moves
	// photos between people, places, agencies and photographers.
	moved := synthetic(t, 160, 60)
	for i := range moved {
		moved[i].ID = xs[i].ID
	}
	for _, tc := range []struct {
		name     string
		postgres bool
		noBulk   bool
		batch    int
	}{
		{"bulk, then batches of 200 quads", false, false, 200},
		{"batches of 200 quads", false, true, 200},
		{"one batch", false, true, 1 << 30},
		{"PostgreSQL, batches of 2,000 quads", true, true, 2000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openTemp(t)
			if tc.postgres {
				s = openPostgres(t)
			}
			s.noBulk, s.opts.BatchSize = tc.noBulk, tc.batch
			loadAll(t, s, xs[:100])
			checkTallies(t, s, "first load")
			loadAll(t, s, append(slices.Clone(xs[100:]), moved...))
			checkTallies(t, s, "after replacing captions")
			loadAll(t, s, xs[:60]) // and back
			checkTallies(t, s, "after replacing them again")
		})
	}
}

// TestTalliesOfAnOlderStore drops a store's tallies, as a store written
// before they were kept has none: the next load counts them.
func TestTalliesOfAnOlderStore(t *testing.T) {
	s := openTemp(t)
	xs := synthetic(t, 0, 80)
	loadAll(t, s, xs[:60])
	var drop []cgraph.Delta
	for _, q := range storedTallies(t, s) {
		drop = append(drop, cgraph.Delta{Quad: q, Action: cgraph.Delete})
	}
	if len(drop) < 10 {
		t.Fatalf("only %d tally quads", len(drop))
	}
	if err := s.qs.ApplyDeltas(drop, cgraph.IgnoreOpts{}); err != nil {
		t.Fatal(err)
	}
	s.written()
	loadAll(t, s, xs[60:])
	checkTallies(t, s, "the load after")
}

// TestTalliesRecountedWhereCountsMove: tallies share their count
// literals, so a recount that moves a count from one entity to another
// deletes and adds quads of one node; every count keeps its node.
func TestTalliesRecountedWhereCountsMove(t *testing.T) {
	s := openTemp(t)
	xs := synthetic(t, 0, 80)
	loadAll(t, s, xs[:60])
	var counts []quad.Quad
	for _, q := range storedTallies(t, s) {
		if q.Predicate == model.CapgraphPhotoCount {
			counts = append(counts, q)
		}
	}
	// Each count is one too many, and the marker goes, as if a build had
	// stopped half way: the next load counts anew, and a count literal
	// that loses more tallies than it gains keeps its node.
	dels := []cgraph.Delta{{Quad: talliesMarker, Action: cgraph.Delete}}
	var adds []cgraph.Delta
	for _, q := range counts {
		n, err := tallyValue(q.Object)
		if err != nil {
			t.Fatal(err)
		}
		dels = append(dels, cgraph.Delta{Quad: q, Action: cgraph.Delete})
		adds = append(adds, cgraph.Delta{Quad: tallyQuad(q.Subject, n+1), Action: cgraph.Add})
	}
	if len(adds) < 10 {
		t.Fatalf("only %d counts moved", len(adds))
	}
	for _, deltas := range [][]cgraph.Delta{dels, adds} {
		if err := s.qs.ApplyDeltas(deltas, cgraph.IgnoreOpts{}); err != nil {
			t.Fatal(err)
		}
	}
	s.written()
	loadAll(t, s, xs[60:])
	checkTallies(t, s, "the load after")
}

// stopBetween is a quad store whose first transaction of only added
// quads fails: the second of a batch split in two (batch.transactions),
// where a build killed between the two stops.
type stopBetween struct {
	cgraph.QuadStore
	stopped bool
}

func (q *stopBetween) ApplyDeltas(in []cgraph.Delta, opts cgraph.IgnoreOpts) error {
	if !q.stopped && len(in) > 0 && !slices.ContainsFunc(in, func(d cgraph.Delta) bool { return d.Action == cgraph.Delete }) {
		q.stopped = true
		return errors.New("killed between the transactions of a batch")
	}
	return q.QuadStore.ApplyDeltas(in, opts)
}

// TestTalliesAfterAStoppedBatch stops a load between the two transactions
// of a batch: check reports the tallies, and the next load counts them
// anew, so that they match a recount as if nothing had stopped.
func TestTalliesAfterAStoppedBatch(t *testing.T) {
	ctx := t.Context()
	xs := synthetic(t, 0, 160)
	moved := synthetic(t, 160, 60)
	for i := range moved {
		moved[i].ID = xs[i].ID
	}
	s := openTemp(t)
	s.opts.BatchSize = 200
	loadAll(t, s, xs)
	checkTallies(t, s, "first load")

	stop := &stopBetween{QuadStore: s.qs}
	s.qs = stop
	_, err := s.Load(ctx, all(moved), testLoad)
	s.qs = stop.QuadStore
	if !stop.stopped || err == nil {
		t.Fatalf("no batch was split in two (stopped %v, load error %v)", stop.stopped, err)
	}
	r, err := s.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Problems) != 1 || !strings.Contains(r.Problems[0], "tallies are incomplete") {
		t.Errorf("check after the stopped load found %q, want the tallies incomplete", r.Problems)
	}

	loadAll(t, s, moved)
	checkTallies(t, s, "the load after")
	if r, err := s.Check(ctx); err != nil || len(r.Problems) > 0 {
		t.Errorf("check after the load after: %q, %v", r.Problems, err)
	}
}

func checkTallies(t *testing.T, s *Store, when string) {
	t.Helper()
	c, err := s.countAll(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := tallyQuads(c.counts, c.credits, c.stats)
	got := storedTallies(t, s)
	sortQuads(want)
	sortQuads(got)
	if len(want) < 20 {
		t.Fatalf("%s: only %d tallies", when, len(want))
	}
	if !slices.Equal(got, want) {
		for _, q := range got {
			if !slices.Contains(want, q) {
				t.Errorf("%s: kept %v, not so counted", when, q)
			}
		}
		for _, q := range want {
			if !slices.Contains(got, q) {
				t.Errorf("%s: counted %v, not kept", when, q)
			}
		}
	}
}

// storedTallies returns the live quads of the tallies graph.
func storedTallies(t *testing.T, s *Store) []quad.Quad {
	t.Helper()
	var out []quad.Quad
	it := s.qs.QuadsAllIterator().Iterate()
	defer it.Close()
	for it.Next(t.Context()) {
		q, err := s.qs.Quad(it.Result())
		if err != nil {
			t.Fatal(err)
		}
		if q.Label == talliesGraph {
			out = append(out, q)
		}
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestKeptStats: the counts stats reads are the counts of every quad,
// after a first (bulk) load, loads through Cayley, replaced captions, and
// a load after one stopped part-way through a batch.
func TestKeptStats(t *testing.T) {
	ctx := t.Context()
	s := openTemp(t)
	s.opts.BatchSize = 200
	same := func(when string) {
		t.Helper()
		kept, ok, err := s.keptStats(ctx)
		if err != nil || !ok {
			t.Fatalf("%s: kept stats: %v, %v", when, ok, err)
		}
		counted, err := s.countStats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(kept, counted) {
			t.Errorf("%s: kept\n%+v\ncounted\n%+v", when, kept, counted)
		}
		if kept.Captions == 0 || kept.Quads == 0 || kept.Entities["Person"] == 0 || kept.Relations["schema:creator"] == 0 {
			t.Errorf("%s: counts missing: %+v", when, kept)
		}
	}
	xs := synthetic(t, 0, 160)
	loadAll(t, s, xs[:100])
	same("bulk load")
	loadAll(t, s, xs[100:])
	same("load through Cayley")
	moved := synthetic(t, 160, 60)
	for i := range moved {
		moved[i].ID = xs[i].ID
	}
	stop := &stopBetween{QuadStore: s.qs}
	s.qs = stop
	if _, err := s.Load(ctx, all(moved), testLoad); err == nil || !stop.stopped {
		t.Fatalf("no batch was split in two (stopped %v, load error %v)", stop.stopped, err)
	}
	s.qs = stop.QuadStore
	if _, ok, err := s.keptStats(ctx); ok || err != nil {
		t.Errorf("after a stopped batch: kept stats %v, %v; want none", ok, err)
	}
	loadAll(t, s, moved)
	same("load after a stopped batch")
	loadAll(t, s, xs[:60])
	same("captions replaced back")

	// Bad input part-way: what was committed before it is counted.
	more := synthetic(t, 300, 120)
	_, err := s.Load(ctx, func(yield func(extract.Extraction, error) bool) {
		for i, x := range more {
			if i == 100 {
				yield(extract.Extraction{}, errors.New("bad input"))
				return
			}
			if !yield(x, nil) {
				return
			}
		}
	}, testLoad)
	if err == nil {
		t.Fatal("a load of bad input succeeded")
	}
	same("a load stopped by bad input")

	// Real captions: what the extractor makes of the bundled examples and,
	// when present, ../shared's dev sets.
	s = openTemp(t)
	real := extracted(t, filepath.Join("..", "examples", "captions.jsonl"),
		filepath.Join("..", "..", "shared", "captions", "dev.jsonl"),
		filepath.Join("..", "..", "shared", "captions", "dev-world.jsonl"))
	loadAll(t, s, real[:len(real)/2])
	same("real captions, bulk load")
	loadAll(t, s, real[len(real)/2:])
	same("real captions, load through Cayley")
}

// extracted returns the extractions of the caption files at paths that
// exist.
func extracted(t *testing.T, paths ...string) []extract.Extraction {
	t.Helper()
	x, err := extract.New()
	if err != nil {
		t.Fatal(err)
	}
	var xs []extract.Extraction
	for _, path := range paths {
		f, err := os.Open(path)
		if errors.Is(err, os.ErrNotExist) {
			t.Logf("%s: not here, left out", path)
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		for e, err := range x.ExtractAll(t.Context(), extract.NewReader(f, extract.ReaderOptions{Name: path}).All(), 1) {
			if err != nil {
				t.Fatal(err)
			}
			xs = append(xs, e)
		}
		f.Close()
	}
	return xs
}
