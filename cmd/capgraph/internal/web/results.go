package web

import (
	"cmp"
	"context"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/graph/model"
	"github.com/capgraph/capgraph/queries/rows"
)

// resultParams are the parameters of a saved query's run that shape its
// rows rather than bind the query; no saved query may take them. The
// underscore keeps them apart from the queries' own (co-occurrence has a
// limit of its own).
var resultParams = []string{"format", "_sort", "_order", "_offset", "_limit"}

// A resultView is how a run's rows are shown: sorted by a column, then
// one page of them.
type resultView struct {
	sort          string // a column; "" keeps the query's order
	desc          bool
	offset, limit int // limit 0 means every row
}

// resultViewOf reads _sort, _order, _offset and _limit.
func resultViewOf(q url.Values) (resultView, error) {
	v := resultView{sort: q.Get("_sort")}
	var err error
	if v.desc, err = descending(q, "_order"); err != nil {
		return v, err
	}
	if s := q.Get("_offset"); s != "" {
		if v.offset, err = strconv.Atoi(s); err != nil || v.offset < 0 {
			return v, badParam("_offset: %q is not a count", s)
		}
	}
	if s := q.Get("_limit"); s != "" {
		if v.limit, err = strconv.Atoi(s); err != nil || v.limit < 1 {
			return v, badParam("_limit: %q is not a positive count", s)
		}
	}
	return v, nil
}

// apply sorts res's rows and cuts them to the page, keeping the number of
// rows in res.Total.
func (v resultView) apply(res *QueryResult) error {
	res.Total, res.Offset, res.Limit = len(res.Rows), v.offset, v.limit
	if v.sort != "" {
		if !slices.Contains(res.Columns, v.sort) {
			return badParam("_sort: the query has no column %q (it has %s)", v.sort, strings.Join(res.Columns, ", "))
		}
		slices.SortStableFunc(res.Rows, func(a, b map[string]any) int {
			c := compareCells(rows.Cell(a[v.sort]), rows.Cell(b[v.sort]))
			if v.desc {
				return -c
			}
			return c
		})
		res.Sort, res.Order = v.sort, map[bool]string{false: "asc", true: "desc"}[v.desc]
	}
	res.Rows = res.Rows[min(v.offset, len(res.Rows)):]
	if v.limit > 0 {
		res.Rows = res.Rows[:min(v.limit, len(res.Rows))]
	}
	return nil
}

// compareCells orders numbers by value, before text, and text as text.
func compareCells(a, b string) int {
	x, errA := strconv.ParseFloat(a, 64)
	y, errB := strconv.ParseFloat(b, 64)
	switch {
	case errA == nil && errB == nil:
		return cmp.Compare(x, y)
	case errA == nil:
		return -1
	case errB == nil:
		return 1
	}
	return strings.Compare(a, b)
}

// labelsOf names the IRIs of capgraph's nodes in rows: from the photo
// index when it holds them, else from the store's schema:name.
func (s *Server) labelsOf(ctx context.Context, rs []map[string]any) (map[string]string, error) {
	out := map[string]string{}
	ix := s.photos.Load()
	r := &reader{store: s.store, budget: 1 << 20}
	for _, row := range rs {
		for _, v := range row {
			iri, ok := v.(string)
			if !ok || !strings.HasPrefix(iri, model.Base) {
				continue
			}
			if _, done := out[iri]; done {
				continue
			}
			if ix != nil {
				if e, ok := ix.Lookup(iri); ok {
					out[iri] = e.Label
					continue
				}
			}
			if id, ok := captionID(iri); ok {
				out[iri] = id
				continue
			}
			p, err := r.props(ctx, graph.IRI(iri), schemaName)
			if err != nil {
				return nil, err
			}
			out[iri] = cmp.Or(label(p[schemaName]), label(graph.IRI(iri)))
		}
	}
	return out, nil
}
