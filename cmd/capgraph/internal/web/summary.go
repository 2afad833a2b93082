package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/capgraph/capgraph/cmd/capgraph/internal/web/internal/photoindex"
	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/graph/model"
)

// The research endpoints (summary, photos, filtered export) answer from
// the photo index (internal/photoindex), which BuildIndex reads once:
// selecting, counting and paging are passes over lists of integers, and
// only the captions of the page shown are read from the store.

// filterParams are the parameters that name an entity a photo must be
// linked to, and the kind each must be.
var filterParams = []struct{ param, kind string }{
	{"place", "place"}, {"group", "group"}, {"person", "person"},
	{"photographer", "photographer"}, {"agency", "agency"},
	{"org", "org"}, {"event", "event"},
}

// Paging of the captions of a list.
const (
	defaultPageSize = 10
	maxPageSize     = 100
	maxMentions     = 200 // mention nodes read per caption
	defaultTop      = 10
	maxTop          = 100
)

// errBadParam is a parameter the request got wrong (400).
type errBadParam struct{ msg string }

func (e errBadParam) Error() string { return e.msg }

func badParam(format string, args ...any) error { return errBadParam{fmt.Sprintf(format, args...)} }

// photoIndex returns the photo index, or answers 503 while it is built.
func (s *Server) photoIndex(w http.ResponseWriter) *photoindex.Index {
	ix := s.photos.Load()
	if ix == nil {
		w.Header().Set("Retry-After", "5")
		writeError(w, http.StatusServiceUnavailable, "the photo index is still being built; try again shortly")
	}
	return ix
}

// filtered reports whether q holds a filter parameter.
func filtered(q url.Values) bool {
	if q.Has("from") || q.Has("to") || q.Has("caption") {
		return true
	}
	for _, fp := range filterParams {
		if q.Has(fp.param) {
			return true
		}
	}
	return false
}

// filterOf reads the filter parameters: from and to (YYYY, YYYY-MM or
// YYYY-MM-DD, inclusive); place, group, person, photographer, agency, org
// and event, each an IRI of an entity of that kind, each repeatable; and
// caption, caption ids of which the photo's must be one. A photo is kept
// when all of them hold.
func filterOf(ix *photoindex.Index, q url.Values) (photoindex.Filter, error) {
	f := photoindex.Filter{Range: photoindex.Range{From: q.Get("from"), To: q.Get("to")}}
	if err := f.Check(); err != nil {
		return f, errBadParam{err.Error()}
	}
	for _, fp := range filterParams {
		for _, v := range q[fp.param] {
			iri := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(v), "<"), ">")
			e, ok := ix.Lookup(iri)
			if !ok {
				return f, badParam("%s: no photo is linked to %q", fp.param, iri)
			}
			if e.Kind != fp.kind {
				return f, badParam("%s: %s is a %s, not a %s", fp.param, iri, e.Kind, fp.kind)
			}
			f.Entities = append(f.Entities, iri)
		}
	}
	for _, id := range q["caption"] {
		if _, ok := ix.PhotoOf(id); !ok {
			return f, badParam("caption: no caption has the id %q", id)
		}
		f.Captions = append(f.Captions, id)
	}
	return f, nil
}

// selection returns the photos the request's filter keeps, or answers
// 503 or 400 and returns ok false.
func (s *Server) selection(w http.ResponseWriter, r *http.Request) (sel []int32, ix *photoindex.Index, ok bool) {
	if ix = s.photoIndex(w); ix == nil {
		return nil, nil, false
	}
	f, err := filterOf(ix, r.URL.Query())
	if err == nil {
		sel, err = ix.Select(f)
	}
	if err != nil {
		s.failParam(w, r, err)
		return nil, nil, false
	}
	return sel, ix, true
}

// A Page is a page of the captions of a selection, in date order.
type Page struct {
	Total  int       `json:"total"`
	Offset int       `json:"offset"`
	Limit  int       `json:"limit"`
	Order  string    `json:"order"` // asc (oldest first) or desc
	Items  []Caption `json:"items"`
}

