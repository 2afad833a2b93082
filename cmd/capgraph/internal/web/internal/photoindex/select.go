package photoindex

import (
	"cmp"
	"math/bits"
	"slices"
	"sort"
	"strings"
)

// A Filter selects photos: those whose date lies within Range, that are
// linked to every one of Entities and, when Captions is given, whose
// caption is one of them. An entity no photo links to, or a caption id
// the index lacks, selects none.
type Filter struct {
	Range
	Entities []string // IRIs; a place also selects the photos of places within it
	Captions []string // caption ids: the photo is any one of them
}

// Select returns the numbers of the photos that f keeps, ascending, which
// is date order. The error is a Range bound that is not a date.
func (ix *Index) Select(f Filter) ([]int32, error) {
	first, last, err := f.days()
	if err != nil {
		return nil, err
	}
	var lists [][]int32
	for _, iri := range f.Entities {
		n, ok := ix.byIRI[iri]
		if !ok {
			return []int32{}, nil
		}
		lists = append(lists, ix.linkedTo(n))
	}
	if len(f.Captions) > 0 {
		var ids []int32
		for _, id := range f.Captions {
			if i, ok := ix.byCaption[id]; ok {
				ids = append(ids, i)
			}
		}
		slices.Sort(ids)
		lists = append(lists, slices.Compact(ids))
	}
	dated := f.From != "" || f.To != ""
	keep := func(i int32) bool {
		d := ix.photos[i].Date
		return !dated || d.Precision != Undated && d.First >= first && d.Last <= last
	}
	if len(lists) == 0 {
		lo, hi := 0, len(ix.photos)
		if dated {
			// Photos are in order of their first day, undated ones last.
			lo = sort.Search(len(ix.photos), func(i int) bool {
				d := ix.photos[i].Date
				return d.Precision == Undated || d.First >= first
			})
			hi = sort.Search(len(ix.photos), func(i int) bool {
				d := ix.photos[i].Date
				return d.Precision == Undated || d.First > last
			})
		}
		out := make([]int32, 0, max(hi-lo, 0))
		for i := lo; i < hi; i++ {
			if keep(int32(i)) {
				out = append(out, int32(i))
			}
		}
		return out, nil
	}
	slices.SortFunc(lists, func(a, b []int32) int { return cmp.Compare(len(a), len(b)) })
	out := make([]int32, 0, len(lists[0]))
	for _, i := range lists[0] {
		if keep(i) && inAll(i, lists[1:]) {
			out = append(out, i)
		}
	}
	return out, nil
}

// inAll reports whether i is in every one of the ascending lists.
func inAll(i int32, lists [][]int32) bool {
	for _, l := range lists {
		if _, ok := slices.BinarySearch(l, i); !ok {
			return false
		}
	}
	return true
}

// linkedTo returns the photos linked to entity n or, for a place, to a
// place within it, ascending.
func (ix *Index) linkedTo(n int32) []int32 {
	if len(ix.inside[n]) == 0 {
		return ix.postings[n]
	}
	total := len(ix.postings[n])
	for _, p := range ix.inside[n] {
		total += len(ix.postings[p])
	}
	if total < len(ix.photos)/32 {
		out := append(make([]int32, 0, total), ix.postings[n]...)
		for _, p := range ix.inside[n] {
			out = append(out, ix.postings[p]...)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	// A big place: mark its photos in a bitset and read them back in order.
	set := make([]uint64, (len(ix.photos)+63)/64)
	mark := func(l []int32) {
		for _, i := range l {
			set[i/64] |= 1 << (i % 64)
		}
	}
	mark(ix.postings[n])
	for _, p := range ix.inside[n] {
		mark(ix.postings[p])
	}
	out := make([]int32, 0, total)
	for w, word := range set {
		for word != 0 {
			out = append(out, int32(w*64+bits.TrailingZeros64(word)))
			word &= word - 1
		}
	}
	return out
}

// A Count is an entity and the number of photos of a selection linked to
// it.
type Count struct {
	Entity
	Photos int `json:"photos"`
}

// A MonthCount is the number of photos of a selection taken in one month.
type MonthCount struct {
	Month  string `json:"month"` // YYYY-MM
	Photos int    `json:"photos"`
}

// A Timeline counts a selection's photos by month, with every month from
// the first to the last, empty ones included. Photos dated to a year only,
// or not at all, are counted apart.
type Timeline struct {
	Months   []MonthCount `json:"months"`
	YearOnly int          `json:"year_only"`
	Undated  int          `json:"undated"`
}

// TimelineOf counts the photos sel by month.
func (ix *Index) TimelineOf(sel []int32) Timeline {
	t := Timeline{Months: []MonthCount{}}
	counts := map[int]int{}
	lo, hi := 1<<31-1, -1
	for _, i := range sel {
		d := ix.photos[i].Date
		m, ok := d.month()
		switch {
		case ok:
			counts[m]++
			lo, hi = min(lo, m), max(hi, m)
		case d.Precision == Year:
			t.YearOnly++
		default:
			t.Undated++
		}
	}
	for m := lo; m <= hi; m++ {
		t.Months = append(t.Months, MonthCount{Month: monthString(m), Photos: counts[m]})
	}
	return t
}

// Related counts, for each entity linked to a photo of sel other than the
// ones in skip, the photos of sel it is linked to, and returns by kind the
// top entities, most photos first, and how many entities of each kind
// there are.
func (ix *Index) Related(sel []int32, top int, skip ...string) (map[string][]Count, map[string]int) {
	counts := make([]int32, len(ix.entities))
	for _, i := range sel {
		for _, e := range ix.linksOf(i) {
			counts[e]++
		}
	}
	for _, iri := range skip {
		if n, ok := ix.byIRI[iri]; ok {
			counts[n] = 0
		}
	}
	byKind := map[string][]Count{}
	distinct := map[string]int{}
	for n, c := range counts {
		if c == 0 {
			continue
		}
		e := ix.entities[n]
		distinct[e.Kind]++
		byKind[e.Kind] = append(byKind[e.Kind], Count{Entity: e, Photos: int(c)})
	}
	for k, cs := range byKind {
		slices.SortFunc(cs, func(a, b Count) int {
			return cmp.Or(cmp.Compare(b.Photos, a.Photos), strings.Compare(a.Label, b.Label), strings.Compare(a.IRI, b.IRI))
		})
		byKind[k] = cs[:min(len(cs), top)]
	}
	return byKind, distinct
}
