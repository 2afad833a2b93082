package graph_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/extract/synth"
	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/graph/model"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden files")

func seq(xs []extract.Extraction) iter.Seq2[extract.Extraction, error] {
	return func(yield func(extract.Extraction, error) bool) {
		for _, x := range xs {
			if !yield(x, nil) {
				return
			}
		}
	}
}

// stores returns the addresses the store tests run against: memory, a
// fresh bbolt directory and, when CAPGRAPH_TEST_POSTGRES is set, a
// PostgreSQL database (emptied first).
func stores(t *testing.T) map[string]func(t *testing.T) string {
	return map[string]func(t *testing.T) string{
		"memory": func(t *testing.T) string { return "" },
		"bbolt":  func(t *testing.T) string { return filepath.Join(t.TempDir(), "capgraph.db") },
		"postgres": func(t *testing.T) string {
			addr := os.Getenv("CAPGRAPH_TEST_POSTGRES")
			if addr == "" {
				t.Skip("CAPGRAPH_TEST_POSTGRES is unset: set it to a postgres:// URL of a scratch database to test the SQL backend")
			}
			graph.ResetPostgres(t, addr)
			return addr
		},
	}
}

func open(t testing.TB, addr string) *graph.Store {
	t.Helper()
	s, err := graph.Open(context.Background(), addr, graph.Options{BatchSize: 50})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func export(t testing.TB, s *graph.Store, f graph.Format) string {
	t.Helper()
	var buf bytes.Buffer
	if _, err := s.Export(context.Background(), &buf, f); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func load(t testing.TB, s *graph.Store, xs []extract.Extraction) graph.LoadStats {
	t.Helper()
	st, err := s.Load(context.Background(), seq(xs), testLoad)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestLoadIdempotentAndReplace(t *testing.T) {
	for name, addr := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t, addr(t))
			defer s.Close()
			xs := sample()
			st := load(t, s, xs)
			if st.Added != 2 || st.Captions != 2 {
				t.Fatalf("first load: %+v", st)
			}
			first := export(t, s, graph.NQuads)
			stats1, err := s.Stats(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			st = load(t, s, xs)
			if st.Unchanged != 2 || st.Quads != 0 {
				t.Fatalf("second load wrote: %+v", st)
			}
			stats2, _ := s.Stats(t.Context())
			if again := export(t, s, graph.NQuads); again != first || stats1.Quads != stats2.Quads {
				t.Fatalf("rebuild changed the graph: %d -> %d quads", stats1.Quads, stats2.Quads)
			}

			// Change one caption: a different photographer and text.
			changed := sample()
			x := &changed[0]
			x.Text = strings.Replace(x.Text, "Jane Doe", "Ann Lee", 1)
			x.Entities[6] = extract.Entity{ID: "photographer:ann-lee", Text: "Ann Lee", Type: extract.Photographer, Start: 118, End: 125, Confidence: 0.9}
			x.Relations[5].Obj, x.Relations[5].ObjID = "Ann Lee", "photographer:ann-lee"
			// And the second caption loses Douma's admin chain, which no
			// other caption names: its admin areas must go.
			changed[1].Entities[0].Admin = nil
			st = load(t, s, changed)
			if st.Replaced != 2 || st.Removed == 0 {
				t.Fatalf("replace: %+v", st)
			}
			out := export(t, s, graph.NQuads)
			if strings.Contains(out, "Jane Doe") || strings.Contains(out, "jane-doe") || strings.Contains(out, "Rif") {
				t.Errorf("old facts survive the replacement:\n%s", grep(out, "ane")+grep(out, "Rif"))
			}
			if !strings.Contains(out, "Ann Lee") {
				t.Errorf("new facts missing")
			}
			// No orphan anywhere: the store equals one built from the
			// changed captions alone.
			fresh := open(t, "")
			defer fresh.Close()
			load(t, fresh, changed)
			if want := export(t, fresh, graph.NQuads); sortedLines(out) != sortedLines(want) {
				t.Errorf("replaced store differs from a fresh build:\n%s", lineDiff(out, want))
			}
			// (Counted from the export: the SQL backend's quad count is an
			// estimate.)
			if got, want := strings.Count(out, "\n"), strings.Count(export(t, fresh, graph.NQuads), "\n"); got != want {
				t.Errorf("replaced store holds %d quads, a fresh build %d", got, want)
			}
			// Back to the original: the same quads as the first build.
			load(t, s, xs)
			if got := export(t, s, graph.NQuads); sortedLines(got) != sortedLines(first) {
				t.Errorf("restoring the caption does not restore the graph")
			}
		})
	}
}

