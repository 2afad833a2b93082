package graph

import (
	"context"
	"database/sql"
	"errors"
	"iter"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/capgraph/capgraph/extract"
)

// handOffStores opens two handles on the emptied scratch PostgreSQL store,
// as two builds would, and a connection to count its queue.
func handOffStores(t *testing.T) (first, second *Store, queued func() int) {
	t.Helper()
	first = openPostgres(t)
	second, err := Open(t.Context(), os.Getenv("CAPGRAPH_TEST_POSTGRES"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { second.Close() })
	db, err := sql.Open("postgres", os.Getenv("CAPGRAPH_TEST_POSTGRES"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return first, second, func() int {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM capgraph_handed`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
}

// holding yields xs[0], then calls hold, then yields the rest, or err
// after xs[0] if err is set: a load that keeps the store while hold runs.
func holding(xs []extract.Extraction, hold func(), err error) iter.Seq2[extract.Extraction, error] {
	return func(yield func(extract.Extraction, error) bool) {
		if !yield(xs[0], nil) {
			return
		}
		hold()
		if err != nil {
			yield(extract.Extraction{}, err)
			return
		}
		for _, x := range xs[1:] {
			if !yield(x, nil) {
				return
			}
		}
	}
}

// waitFor polls cond until it holds, or fails the test after a while.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

type loadResult struct {
	st  LoadStats
	err error
}

// loadAsync runs s.Load on xs in a goroutine.
func loadAsync(ctx context.Context, s *Store, xs iter.Seq2[extract.Extraction, error]) <-chan loadResult {
	out := make(chan loadResult, 1)
	go func() {
		st, err := s.Load(ctx, xs, testLoad)
		out <- loadResult{st, err}
	}()
	return out
}

func exportLines(t *testing.T, s *Store) []string {
	t.Helper()
	var b strings.Builder
	if _, err := s.Export(t.Context(), &b, NQuads); err != nil {
		t.Fatal(err)
	}
	return slices.Sorted(strings.Lines(b.String()))
}

// TestHandOver starts a load into an empty PostgreSQL store and, while it
// writes, a second one whose input overlaps it: ten captions the same, one
// changed. The second hands its captions over and waits, the first writes
// them after its own, and each reports its own captions. The store is the
// one a single load of both inputs builds, and the queue is empty.
func TestHandOver(t *testing.T) {
	first, second, queued := handOffStores(t)
	xs := synthetic(t, 0, 120)
	mine, theirs := xs[:60], slices.Clone(xs[50:])
	theirs[5].Text += " (Updated.)"
	var waiting <-chan loadResult
	writing := loadAsync(t.Context(), first, holding(mine, func() {
		waiting = loadAsync(t.Context(), second, all(theirs))
		waitFor(t, "the second load to hand its captions over", func() bool { return queued() == len(theirs) })
	}, nil))
	w := <-writing
	if w.err != nil {
		t.Fatal(w.err)
	}
	h := <-waiting
	if h.err != nil {
		t.Fatal(h.err)
	}
	if w.st.Captions != 60 || w.st.Added != 60 || w.st.Took != 70 || w.st.Handed != 0 {
		t.Errorf("writing load: %+v, want its 60 captions added and 70 taken", w.st)
	}
	if h.st.Captions != 70 || h.st.Added != 60 || h.st.Unchanged != 9 || h.st.Replaced != 1 || h.st.Handed != 70 || h.st.Took != 0 || h.st.Quads == 0 {
		t.Errorf("waiting load: %+v, want 70 captions handed over: 60 added, 9 unchanged, 1 replaced", h.st)
	}
	if n := queued(); n != 0 {
		t.Errorf("%d captions left in the queue", n)
	}
	one := openTemp(t)
	loadAll(t, one, append(slices.Clone(mine), theirs...))
	if got, want := exportLines(t, first), exportLines(t, one); !slices.Equal(got, want) {
		t.Errorf("two loads at once exported %d lines, one load %d; first differences:\n%s", len(got), len(want), firstDiff(got, want))
	}
}

// TestHandOverWriterFails: the load that took the store stops at bad
// input before it writes what was handed over; the waiting load then
// writes its captions itself.
func TestHandOverWriterFails(t *testing.T) {
	first, second, queued := handOffStores(t)
	xs := synthetic(t, 0, 40)
	mine, theirs := xs[:20], xs[20:]
	bad := errors.New("bad input")
	var waiting <-chan loadResult
	w := <-loadAsync(t.Context(), first, holding(mine, func() {
		waiting = loadAsync(t.Context(), second, all(theirs))
		waitFor(t, "the second load to hand its captions over", func() bool { return queued() == len(theirs) })
	}, bad))
	if !errors.Is(w.err, bad) || w.st.Added != 1 || w.st.Took != 0 {
		t.Errorf("writing load: %+v, %v; want 1 added and %v", w.st, w.err, bad)
	}
	h := <-waiting
	if h.err != nil || h.st.Captions != 20 || h.st.Added != 20 || h.st.Handed != 0 {
		t.Errorf("waiting load: %+v, %v; want its 20 captions added by itself", h.st, h.err)
	}
	if n := queued(); n != 0 {
		t.Errorf("%d captions left in the queue", n)
	}
	if st, err := first.Stats(t.Context()); err != nil || st.Captions != 21 {
		t.Errorf("store holds %d captions (%v), want 21", st.Captions, err)
	}
}

// TestHandOverCancelled: a load cancelled while it waits takes back what
// it handed over, and the writing load does not write it.
func TestHandOverCancelled(t *testing.T) {
	first, second, queued := handOffStores(t)
	xs := synthetic(t, 0, 40)
	mine, theirs := xs[:20], xs[20:]
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var waiting <-chan loadResult
	w := <-loadAsync(t.Context(), first, holding(mine, func() {
		waiting = loadAsync(ctx, second, all(theirs))
		waitFor(t, "the second load to hand its captions over", func() bool { return queued() == len(theirs) })
		cancel()
		waitFor(t, "the second load to take them back", func() bool { return queued() == 0 })
	}, nil))
	if w.err != nil || w.st.Added != 20 || w.st.Took != 0 {
		t.Errorf("writing load: %+v, %v; want its 20 captions and no more", w.st, w.err)
	}
	if h := <-waiting; !errors.Is(h.err, context.Canceled) || h.st.Added != 0 {
		t.Errorf("cancelled load: %+v, %v; want nothing added and %v", h.st, h.err, context.Canceled)
	}
	if st, err := first.Stats(t.Context()); err != nil || st.Captions != 20 {
		t.Errorf("store holds %d captions (%v), want 20", st.Captions, err)
	}
}
