package gazetteer

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"unicode"

	"github.com/capgraph/capgraph/extract/gazetteer/internal/fold"
)

// Fold returns s in lower case with diacritics removed, curly quotes and
// apostrophes (and ayn, hamza) made ASCII, and white space runs made one
// space. Hyphens are kept. [Index.Places] matches on it.
func Fold(s string) string { return fold.Fold(s) }

// Key returns the transliteration key of s, under which spellings of one
// Arabic, Turkish or Slavic name written in Latin letters usually agree:
// Key("Deir ez-Zor") == Key("Dayr az Zawr"), Key("Qabasin") == Key("Kabbasin"),
// Key("Jobar") == Key("Jawbar"), but Key("Douma") != Key("Ad Dumayr"). It is
// [Fold], then apostrophes, ayn and hamza dropped, the Arabic article dropped,
// a final h after a vowel dropped, words joined, ee->i, ae->ai, aw->u before a
// consonant, ph->f, ck->k, e->a, o->u, q->k, y->i, and doubled letters made
// single. Key is idempotent.
func Key(s string) string { return fold.Key(s) }

// CaseSensitive reports whether name is an acronym (2 to 5 letters, none of
// them lower case: "IS", "AP", "U.S.", "WHO"). The index matches such a name
// only against a query that has no lower-case letter either, so "is" and
// "Who" do not find Islamic State or the World Health Organization.
func CaseSensitive(name string) bool {
	letters := 0
	for _, r := range name {
		if unicode.IsLetter(r) {
			if !unicode.IsUpper(r) {
				return false
			}
			letters++
		}
	}
	return letters >= 2 && letters <= 5
}

func hasLower(s string) bool {
	for _, r := range s {
		if unicode.IsLower(r) {
			return true
		}
	}
	return false
}

// A NameKind tells what a name from [Index.Names] names.
type NameKind uint8

// The kinds of names.
const (
	PlaceName NameKind = iota + 1 // ref indexes Data.Places
	GroupName                     // ref indexes Data.Groups
	TermName                      // ref indexes Data.Terms
)

func (k NameKind) String() string {
	switch k {
	case PlaceName:
		return "place"
	case GroupName:
		return "group"
	case TermName:
		return "term"
	}
	return fmt.Sprintf("NameKind(%d)", k)
}

// ref is an index into one of Data's slices; strict marks an acronym entry
// (see CaseSensitive).
type ref struct {
	i      int32
	strict bool
}

// Index answers name look-ups over a [Data]. It is built once by [Load] and
// safe for concurrent use.
type Index struct {
	d          *Data
	fold       map[string][]ref    // Fold(name) -> places, best first
	key        map[string][]int32  // Key(name) -> places, best first; acronyms left out
	buckets    map[uint32][]string // keys by first byte and length, for fuzzy look-ups; built on first use
	bucketOnce sync.Once
	groupFold  map[string][]ref
	groupKey   map[string][]int32
	termFold   map[string][]ref
	termKey    map[string][]int32
	forbidFold map[string][]string // Fold(a) -> Fold(b) of names that must never merge
	forbidKey  map[string][]string // the same, by Key
	byID       map[string]int32
	groupByID  map[string]int32
	// peopleIn is, for a first-level division, the population of the
	// places it holds: GeoNames gives divisions none, and without one
	// "California" ranked below a Colombian village of that name.
	peopleIn map[string]int
}

func newIndex(d *Data) *Index {
	n := len(d.Places) * 4 // about 4 distinct folded names per place
	return &Index{
		d:        d,
		fold:     make(map[string][]ref, n),
		key:      make(map[string][]int32, n),
		peopleIn: divisionPopulations(d.Places),
	}
}

// divisionPopulations sums the populations of the places in each
// first-level division, by the division's ID. The places are those of
// GeoNames' cities500, so the sum counts the towns and cities, not the
// countryside: enough to weigh one division against another place of
// its name.
func divisionPopulations(places []Place) map[string]int {
	sums := map[string]int{}
	for i := range places {
		if places[i].IsDivision() {
			sums[places[i].ID] = 0
		}
	}
	for i := range places {
		p := &places[i]
		if p.Class != "P" || p.Population == 0 {
			continue
		}
		for _, id := range p.AdminIDs {
			if _, ok := sums[id]; ok {
				sums[id] += p.Population
				break
			}
		}
	}
	return sums
}