// lineDiff lists the lines only in a (-) or only in b (+).
func lineDiff(a, b string) string {
	in := func(s string) map[string]bool {
		m := make(map[string]bool)
		for l := range strings.Lines(s) {
			m[l] = true
		}
		return m
	}
	ma, mb := in(a), in(b)
	var out strings.Builder
	for l := range ma {
		if !mb[l] {
			out.WriteString("- " + l)
		}
	}
	for l := range mb {
		if !ma[l] {
			out.WriteString("+ " + l)
		}
	}
	return out.String()
}

func grep(s, sub string) string {
	var out []string
	for l := range strings.Lines(s) {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}

func TestLoadDuplicateInOneBatch(t *testing.T) {
	s := open(t, "")
	defer s.Close()
	xs := sample()
	changed := sample()[0]
	changed.Text += " (file photo)"
	st := load(t, s, []extract.Extraction{xs[0], changed, xs[0]})
	if st.Added != 1 || st.Replaced != 2 {
		t.Fatalf("%+v", st)
	}
	if n := strings.Count(export(t, s, graph.NQuads), "schema.org/caption>"); n != 1 {
		t.Errorf("%d captions stored, want 1", n)
	}
}

func TestLoadErrors(t *testing.T) {
	bad := errors.New("bad caption")
	xs := func(yield func(extract.Extraction, error) bool) {
		_ = yield(sample()[0], nil) && yield(extract.Extraction{}, bad) && yield(sample()[1], nil)
	}
	s := open(t, "")
	defer s.Close()
	st, err := s.Load(t.Context(), xs, testLoad)
	if !errors.Is(err, bad) || st.Added != 1 {
		t.Errorf("stop: %+v, %v", st, err)
	}
}

func TestLoadCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	s := open(t, filepath.Join(t.TempDir(), "db"))
	defer s.Close()
	xs := synthetic(500)
	n := 0
	_, err := s.Load(ctx, func(yield func(extract.Extraction, error) bool) {
		for _, x := range xs {
			if n++; n == 250 {
				cancel()
			}
			if !yield(x, nil) {
				return
			}
		}
	}, testLoad)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	checkWhole(t, s)
}

// checkWhole fails unless every caption graph in s is complete: it holds
// exactly the quads that the model gives its extraction.
func checkWhole(t *testing.T, s *graph.Store) int {
	t.Helper()
	per := make(map[string]int)
	for l := range strings.Lines(export(t, s, graph.NQuads)) {
		per[l[strings.LastIndex(l[:len(l)-3], " <")+1:]]++
	}
	want := 0
	for _, q := range model.Quads(synthetic(1)[0], model.Provenance{ExtractorVersion: "test", Time: genTime}) {
		if q.Label.String() != "<"+model.EntitiesGraph+">" {
			want++
		}
	}
	delete(per, "<"+model.EntitiesGraph+"> .\n")
	for g, n := range per {
		if n != want {
			t.Errorf("graph %s holds %d quads, want %d", g, n, want)
		}
	}
	return len(per)
}

func TestStoreInUse(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "capgraph.db")
	s := open(t, dir)
	defer s.Close()
	start := time.Now()
	_, err := graph.Open(t.Context(), dir, graph.Options{LockTimeout: 200 * time.Millisecond})
	if !errors.Is(err, graph.ErrStoreInUse) || !strings.Contains(err.Error(), "graph: open "+dir+": store in use by another process") {
		t.Fatalf("second open: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("second open took %v", d)
	}
}

