package plan

import (
	"testing"

	"github.com/cayleygraph/cayley/graph/kv"
	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/cayley/query/shape"
	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/graph/model"
)

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
	q := s.read.(*Store).ForQuery()
	defer q.EndQuery()
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
