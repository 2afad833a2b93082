package graph

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/graph/model"
)

// TestQueriesSeeWrites runs queries between loads that kill the quads they
// read and that delete a node and write it again under a new id: nothing
// queries keep (package plan) may outlive a write.
func TestQueriesSeeWrites(t *testing.T) {
	x, err := extract.New()
	if err != nil {
		t.Fatal(err)
	}
	caption := func(id, text string) extract.Extraction {
		return x.Extract(extract.Caption{ID: id, Text: text})
	}
	s := openTemp(t)
	group := `"<` + model.EntityIRI("group:jund-al-aqsa") + `>"`
	photo := func(id string) string { return "<" + model.PhotoIRI(id) + ">" }
	ask := func(when, q string, want ...string) {
		t.Helper()
		for run := range 2 { // the second run reads what the first kept
			var got []string
			for r, err := range s.Query(t.Context(), "gizmo", q, 0) {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, r.(map[string]any)["id"].(string))
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("%s, run %d: %s\ngot  %q\nwant %q", when, run+1, q, got, want)
			}
		}
	}
	photos := `g.V(` + group + `).In("<https://schema.org/mentions>").All()`
	names := `g.V(` + group + `).Out("<https://schema.org/name>").All()`

	loadAll(t, s, []extract.Extraction{
		caption("a", "A fighter of Jund al-Aqsa rests in Saraqeb, Syria, May 1, 2016."),
		caption("b", "Children play in a street of Aleppo, Syria, May 2, 2016."),
	})
	ask("first load", photos, photo("a"))
	ask("first load", names, "Jund al-Aqsa")

	// The quad that a photo mentions the group dies, and with the last
	// reference the group's node and description go.
	loadAll(t, s, []extract.Extraction{caption("a", "Fighters rest in Saraqeb, Syria, May 1, 2016.")})
	ask("group gone", photos)
	ask("group gone", names)

	// The group comes back as a new node.
	loadAll(t, s, []extract.Extraction{caption("c", "Jund al-Aqsa fighters gather near Idlib, Syria, May 3, 2016.")})
	ask("group back", photos, photo("c"))
	ask("group back", names, "Jund al-Aqsa")

	// One more photo under the index keys the last queries read.
	loadAll(t, s, []extract.Extraction{caption("d", "Jund al-Aqsa fighters drive through Saraqeb, Syria, May 4, 2016.")})
	ask("another photo", photos, photo("c"), photo("d"))
}

// openTemp opens an embedded store in a temporary directory, closed when
// the test ends.
func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "g"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestCloseAfterACancelledQuery stops queries part-way, as Ctrl-C does,
// and closes the store at once: Close must wait for the query's read
// transaction, which Cayley ends on a goroutine of its own, instead of
// both waiting for each other for good.
func TestCloseAfterACancelledQuery(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "g")
	s, err := Open(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	loadAll(t, s, synthetic(t, 0, 1500))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Every group with every place of its photos, through two joins.
	const q = `g.V().In("<https://schema.org/mentions>").Out("<https://schema.org/contentLocation>").In("<https://schema.org/contentLocation>").Out("<https://schema.org/mentions>").ToArray().forEach(function(v) { g.Emit(v) })`
	for i := range 12 {
		s, err := Open(context.Background(), dir, Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(time.Duration(20+15*i)*time.Millisecond, cancel)
		for _, err := range s.Query(ctx, "gizmo", q, 0) {
			if err != nil {
				break
			}
		}
		cancel()
		closed := make(chan error, 1)
		go func() { closed <- s.Close() }()
		select {
		case err := <-closed:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("run %d: Close still waits 20 s after a cancelled query", i)
		}
	}
}