func TestReopen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "capgraph.db")
	s := open(t, dir)
	load(t, s, sample())
	want := export(t, s, graph.NQuads)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, dir)
	defer s.Close()
	if got := export(t, s, graph.NQuads); got != want {
		t.Errorf("reopened store differs")
	}
	if st := load(t, s, sample()); st.Unchanged != 2 {
		t.Errorf("reload after reopen: %+v", st)
	}
}

func TestGolden(t *testing.T) {
	s := open(t, "")
	defer s.Close()
	load(t, s, sample())
	for _, f := range graph.Formats {
		t.Run(string(f), func(t *testing.T) {
			got := []byte(export(t, s, f))
			golden := filepath.Join("testdata", "sample."+string(f)+".golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if want, err := os.ReadFile(golden); err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s is missing or stale (%v); run go test -update", golden, err)
			}
		})
	}
}

func TestStats(t *testing.T) {
	for name, addr := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t, addr(t))
			defer s.Close()
			load(t, s, sample())
			st, err := s.Stats(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			// Places: the five the captions name and the four admin areas
			// of their chains; organisations: the rebels that hold Douma.
			want := map[string]int{"Photograph": 2, "Person": 3, "Place": 9, "ArmedGroup": 1, "NewsMediaOrganization": 1, "Organization": 2}
			for k, v := range want {
				if st.Entities[k] != v {
					t.Errorf("entities %s = %d, want %d", k, st.Entities[k], v)
				}
			}
			if st.Captions != 2 || st.Relations["schema:creator"] != 2 || st.Relations["capgraph:controlledBy"] != 1 || st.Mentions != 15 {
				t.Errorf("stats: %+v", st)
			}
			// Exact, on every backend: PostgreSQL's own count is an estimate.
			// The export adds the containment graph and the types that
			// predicates' domains entail, which the store does not keep.
			nq := export(t, s, graph.NQuads)
			n := int64(strings.Count(nq, "\n") - strings.Count(nq, "<"+model.ContainmentGraph+"> .\n"))
			stated := make(map[quad.IRI]int)
			for _, class := range model.DomainTypes {
				stated[class] = strings.Count(nq, " <"+string(model.RDFType)+"> <"+string(class)+"> ")
				n -= int64(stated[class])
			}
			if stated[model.NIFString] != st.Mentions || stated[model.ProvEntity] != st.Captions || stated[model.RDFStatement] == 0 {
				t.Errorf("stated domain types %v, want one a mention (%d) and a caption (%d)", stated, st.Mentions, st.Captions)
			}
			if st.Quads != n {
				t.Errorf("stats counts %d quads, the store exports %d besides the containment graph and domain types", st.Quads, n)
			}
		})
	}
}

func TestParseFormat(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want graph.Format
		err  bool
	}{{"nq", graph.NQuads, false}, {"N-Quads", graph.NQuads, false}, {"turtle", graph.Turtle, false}, {"json-ld", graph.JSONLD, false}, {"rdfxml", "", true}} {
		got, err := graph.ParseFormat(tt.in)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("ParseFormat(%q) = %q, %v", tt.in, got, err)
		}
	}
}

func TestQuery(t *testing.T) {
	s := open(t, "")
	defer s.Close()
	load(t, s, sample())
	q := `g.V(g.IRI("https://capgraph.org/id/place/geonames/170654")).In(g.IRI("https://schema.org/mentions")).Out(g.IRI("https://schema.org/identifier")).All()`
	var got []string
	for r, err := range s.Query(t.Context(), "gizmo", q, 0) {
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(r)
		got = append(got, string(b))
	}
	if len(got) != 2 {
		t.Errorf("query results: %v", got)
	}
}

// synthetic returns n generated extractions shaped like sample()[0].
func synthetic(n int) []extract.Extraction {
	base := sample()[0]
	xs := make([]extract.Extraction, n)
	for i := range xs {
		x := base
		x.ID = fmt.Sprintf("syn-%07d", i)
		x.Text = base.Text + fmt.Sprintf(" #%d", i)
		x.Entities = append([]extract.Entity(nil), base.Entities...)
		x.Entities[6].ID = fmt.Sprintf("photographer:p%d", i%997)
		x.Relations = append([]extract.Relation(nil), base.Relations...)
		x.Relations[5].ObjID = x.Entities[6].ID
		xs[i] = x
	}
	return xs
}

