package photoindex

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/extract/synth"
	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/graph/model"
)

func TestParseDate(t *testing.T) {
	tests := []struct {
		in          string
		precision   Precision
		first, last string
	}{
		{"2016-03-05", Day, "2016-03-05", "2016-03-05"},
		{"2016-02", Month, "2016-02-01", "2016-02-29"},
		{"2016-12", Month, "2016-12-01", "2016-12-31"},
		{"2016", Year, "2016-01-01", "2016-12-31"},
		{"--05-19", Undated, "", ""},
		{"", Undated, "", ""},
		{"2016-13", Undated, "", ""},
		{"2016-02-30", Undated, "", ""},
		{"0000", Undated, "", ""},
		{"abcd", Undated, "", ""},
	}
	for _, tt := range tests {
		d := ParseDate(tt.in)
		if d.Precision != tt.precision || d.Lexical != tt.in {
			t.Errorf("ParseDate(%q) = %+v, want precision %d", tt.in, d, tt.precision)
			continue
		}
		if tt.precision == Undated {
			continue
		}
		if f, l := ParseDate(tt.first), ParseDate(tt.last); d.First != f.First || d.Last != l.First {
			t.Errorf("ParseDate(%q): days %d-%d, want %s (%d) to %s (%d)", tt.in, d.First, d.Last, tt.first, f.First, tt.last, l.First)
		}
	}
}

// testStore is a store of the project's example captions and 1,500
// generated ones, built once; testExport is its N-Quads export.
var testStore = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "capgraph-photoindex-")
	if err != nil {
		return "", err
	}
	ctx := context.Background()
	s, err := graph.Open(ctx, dir, graph.Options{})
	if err != nil {
		return dir, err
	}
	defer s.Close()
	x, err := extract.New()
	if err != nil {
		return dir, err
	}
	opts := graph.LoadOptions{ExtractorVersion: extract.Version}
	for _, name := range []string{"../../../../../../examples/captions.jsonl", "../../../../../../extract/testdata/wire.jsonl"} {
		f, err := os.Open(name)
		if err != nil {
			return dir, err
		}
		rd := extract.NewReader(f, extract.ReaderOptions{Name: filepath.Base(name)})
		_, err = s.Load(ctx, x.ExtractAll(ctx, rd.All(), 1), opts)
		f.Close()
		if err != nil {
			return dir, err
		}
	}
	xs, err := synth.Extractions(7, 0, 1500)
	if err != nil {
		return dir, err
	}
	_, err = s.Load(ctx, func(yield func(extract.Extraction, error) bool) {
		for _, x := range xs {
			if !yield(x, nil) {
				return
			}
		}
	}, opts)
	return dir, err
})

