package plan

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/cayleygraph/cayley/graph/kv"
	cproto "github.com/cayleygraph/cayley/graph/proto"
	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/cayley/query/path"
	"github.com/cayleygraph/cayley/query/shape"
	"github.com/cayleygraph/quad"
	"google.golang.org/protobuf/proto"
)

// planQueries are Gizmo programs that exercise every step the planner
// plans: In and Out from one node, from several and from a path; Save,
// SaveOpt, Has, Is and Back, which check nodes; predicates as tags; and
// steps no index serves. $G, $P, $R and $X stand for the armed group and
// the place in most photos, the place with most places in it, and a
// photo of a group; $Y for a photo of a group with several alternate
// names, so that a join's check finds several paths to one node.
var planQueries = []string{
	`g.V("$G").In("<https://schema.org/mentions>").All()`,
	`g.V("$G").In("<https://schema.org/mentions>").Tag("photo").SaveOpt("<https://schema.org/identifier>", "cid").SaveOpt("<https://schema.org/dateCreated>", "date").All()`,
	`g.V("$G").In("<https://schema.org/mentions>").Out("<https://schema.org/contentLocation>").Tag("place").All()`,
	`g.V("$G", "$P").In(["<https://schema.org/mentions>", "<https://schema.org/contentLocation>"]).Tag("photo").Save("<https://schema.org/creator>", "who").All()`,
	`g.V("$X").Out().All()`,
	`g.V("$X").Out(null, "rel").All()`,
	`g.V("$P").In(null, "rel").All()`,
	`g.V("$X").Tag("x").Out("<https://schema.org/mentions>").Has("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>", "<https://capgraph.org/ns#ArmedGroup>").Back("x").All()`,
	`g.V("<https://capgraph.org/ns#ArmedGroup>").In("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>").Tag("group").In("<https://schema.org/mentions>").Tag("photo").Out("<https://schema.org/contentLocation>").Tag("place").All()`,
	`g.V("<https://schema.org/Place>").In("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>").Tag("p").In("<https://schema.org/contentLocation>").Is("$X").All()`,
	`g.V().Has("<https://schema.org/contentLocation>", "$P").SaveOpt("<https://schema.org/dateCreated>", "d").All()`,
	`g.V("$R").FollowRecursive(g.M().In(["<https://capgraph.org/ns#locatedIn>", "<https://schema.org/containedInPlace>"]), 5).All()`,
	`g.V().HasR("<https://schema.org/mentions>").Has("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>", "<https://capgraph.org/ns#ArmedGroup>").All()`,
	`g.V("$G").InPredicates().All()`,
	`g.V("$X").LabelContext(null).Out("<https://schema.org/mentions>").All()`,
	`g.Emit(g.V("$P").In("<https://schema.org/contentLocation>").Count())`,
	`g.V("<https://schema.org/Person>").In("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>").Tag("person").In(["<https://schema.org/about>", "<https://schema.org/mentions>"]).Tag("photo").All()`,
	`g.V("$G").In("<https://schema.org/mentions>").Out(["<https://schema.org/contentLocation>", "<https://schema.org/creator>"]).All()`,
	`g.V("$Y").Intersect(g.V("<https://capgraph.org/ns#ArmedGroup>").In("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>").Save("<https://schema.org/alternateName>", "alt").In("<https://schema.org/mentions>")).All()`,
	`g.V("Free Syrian Army", "FSA", "$G").In(["<https://schema.org/name>", "<https://schema.org/alternateName>"]).All()`,
	`g.V("$P").In("<https://schema.org/contentLocation>").Save("<https://schema.org/mentions>", "m").Out("<https://schema.org/contentLocation>").All()`,
	`g.V("$P").In("<https://schema.org/contentLocation>").Intersect(g.V("<https://capgraph.org/ns#ArmedGroup>").In("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>").Tag("group").SaveOpt("<https://schema.org/alternateName>", "alt").In("<https://schema.org/mentions>")).All()`,
	`g.V("$P").In("<https://schema.org/contentLocation>").Intersect(g.V("$G", "$P").In("<https://schema.org/contentLocation>")).All()`,
	`g.V("$G", "$P").Tag("e").In(["<https://schema.org/mentions>", "<https://schema.org/contentLocation>"], "rel").Tag("v").All()`,
	`g.V("$P").Tag("e").In(["<https://schema.org/contentLocation>", "<https://capgraph.org/ns#locatedIn>"], "rel").All()`,
	`g.V("$X").Out(["<https://schema.org/mentions>", "<https://schema.org/contentLocation>"], "rel").All()`,
	`g.V("$P").InPredicates().All()`,
	`g.V("$X").OutPredicates().All()`,
	`g.V("$G", "$P").InPredicates().All()`,
	`g.V("$X", "$Y").OutPredicates().All()`,
	`g.V("$P").InPredicates().Is("<https://schema.org/contentLocation>", "<https://schema.org/mentions>").All()`,
	`g.V("<https://schema.org/contentLocation>", "<https://schema.org/about>").Intersect(g.V("$G", "$P").InPredicates()).All()`,
	`g.V("$X", "$Y", "$P", "$G").Has("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>", "<https://schema.org/Photograph>").All()`,
	`g.V("$X", "$Y", "$P").Tag("n").Has("<https://schema.org/mentions>", "$G").Out("<https://schema.org/identifier>").All()`,
	`g.V("$P").In("<https://schema.org/contentLocation>").Has("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>", "<https://schema.org/Photograph>").All()`,
	`g.V("$X", "$Y", "$P").Has("<https://schema.org/mentions>", "$G", "$P").All()`,
	`g.V("$X", "$Y", "$P", "$G").Tag("n").Has("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>", "<https://schema.org/Photograph>", "<https://schema.org/Place>").Back("n").All()`,
}