// addPlaces indexes the names of d.Places[from:]. The folds and keys are
// computed on all CPUs (up to 4), the maps filled on one.
func (ix *Index) addPlaces(from int) {
	places := ix.d.Places[from:]
	off := make([]int, len(places)+1)
	for i := range places {
		off[i+1] = off[i] + len(places[i].Names)
	}
	type forms struct {
		f, k   string
		strict bool
	}
	out := make([]forms, off[len(places)])
	workers := min(runtime.GOMAXPROCS(0), 4)
	chunk := (len(places) + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := 0; lo < len(places); lo += chunk {
		hi := min(lo+chunk, len(places))
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				for j, n := range places[i].Names {
					x := forms{f: fold.Fold(n), strict: CaseSensitive(n)}
					if !x.strict {
						x.k = fold.KeyFolded(x.f)
					}
					out[off[i]+j] = x
				}
			}
		})
	}
	wg.Wait()
	for i := range places {
		for _, x := range out[off[i]:off[i+1]] {
			ix.insert(int32(from+i), x.f, x.k, x.strict)
		}
	}
}

// addPlaceName indexes one more name of place i.
func (ix *Index) addPlaceName(i int32, name string) {
	f := fold.Fold(name)
	strict := CaseSensitive(name)
	k := ""
	if !strict {
		k = fold.KeyFolded(f)
	}
	ix.insert(i, f, k, strict)
}

func (ix *Index) insert(i int32, f, k string, strict bool) {
	ix.fold[f] = appendRef(ix.fold[f], ref{i, strict})
	if k != "" {
		ix.key[k] = appendIdx(ix.key[k], i)
	}
}

func appendRef(rs []ref, r ref) []ref {
	for j := range rs {
		if rs[j].i == r.i {
			rs[j].strict = rs[j].strict && r.strict
			return rs
		}
	}
	return append(rs, r)
}

func appendIdx(xs []int32, i int32) []int32 {
	if slices.Contains(xs, i) {
		return xs
	}
	return append(xs, i)
}

// priority ranks the countries of the conflict region first.
var priority = map[string]int{
	"SY": 1, "IQ": 2, "TR": 3, "LB": 4, "JO": 5, "YE": 6, "LY": 7, "UA": 8,
	"PS": 9, "IL": 9, "IR": 9, "SA": 9, "EG": 9, "KW": 9, "AE": 9, "QA": 9,
	"BH": 9, "OM": 9, "CY": 9, "AF": 9, "RU": 10,
	// Today's other wars and crises: before the rest of the world (Beni in
	// North Kivu before the Bolivian department), but too far from the
	// Middle East for 4-letter keys to be trusted (see [Index.Resolve]).
	"SD": 11, "SS": 11, "MM": 11, "CD": 11, "HT": 11, "ET": 11, "SO": 11, "MZ": 11,
	"ML": 11, "BF": 11, "NE": 11, "TD": 11, "CF": 11, "NG": 11, "PK": 11, "AM": 11,
	"AZ": 11, "CO": 11, "MX": 11, "ER": 11,
}

// trustedKeys is the worst priority at which a 4-letter key is trusted.
const trustedKeys = 10

var codeRank = map[string]int{"PCLI": 0, "PPLC": 1, "PPLA": 2, "ADM1": 3, "PPLA2": 4}

// better orders places for look-ups: countries, then curated places, then
// a division's city before the division of its name ([Place.CityOf]), then prominent ones (capitals, a population
// of 500,000 or more), then the countries of the conflict region, then
// feature importance, then population.
func (ix *Index) better(a, b int32) int {
	p, q := &ix.d.Places[a], &ix.d.Places[b]
	if c := cmpBool(p.IsCountry(), q.IsCountry()); c != 0 {
		return c
	}
	if c := cmpBool(p.Curated, q.Curated); c != 0 {
		return c
	}
	if c := cmpBool(p.CityOf(q), q.CityOf(p)); c != 0 {
		return c
	}
	pp, qp := ix.Population(p), ix.Population(q)
	if c := cmpBool(p.Code == "PPLC" || pp >= 500000, q.Code == "PPLC" || qp >= 500000); c != 0 {
		return c
	}
	if c := prio(p.Country) - prio(q.Country); c != 0 {
		return c
	}
	if c := rankOf(p.Code) - rankOf(q.Code); c != 0 {
		return c
	}
	if c := qp - pp; c != 0 {
		return c
	}
	return int(a - b)
}

