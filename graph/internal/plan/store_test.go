package plan

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/kv"
	"github.com/cayleygraph/cayley/query"
	_ "github.com/cayleygraph/cayley/query/gizmo" // the language the tests query in
	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/extract/synth"
	"github.com/capgraph/capgraph/graph/internal/boltkv"
	"github.com/capgraph/capgraph/graph/internal/bulk"
	"github.com/capgraph/capgraph/graph/model"
)

// A testStore is an embedded store that the planner reads, written as
// capgraph's loader writes it: the first load by the bulk loader, later
// ones through Cayley's writer, each caption's own quads replaced when the
// caption comes again, beside the shared entity descriptions.
type testStore struct {
	qs   cgraph.QuadStore // Cayley's kv quad store
	read cgraph.QuadStore // what Query runs on: the planner at first
	h    *boltkv.Handle
	own  map[string][]quad.Quad
}

// openTemp opens an empty store in a temporary directory, closed when the
// test ends.
func openTemp(t testing.TB) *testStore {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "g")
	h := &boltkv.Handle{}
	o := cgraph.Options{"no_bloom": true, "handle": h}
	if err := cgraph.InitQuadStore(boltkv.Backend, dir, o); err != nil {
		t.Fatal(err)
	}
	qs, err := cgraph.NewQuadStore(boltkv.Backend, dir, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { qs.Close() })
	q, err := New(context.Background(), qs.(*kv.QuadStore), h.KV())
	if err != nil {
		t.Fatal(err)
	}
	return &testStore{qs: qs, read: q, h: h, own: map[string][]quad.Quad{}}
}

// loadStats counts the captions a load replaced.
type loadStats struct{ Replaced int }

// loadAll writes xs, each replacing the caption of the same id, and
// resets the planner's caches as a store does after a write.
func loadAll(t testing.TB, s *testStore, xs []extract.Extraction) loadStats {
	t.Helper()
	if len(s.own) == 0 {
		s.bulkLoad(t, xs)
		return loadStats{}
	}
	var st loadStats
	var deltas []cgraph.Delta
	for _, x := range xs {
		own, desc := model.SplitQuads(x, provenance, model.ContentHash(x, provenance.ExtractorVersion))
		old, ok := s.own[x.ID]
		if ok && slices.Equal(old, own) {
			continue
		}
		if ok {
			st.Replaced++
		}
		for _, q := range old {
			deltas = append(deltas, cgraph.Delta{Quad: q, Action: cgraph.Delete})
		}
		for _, q := range append(own, desc...) {
			deltas = append(deltas, cgraph.Delta{Quad: q, Action: cgraph.Add})
		}
		s.own[x.ID] = own
	}
	if err := s.qs.ApplyDeltas(deltas, cgraph.IgnoreOpts{IgnoreDup: true, IgnoreMissing: true}); err != nil {
		t.Fatal(err)
	}
	for _, r := range []cgraph.QuadStore{s.read, s.qs} {
		if q, ok := r.(*Store); ok {
			q.ResetCaches()
		}
	}
	return st
}

// bulkLoad writes xs into the empty store with the bulk loader, each
// entity described by the first caption that names it.
func (s *testStore) bulkLoad(t testing.TB, xs []extract.Extraction) {
	t.Helper()
	live := s.h.DB()
	if ok, err := bulk.Fits(live); err != nil || !ok {
		t.Fatalf("the empty store does not take a bulk load: %v", err)
	}
	bl, err := bulk.New(filepath.Dir(live.Path()))
	if err != nil {
		t.Fatal(err)
	}
	described := map[quad.Value]bool{}
	for _, x := range xs {
		own, desc := model.SplitQuads(x, provenance, model.ContentHash(x, provenance.ExtractorVersion))
		var fresh []quad.Quad
		for _, q := range desc {
			if !described[q.Subject] {
				fresh = append(fresh, q)
			}
		}
		for _, q := range fresh {
			described[q.Subject] = true
		}
		if err := bl.Add(quad.IRI(model.GraphIRI(x.ID)), quad.IRI(model.PhotoIRI(x.ID)), own, fresh); err != nil {
			bl.Abandon()
			t.Fatal(err)
		}
		s.own[x.ID] = own
	}
	db, err := bl.Commit(live)
	if err != nil {
		bl.Abandon()
		t.Fatal(err)
	}
	if err := s.h.KV().Swap(db).Close(); err != nil {
		t.Fatal(err)
	}
	s.read.(*Store).ResetCaches()
}

var provenance = model.Provenance{ExtractorVersion: "test", Time: fixedNow()}

// Query runs a program in lang on s.read and yields its results.
func (s *testStore) Query(ctx context.Context, lang, text string, limit int) func(yield func(any, error) bool) {
	return func(yield func(any, error) bool) {
		read := s.read
		if q, ok := read.(*Store); ok {
			q = q.ForQuery()
			defer q.EndQuery()
			read = q
		}
		it, err := query.Execute(ctx, read, lang, text, query.Options{Collation: query.JSON, Limit: limit})
		if err != nil {
			yield(nil, err)
			return
		}
		defer it.Close()
		for it.Next(ctx) {
			if !yield(it.Result(), nil) {
				return
			}
		}
		if err := it.Err(); err != nil {
			yield(nil, err)
		}
	}
}

// synthetic returns the extractions of n generated captions from the
// from-th on.
func synthetic(t testing.TB, from, n int) []extract.Extraction {
	t.Helper()
	xs, err := synth.Extractions(3, from, n)
	if err != nil {
		t.Fatal(err)
	}
	return xs
}

func fixedNow() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
