package web

import (
	"cmp"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/capgraph/capgraph/cmd/capgraph/internal/web/internal/photoindex"
	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/queries/rows"
)

// writeJSON writes v with status code.
func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// writeError writes {"error": msg} with status code.
func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"error": msg})
}

// fail maps err to a status: 413 for an oversized body, 504 for a request
// that ran out of time, 500 otherwise.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	if mbe, ok := errors.AsType[*http.MaxBytesError](err); ok {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than %d bytes", mbe.Limit))
		return
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		writeError(w, http.StatusGatewayTimeout, "request took too long")
	case errors.Is(err, context.Canceled):
		writeError(w, 499, "request cancelled") // the client is gone
	default:
		s.log.Error("request failed", "path", r.URL.Path, "err", err)
		writeError(w, http.StatusInternalServerError, err.Error())
	}
}

func (s *Server) sortedQueries() []Query {
	out := slices.Collect(maps.Values(s.queries))
	slices.SortFunc(out, func(a, b Query) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func (s *Server) listQueries(w http.ResponseWriter, r *http.Request) {
	qs := s.sortedQueries()
	if qs == nil {
		qs = []Query{}
	}
	writeJSON(w, http.StatusOK, qs)
}

func (s *Server) getQuery(w http.ResponseWriter, r *http.Request) {
	q, ok := s.queries[r.PathValue("name")]
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no saved query %q", r.PathValue("name")))
		return
	}
	writeJSON(w, http.StatusOK, q)
}

// QueryResult is the response of a saved query run.
type QueryResult struct {
	Query     string           `json:"query"`
	Columns   []string         `json:"columns"`
	Rows      []map[string]any `json:"rows"`
	Truncated bool             `json:"truncated"` // more rows than the server's limit
	Total     int              `json:"total"`     // rows, before the page was cut
	Offset    int              `json:"offset"`
	Limit     int              `json:"limit,omitempty"` // 0: every row
	Sort      string           `json:"sort,omitempty"`
	Order     string           `json:"order,omitempty"`
	// Labels name the IRIs of capgraph's nodes in Rows.
	Labels map[string]string `json:"labels"`
	Millis float64           `json:"ms"`
}

// bind binds q's parameters and returns what runs it on the server's
// store: its SQL twin on a PostgreSQL store, where PostgreSQL does the
// joins, and else its program.
func (s *Server) bind(ctx context.Context, q Query, params map[string]string) (func(limit int) iter.Seq2[any, error], error) {
	if q.BindSQL != nil && s.store.SQL() {
		text, args, err := q.BindSQL(params)
		if err != nil {
			return nil, err
		}
		return func(limit int) iter.Seq2[any, error] { return s.store.QuerySQL(ctx, text, args, limit) }, nil
	}
	text, err := q.Bind(params)
	if err != nil {
		return nil, err
	}
	return func(limit int) iter.Seq2[any, error] { return s.store.Query(ctx, q.Lang, text, limit) }, nil
}

// runQuery runs a saved query. POST takes the parameters as a JSON object
// of strings; GET .../run takes them from the URL. ?format=csv answers
// with CSV instead of JSON.
func (s *Server) runQuery(w http.ResponseWriter, r *http.Request) {
	q, ok := s.queries[r.PathValue("name")]
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no saved query %q", r.PathValue("name")))
		return
	}
	params := map[string]string{}
	format := r.URL.Query().Get("format")
	if r.Method == http.MethodPost {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if !utf8.Valid(body) {
			writeError(w, http.StatusBadRequest, "body: not valid UTF-8")
			return
		}
		if len(strings.TrimSpace(string(body))) > 0 {
			var raw map[string]any
			if err := json.Unmarshal(body, &raw); err != nil {
				writeError(w, http.StatusBadRequest, "body: want a JSON object of parameter values: "+err.Error())
				return
			}
			for k, v := range raw {
				switch v := v.(type) {
				case string:
					params[k] = v
				case float64, bool:
					params[k] = fmt.Sprint(v)
				default:
					writeError(w, http.StatusBadRequest, fmt.Sprintf("parameter %q: want a string", k))
					return
				}
			}
		}
	} else {
		for k, vs := range r.URL.Query() {
			if slices.Contains(resultParams, k) {
				continue
			}
			if len(vs) != 1 {
				writeError(w, http.StatusBadRequest, fmt.Sprintf("parameter %q given %d times", k, len(vs)))
				return
			}
			params[k] = vs[0]
		}
	}
	if format != "" && format != "json" && format != "csv" {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("format %q is not json or csv", format))
		return
	}
	view, err := resultViewOf(r.URL.Query())
	if err != nil {
		s.failParam(w, r, err)
		return
	}
	run, err := s.bind(r.Context(), q, params)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if r.Method == http.MethodHead {
		w.Header().Set("Content-Type", cmp.Or(map[string]string{"csv": "text/csv"}[format], "application/json")+"; charset=utf-8")
		return
	}
	start := time.Now()
	res := QueryResult{Query: q.Name, Rows: []map[string]any{}}
	cols := map[string]bool{}
	for v, err := range rows.All(run(s.opts.ResultLimit+1), s.opts.ResultLimit+1) {
		if err != nil {
			switch {
			case r.Context().Err() != nil:
				s.fail(w, r, r.Context().Err())
			case errors.Is(err, graph.ErrDamaged):
				s.fail(w, r, err)
			default:
				writeError(w, http.StatusBadRequest, err.Error())
			}
			return
		}
		if len(res.Rows) == s.opts.ResultLimit {
			res.Truncated = true
			break
		}
		row, ok := v.(map[string]any)
		if !ok {
			row = map[string]any{"value": v}
		}
		for k := range row {
			if !cols[k] {
				cols[k] = true
				res.Columns = append(res.Columns, k)
			}
		}
		res.Rows = append(res.Rows, row)
	}
	res.Millis = float64(time.Since(start).Microseconds()) / 1000
	rank := func(c string) int { // the query's own columns first, in order
		if i := slices.Index(q.Columns, c); i >= 0 {
			return i
		}
		if c == "id" {
			return len(q.Columns)
		}
		return len(q.Columns) + 1
	}
	slices.SortFunc(res.Columns, func(a, b string) int {
		return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(a, b))
	})
	if res.Columns == nil {
		res.Columns = []string{}
	}
	if err := view.apply(&res); err != nil {
		s.failParam(w, r, err)
		return
	}
	if format == "csv" {
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.csv"`, q.Name))
		cw := csv.NewWriter(w)
		cw.Write(res.Columns)
		rec := make([]string, len(res.Columns))
		for _, row := range res.Rows {
			for i, c := range res.Columns {
				rec[i] = rows.Cell(row[c])
			}
			cw.Write(rec)
		}
		cw.Flush()
		return
	}
	if res.Labels, err = s.labelsOf(r.Context(), res.Rows); err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) search(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if q == "" {
		writeError(w, http.StatusBadRequest, "missing parameter q")
		return
	}
	if len(q) > 200 {
		writeError(w, http.StatusBadRequest, "q longer than 200 bytes")
		return
	}
	if ix := s.photos.Load(); ix != nil {
		writeJSON(w, http.StatusOK, map[string]any{"query": q, "hits": searchPhotoIndex(ix, s.gaz, q), "indexed": true})
		return
	}
	hits, err := search(r.Context(), s.store, s.index.Load(), s.gaz, q)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"query": q, "hits": hits, "indexed": s.index.Load() != nil})
}