// TestBoltQueriesPlanLikeCayley runs planQueries on a store whose captions
// were loaded, then partly replaced (so its indexes list dead quads), with
// the planner's plans and with Cayley's, and wants the same results, path
// for path.
func TestBoltQueriesPlanLikeCayley(t *testing.T) {
	if testing.Short() {
		t.Skip("extracts 450 synthetic captions")
	}
	ctx := context.Background()
	s := openTemp(t)
	xs := synthetic(t, 0, 400)
	loadAll(t, s, xs)
	later := append(synthetic(t, 400, 50), xs[:80]...)
	for i := range 80 {
		later[50+i].Text += " (Updated.)"
	}
	if st := loadAll(t, s, later); st.Replaced != 80 {
		t.Fatalf("replaced %d captions, want 80", st.Replaced)
	}
	q, ok := s.read.(*Store)
	if !ok {
		t.Fatalf("queries run on %T, want *Store", s.read)
	}
	// The photos' type prefix holds more keys than prefixSize reads, so
	// its size is estimated; it must be of the right order for And.
	typeOf := func(iri quad.IRI) uint64 {
		ref, err := q.ValueOf(iri)
		if err != nil {
			t.Fatal(err)
		}
		return uint64(ref.(kv.Int64Value))
	}
	ops := q.prefixIndex([]quad.Direction{quad.Object, quad.Predicate})
	key := ops.Key([]uint64{typeOf("https://schema.org/Photograph"), typeOf("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")})
	if size, err := q.prefixSize(ctx, key); err != nil || size.Value < 450/2 || size.Value > 450*2 || size.Exact {
		t.Errorf("size of 450 photos' type prefix = %+v, %v", size, err)
	}

	// A group, a place and a photo with the most links, so that every
	// query has rows.
	pick := func(q string) string {
		rows := gizmoRows(t, s, q)
		if len(rows) == 0 {
			t.Fatalf("no node for %s", q)
		}
		var r struct{ ID string }
		json.Unmarshal([]byte(rows[0]), &r)
		return "<" + r.ID + ">"
	}
	most := func(class, link string) string { // the member of class that most photos link to
		return pick(`var best = null, n = -1; g.V("<` + class + `>").In("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>").ForEach(function (d) {
			var c = g.V(d.id).In("<` + link + `>").ToArray().length; if (c > n) { n = c; best = d.id } }); g.Emit({id: best.slice(1, -1)})`)
	}
	group := most("https://capgraph.org/ns#ArmedGroup", "https://schema.org/mentions")
	vars := strings.NewReplacer(
		"$G", group,
		"$P", most("https://schema.org/Place", "https://schema.org/contentLocation"),
		"$R", most("https://schema.org/Place", "https://capgraph.org/ns#locatedIn"),
		"$Y", pick(`var ys = []; g.V("<https://capgraph.org/ns#ArmedGroup>").In("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>").ForEach(function (d) {
			if (g.V(d.id).Out("<https://schema.org/alternateName>").ToArray().length > 1) ys = ys.concat(g.V(d.id).In("<https://schema.org/mentions>").ToArray()) });
			g.Emit({id: ys.sort()[0].slice(1, -1)})`),
		// A photo that mentions $G, so that Has on $G keeps a row.
		"$X", pick(`g.V("`+group+`").In("<https://schema.org/mentions>").Limit(1).ForEach(function (d) { g.Emit({id: d.id.slice(1, -1)}) })`),
	)
	bolt := s.read
	for _, q := range planQueries {
		q = vars.Replace(q)
		s.read = bolt
		got := gizmoRows(t, s, q)
		s.read = s.qs
		want := gizmoRows(t, s, q)
		t.Logf("%d rows: %.120s", len(want), q)
		if len(want) == 0 {
			t.Errorf("%s: no rows; the test proves nothing", q)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n got %d rows %.300q\nwant %d rows %.300q", q, len(got), got, len(want), want)
		}
	}
}