// TestGeoPrecision checks that a place placed at its container's point
// says so in the graph and in the CSV view, and a place at its own point
// says nothing.
func TestGeoPrecision(t *testing.T) {
	x := sample()[0]
	x.Entities = slices.Clone(x.Entities)
	x.Entities[1].Latitude, x.Entities[1].Longitude = 33.5102, 36.29128 // Jobar at Damascus' point
	x.Entities[1].GeoPrecision = "container"
	s := open(t, "")
	defer s.Close()
	load(t, s, []extract.Extraction{x})
	nq := export(t, s, graph.NQuads)
	if n := strings.Count(nq, `<https://capgraph.org/ns#geoPrecision> "container"`); n != 1 {
		t.Errorf("N-Quads state geoPrecision %d times, want once:\n%s", n, nq)
	}
	rows, err := csv.NewReader(strings.NewReader(export(t, s, graph.CSV))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(rows[0], "geo_precision")
	if col < 0 || len(rows) != 2 || rows[1][col] != "container" || rows[1][3] != "Jobar" {
		t.Errorf("CSV = %q, want Jobar's row with geo_precision container", rows)
	}
}

// TestExportStopsWhenCancelled: every format stops at a cancelled context
// and says why, the grouped ones (Turtle, JSON-LD, CSV) included.
func TestExportStopsWhenCancelled(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "g"))
	defer s.Close()
	load(t, s, sample())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, f := range []graph.Format{graph.NQuads, graph.Turtle, graph.JSONLD, graph.CSV} {
		if _, err := s.Export(ctx, io.Discard, f); !errors.Is(err, context.Canceled) {
			t.Errorf("%s export with a cancelled context: %v, want context.Canceled", f, err)
		}
	}
}

// TestReadOnlyShared: readers of one embedded store open it together and
// read; a writer is kept out while they hold it, and Load on a reader
// fails without writing.
func TestReadOnlyShared(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "g")
	s := open(t, dir)
	load(t, s, sample())
	want := export(t, s, graph.NQuads)
	s.Close()
	ctx := context.Background()
	r1, err := graph.Open(ctx, dir, graph.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r1.Close()
	r2, err := graph.Open(ctx, dir, graph.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("a second reader: %v", err)
	}
	defer r2.Close()
	if got := export(t, r2, graph.NQuads); got != want {
		t.Error("a reader exports another graph than the writer did")
	}
	if _, err := graph.Open(ctx, dir, graph.Options{LockTimeout: 100 * time.Millisecond}); !errors.Is(err, graph.ErrStoreInUse) {
		t.Errorf("a writer beside readers: %v, want ErrStoreInUse", err)
	}
	if _, err := r1.Load(ctx, seq(sample()), testLoad); !errors.Is(err, graph.ErrReadOnly) {
		t.Errorf("Load on a reader: %v, want ErrReadOnly", err)
	}
	if _, err := graph.Open(ctx, filepath.Join(t.TempDir(), "none"), graph.Options{ReadOnly: true}); err == nil {
		t.Error("a reader of a missing store opened one")
	}
}

// TestDamagedStore: a store file cut short, or one that is not bbolt at
// all, is refused with ErrDamaged when it is opened, instead of killing
// the process with a fault when bbolt reads past the file's end.
func TestDamagedStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "g")
	s := open(t, dir)
	load(t, s, sample())
	s.Close()
	file := filepath.Join(dir, "indexes.bolt")
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut")
	os.MkdirAll(cut, 0o755)
	b, _ := os.ReadFile(file)
	os.WriteFile(filepath.Join(cut, "indexes.bolt"), b[:st.Size()/2], 0o644)
	foreign := filepath.Join(t.TempDir(), "foreign")
	os.MkdirAll(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "indexes.bolt"), bytes.Repeat([]byte("not a database\n"), 1000), 0o644)
	for _, d := range []string{cut, foreign} {
		for _, ro := range []bool{false, true} {
			if _, err := graph.Open(context.Background(), d, graph.Options{ReadOnly: ro}); !errors.Is(err, graph.ErrDamaged) {
				t.Errorf("open %s (read-only %v): %v, want ErrDamaged", filepath.Base(d), ro, err)
			}
		}
	}
}

