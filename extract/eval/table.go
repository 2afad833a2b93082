package eval

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/capgraph/capgraph/extract"
)

// WriteTable writes r as an aligned text table: a row for all entities,
// then one per entity type, a row for all relations, then one per relation
// type, each with precision, recall and F1 (0 to 1, three decimals) and the
// tp, fp and fn counts. Types come in the order of [extract.EntityTypes] and
// [extract.RelationTypes], then any other types in byte order; types absent
// from both sides are left out. A last line counts the captions, those
// without prediction and the ignored predictions, and one more the share of
// places found that carry coordinates, when the prediction has any.
func (r Report) WriteTable(w io.Writer) error {
	type row struct {
		label string
		c     Counts
	}
	var rows []row
	rows = append(rows, row{"entities", r.Entities})
	for _, t := range typeOrder(r.EntityTypes, extract.EntityTypes) {
		rows = append(rows, row{"  " + t, r.EntityTypes[t]})
	}
	rows = append(rows, row{"relations", r.Relations})
	for _, t := range typeOrder(r.RelationTypes, extract.RelationTypes) {
		rows = append(rows, row{"  " + t, r.RelationTypes[t]})
	}

	lw, nw := 0, 2 // label and count widths
	for _, x := range rows {
		lw = max(lw, utf8.RuneCountInString(x.label))
		for _, n := range []int{x.c.TP, x.c.FP, x.c.FN} {
			nw = max(nw, len(strconv.Itoa(n)))
		}
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%-*s  %5s  %5s  %5s  %*s  %*s  %*s\n", lw, "", "P", "R", "F1", nw, "tp", nw, "fp", nw, "fn")
	for _, x := range rows {
		fmt.Fprintf(bw, "%-*s  %5.3f  %5.3f  %5.3f  %*d  %*d  %*d\n", lw, x.label,
			x.c.Precision(), x.c.Recall(), x.c.F1(), nw, x.c.TP, nw, x.c.FP, nw, x.c.FN)
	}
	fmt.Fprintf(bw, "\n%d captions, %d without prediction, %d predictions not in gold (ignored)\n",
		r.Captions, len(r.Missing), len(r.Unmatched))
	if r.Geocoded.Places > 0 {
		fmt.Fprintf(bw, "%d of %d places found carry coordinates (%.1f %%)\n",
			r.Geocoded.WithCoordinates, r.Geocoded.Places, 100*r.Geocoded.Ratio())
	}
	return bw.Flush()
}

// typeOrder returns the keys of m: those in known first, in its order, then
// the rest sorted.
func typeOrder[T ~string](m map[string]Counts, known []T) []string {
	var out, rest []string
	seen := map[string]bool{}
	for _, t := range known {
		if _, ok := m[string(t)]; ok {
			out = append(out, string(t))
			seen[string(t)] = true
		}
	}
	for t := range m {
		if !seen[t] {
			rest = append(rest, t)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}