// pageOf reads offset, limit and order.
func pageOf(q url.Values) (Page, error) {
	p := Page{Limit: defaultPageSize, Order: "asc", Items: []Caption{}}
	var err error
	if v := q.Get("offset"); v != "" {
		if p.Offset, err = strconv.Atoi(v); err != nil || p.Offset < 0 {
			return p, badParam("offset: %q is not a count", v)
		}
	}
	if v := q.Get("limit"); v != "" {
		if p.Limit, err = strconv.Atoi(v); err != nil || p.Limit < 1 || p.Limit > maxPageSize {
			return p, badParam("limit: %q is not between 1 and %d", v, maxPageSize)
		}
	}
	desc, err := descending(q, "order")
	if desc {
		p.Order = "desc"
	}
	return p, err
}

// descending reads the order parameter name: asc (or none) or desc.
func descending(q url.Values, name string) (bool, error) {
	switch v := q.Get(name); v {
	case "", "asc":
		return false, nil
	case "desc":
		return true, nil
	default:
		return false, badParam("%s: %q is not asc or desc", name, v)
	}
}

// fill reads the captions of page p of sel from the store, with the spans
// that mention one of highlight.
func (p *Page) fill(ctx context.Context, s *graph.Store, ix *photoindex.Index, sel []int32, highlight map[string]bool) error {
	p.Total = len(sel)
	for k := p.Offset; k < p.Offset+p.Limit && k < len(sel); k++ {
		i := sel[k]
		if p.Order == "desc" {
			i = sel[len(sel)-1-k]
		}
		c, err := captionOf(ctx, s, ix, i, highlight)
		if err != nil {
			return err
		}
		p.Items = append(p.Items, c)
	}
	return nil
}

// captionOf reads the caption of photo i: its text, date and credit, and
// the spans of its mentions of the entities in highlight.
func captionOf(ctx context.Context, s *graph.Store, ix *photoindex.Index, i int32, highlight map[string]bool) (Caption, error) {
	ph := ix.Photo(i)
	r := &reader{store: s, budget: 1 << 20}
	p, err := r.props(ctx, graph.IRI(ph.IRI), schemaCaption, schemaCreditText)
	if err != nil {
		return Caption{}, err
	}
	c := Caption{ID: ph.CaptionID, Photo: ph.IRI, Text: label(p[schemaCaption]), Date: ph.Date.Lexical,
		Credit: label(p[schemaCreditText]), Mentions: []Mention{}, Entities: ix.Links(i)}
	if c.Credit == "" {
		var who, agency []string
		for _, e := range c.Entities {
			switch e.Kind {
			case "photographer":
				who = append(who, e.Label)
			case "agency":
				agency = append(agency, e.Label)
			}
		}
		c.Credit = strings.Join(append(who, agency...), " / ")
	}
	if len(highlight) == 0 {
		return c, nil
	}
	g, ok := model.GraphOfPhoto(ph.IRI)
	if !ok {
		return c, nil
	}
	for k := range maxMentions {
		m, err := r.props(ctx, graph.IRI(g+"#m"+strconv.Itoa(k)), itsIdentRef, nifBegin, nifEnd, nifAnchor, cgConfidence)
		if err != nil {
			return Caption{}, err
		}
		if len(m) == 0 {
			break
		}
		if !highlight[iriOf(m[itsIdentRef])] {
			continue
		}
		b, ok1 := number(m[nifBegin])
		e, ok2 := number(m[nifEnd])
		if ok1 && ok2 {
			conf, _ := number(m[cgConfidence])
			c.Mentions = append(c.Mentions, Mention{Start: int(b), End: int(e), Anchor: label(m[nifAnchor]), Confidence: conf})
		}
	}
	return c, nil
}