// gizmoRows runs a Gizmo program and returns its results as sorted JSON.
func gizmoRows(t *testing.T, s *testStore, q string) []string {
	t.Helper()
	var rows []string
	for r, err := range s.Query(context.Background(), "gizmo", q, 0) {
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, string(b))
	}
	slices.Sort(rows)
	return rows
}

// TestBoltQueriesUseIndexPrefixes checks that the steps Cayley's kv store
// plans as scans of every quad of a node get an index prefix instead.
func TestBoltQueriesUseIndexPrefixes(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	loadAll(t, s, synthetic(t, 0, 20))
	q := s.read.(*Store)
	rows := gizmoRows(t, s, `g.V("<https://schema.org/Photograph>").In("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>").Tag("photo").Out("<https://schema.org/contentLocation>").Limit(1).ForEach(function (d) { g.Emit([d.photo.slice(1, -1), d.id.slice(1, -1)]) })`)
	var pair [2]string
	if len(rows) != 1 || json.Unmarshal([]byte(rows[0]), &pair) != nil {
		t.Fatalf("no photo with a place: %q", rows)
	}
	photo, place := quad.IRI(pair[0]), quad.IRI(pair[1])
	S := "https://schema.org/"
	for _, tc := range []struct {
		name         string
		p            *path.Path
		next, lookup string // the planned indexes' directions, "" for Cayley's plan
	}{
		{"In from a node", path.StartPath(q, place).In(quad.IRI(S + "contentLocation")), "ops", "ops"},
		{"Out from a node", path.StartPath(q, photo).Out(quad.IRI(S + "contentLocation")), "sp", "ops"},
		{"SaveOpt", path.StartPath(q, photo).SaveOptional(quad.IRI(S+"dateCreated"), "date"), "", "sp"},
		{"Out from a path", path.StartPath(q, place).In(quad.IRI(S + "contentLocation")).Out(quad.IRI(S + "mentions")), "sp", "ops"},
		{"In from nodes", path.StartPath(q, place, photo).In(quad.IRI(S + "contentLocation")), "ops", "sp"},
		{"In from a tagged node", path.StartPath(q, place).Tag("p").In(quad.IRI(S + "contentLocation")), "ops", "sp"},
		{"Out from tagged nodes by a tagged predicate", path.StartPath(q, photo, place).Tag("p").Out(path.StartPath(q, quad.IRI(S+"contentLocation")).Tag("rel")), "sp", "ops"},
		{"In by tagged predicates from a node", path.StartPath(q, place).Tag("e").In(path.StartPath(q, quad.IRI(S+"contentLocation"), quad.IRI(S+"about")).Tag("rel")), "ops", ""},
		{"Out by two predicates from a path", path.StartPath(q, place).In(quad.IRI(S+"contentLocation")).Out(quad.IRI(S+"mentions"), quad.IRI(S+"about")), "sp", "ops"},
		{"Has with two values on nodes", path.StartPath(q, photo, place).Has(quad.IRI(S+"contentLocation"), place, photo), "ops", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, _ := shape.Optimize(ctx, tc.p.Shape(), q)
			var next, lookup *kv.QuadIndex
			found := false
			shape.Walk(o, func(s shape.Shape) bool {
				switch s := s.(type) {
				case *indexLinks:
					next, lookup, found = s.next, s.lookup, true
				case *indexJoin:
					next, lookup, found = s.next, s.lookup, true
				}
				return !found
			})
			if !found {
				t.Fatalf("no index plan in %#v", o)
			}
			if got := dirString(next); got != tc.next {
				t.Errorf("next on %q, want %q", got, tc.next)
			}
			if got := dirString(lookup); got != tc.lookup {
				t.Errorf("lookup on %q, want %q", got, tc.lookup)
			}
		})
	}
}

