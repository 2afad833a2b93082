package graph

import (
	"slices"
	"testing"

	"github.com/cayleygraph/cayley/graph/kv"
	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/cayley/query/shape"
	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/graph/model"
)

// TestQueriesSeeWrites runs queries between loads that kill the quads they
// read and that delete a node and write it again under a new id: nothing
// queries keep (readcache.go) may outlive a write.
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

// TestLookupsKeepTheirPrefixes checks that a lookup which stops at its
// first live quad, as Contains does, still keeps the prefix it read: read
// as it was used, such a prefix never reached its end and was never kept,
// so every query sought the B-tree again.
func TestLookupsKeepTheirPrefixes(t *testing.T) {
	x, err := extract.New()
	if err != nil {
		t.Fatal(err)
	}
	s := openTemp(t)
	loadAll(t, s, []extract.Extraction{
		x.Extract(extract.Caption{ID: "a", Text: "A fighter of Jund al-Aqsa rests in Saraqeb, Syria, May 1, 2016."}),
	})
	ctx := t.Context()
	q := s.read.(*boltQueries).forQuery()
	defer q.endQuery()
	ref := func(v quad.Value) refs.Ref {
		t.Helper()
		r, err := q.ValueOf(v)
		if err != nil || r == nil {
			t.Fatalf("no node %v: %v", v, err)
		}
		return r
	}
	mentions := quad.IRI("https://schema.org/mentions")
	qa := shape.QuadsAction{Result: quad.Subject, Filter: map[quad.Direction]refs.Ref{quad.Predicate: ref(mentions)}}
	sh, ok := q.optimizeQuadsAction(ctx, qa)
	l, isLinks := sh.(*indexLinks)
	if !ok || !isLinks || l.lookup == nil {
		t.Fatalf("planned %T, want *indexLinks with a lookup", sh)
	}
	photo := ref(quad.IRI(model.PhotoIRI("a")))
	lookup := l.BuildIterator(q).Lookup()
	defer lookup.Close()
	if !lookup.Contains(ctx, photo) {
		t.Fatal("the photo mentions nothing")
	}
	id := uint64(photo.(kv.Int64Value))
	kept, ok := q.reads.prefixes.Peek(string(l.appendPrefix(nil, l.lookup, &id)))
	if !ok || len(kept) == 0 {
		t.Fatalf("the photo's prefix of %v is not kept after Contains (kept %v)", mentions, kept)
	}
}