// TestCorruptPages writes random bytes over random pages of a built store
// (never the meta pages) and reads it as the commands do: open, check,
// stats, export, a Gizmo query (which Cayley runs in goroutines of its
// own). Each may fail, with an error; none may panic.
func TestCorruptPages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "g")
	s := open(t, dir)
	load(t, s, sample())
	s.Close()
	sound, err := os.ReadFile(filepath.Join(dir, "indexes.bolt"))
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	pages := len(sound) / page
	for seed := range uint64(30) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			b := slices.Clone(sound)
			for range 1 + rng.IntN(3) {
				p := 2 + rng.IntN(pages-2)
				off := p*page + rng.IntN(page-64)
				for i := range 1 + rng.IntN(64) {
					b[off+i] = byte(rng.Uint32())
				}
			}
			d := filepath.Join(t.TempDir(), "g")
			os.MkdirAll(d, 0o755)
			if err := os.WriteFile(filepath.Join(d, "indexes.bolt"), b, 0o644); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			st, err := graph.Open(ctx, d, graph.Options{ReadOnly: true})
			if err != nil {
				t.Logf("open refused: %v", err)
				return // refused: fine
			}
			defer st.Close()
			// stats and export do not check first: whatever check found,
			// they must end with an error or a result.
			r, err := st.Check(ctx)
			_, err1 := st.Stats(ctx)
			_, err2 := st.Export(ctx, io.Discard, graph.NQuads)
			_, err3 := st.Export(ctx, io.Discard, graph.CSV)
			var err4 error
			for _, qerr := range st.Query(ctx, "gizmo", `g.V().Out().All()`, 0) {
				if qerr != nil {
					err4 = qerr
				}
			}
			t.Logf("check %v %.80q; stats %v; export %v; %v; query %v", err, r.Problems, err1, err2, err3, err4)
		})
	}
}

// builtStore builds a store of n generated captions in a directory of its
// own, closed, and returns the directory and the extractions.
func builtStore(t *testing.T, n int) (string, []extract.Extraction) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "g")
	s := open(t, dir)
	defer s.Close()
	xs, err := synth.Extractions(3, 0, n)
	if err != nil {
		t.Fatal(err)
	}
	load(t, s, xs)
	return dir, xs
}

// queryErr runs a Gizmo program on s and returns the error it ended with.
func queryErr(ctx context.Context, s *graph.Store, prog string) (err error) {
	for _, qerr := range s.Query(ctx, "gizmo", prog, 0) {
		if qerr != nil {
			err = qerr
		}
	}
	return err
}