// dirString names an index by its directions' letters, "" for none.
func dirString(ind *kv.QuadIndex) string {
	if ind == nil {
		return ""
	}
	var b strings.Builder
	for _, d := range ind.Dirs {
		b.WriteByte(d.Prefix())
	}
	return b.String()
}

// TestQueryNamesAreKVs names every node through queries' readers and
// wants kv's value each time: read, kept, after the query ended, and in a
// later query after a load that replaced captions, deleting nodes and
// writing new ones, so that a kept value would show if kv gave its id to
// another value.
func TestQueryNamesAreKVs(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	xs := synthetic(t, 0, 30)
	loadAll(t, s, xs)
	kqs := s.qs.(*kv.QuadStore)
	bq := s.read.(*Store)
	check := func(q *Store, what string) int {
		t.Helper()
		var nodes []refs.Ref
		it := kqs.NodesAllIterator().Iterate()
		for it.Next(ctx) {
			nodes = append(nodes, it.Result())
		}
		it.Close()
		for _, n := range nodes {
			got, err := q.NameOf(n)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := kqs.NameOf(n)
			if got == nil || got != want {
				t.Fatalf("%s: node %v is %v, kv says %v", what, n, got, want)
			}
		}
		return len(nodes)
	}

	q := bq.ForQuery()
	if n := check(q, "read"); n < 100 {
		t.Errorf("only %d nodes", n)
	}
	check(q, "kept")
	if err := q.EndQuery(); err != nil {
		t.Fatal(err)
	}
	check(q, "after the query")
	if bq.values.Len() < 100 {
		t.Errorf("%d values kept, want every node's", bq.values.Len())
	}

	later := append(synthetic(t, 30, 20), xs[:20]...)
	for i := range 20 {
		later[20+i].Text = "Fighters rest in Dummar, February 2, 2016. (Photo by Jane Roe/Example)"
	}
	if st := loadAll(t, s, later); st.Replaced != 20 {
		t.Fatalf("replaced %d captions, want 20", st.Replaced)
	}
	q = bq.ForQuery()
	defer q.EndQuery()
	check(q, "after replacing captions")
}