func (s *Server) entity(w http.ResponseWriter, r *http.Request) {
	iri := strings.TrimSpace(r.URL.Query().Get("iri"))
	iri = strings.TrimSuffix(strings.TrimPrefix(iri, "<"), ">")
	if iri == "" {
		writeError(w, http.StatusBadRequest, "missing parameter iri")
		return
	}
	if !strings.Contains(iri, ":") || strings.ContainsAny(iri, " <>\"{}|\\^`") {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("%q is not an IRI", iri))
		return
	}
	if r.Method == http.MethodHead {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		return
	}
	e, ok, err := entity(r.Context(), s.store, iri)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no node %s in the graph", iri))
		return
	}
	writeJSON(w, http.StatusOK, e)
}

var exportTypes = map[graph.Format]string{
	graph.NQuads:   "application/n-quads",
	graph.NTriples: "application/n-triples",
	graph.Turtle:   "text/turtle",
	graph.JSONLD:   "application/ld+json",
	graph.CSV:      "text/csv",
}

func (s *Server) export(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("format")
	if name == "" {
		name = string(graph.NQuads)
	}
	format, err := graph.ParseFormat(name)
	if err != nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("format %q is not one of nq, nt, ttl, jsonld, csv", name))
		return
	}
	// A filter exports the graphs of the captions it selects.
	var photos []string
	if filtered(r.URL.Query()) {
		sel, ix, ok := s.selection(w, r)
		if !ok {
			return
		}
		photos = make([]string, len(sel))
		for k, i := range sel {
			photos[k] = ix.Photo(i).IRI
		}
		w.Header().Set("X-Capgraph-Captions", strconv.Itoa(len(sel)))
	}
	w.Header().Set("Content-Type", exportTypes[format]+"; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="capgraph.%s"`, format))
	if r.Method == http.MethodHead {
		return
	}
	cw := &progressWriter{w: w, rc: http.NewResponseController(w), stall: s.opts.ExportStall}
	cw.extend(time.Now())
	if photos != nil {
		_, err = s.store.ExportPhotos(r.Context(), cw, format, photos)
	} else {
		_, err = s.store.Export(r.Context(), cw, format)
	}
	if err != nil {
		if cw.n == 0 {
			w.Header().Del("Content-Disposition")
			s.fail(w, r, err)
			return
		}
		// Too late for a status: cut the response short so the client sees an error.
		s.log.Error("export failed", "format", format, "err", err)
		panic(http.ErrAbortHandler)
	}
}