func TestMain(m *testing.M) {
	code := m.Run()
	if dir, _ := testStore(); dir != "" {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// built returns the index of the test store and the store.
func built(t *testing.T) (*Index, *graph.Store) {
	t.Helper()
	dir, err := testStore()
	if err != nil {
		t.Fatal(err)
	}
	s, err := graph.Open(context.Background(), dir, graph.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ix, err := Build(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return ix, s
}

// fromExport is what the export says about the photos, computed without
// the index: each photo's links and date, and the places within each place.
type fromExport struct {
	links  map[string][]string // photo -> entities, as the caption graph links them
	dates  map[string]string
	within map[string][]string // place -> places that hold it (the containment graph)
}

func readExport(t *testing.T, s *graph.Store) fromExport {
	t.Helper()
	var buf bytes.Buffer
	if _, err := s.Export(context.Background(), &buf, graph.NQuads); err != nil {
		t.Fatal(err)
	}
	ex := fromExport{links: map[string][]string{}, dates: map[string]string{}, within: map[string][]string{}}
	linking := map[graph.Term]bool{}
	for _, p := range []string{string(model.SchemaAbout), string(model.SchemaMentions), string(model.SchemaContentLocation), string(model.SchemaCreator), string(model.SchemaSourceOrg)} {
		linking[graph.IRI(p)] = true
	}
	for q, err := range graph.ReadNQuads(&buf) {
		if err != nil {
			t.Fatal(err)
		}
		subj, p := q.Subject.Value, q.Predicate
		switch {
		case p == rdfType && q.Object == schemaPhoto:
			if _, ok := ex.links[subj]; !ok {
				ex.links[subj] = []string{}
			}
		case linking[p]:
			ex.links[subj] = append(ex.links[subj], q.Object.Value)
		case p == schemaDate:
			ex.dates[subj] = q.Object.Value
		case p == graph.IRI(string(model.CapgraphWithin)):
			ex.within[subj] = append(ex.within[subj], q.Object.Value)
		}
	}
	return ex
}

// selects reports whether the export's photo p passes f.
func (ex fromExport) selects(p string, f Filter) bool {
	if f.From != "" || f.To != "" {
		d := ParseDate(ex.dates[p])
		if d.Precision == Undated || f.From != "" && d.First < ParseDate(f.From).First || f.To != "" && d.Last > ParseDate(f.To).Last {
			return false
		}
	}
	for _, e := range f.Entities {
		if !ex.linked(p, e) {
			return false
		}
	}
	return true
}

// linked reports whether photo p links to e or to a place within e.
func (ex fromExport) linked(p, e string) bool {
	for _, l := range ex.links[p] {
		if l == e || slices.Contains(ex.within[l], e) {
			return true
		}
	}
	return false
}

// TestIndexAgainstExport holds the index's selections, counts and
// timelines to the same figures computed from the N-Quads export.
func TestIndexAgainstExport(t *testing.T) {
	ix, s := built(t)
	ex := readExport(t, s)
	if ix.Len() != len(ex.links) {
		t.Fatalf("index has %d photos, export %d", ix.Len(), len(ex.links))
	}
	entities := map[string]bool{}
	for _, ls := range ex.links {
		for _, e := range ls {
			entities[e] = true
		}
	}
	for holders := range maps.Values(ex.within) {
		for _, h := range holders {
			entities[h] = true
		}
	}
	sorted := slices.Sorted(maps.Keys(entities))
	for _, e := range sorted {
		want := 0
		for p := range ex.links {
			if ex.linked(p, e) {
				want++
			}
		}
		if got := ix.PhotoCount(e); got != want {
			t.Errorf("%s: %d photos, want %d", e, got, want)
		}
	}

	rng := rand.New(rand.NewPCG(1, 2))
	ranges := []Range{{}, {From: "2014"}, {To: "2015-06"}, {From: "2013-02", To: "2013-02"}, {From: "2016-03-01", To: "2016-03-31"}}
	for range 60 {
		f := Filter{Range: ranges[rng.IntN(len(ranges))]}
		for range rng.IntN(3) {
			f.Entities = append(f.Entities, sorted[rng.IntN(len(sorted))])
		}
		sel, err := ix.Select(f)
		if err != nil {
			t.Fatal(err)
		}
		var got, want []string
		for _, i := range sel {
			got = append(got, ix.Photo(i).IRI)
		}
		related := map[string]int{}
		months := map[string]int{}
		for p := range ex.links {
			if !ex.selects(p, f) {
				continue
			}
			want = append(want, p)
			for _, l := range ex.links[p] {
				if !slices.Contains(f.Entities, l) {
					related[l]++
				}
			}
			if d := ParseDate(ex.dates[p]); d.Precision >= Month {
				months[d.Lexical[:7]]++
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%+v: selected %d photos, want %d", f, len(got), len(want))
			continue
		}
		byKind, distinct := ix.Related(sel, 1<<20, f.Entities...)
		n := 0
		for kind, cs := range byKind {
			n += len(cs)
			if distinct[kind] != len(cs) {
				t.Errorf("%+v: %d %s, %d counted", f, len(cs), kind, distinct[kind])
			}
			for _, c := range cs {
				if related[c.IRI] != c.Photos {
					t.Errorf("%+v: %s shares %d photos, want %d", f, c.IRI, c.Photos, related[c.IRI])
				}
			}
		}
		if n != len(related) {
			t.Errorf("%+v: %d related entities, want %d", f, n, len(related))
		}
		tl := ix.TimelineOf(sel)
		for k, m := range tl.Months {
			if m.Photos != months[m.Month] {
				t.Errorf("%+v: %s has %d photos, want %d", f, m.Month, m.Photos, months[m.Month])
			}
			if k > 0 && ParseDate(m.Month).First != ParseDate(tl.Months[k-1].Month).Last+1 {
				t.Errorf("%+v: %s follows %s", f, m.Month, tl.Months[k-1].Month)
			}
		}
	}
}

// TestFiltersCompose: a filter of several parts selects what each part
// selects alone, and the selection is in date order.
func TestFiltersCompose(t *testing.T) {
	ix, _ := built(t)
	rng := rand.New(rand.NewPCG(3, 4))
	var common []string
	for _, e := range ix.entities {
		if ix.PhotoCount(e.IRI) >= 20 {
			common = append(common, e.IRI)
		}
	}
	for range 100 {
		a := Filter{Range: Range{From: "2013"}, Entities: []string{common[rng.IntN(len(common))]}}
		b := Filter{Range: Range{To: "2018-06-30"}, Entities: []string{common[rng.IntN(len(common))]}}
		both := Filter{Range: Range{From: a.From, To: b.To}, Entities: append(slices.Clone(a.Entities), b.Entities...)}
		sa, _ := ix.Select(a)
		sb, _ := ix.Select(b)
		got, err := ix.Select(both)
		if err != nil {
			t.Fatal(err)
		}
		var want []int32
		for _, i := range sa {
			if _, ok := slices.BinarySearch(sb, i); ok {
				want = append(want, i)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%+v and %+v: %d photos, want %d", a, b, len(got), len(want))
		}
		for k := 1; k < len(got); k++ {
			if ix.Photo(got[k-1]).Date.compare(ix.Photo(got[k]).Date) > 0 {
				t.Errorf("%+v: photo %d is dated before photo %d", both, got[k], got[k-1])
			}
		}
	}
	if _, err := ix.Select(Filter{Range: Range{From: "March"}}); err == nil {
		t.Error("from=March: no error")
	}
}

// TestSelectCaptions: caption ids select their photos, any one of them,
// and compose with the other parts of a filter.
func TestSelectCaptions(t *testing.T) {
	ix, _ := built(t)
	last := int32(len(ix.photos) - 1)
	ids := []string{ix.Photo(last).CaptionID, ix.Photo(0).CaptionID, ix.Photo(0).CaptionID, "no-such-caption"}
	got, err := ix.Select(Filter{Captions: ids})
	if err != nil || !slices.Equal(got, []int32{0, last}) {
		t.Errorf("Select(captions %q) = %v, %v; want [0 %d]", ids, got, err, last)
	}
	links := ix.Links(0)
	if len(links) == 0 {
		t.Fatal("photo 0 links to nothing")
	}
	got, _ = ix.Select(Filter{Captions: ids, Entities: []string{links[0].IRI}})
	if !slices.Contains(got, 0) {
		t.Errorf("photo 0 with its own entity %s: %v", links[0].IRI, got)
	}
	if got, _ := ix.Select(Filter{Captions: []string{"no-such-caption"}}); len(got) != 0 {
		t.Errorf("an unknown caption selects %v", got)
	}
}

func TestSearch(t *testing.T) {
	ix, _ := built(t)
	// Two places are named Aleppo: the governorate, with more photos, and
	// the city within it.
	const aleppo = "https://capgraph.org/id/place/geonames/170063"
	const governorate = "https://capgraph.org/id/place/adm1/SY.09"
	tests := []struct {
		q         string
		wantFirst string
		score     float64
	}{
		{"Aleppo", governorate, scoreExact},
		{"ALEPPO", governorate, scoreExact},
		{"aleppo ", governorate, scoreExact},
		{"Alepp", governorate, scorePrefix},
		{"ex-001", "https://capgraph.org/id/photo/ex-001", scoreCaptionID},
	}
	for _, tt := range tests {
		hits := ix.Search(tt.q, 20)
		if len(hits) == 0 || hits[0].IRI != tt.wantFirst || hits[0].Score != tt.score {
			t.Errorf("Search(%q): %+v, want %s first with score %v", tt.q, hits[:min(len(hits), 3)], tt.wantFirst, tt.score)
			continue
		}
		seen := map[string]bool{}
		for _, h := range hits {
			if seen[h.IRI] {
				t.Errorf("Search(%q): %s twice", tt.q, h.IRI)
			}
			seen[h.IRI] = true
			if len(h.Spellings) == 0 {
				t.Errorf("Search(%q): %s with no spelling", tt.q, h.IRI)
			}
		}
	}
	hits := ix.Search("Aleppo", 2)
	if len(hits) != 2 || hits[1].IRI != aleppo {
		t.Fatalf("Search(Aleppo): %+v, want the governorate and the city", hits)
	}
	if g, c := hits[0], hits[1]; g.Context != "administrative area, Syria" || c.Context != "Aleppo, Syria" ||
		g.Photos != ix.PhotoCount(governorate) || c.Photos != ix.PhotoCount(aleppo) || g.Photos <= c.Photos {
		t.Errorf("Aleppos: %q with %d photos and %q with %d; want the governorate's context, then the city's, with their photo counts",
			g.Context, g.Photos, c.Context, c.Photos)
	}
	if hits := ix.Search("zzzqx", 20); len(hits) != 0 {
		t.Errorf("Search(zzzqx): %+v", hits)
	}
	hits, ok := ix.AddHit(nil, aleppo, "Halab", 85)
	if !ok || len(hits) != 1 || hits[0].Spellings[0] != "Halab" {
		t.Errorf("AddHit: %+v %v", hits, ok)
	}
}

// FuzzParseDate: any text parses without a panic, to an undated date or to
// an interval of one day, month or year that holds its own first day.
func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2016-03-05", "2016-03", "2016", "--05-19", "0001-01-01", "9999-12", "2016-3-5", "２０１６"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := ParseDate(s)
		if d.Lexical != s {
			t.Fatalf("ParseDate(%q).Lexical = %q", s, d.Lexical)
		}
		if d.Precision == Undated {
			return
		}
		span := d.Last - d.First + 1
		ok := map[Precision]bool{Day: span == 1, Month: span >= 28 && span <= 31, Year: span == 365 || span == 366}
		if !ok[d.Precision] {
			t.Fatalf("ParseDate(%q): %d days at precision %d", s, span, d.Precision)
		}
		if m, ok := d.month(); d.Precision >= Month && (!ok || ParseDate(monthString(m)).First > d.First) {
			t.Fatalf("ParseDate(%q): month %d", s, m)
		}
	})
}

// TestSnapshot: an index read back from what Write saved answers as the
// index built from the store; another version, or damaged bytes, is an
// error.
func TestSnapshot(t *testing.T) {
	ix, _ := built(t)
	var buf bytes.Buffer
	if err := ix.Write(&buf, "v1"); err != nil {
		t.Fatal(err)
	}
	saved := buf.Bytes()
	back, err := Read(bytes.NewReader(saved), "v1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, ix) {
		t.Error("the index read back differs from the one saved")
	}
	for _, q := range []string{"Aleppo", "ex-001", "al", "Reuters"} {
		if a, b := ix.Search(q, 20), back.Search(q, 20); !reflect.DeepEqual(a, b) {
			t.Errorf("Search(%q): %v read back, %v built", q, b, a)
		}
	}
	if _, err := Read(bytes.NewReader(saved), "v2"); !errors.Is(err, ErrStale) {
		t.Errorf("another version: %v, want ErrStale", err)
	}
	for _, cut := range []int{0, 1, len(saved) / 2, len(saved) - 1} {
		if _, err := Read(bytes.NewReader(saved[:cut]), "v1"); err == nil {
			t.Errorf("the first %d of %d bytes read as an index", cut, len(saved))
		}
	}
}