// linkPrimitives are log entries as kv writes them: quads live and dead,
// with and without a label, with ids of every varint length, and a node.
var linkPrimitives = []*cproto.Primitive{
	{ID: 9, Subject: 1, Predicate: 2, Object: 3, Timestamp: 1700000000},
	{ID: 10, Subject: 1 << 40, Predicate: 300, Object: 1<<64 - 1, Label: 127, Deleted: true},
	{ID: 11, Subject: 5, Predicate: 6, Object: 7, Label: 8, Replaces: 4, Timestamp: -1},
	{ID: 12, Value: []byte("a node's value"), Timestamp: 1},
	{},
}

func TestDecodeLinkIsProtobufs(t *testing.T) {
	for _, p := range linkPrimitives {
		b, err := proto.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var l link
		if err := decodeLink(b, &l); err != nil {
			t.Fatalf("decodeLink(%v): %v", p, err)
		}
		checkLink(t, p, &l)
	}
}

// FuzzDecodeLink feeds decodeLink what protobuf's own decoder reads or
// rejects: where protobuf reads a primitive, decodeLink must read the same.
func FuzzDecodeLink(f *testing.F) {
	for _, p := range linkPrimitives {
		b, _ := proto.Marshal(p)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var l link
		err := decodeLink(b, &l)
		p := new(cproto.Primitive)
		if proto.Unmarshal(b, p) != nil {
			return
		}
		if err != nil {
			t.Fatalf("protobuf reads %x, decodeLink: %v", b, err)
		}
		checkLink(t, p, &l)
	})
}

func checkLink(t *testing.T, p *cproto.Primitive, l *link) {
	t.Helper()
	want := link{dirs: [4]uint64{p.Subject, p.Predicate, p.Object, p.Label}, deleted: p.Deleted}
	if *l != want {
		t.Errorf("decodeLink = %+v, protobuf says %+v", *l, want)
	}
	for _, d := range quad.Directions {
		got, _ := (&kv.QuadStore{}).QuadDirection(p, d)
		if l.dir(d) != got {
			t.Errorf("%v: dir = %v, kv's QuadDirection = %v", d, l.dir(d), got)
		}
	}
}