// highlights are the entities whose mentions a page marks: those given and
// the places within them.
func highlights(ix *photoindex.Index, iris ...string) map[string]bool {
	out := map[string]bool{}
	for _, iri := range iris {
		out[iri] = true
		for _, in := range ix.Inside(iri) {
			out[in] = true
		}
	}
	return out
}

// Summary is the response of GET /api/summary: what the photos of one
// entity (a place with the places within it) show, under a filter.
type Summary struct {
	Entity   photoindex.Entity             `json:"entity"`
	Photos   int                           `json:"photos"` // the photos selected
	Timeline photoindex.Timeline           `json:"timeline"`
	Related  map[string][]photoindex.Count `json:"related"`  // by kind, most photos shared first
	Distinct map[string]int                `json:"distinct"` // related entities of each kind
	Captions Page                          `json:"captions"`
	Millis   float64                       `json:"ms"`
}

func (s *Server) summary(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	ix := s.photoIndex(w)
	if ix == nil {
		return
	}
	q := r.URL.Query()
	iri := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(q.Get("iri")), "<"), ">")
	if iri == "" {
		writeError(w, http.StatusBadRequest, "missing parameter iri")
		return
	}
	e, ok := ix.Lookup(iri)
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no photo is linked to %s", iri))
		return
	}
	f, err := filterOf(ix, q)
	sum := Summary{Entity: e}
	var top int
	if err == nil {
		top, err = topOf(q)
	}
	if err == nil {
		sum.Captions, err = pageOf(q)
	}
	if err == nil {
		f.Entities = append(f.Entities, iri)
		err = sum.fill(r.Context(), s.store, ix, f, top)
	}
	if err != nil {
		s.failParam(w, r, err)
		return
	}
	sum.Millis = float64(time.Since(start).Microseconds()) / 1000
	writeJSON(w, http.StatusOK, sum)
}

func (sum *Summary) fill(ctx context.Context, s *graph.Store, ix *photoindex.Index, f photoindex.Filter, top int) error {
	sel, err := ix.Select(f)
	if err != nil {
		return errBadParam{err.Error()}
	}
	sum.Photos = len(sel)
	sum.Timeline = ix.TimelineOf(sel)
	sum.Related, sum.Distinct = ix.Related(sel, top, f.Entities...)
	return sum.Captions.fill(ctx, s, ix, sel, highlights(ix, f.Entities...))
}

func topOf(q url.Values) (int, error) {
	v := q.Get("top")
	if v == "" {
		return defaultTop, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > maxTop {
		return 0, badParam("top: %q is not between 1 and %d", v, maxTop)
	}
	return n, nil
}

// PhotoList is the response of GET /api/photos: a page of the photos a
// filter selects, with their timeline.
type PhotoList struct {
	Timeline photoindex.Timeline `json:"timeline"`
	Page
	Millis float64 `json:"ms"`
}

func (s *Server) photoList(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	ix := s.photoIndex(w)
	if ix == nil {
		return
	}
	q := r.URL.Query()
	f, err := filterOf(ix, q)
	var list PhotoList
	if err == nil {
		list.Page, err = pageOf(q)
	}
	var sel []int32
	if err == nil {
		sel, err = ix.Select(f)
	}
	if err == nil {
		list.Timeline = ix.TimelineOf(sel)
		err = list.fill(r.Context(), s.store, ix, sel, highlights(ix, f.Entities...))
	}
	if err != nil {
		s.failParam(w, r, err)
		return
	}
	list.Millis = float64(time.Since(start).Microseconds()) / 1000
	writeJSON(w, http.StatusOK, list)
}

// failParam answers 400 for a parameter the request got wrong, else as
// fail does.
func (s *Server) failParam(w http.ResponseWriter, r *http.Request, err error) {
	if bp, ok := errors.AsType[errBadParam](err); ok {
		writeError(w, http.StatusBadRequest, bp.msg)
		return
	}
	s.fail(w, r, err)
}