// A progressWriter counts what it writes, and moves the connection's
// write deadline on as the client takes the bytes: an export may outlast
// the server's write timeout, but a client that stops reading holds its
// connection and slot for stall, not for the whole export's time.
type progressWriter struct {
	w        io.Writer
	rc       *http.ResponseController
	stall    time.Duration
	n        int64
	extended time.Time // when the deadline was last moved
}

func (c *progressWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	if now := time.Now(); err == nil && now.Sub(c.extended) > c.stall/8 {
		c.extend(now)
	}
	return n, err
}

func (c *progressWriter) extend(now time.Time) {
	c.extended = now
	c.rc.SetWriteDeadline(now.Add(c.stall))
}

// Stats is the response of GET /api/stats.
type Stats struct {
	graph.Stats
	Indexed bool `json:"indexed"`
	Places  int  `json:"places"` // places with coordinates
}

func (s *Server) stats(w http.ResponseWriter, r *http.Request) {
	ix := s.index.Load()
	if ix == nil {
		writeJSON(w, http.StatusOK, Stats{})
		return
	}
	writeJSON(w, http.StatusOK, Stats{Stats: ix.stats, Indexed: true, Places: len(ix.places)})
}

// places lists the places with coordinates, each with the number of
// photos linked to it once the photo index is built; with a filter, only
// the places of the photos it keeps, counting those photos.
func (s *Server) places(w http.ResponseWriter, r *http.Request) {
	ix := s.index.Load()
	if !filtered(r.URL.Query()) {
		writeJSON(w, http.StatusOK, s.allPlaces(ix))
		return
	}
	if ix == nil { // the coordinates come from the search index
		w.Header().Set("Retry-After", "5")
		writeError(w, http.StatusServiceUnavailable, "the search index is still being built; try again shortly")
		return
	}
	sel, pix, ok := s.selection(w, r)
	if !ok {
		return
	}
	kept := []Node{}
	for _, p := range countPlaces(ix.places, pix, sel) {
		if p.Photos > 0 {
			kept = append(kept, p)
		}
	}
	writeJSON(w, http.StatusOK, kept)
}

// countedPlaces is every place with coordinates and its photos, for the
// pair of indexes it was counted from.
type countedPlaces struct {
	ix     *index
	pix    *photoindex.Index
	places []Node
}

// allPlaces returns every place with coordinates, counted once both
// indexes are built: counting all photos takes a few hundred
// milliseconds at 10^5 captions, too long for every overview.
func (s *Server) allPlaces(ix *index) []Node {
	if ix == nil {
		return []Node{}
	}
	pix := s.photos.Load()
	if pix == nil {
		return ix.places
	}
	if c := s.counted.Load(); c != nil && c.ix == ix && c.pix == pix {
		return c.places
	}
	all, _ := pix.Select(photoindex.Filter{})
	c := &countedPlaces{ix: ix, pix: pix, places: countPlaces(ix.places, pix, all)}
	s.counted.Store(c)
	return c.places
}

// countPlaces returns places, each with the number of the photos of sel
// linked to it.
func countPlaces(places []Node, pix *photoindex.Index, sel []int32) []Node {
	related, _ := pix.Related(sel, math.MaxInt)
	counts := map[string]int{}
	for _, c := range related["place"] {
		counts[c.IRI] = c.Photos
	}
	out := make([]Node, len(places))
	for i, p := range places {
		p.Photos = counts[p.IRI]
		out[i] = p
	}
	return out
}

// timeline counts photos by date, or with a filter the photos it keeps.
func (s *Server) timeline(w http.ResponseWriter, r *http.Request) {
	out := []DateCount{}
	if ix := s.index.Load(); ix != nil && ix.dates != nil {
		out = ix.dates
	}
	if !filtered(r.URL.Query()) {
		writeJSON(w, http.StatusOK, out)
		return
	}
	sel, pix, ok := s.selection(w, r)
	if !ok {
		return
	}
	counts := map[string]int{}
	for _, i := range sel {
		if d := pix.Photo(i).Date.Lexical; d != "" {
			counts[d]++
		}
	}
	out = []DateCount{}
	for _, d := range slices.Sorted(maps.Keys(counts)) {
		out = append(out, DateCount{Date: d, Count: counts[d]})
	}
	writeJSON(w, http.StatusOK, out)
}