// BenchmarkDecodeLink compares reading a quad of kv's log by hand with
// protobuf's decoder, per quad.
func BenchmarkDecodeLink(b *testing.B) {
	buf, err := proto.Marshal(linkPrimitives[1])
	if err != nil {
		b.Fatal(err)
	}
	b.Run("decodeLink", func(b *testing.B) {
		var l link
		for b.Loop() {
			if err := decodeLink(buf, &l); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("proto.Unmarshal", func(b *testing.B) {
		for b.Loop() {
			if err := proto.Unmarshal(buf, new(cproto.Primitive)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestCountSkipsDeadQuads counts each place's photos, and lists the
// predicates into it, after captions were replaced by ones that only
// mention their places: indexes still list the dropped
// schema:contentLocation quads. A planned step must not report their
// number as its size, which Cayley's Count() would return without
// iterating, nor list their predicate.
func TestCountSkipsDeadQuads(t *testing.T) {
	s := openTemp(t)
	xs := synthetic(t, 0, 30)
	loadAll(t, s, xs)
	replaced := slices.Clone(xs[:20])
	for i := range replaced {
		replaced[i].Text += " (Corrected.)"
		replaced[i].Relations = nil
	}
	if st := loadAll(t, s, replaced); st.Replaced != 20 {
		t.Fatalf("replaced %d captions, want 20", st.Replaced)
	}
	q := `var out = [];
		g.V("<https://schema.org/Place>").In("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>").ForEach(function (d) {
			var p = g.V(d.id).In("<https://schema.org/contentLocation>");
			out.push(d.id + " " + p.Count() + " " + p.ToArray().length + " " + g.V(d.id).InPredicates().ToArray().sort().join(","));
		});
		g.Emit({counts: out.sort()});`
	got := gizmoRows(t, s, q)
	bolt := s.read
	s.read = s.qs
	want := gizmoRows(t, s, q)
	s.read = bolt
	if !slices.Equal(got, want) {
		t.Errorf("place, Count(), photos:\n got %.600s\nwant %.600s", got, want)
	}
	var r struct{ Counts []string }
	json.Unmarshal([]byte(want[0]), &r)
	lost := 0
	for _, c := range r.Counts {
		f := strings.Fields(c)
		if f[1] != f[2] {
			t.Errorf("Cayley's plan: %s", c)
		}
		if f[2] == "0" {
			lost++
		}
	}
	if lost == 0 {
		t.Error("no place lost all its photos; the test proves nothing")
	}
}

// TestBoltQueriesPlanPredicatesOnKeys checks that InPredicates and
// OutPredicates, from one node or several, are planned on the keys of the
// index that has the node's direction and then the predicate.
func TestBoltQueriesPlanPredicatesOnKeys(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	loadAll(t, s, synthetic(t, 0, 20))
	q := s.read.(*Store)
	rows := gizmoRows(t, s, `g.V("<https://schema.org/Photograph>").In("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>").Tag("photo").Out("<https://schema.org/contentLocation>").Limit(2).ForEach(function (d) { g.Emit([d.photo.slice(1, -1), d.id.slice(1, -1)]) })`)
	var pairs [2][2]string
	if len(rows) != 2 || json.Unmarshal([]byte(rows[0]), &pairs[0]) != nil || json.Unmarshal([]byte(rows[1]), &pairs[1]) != nil {
		t.Fatalf("no two photos with places: %q", rows)
	}
	photo, place, other := quad.IRI(pairs[0][0]), quad.IRI(pairs[0][1]), quad.IRI(pairs[1][0])
	for _, tc := range []struct {
		name string
		p    *path.Path
		ind  string
	}{
		{"InPredicates of a node", path.StartPath(q, place).InPredicates(), "ops"},
		{"InPredicates of nodes", path.StartPath(q, place, photo).InPredicates(), "ops"},
		{"OutPredicates of a node", path.StartPath(q, photo).OutPredicates(), "sp"},
		{"OutPredicates of nodes", path.StartPath(q, photo, other).OutPredicates(), "sp"},
	} {
		o, _ := shape.Optimize(ctx, tc.p.Shape(), q)
		d, ok := o.(*distinctLinks)
		if !ok {
			t.Errorf("%s: planned as %#v", tc.name, o)
			continue
		}
		if got := dirString(d.ind); got != tc.ind {
			t.Errorf("%s: on %q, want %q", tc.name, got, tc.ind)
		}
	}
}

func TestEstimateSize(t *testing.T) {
	key := func(id uint64) []byte { return binary.BigEndian.AppendUint64([]byte("prefix.."), id) }
	for _, tt := range []struct {
		name             string
		ids              int64
		n                int
		first, last, end []byte
		want             int64
	}{
		{"evenly spread", 256, 256, key(100), key(100 + 255*10), key(100 + 999*10), 1000},
		{"two ids a key", 512, 256, key(100), key(100 + 255*10), key(100 + 999*10), 2000},
		{"no id after the prefix", 256, 256, []byte("prefix.."), []byte("prefix.."), []byte("prefix.."), 1024},
		{"ids not in order", 256, 256, key(500), key(100), key(900), 1024},
		{"no last key", 256, 256, key(100), key(200), nil, 1024},
	} {
		if got := estimateSize(tt.ids, tt.n, tt.first, tt.last, tt.end, 8); got != tt.want {
			t.Errorf("%s: estimateSize = %d, want %d", tt.name, got, tt.want)
		}
	}
}