// TestShrunkUnderReaders cuts the store file to a third while a reader
// has it open, as a user's copy or a full disk might: the pages past the
// new end fault (SIGBUS) when read. Every read must end with an error or a
// result, and the process must go on.
func TestShrunkUnderReaders(t *testing.T) {
	dir, _ := builtStore(t, 400)
	ctx := context.Background()
	r, err := graph.Open(ctx, dir, graph.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	file := filepath.Join(dir, "indexes.bolt")
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(file, st.Size()/3); err != nil {
		t.Fatal(err)
	}
	_, err1 := r.Stats(ctx)
	_, err2 := r.Export(ctx, io.Discard, graph.NQuads)
	err3 := queryErr(ctx, r, `g.V().Out().In().All()`)
	// Once a read has met the cut, no answer comes from the rest: Cayley
	// reads what it cannot read as nothing, which would be a wrong count.
	for what, err := range map[string]error{"stats": err1, "export": err2, "query": err3} {
		if !errors.Is(err, graph.ErrDamaged) {
			t.Errorf("%s: %v, want ErrDamaged from a store cut under its reader", what, err)
		}
	}
}

// TestZeroedPages zeroes 16 pages spread through a built store, the size
// unchanged, as a failing disk might: check reports damage, and stats,
// export, a query that reads the whole graph and a build all fail with
// ErrDamaged; none reports success, and none panics.
func TestZeroedPages(t *testing.T) {
	dir, xs := builtStore(t, 400)
	file := filepath.Join(dir, "indexes.bolt")
	f, err := os.OpenFile(file, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := f.Stat()
	const page = 4096
	pages := st.Size() / page
	for i := range int64(16) {
		if _, err := f.WriteAt(make([]byte, page), (4+i*(pages-4)/16)*page); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()

	ctx := context.Background()
	r, err := graph.Open(ctx, dir, graph.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("open: %v (the meta pages are whole)", err)
	}
	rep, err := r.Check(ctx)
	if err != nil || len(rep.Problems) == 0 {
		t.Errorf("check: %v, problems %q; want the damage reported", err, rep.Problems)
	}
	_, err1 := r.Stats(ctx)
	_, err2 := r.Export(ctx, io.Discard, graph.NQuads)
	_, err3 := r.Export(ctx, io.Discard, graph.Turtle)
	err4 := queryErr(ctx, r, `g.V().Out().All()`)
	r.Close()
	w := open(t, dir)
	_, err5 := w.Load(ctx, seq(xs[:20]), testLoad)
	w.Close()
	for what, err := range map[string]error{"stats": err1, "export nq": err2, "export ttl": err3, "query": err4, "build": err5} {
		if !errors.Is(err, graph.ErrDamaged) {
			t.Errorf("%s: %v, want ErrDamaged", what, err)
		}
	}
}

// TestOrphanedChainCollected replaces captions whose places' admin chains
// now name gazetteer nodes where they named path nodes: every old path
// node goes, including a province held only by districts that go in the
// same batch (the province was checked, still held, before them).
func TestOrphanedChainCollected(t *testing.T) {
	place := func(i int, resolved bool) extract.Extraction {
		dist := fmt.Sprintf("District %d", i)
		e := extract.Entity{ID: fmt.Sprintf("place:geonames:%d", 100+i), Text: "Town", Type: extract.Place, End: 4,
			GeoNamesID: 100 + i, FeatureClass: "P", FeatureCode: "PPL", Country: "XX", Admin: []string{"Xland", "Prov", dist}}
		if resolved {
			e.AdminAreas = []extract.AdminArea{
				{ID: "place:geonames:1", Name: "Xland", GeoNamesID: 1, FeatureClass: "A", FeatureCode: "PCLI"},
				{ID: "place:adm1:XX.01", Name: "Prov", FeatureClass: "A", FeatureCode: "ADM1"},
				{ID: "", Name: dist},
			}
			if i%2 == 0 {
				e.AdminAreas[2] = extract.AdminArea{ID: fmt.Sprintf("place:adm2:XX.01.%d", i), Name: dist, FeatureClass: "A", FeatureCode: "ADM2"}
			}
		}
		return extract.Extraction{ID: fmt.Sprint("c", i), Text: "Town", Entities: []extract.Entity{e}}
	}
	var old, now []extract.Extraction
	for i := range 12 {
		old, now = append(old, place(i, false)), append(now, place(i, true))
	}
	upgraded := open(t, "")
	defer upgraded.Close()
	load(t, upgraded, old)
	load(t, upgraded, now)
	fresh := open(t, "")
	defer fresh.Close()
	load(t, fresh, now)
	if got, want := lineSet(export(t, upgraded, graph.NQuads)), lineSet(export(t, fresh, graph.NQuads)); !slices.Equal(got, want) {
		t.Errorf("replaced store holds %d lines, a fresh one %d; path nodes left: %q", len(got), len(want), slices.DeleteFunc(got, func(l string) bool { return !strings.Contains(l, "/place/admin/") || slices.Contains(want, l) }))
	}
}