// Population returns p's population or, for a first-level division, which
// GeoNames gives none, that of the towns and cities it holds: a lower
// bound, for weighing places of one name against each other.
func (ix *Index) Population(p *Place) int {
	if n, ok := ix.peopleIn[p.ID]; ok {
		return n
	}
	return p.Population
}

func cmpBool(a, b bool) int {
	switch {
	case a && !b:
		return -1
	case b && !a:
		return 1
	}
	return 0
}

func prio(cc string) int {
	if v, ok := priority[cc]; ok {
		return v
	}
	return 99
}

func rankOf(code string) int {
	if v, ok := codeRank[code]; ok {
		return v
	}
	return 9
}

func (ix *Index) sortPlaces() {
	for _, rs := range ix.fold {
		if len(rs) > 1 {
			slices.SortFunc(rs, func(a, b ref) int { return ix.better(a.i, b.i) })
		}
	}
	for _, xs := range ix.key {
		if len(xs) > 1 {
			slices.SortFunc(xs, ix.better)
		}
	}
}

// mergeTarget returns the index of the place below limit that a curated row
// with these names amends, or -1: the best place of the same class and
// country sharing a folded name or key with the first of names that has
// one, within 30 km (300 km for divisions).
func (ix *Index) mergeTarget(names []string, class, cc string, lat, lon float64, limit int) int {
	best := int32(-1)
	maxKm := 30.0
	if class == "A" {
		maxKm = 300
	}
	try := func(i int32) {
		if int(i) >= limit {
			return
		}
		p := &ix.d.Places[i]
		if p.Class != class || p.Country != cc || p.IsCountry() || distanceKm(lat, lon, p.Lat, p.Lon) > maxKm {
			return
		}
		if best < 0 || ix.better(i, best) < 0 {
			best = i
		}
	}
	// The row's names in order, its own name first: the first that
	// finds a place decides, so that "Damascus province", a name of Rif
	// Dimashq, does not take the row to the Damascus governorate.
	for _, n := range names {
		f := fold.Fold(n)
		for _, r := range ix.fold[f] {
			try(r.i)
		}
		for _, i := range ix.key[fold.KeyFolded(f)] {
			try(i)
		}
		if best >= 0 {
			break
		}
	}
	return int(best)
}

// placeIn returns the best place named name in country cc, or nil.
func (ix *Index) placeIn(name, cc string) *Place {
	for _, p := range ix.Places(name) {
		if p.Country == cc {
			return p
		}
	}
	for _, p := range ix.PlacesByKey(name) {
		if p.Country == cc {
			return p
		}
	}
	return nil
}

// indexIDs maps every place ID to its index.
func (ix *Index) indexIDs() error {
	ix.byID = make(map[string]int32, len(ix.d.Places))
	for i := range ix.d.Places {
		id := ix.d.Places[i].ID
		if _, dup := ix.byID[id]; dup {
			return fmt.Errorf("gazetteer: duplicate place id %s", id)
		}
		ix.byID[id] = int32(i)
	}
	return nil
}

// finish indexes groups, terms and forbidden merges. Places are already in;
// the fuzzy buckets wait for their first use.
func (ix *Index) finish() error {
	d := ix.d
	ix.groupFold, ix.groupKey = map[string][]ref{}, map[string][]int32{}
	ix.groupByID = make(map[string]int32, len(d.Groups))
	for i, g := range d.Groups {
		ix.groupByID[g.ID] = int32(i)
		for _, n := range append([]string{g.Name}, g.Aliases...) {
			addTermName(ix.groupFold, ix.groupKey, int32(i), n)
		}
	}
	ix.termFold, ix.termKey = map[string][]ref{}, map[string][]int32{}
	for i, t := range d.Terms {
		for _, n := range append([]string{t.Name}, t.Variants...) {
			addTermName(ix.termFold, ix.termKey, int32(i), n)
		}
	}
	ix.forbidFold, ix.forbidKey = map[string][]string{}, map[string][]string{}
	return tsv("data/forbidden.tsv", 2, func(_ int, f []string) error {
		fa, fb := fold.Fold(f[0]), fold.Fold(f[1])
		ka, kb := fold.KeyFolded(fa), fold.KeyFolded(fb)
		if ka == kb {
			return fmt.Errorf("%q and %q share the key %q: a forbidden pair must differ by key", f[0], f[1], ka)
		}
		ix.forbidFold[fa] = append(ix.forbidFold[fa], fb)
		ix.forbidFold[fb] = append(ix.forbidFold[fb], fa)
		ix.forbidKey[ka] = append(ix.forbidKey[ka], kb)
		ix.forbidKey[kb] = append(ix.forbidKey[kb], ka)
		return nil
	})
}

