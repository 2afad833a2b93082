package web

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/capgraph/capgraph/cmd/capgraph/internal/web/internal/photoindex"
	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/queries"
)

// newResearchServer is the fixture server with its photo index built.
func newResearchServer(t testing.TB) *Server {
	t.Helper()
	srv := newFixtureServer(t, Options{})
	if err := srv.BuildPhotoIndex(context.Background()); err != nil {
		t.Fatal(err)
	}
	return srv
}

// biggest returns the entity of kind with the most photos in srv's index.
func biggest(t *testing.T, srv *Server, kind string) string {
	t.Helper()
	ix := srv.photos.Load()
	sel, _ := ix.Select(photoindex.Filter{})
	byKind, _ := ix.Related(sel, 1)
	if len(byKind[kind]) == 0 {
		t.Fatalf("no %s in the fixture", kind)
	}
	return byKind[kind][0].IRI
}

func TestSummary(t *testing.T) {
	srv := newResearchServer(t)
	place, group := biggest(t, srv, "place"), biggest(t, srv, "group")
	q := func(kv ...string) string {
		v := url.Values{}
		for i := 0; i < len(kv); i += 2 {
			v.Add(kv[i], kv[i+1])
		}
		return v.Encode()
	}
	tests := []struct {
		target string
		code   int
		errHas string
	}{
		{"/api/summary?" + q("iri", place), 200, ""},
		{"/api/summary?" + q("iri", "<"+place+">", "limit", "1", "order", "desc", "top", "2"), 200, ""},
		{"/api/summary?" + q("iri", place, "group", group, "from", "2012", "to", "2020-12-31"), 200, ""},
		{"/api/summary", 400, "missing parameter iri"},
		{"/api/summary?" + q("iri", "https://capgraph.org/id/place/nowhere"), 404, "no photo is linked"},
		{"/api/summary?" + q("iri", place, "from", "March"), 400, "from:"},
		{"/api/summary?" + q("iri", place, "group", place), 400, "is a place, not a group"},
		{"/api/summary?" + q("iri", place, "person", "x"), 400, "person:"},
		{"/api/summary?" + q("iri", place, "limit", "0"), 400, "limit:"},
		{"/api/summary?" + q("iri", place, "limit", "101"), 400, "limit:"},
		{"/api/summary?" + q("iri", place, "offset", "-1"), 400, "offset:"},
		{"/api/summary?" + q("iri", place, "order", "up"), 400, "order:"},
		{"/api/summary?" + q("iri", place, "top", "1000"), 400, "top:"},
		{"/api/photos?" + q("place", place, "limit", "5"), 200, ""},
		{"/api/photos?" + q("agency", place), 400, "not a agency"},
		{"/api/photos?" + q("caption", "ex-001", "caption", "ex-002"), 200, ""},
		{"/api/photos?" + q("caption", "no-such-caption"), 400, "caption: no caption"},
		{"/api/summary?" + q("iri", place, "org", place), 400, "is a place, not a org"},
	}
	for _, tt := range tests {
		w := request(srv, "GET", tt.target, "", nil)
		if w.Code != tt.code || !strings.Contains(w.Body.String(), tt.errHas) {
			t.Errorf("%s: %d %.300s, want %d with %q", tt.target, w.Code, w.Body, tt.code, tt.errHas)
		}
	}

	// A summary counts the photos its captions page through, and marks
	// the place's spans in them.
	var sum Summary
	w := request(srv, "GET", "/api/summary?"+q("iri", place, "limit", "100"), "", nil)
	if err := json.Unmarshal(w.Body.Bytes(), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Photos == 0 || sum.Captions.Total != sum.Photos || len(sum.Captions.Items) != min(sum.Photos, 100) {
		t.Errorf("summary of %s: %d photos, %d captions of %d", place, sum.Photos, len(sum.Captions.Items), sum.Captions.Total)
	}
	marked := 0
	for _, c := range sum.Captions.Items {
		for _, m := range c.Mentions {
			if got := string([]rune(c.Text)[m.Start:m.End]); got != m.Anchor {
				t.Errorf("%s: span %d-%d is %q, anchor %q", c.ID, m.Start, m.End, got, m.Anchor)
			}
			marked++
		}
	}
	if marked == 0 {
		t.Errorf("summary of %s: no caption marks a mention", place)
	}
	if _, ok := sum.Related["place"]; !ok && sum.Distinct["place"] > 0 {
		t.Errorf("summary of %s: %d places counted, none listed", place, sum.Distinct["place"])
	}
}

// TestSummaryBeforeIndex: the research routes answer 503 with Retry-After
// until the photo index is built, and filtered places until the search
// index, which has their coordinates, is built too.
func TestSummaryBeforeIndex(t *testing.T) {
	srv := newFixtureServer(t, Options{})
	noSearchIndex, err := New(openFixture(t), Options{Hosts: []string{"example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := noSearchIndex.BuildPhotoIndex(context.Background()); err != nil {
		t.Fatal(err)
	}
	if w := request(noSearchIndex, "GET", "/api/places?from=2012", "", nil); w.Code != http.StatusServiceUnavailable {
		t.Errorf("filtered places before the search index: %d %s", w.Code, w.Body)
	}
	for _, target := range []string{"/api/summary?iri=x:y", "/api/photos", "/api/export?format=nq&from=2012", "/api/places?from=2012"} {
		w := request(srv, "GET", target, "", nil)
		if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
			t.Errorf("%s before the photo index: %d, Retry-After %q", target, w.Code, w.Header().Get("Retry-After"))
		}
	}
}

// TestFilteredExport: an export under a filter parses, and holds the
// graphs of exactly the captions the filter selects, each as the whole
// export has it.
func TestFilteredExport(t *testing.T) {
	srv := newResearchServer(t)
	place := biggest(t, srv, "place")
	ix := srv.photos.Load()
	sel, err := ix.Select(photoindex.Filter{Entities: []string{place}})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, i := range sel {
		want = append(want, strings.Replace(ix.Photo(i).IRI, "/photo/", "/graph/", 1))
	}
	slices.Sort(want)

	target := "/api/export?format=nq&place=" + url.QueryEscape(place)
	head := httptest.NewRecorder()
	srv.ServeHTTP(head, httptest.NewRequest("HEAD", target, nil))
	if got := head.Header().Get("X-Capgraph-Captions"); got != strconv.Itoa(len(sel)) {
		t.Errorf("HEAD %s: X-Capgraph-Captions %q, want %d", target, got, len(sel))
	}
	w := request(srv, "GET", target, "", nil)
	if w.Code != 200 {
		t.Fatalf("%s: %d %.300s", target, w.Code, w.Body)
	}
	filtered := graphsOf(t, w.Body)
	whole := graphsOf(t, exportAll(t, srv.store))
	var got []string
	for g, quads := range filtered {
		if !strings.Contains(g, "/graph/") {
			continue
		}
		got = append(got, g)
		if !slices.Equal(quads, whole[g]) {
			t.Errorf("%s: %d quads in the filtered export, %d in the whole", g, len(quads), len(whole[g]))
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("filtered export holds %d caption graphs, want %d: %q, want %q", len(got), len(want), got, want)
	}
	if len(filtered) >= len(whole) {
		t.Errorf("filtered export has %d graphs, the whole %d", len(filtered), len(whole))
	}
}

// graphsOf parses N-Quads into each graph's sorted lines.
func graphsOf(t *testing.T, r io.Reader) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for q, err := range graph.ReadNQuads(r) {
		if err != nil {
			t.Fatal(err)
		}
		out[q.Graph.Value] = append(out[q.Graph.Value], fmt.Sprint(q.Subject, q.Predicate, q.Object))
	}
	for _, lines := range out {
		slices.Sort(lines)
	}
	return out
}

func exportAll(t *testing.T, s *graph.Store) io.Reader {
	var buf bytes.Buffer
	if _, err := s.Export(context.Background(), &buf, graph.NQuads); err != nil {
		t.Fatal(err)
	}
	return &buf
}

// TestSearchFromPhotoIndex: once the photo index is built, a search gives
// one hit per entity with its photo count, its context and the spellings
// that matched, and finds a place by a transliteration the store lacks.
func TestSearchFromPhotoIndex(t *testing.T) {
	srv := newResearchServer(t)
	for _, q := range []string{"Aleppo", "Halab", "idlib", "Reuters"} {
		w := request(srv, "GET", "/api/search?q="+url.QueryEscape(q), "", nil)
		var res struct{ Hits []Hit }
		if err := json.Unmarshal(w.Body.Bytes(), &res); err != nil || w.Code != 200 {
			t.Fatalf("search %q: %d %v", q, w.Code, err)
		}
		if len(res.Hits) == 0 {
			t.Errorf("search %q: no hits", q)
			continue
		}
		seen := map[string]bool{}
		for _, h := range res.Hits {
			if seen[h.IRI] || h.Photos == 0 || len(h.Spellings) == 0 || h.Match != h.Spellings[0] {
				t.Errorf("search %q: hit %+v (seen before: %v)", q, h, seen[h.IRI])
			}
			seen[h.IRI] = true
		}
		if h := res.Hits[0]; h.Kind == "place" && h.Context == "" {
			t.Errorf("search %q: place %s without context", q, h.IRI)
		}
		if h := res.Hits[0]; q == "Halab" && (h.Label != "Aleppo" || h.Match != "Halab") {
			t.Errorf("search Halab: first hit %+v, want an Aleppo matched as Halab", h)
		}
	}
}

// TestSavedQueryResults: a saved query's rows can be sorted by a column
// and paged, and come with the labels of the IRIs they hold.
func TestSavedQueryResults(t *testing.T) {
	srv := newFixtureServer(t, Options{Queries: SavedQueries(queries.Builtin(), nil)})
	all := request(srv, "GET", "/api/queries/people/run", "", nil)
	var whole QueryResult
	if err := json.Unmarshal(all.Body.Bytes(), &whole); err != nil || all.Code != 200 {
		t.Fatalf("people: %d %v", all.Code, err)
	}
	if whole.Total != len(whole.Rows) || whole.Total < 3 {
		t.Fatalf("people: total %d, %d rows", whole.Total, len(whole.Rows))
	}
	for _, row := range whole.Rows {
		if iri := row["person"].(string); whole.Labels[iri] != row["label"] {
			t.Errorf("label of %s: %q, the query says %q", iri, whole.Labels[iri], row["label"])
		}
	}
	w := request(srv, "GET", "/api/queries/people/run?_sort=photos&_order=desc&_offset=1&_limit=2", "", nil)
	var page QueryResult
	if err := json.Unmarshal(w.Body.Bytes(), &page); err != nil || w.Code != 200 {
		t.Fatalf("people, a page: %d %v %s", w.Code, err, w.Body)
	}
	counts := []float64{}
	for _, row := range whole.Rows {
		counts = append(counts, row["photos"].(float64))
	}
	slices.SortFunc(counts, func(a, b float64) int { return cmp.Compare(b, a) })
	if page.Total != whole.Total || len(page.Rows) != 2 || page.Rows[0]["photos"] != counts[1] || page.Rows[1]["photos"] != counts[2] {
		t.Errorf("people sorted by photos, rows 2-3: %v (total %d); want photos %v", page.Rows, page.Total, counts[1:3])
	}
	for target, errHas := range map[string]string{
		"/api/queries/people/run?_sort=nope":  "_sort:",
		"/api/queries/people/run?_order=up":   "_order:",
		"/api/queries/people/run?_limit=0":    "_limit:",
		"/api/queries/people/run?_offset=-2":  "_offset:",
		"/api/queries/people/run?_offset=1e9": "_offset:",
	} {
		if w := request(srv, "GET", target, "", nil); w.Code != 400 || !strings.Contains(w.Body.String(), errHas) {
			t.Errorf("%s: %d %s, want 400 with %q", target, w.Code, w.Body, errHas)
		}
	}
	if w := request(srv, "GET", "/api/queries/people/run?_offset=100000", "", nil); w.Code != 200 || !strings.Contains(w.Body.String(), `"rows":[]`) {
		t.Errorf("offset past the end: %d %s", w.Code, w.Body)
	}
	_, err := New(openFixture(t), Options{Queries: []Query{{Name: "q", Params: []Param{{Name: "_limit"}}}}})
	if err == nil || !strings.Contains(err.Error(), "reserved") {
		t.Errorf("a saved query with a parameter named _limit: %v", err)
	}
}

// FuzzResearchParams: no query string makes the research routes fail
// with anything but a 400 or a 404.
func FuzzResearchParams(f *testing.F) {
	for _, s := range []string{"iri=https://capgraph.org/id/place/geonames/163843&from=2012&to=2013-02&limit=3",
		"place=%3Chttps://capgraph.org/id/place/geonames/163843%3E&group=x&order=desc&offset=5", "from=--05-19", "limit=1e400", "top=-1&iri="} {
		f.Add(s)
	}
	srv := newResearchServer(f)
	f.Fuzz(func(t *testing.T, query string) {
		for _, path := range []string{"/api/summary?", "/api/photos?"} {
			req := httptest.NewRequest("GET", "/", nil)
			req.URL.RawQuery = query
			req.URL.Path = strings.TrimSuffix(path, "?")
			w := httptest.NewRecorder()
			srv.ServeHTTP(w, req)
			if w.Code != 200 && w.Code != 400 && w.Code != 404 {
				t.Fatalf("%s%s: %d %s", path, query, w.Code, w.Body)
			}
		}
	})
}

// TestPhotoIndexFile: the photo index is saved beside the store and read
// back at the next start; a saved index of another version of the store
// is built again.
func TestPhotoIndexFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "photoindex.cache")
	var logs bytes.Buffer
	start := func() *Server {
		srv, err := New(openFixture(t), Options{PhotoIndexFile: file, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.BuildPhotoIndex(context.Background()); err != nil {
			t.Fatal(err)
		}
		return srv
	}
	built := start()
	if _, err := os.Stat(file); err != nil || !strings.Contains(logs.String(), "indexed photos") {
		t.Fatalf("first start: %v; logs %s", err, logs.String())
	}
	logs.Reset()
	read := start()
	if !strings.Contains(logs.String(), "read the photo index") || !reflect.DeepEqual(read.photos.Load(), built.photos.Load()) {
		t.Errorf("second start did not read the saved index as built: %s", logs.String())
	}
	var stale bytes.Buffer
	if err := built.photos.Load().Write(&stale, "another version"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, stale.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	logs.Reset()
	start()
	if !strings.Contains(logs.String(), "indexed photos") || strings.Contains(logs.String(), "unreadable") {
		t.Errorf("a stale saved index: %s", logs.String())
	}
	if err := os.WriteFile(file, []byte("not an index"), 0o644); err != nil {
		t.Fatal(err)
	}
	// What killed servers left half-written: an old one goes, a recent
	// one (another server's, being written) stays.
	old, recent := file+".new-1", file+".new-2"
	for _, name := range []string{old, recent} {
		if err := os.WriteFile(name, []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chtimes(old, time.Time{}, time.Now().Add(-2*staleAfter)); err != nil {
		t.Fatal(err)
	}
	logs.Reset()
	start()
	if !strings.Contains(logs.String(), "unreadable") || !strings.Contains(logs.String(), "indexed photos") {
		t.Errorf("a damaged saved index: %s", logs.String())
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("a killed server's half-written index is still there: %v", err)
	}
	if _, err := os.Stat(recent); err != nil {
		t.Errorf("a recent half-written index was removed: %v", err)
	}
}

// TestFilteredPlacesAndTimeline: the map's places and the timeline take
// the filters too, and count the photos the filter keeps.
func TestFilteredPlacesAndTimeline(t *testing.T) {
	srv := newResearchServer(t)
	group := biggest(t, srv, "group")
	ix := srv.photos.Load()
	sel, _ := ix.Select(photoindex.Filter{Entities: []string{group}})
	var places []Node
	w := request(srv, "GET", "/api/places?group="+url.QueryEscape(group), "", nil)
	if err := json.Unmarshal(w.Body.Bytes(), &places); err != nil || w.Code != 200 {
		t.Fatalf("places of %s: %d %v", group, w.Code, err)
	}
	var all []Node
	json.Unmarshal(request(srv, "GET", "/api/places", "", nil).Body.Bytes(), &all)
	if len(places) == 0 || len(places) >= len(all) {
		t.Errorf("places of %s: %d of %d", group, len(places), len(all))
	}
	// Unfiltered, every place is counted by the photos linked to it.
	direct := map[string]int{}
	everything, _ := ix.Select(photoindex.Filter{})
	for _, i := range everything {
		for _, e := range ix.Links(i) {
			direct[e.IRI]++
		}
	}
	for _, p := range all {
		if p.Photos != direct[p.IRI] {
			t.Errorf("place %s: %d photos, want %d", p.IRI, p.Photos, direct[p.IRI])
		}
	}
	for _, p := range places {
		want := 0
		for _, i := range sel {
			if slices.ContainsFunc(ix.Links(i), func(e photoindex.Entity) bool { return e.IRI == p.IRI }) {
				want++
			}
		}
		if p.Photos != want || p.Lat == nil {
			t.Errorf("place %s: %d photos (lat %v), want %d", p.IRI, p.Photos, p.Lat, want)
		}
	}
	var dates []DateCount
	w = request(srv, "GET", "/api/timeline?group="+url.QueryEscape(group)+"&from=2000", "", nil)
	if err := json.Unmarshal(w.Body.Bytes(), &dates); err != nil || w.Code != 200 {
		t.Fatalf("timeline of %s: %d %v", group, w.Code, err)
	}
	dated, _ := ix.Select(photoindex.Filter{Range: photoindex.Range{From: "2000"}, Entities: []string{group}})
	n := 0
	for _, d := range dates {
		n += d.Count
	}
	if n != len(dated) || n == 0 {
		t.Errorf("timeline of %s: %d photos, want %d", group, n, len(dated))
	}
	if w := request(srv, "GET", "/api/timeline?from=soon", "", nil); w.Code != 400 {
		t.Errorf("timeline from=soon: %d", w.Code)
	}
}