// buildBuckets groups the keys for fuzzy look-ups. The extractor never
// makes one, so the work waits for the first caller that does.
func (ix *Index) buildBuckets() {
	ix.buckets = make(map[uint32][]string, 2048)
	for k := range ix.key {
		if len(k) >= minFuzzy-1 {
			b := bucket(k)
			ix.buckets[b] = append(ix.buckets[b], k)
		}
	}
}

func addTermName(fm map[string][]ref, km map[string][]int32, i int32, name string) {
	f := fold.Fold(name)
	strict := CaseSensitive(name)
	fm[f] = appendRef(fm[f], ref{i, strict})
	if strict {
		return
	}
	if k := fold.KeyFolded(f); len(k) >= 4 {
		km[k] = appendIdx(km[k], i)
	}
}

// minKey is the shortest query key that Resolve looks up by key.
const minKey = 4

// minFuzzy is the shortest query key that fuzzy matching tries.
const minFuzzy = 5

func bucket(k string) uint32 { return uint32(k[0])<<16 | uint32(len(k)) }

// match reports whether a fold-map entry answers a query.
func (r ref) match(queryHasLower bool) bool { return !r.strict || !queryHasLower }

// Places returns the places that have a name equal to name under [Fold],
// best first: countries, curated places, capitals and cities of 500,000 or
// more, the conflict region (SY, IQ, TR, LB, JO, YE, LY, UA, then the rest
// of the Middle East), a city before the division named after it, then
// population. The result is nil when none matches.
func (ix *Index) Places(name string) []*Place {
	lower := hasLower(name)
	var out []*Place
	for _, r := range ix.fold[fold.Fold(name)] {
		if r.match(lower) {
			out = append(out, &ix.d.Places[r.i])
		}
	}
	return out
}

// PlacesByKey returns the places that have a name with the same [Key] as
// name, ranked as by [Index.Places]. Acronyms are not matched by key.
func (ix *Index) PlacesByKey(name string) []*Place {
	xs := ix.key[Key(name)]
	if len(xs) == 0 {
		return nil
	}
	out := make([]*Place, len(xs))
	for j, i := range xs {
		out[j] = &ix.d.Places[i]
	}
	return out
}

// Confidence of each stage of [Index.Resolve].
const (
	ExactConfidence = 1.0
	KeyConfidence   = 0.9
	FuzzyConfidence = 0.75
)

// Resolve returns the best place for name and a confidence: 1 for a match
// under [Fold]; 0.9 for a match under [Key] (keys of 5 letters or more, or
// of 4 letters for places in the Middle East, Ukraine and Russia); 0.75 for
// a fuzzy match (keys of 5 letters or more at Levenshtein distance 1 with a
// Jaro-Winkler similarity of 0.95 or more, first letters equal); and nil, 0
// when nothing matches. Key and fuzzy matches never cross a pair in data/forbidden.tsv.
func (ix *Index) Resolve(name string) (*Place, float64) {
	if ps := ix.Places(name); len(ps) > 0 {
		return ps[0], ExactConfidence
	}
	f := fold.Fold(name)
	k := fold.KeyFolded(f)
	if len(k) < minKey {
		return nil, 0
	}
	for _, i := range ix.key[k] {
		if len(k) == minKey && prio(ix.d.Places[i].Country) > trustedKeys {
			continue // a 4-letter key is trusted inside the region only
		}
		if !ix.forbidden(f, k, i) {
			return &ix.d.Places[i], KeyConfidence
		}
	}
	if len(k) < minFuzzy {
		return nil, 0
	}
	ix.bucketOnce.Do(ix.buildBuckets)
	best, bestSim := int32(-1), 0.0
	for n := len(k) - 1; n <= len(k)+1; n++ {
		for _, c := range ix.buckets[uint32(k[0])<<16|uint32(n)] {
			if !withinOne(k, c) {
				continue
			}
			sim := jaroWinkler(k, c)
			if sim < 0.95 || sim < bestSim {
				continue
			}
			if ix.forbiddenKeys(k, c) {
				continue
			}
			for _, i := range ix.key[c] {
				if ix.forbidden(f, k, i) {
					continue
				}
				if best < 0 || sim > bestSim || ix.better(i, best) < 0 {
					best, bestSim = i, sim
				}
				break
			}
		}
	}
	if best < 0 {
		return nil, 0
	}
	return &ix.d.Places[best], FuzzyConfidence
}

func (ix *Index) forbiddenKeys(k, c string) bool {
	return slices.Contains(ix.forbidKey[k], c)
}

// forbidden reports whether place i has a name that must never merge with a
// query folded to f, keyed k.
func (ix *Index) forbidden(f, k string, i int32) bool {
	bf, bk := ix.forbidFold[f], ix.forbidKey[k]
	if len(bf) == 0 && len(bk) == 0 {
		return false
	}
	for _, n := range ix.d.Places[i].Names {
		fn := fold.Fold(n)
		if slices.Contains(bf, fn) || slices.Contains(bk, fold.KeyFolded(fn)) {
			return true
		}
	}
	return false
}

// Place returns the place with the given ID ("place:geonames:170654"), or nil.
func (ix *Index) Place(id string) *Place {
	if i, ok := ix.byID[id]; ok {
		return &ix.d.Places[i]
	}
	return nil
}

// Group returns the armed group that has name as its name or an alias,
// matched under [Fold] and then under [Key] (keys of 4 letters or more), or
// nil. Acronyms match only queries without lower-case letters.
func (ix *Index) Group(name string) *Group {
	if i := lookup(ix.groupFold, ix.groupKey, name); i >= 0 {
		return &ix.d.Groups[i]
	}
	return nil
}

// GroupByID returns the group with the given ID ("group:nusra-front"), or nil.
func (ix *Index) GroupByID(id string) *Group {
	if i, ok := ix.groupByID[id]; ok {
		return &ix.d.Groups[i]
	}
	return nil
}

// Term returns the agency, organisation or event that has name as its name
// or a variant, matched as by [Index.Group], or nil.
func (ix *Index) Term(name string) *Term {
	if i := lookup(ix.termFold, ix.termKey, name); i >= 0 {
		return &ix.d.Terms[i]
	}
	return nil
}

func lookup(fm map[string][]ref, km map[string][]int32, name string) int32 {
	f := fold.Fold(name)
	lower := hasLower(name)
	for _, r := range fm[f] {
		if r.match(lower) {
			return r.i
		}
	}
	if k := fold.KeyFolded(f); len(k) >= 4 {
		if xs := km[k]; len(xs) > 0 {
			return xs[0]
		}
	}
	return -1
}

// Names calls yield with every surface name in the gazetteer and what it
// names, until yield returns false: place names with kind [PlaceName] and ref
// an index into Data.Places, group names and aliases with [GroupName] and an
// index into Data.Groups, term names and variants with [TermName] and an
// index into Data.Terms. Names come as written in the data (not folded); a
// name may come more than once with different refs. Names for which
// [CaseSensitive] is true should be matched with their case.
func (ix *Index) Names(yield func(name string, kind NameKind, ref int) bool) {
	d := ix.d
	for i := range d.Places {
		for _, n := range d.Places[i].Names {
			if !yield(n, PlaceName, i) {
				return
			}
		}
	}
	for i, g := range d.Groups {
		if !yield(g.Name, GroupName, i) {
			return
		}
		for _, n := range g.Aliases {
			if !yield(n, GroupName, i) {
				return
			}
		}
	}
	for i, t := range d.Terms {
		if !yield(t.Name, TermName, i) {
			return
		}
		for _, n := range t.Variants {
			if !yield(n, TermName, i) {
				return
			}
		}
	}
}
