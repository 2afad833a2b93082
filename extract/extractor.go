package extract

import (
	"context"
	"fmt"
	"iter"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/capgraph/capgraph/extract/gazetteer"
)

// Version identifies the extraction rules and tables; it is recorded in
// the graph as provenance and changes whenever extraction output may.
const Version = "capgraph-extract/0.2"

// An Extractor finds entities and relations in captions. It is safe for
// concurrent use; build one with [New] and share it.
type Extractor struct {
	data *gazetteer.Data
	ix   *gazetteer.Index
	trie *trie
}

var (
	defaultOnce sync.Once
	defaultX    *Extractor
	defaultErr  error
)

// New returns an Extractor over the embedded gazetteers. The tables are
// decoded once per process; later calls return the same Extractor.
func New() (*Extractor, error) {
	defaultOnce.Do(func() {
		data, err := gazetteer.Load()
		if err != nil {
			defaultErr = err
			return
		}
		ix := data.Index()
		defaultX = &Extractor{data: data, ix: ix, trie: buildTrie(ix)}
	})
	return defaultX, defaultErr
}

// ExtractAll extracts every caption of captions on workers goroutines (0
// means GOMAXPROCS) and yields the results in input order. An error read
// from captions is yielded in its place; the caller decides whether to go
// on. The sequence stops when ctx is done.
func (x *Extractor) ExtractAll(ctx context.Context, captions iter.Seq2[Caption, error], workers int) iter.Seq2[Extraction, error] {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return func(yield func(Extraction, error) bool) {
		type job struct {
			c   Caption
			err error
			out chan result
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		jobs := make(chan job, workers*4)
		order := make(chan chan result, workers*16)
		for range workers {
			go func() {
				for j := range jobs {
					if j.err != nil {
						j.out <- result{err: j.err}
						continue
					}
					ex, err := x.extractGuarded(j.c)
					j.out <- result{x: ex, err: err}
				}
			}()
		}
		go func() { // feed: read captions in order, hand them out, remember the order
			defer close(order)
			defer close(jobs)
			for c, err := range captions {
				out := make(chan result, 1)
				select {
				case order <- out:
				case <-ctx.Done():
					return
				}
				select {
				case jobs <- job{c, err, out}:
				case <-ctx.Done():
					return
				}
			}
		}()
		// On an early stop, cancel lets the feeder and then the workers
		// finish on their own; nothing waits for a read that may block.
		for out := range order {
			var r result
			select {
			case r = <-out:
			case <-ctx.Done():
				yield(Extraction{}, ctx.Err())
				return
			}
			if !yield(r.x, r.err) {
				return
			}
		}
		if err := ctx.Err(); err != nil {
			yield(Extraction{}, err)
		}
	}
}

// extractGuarded is Extract with a panic, which would be a bug in the
// rules, turned into an error that names the caption: one caption that
// trips a rule is an error the caller may skip, not the end of a build.
func (x *Extractor) extractGuarded(c Caption) (ex Extraction, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("caption %q: internal error in extraction (please report it with the caption): %v", c.ID, v)
		}
	}()
	return x.Extract(c), nil
}

type result struct {
	x   Extraction
	err error
}

// A mention is an entity found in a caption, in byte offsets, before it is
// turned into an [Entity].
type mention struct {
	typ        EntityType
	start, end int // bytes
	ts, te     int // token indexes [ts, te)
	id         string
	canonical  string
	conf       float64
	place      *gazetteer.Place
	group      *gazetteer.Group
	term       *gazetteer.Term
	date       *dateMatch
	credit     bool
	proposed   bool             // found by context, not by a table
	short      string           // the abbreviation inside "Name (ABBR)", "" when none
	aliasOf    *mention         // the person a nickname names again
	shown      bool             // a person placed in the picture: "Jane Doe (left)"
	container  *gazetteer.Place // for a place the gazetteer lacks: the known place the caption puts it in
}

// doc is the working state for one caption.
type doc struct {
	x        *Extractor
	text     string
	toks     []token                   // tokens of the description (before the credit)
	tokIDs   []int64                   // each token's id in the trie, -1 when no name has it
	sent     []int                     // sentence index of each token
	prevSub  []int                     // the last subordinator at or before each token, -1 for none; see notDepicted
	owner    []*mention                // the mention covering each token, nil when none
	bodies   map[EntityType][]*mention // body's lists, once relations begin
	mentions []*mention
	credit   credit
}

// Extract finds the entities and relations of one caption.
func (x *Extractor) Extract(c Caption) Extraction {
	d := &doc{x: x, text: c.Text}
	d.credit = parseCredit(c.Text, x.termType)
	// The description's tokens: after a leading credit or label, before
	// the trailing credit.
	all := tokenize(c.Text)
	first := 0
	for first < len(all) && all[first].start < d.credit.descStart {
		first++
	}
	last := first
	for last < len(all) && all[last].end <= d.credit.start {
		last++
	}
	d.toks = all[first:last]
	n := len(d.toks)
	d.tokIDs = make([]int64, n)
	for i, t := range d.toks {
		d.tokIDs[i] = x.trie.id(foldToken(t))
	}
	d.owner = make([]*mention, n)
	d.sentences()

	d.findDates()
	d.matchTables()
	d.usStates()
	d.resolveInContainers()
	d.compassRegions()
	d.findOrganizations()
	d.findHeadedNames()
	d.findQuotedEvents()
	d.findPeople()
	d.proposeUnknown()
	d.coherePlaces()
	d.shortForms()
	d.addCredit()
	slices.SortStableFunc(d.mentions, func(a, b *mention) int { return a.start - b.start })

	rels := d.relations()
	if rels == nil {
		rels = []Relation{} // "relations": [], not null
	}
	return Extraction{
		ID:        c.ID,
		Text:      c.Text,
		Meta:      c.Meta,
		Entities:  d.entities(),
		Relations: rels,
		Notes:     scriptNotes(c.Text),
	}
}

// unreadScripts are the scripts, other than Latin, that captions are
// written in; the extractor's tables and rules read Latin letters only.
var unreadScripts = []struct {
	name  string
	table *unicode.RangeTable
}{
	{"Arabic", unicode.Arabic}, {"Cyrillic", unicode.Cyrillic}, {"Hebrew", unicode.Hebrew},
	{"Greek", unicode.Greek}, {"Armenian", unicode.Armenian}, {"Georgian", unicode.Georgian},
	{"Devanagari", unicode.Devanagari}, {"Bengali", unicode.Bengali}, {"Thai", unicode.Thai},
	{"Myanmar", unicode.Myanmar}, {"Ethiopic", unicode.Ethiopic}, {"Han", unicode.Han},
	{"Hangul", unicode.Hangul}, {"Hiragana", unicode.Hiragana}, {"Katakana", unicode.Katakana},
}

// scriptNotes returns a note when a caption's letters are mostly of a
// script the extractor does not read: it finds only the names, dates and
// credits written in Latin letters, and the user should know why the rest
// is missing.
func scriptNotes(text string) []string {
	if isASCII(text) {
		return nil
	}
	latin, other := 0, map[string]int{}
	for _, r := range text {
		switch {
		case r < utf8.RuneSelf:
			if unicode.IsLetter(r) {
				latin++
			}
		case !unicode.IsLetter(r):
		case unicode.Is(unicode.Latin, r):
			latin++
		default:
			name := "a non-Latin script"
			for _, s := range unreadScripts {
				if unicode.Is(s.table, r) {
					name = s.name
					break
				}
			}
			other[name]++
		}
	}
	total := latin
	for _, n := range other {
		total += n
	}
	if total == 0 || 2*latin >= total {
		return nil
	}
	var names []string
	for name, n := range other {
		if 5*n >= total-latin { // the scripts of a fifth or more of the rest
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return []string{fmt.Sprintf("written mostly in %s, which capgraph does not read: only names, dates and credits in Latin letters were found", strings.Join(names, " and "))}
}

// termType tells the credit parser whether a name is a known agency or
// organisation.
func (x *Extractor) termType(name string) EntityType {
	if t := x.creditTerm(name); t != nil {
		switch EntityType(t.Type) {
		case Agency, Organization:
			return EntityType(t.Type)
		}
	}
	return ""
}

// creditTerm looks a credit's name up in the lexicon. In a credit a short
// agency name in any case is the agency: "Photo Afp".
func (x *Extractor) creditTerm(name string) *gazetteer.Term {
	name = strings.TrimSpace(name)
	t := x.ix.Term(name)
	if t == nil && len(name) <= 5 {
		t = x.ix.Term(strings.ToUpper(name))
	}
	return t
}

// sentences assigns each token its sentence index. A sentence ends at '.',
// '!' or '?' before a capital (not after an abbreviation) and at a blank line.
func (d *doc) sentences() {
	d.sent = make([]int, len(d.toks))
	s := 0
	for i := range d.toks {
		if i > 0 {
			gap := d.text[d.toks[i-1].end:d.toks[i].start]
			if d.sentenceBreak(gap, i) {
				s++
			}
		}
		d.sent[i] = s
	}
}

func (d *doc) sentenceBreak(gap string, i int) bool {
	if strings.Contains(gap, "\n\n") {
		return true
	}
	k := strings.IndexAny(gap, ".!?")
	if k < 0 {
		return false
	}
	if gap[k] == '.' && isAbbrevEnd(d.text, d.toks[i-1].end+k) {
		return false
	}
	return isUpperStart(d.toks[i].text) || isDigits(d.toks[i].text) || strings.ContainsAny(gap, "\n")
}

func (d *doc) add(m *mention) {
	d.mentions = append(d.mentions, m)
	for i := max(m.ts, 0); i < m.te && i < len(d.owner); i++ {
		d.owner[i] = m
	}
}

func (d *doc) free(ts, te int) bool {
	for i := ts; i < te; i++ {
		if d.owner[i] != nil {
			return false
		}
	}
	return true
}

// tokenAt returns the index of the token starting at byte offset b.
func (d *doc) tokenAt(b int) int {
	i, _ := slices.BinarySearchFunc(d.toks, b, func(t token, b int) int { return t.start - b })
	return i
}

func (d *doc) findDates() {
	for _, m := range findDates(d.text, d.toks) {
		ts := d.tokenAt(m.start)
		te := ts
		for te < len(d.toks) && d.toks[te].end <= m.end {
			te++
		}
		dm := m
		d.add(&mention{typ: Date, start: m.start, end: m.end, ts: ts, te: te,
			id: "date:" + m.value, conf: 0.95, date: &dm})
	}
}

// gapJoins reports whether two tokens with gap between them may belong to
// one name: a space, hyphen, apostrophe or the period of an initial, and
// any invisible characters (zero-width spaces, joiners, soft hyphens).
func gapJoins(gap string) bool {
	if !isASCII(gap) {
		gap = strings.Map(visible, gap)
	}
	switch gap {
	case " ", "-", "'", "’", ".", ". ", " - ", "‘":
		return true
	}
	return false
}

// visible maps an invisible format character to -1, for strings.Map to
// drop, and every other rune to itself.
func visible(r rune) rune {
	if unicode.Is(unicode.Cf, r) {
		return -1
	}
	return r
}

// A candidate is one trie match at a token position.
type candidate struct {
	ts, te int
	refs   []ref
}

// matchTables finds the longest table names, leftmost first.
func (d *doc) matchTables() {
	t := d.x.trie
	for i := 0; i < len(d.toks); {
		if d.owner[i] != nil {
			i++
			continue
		}
		var cands []candidate
		node := int32(0)
		for j := i; j < len(d.toks) && d.owner[j] == nil; j++ {
			if j > i && !gapJoins(d.text[d.toks[j-1].end:d.toks[j].start]) {
				break
			}
			next, ok := t.step(node, d.tokIDs[j])
			if !ok {
				break
			}
			node = next
			if len(t.refs[node]) > 0 {
				cands = append(cands, candidate{i, j + 1, t.refs[node]})
			}
		}
		advanced := false
		for k := len(cands) - 1; k >= 0; k-- {
			if m := d.accept(cands[k]); m != nil {
				d.add(m)
				i = m.te
				advanced = true
				break
			}
		}
		if !advanced {
			i++
		}
	}
}

// accept turns a trie match into a mention if the caption's spelling and
// context support it, choosing among the names it may stand for.
func (d *doc) accept(c candidate) *mention {
	first, last := d.toks[c.ts], d.toks[c.te-1]
	surface := d.text[first.start:last.end]
	single := c.te-c.ts == 1
	anyUpper := false
	for i := c.ts; i < c.te; i++ {
		if isUpperStart(d.toks[i].text) {
			anyUpper = true
			break
		}
	}
	if !anyUpper {
		return nil
	}
	if !isUpperStart(first.text) && !lowerStartOK(d.toks[c.ts:c.te]) {
		return nil
	}
	// "Amal, 6,": a name with an age is a person, whatever the tables say.
	if single && ageApposition(d.text[last.end:]) {
		return nil
	}
	// "Sumy Region", "Donetsk region": an administrative word after the name
	// makes it the division rather than its seat.
	adminNext := c.te < len(d.toks) && d.text[last.end:d.toks[c.te].start] == " " && gazetteer.IsAdminWord(d.toks[c.te].lower)
	var best *mention
	bestScore := math.Inf(-1)
	for _, r := range c.refs {
		if r.acronym && !isAcronym(surface) {
			continue
		}
		m, score := d.resolveRef(r, surface, single, c)
		if m != nil && m.place != nil && adminNext && (m.place.Code == "ADM1" || m.place.Code == "ADM2") {
			score += 50
		}
		if m != nil && score > bestScore {
			best, bestScore = m, score
		}
	}
	if best == nil {
		return nil
	}
	te := c.te
	if best.typ == Place {
		// "Idlib province", "Atmeh camp": the table knows the longer name,
		// but a trailing lower-case generic word is outside the span.
		for te-1 > c.ts && (gazetteer.IsAdminWord(d.toks[te-1].lower) || !isUpperStart(d.toks[te-1].text) && (placeGenerics[d.toks[te-1].lower] || genericModifiers[d.toks[te-1].lower] ||
			d.toks[te-1].lower == "s" && isApostrophe(d.text[d.toks[te-2].end:d.toks[te-1].start]))) {
			te--
		}
		// "Zaporizhzhia nuclear power plant": a lower-case word left inside
		// ends the name before it; a shorter candidate will take the name.
		// One joined by a hyphen or an apostrophe is part of a word:
		// "Ta'izz", "Cox's Bazar", "Côte d'Ivoire".
		for k := c.ts + 1; k < te; k++ {
			if !isUpperStart(d.toks[k].text) && !nameParticles[d.toks[k].lower] && !nameConnectors[d.toks[k].lower] &&
				!wordJoin(d.text[d.toks[k-1].end:d.toks[k].start]) && (k+1 >= len(d.toks) || !wordJoin(d.text[d.toks[k].end:d.toks[k+1].start])) {
				return nil
			}
		}
		last = d.toks[te-1]
	}
	best.start, best.end, best.ts, best.te = first.start, last.end, c.ts, te
	// "U.S.": keep the period that closes a final initial.
	if len(last.text) == 1 && best.end < len(d.text) && d.text[best.end] == '.' && te-c.ts > 1 {
		best.end++
	}
	// "al-Mallah": a lower-case article joined by a hyphen belongs to the name.
	if c.ts > 0 && nameParticles[d.toks[c.ts-1].lower] && !isUpperStart(d.toks[c.ts-1].text) &&
		d.text[d.toks[c.ts-1].end:first.start] == "-" && d.owner[c.ts-1] == nil {
		best.ts--
		best.start = d.toks[best.ts].start
	}
	d.extendName(best)
	return best
}

// lowerStartOK reports whether a name that starts in lower case can still be
// one: "al Qaeda", "eastern Ghouta", "free Syrian Army", but not "ancient
// city of Palmyra".
func lowerStartOK(toks []token) bool {
	if len(toks) < 2 {
		return false
	}
	if nameParticles[toks[0].lower] || compassWords[toks[0].lower] {
		return true
	}
	for _, t := range toks[1:] {
		if !isUpperStart(t.text) {
			return false
		}
	}
	return true
}

func isApostrophe(s string) bool { return s == "'" || s == "’" }

// wordJoin reports whether gap joins two tokens into one word: a hyphen
// or an apostrophe.
func wordJoin(gap string) bool { return gap == "-" || isApostrophe(gap) }

// resolveRef builds the mention one trie ref stands for and scores it
// against the other refs of the same span.
func (d *doc) resolveRef(r ref, surface string, single bool, c candidate) (*mention, float64) {
	lowerSurface := strings.ToLower(surface)
	switch r.kind {
	case gazetteer.TermName:
		t := &d.x.data.Terms[r.idx]
		typ := EntityType(t.Type)
		if typ == Person && single && commonWords[lowerSurface] {
			return nil, 0
		}
		return &mention{typ: typ, id: t.ID, canonical: t.Name, conf: 0.95, term: t}, 300
	case gazetteer.GroupName:
		g := &d.x.data.Groups[r.idx]
		if single && commonWords[lowerSurface] {
			return nil, 0
		}
		return &mention{typ: ArmedGroup, id: g.ID, canonical: g.Name, conf: 0.95, group: g}, 200
	case gazetteer.PlaceName:
		p := &d.x.data.Places[r.idx]
		curated := p.Curated
		major := p.Code == "PCLI" || p.Code == "ADM1" || p.Code == "PPLC" || p.Population >= 100000
		if single && (commonWords[lowerSurface] || titleWords[lowerSurface]) && !major {
			return nil, 0
		}
		// "Ursula VON DER LEYEN": a minor place's short code in capitals
		// is a particle or an abbreviation; "Pope Leo": a word after a
		// title is a name.
		if single && !curated && !p.IsCountry() && len(surface) <= 3 && isAllCaps(surface) && !strings.EqualFold(surface, p.Name) ||
			single && !major && !curated && c.ts > 0 && titleWords[d.toks[c.ts-1].lower] && isUpperStart(d.toks[c.ts-1].text) &&
				d.text[d.toks[c.ts-1].end:d.toks[c.ts].start] == " " {
			return nil, 0
		}
		// A minor place spelled like an ordinary word at the start of a
		// sentence ("Smoke rises...") is the word, not the place.
		if single && !major && !curated && p.Population < 5000 && (c.ts == 0 || d.sent[c.ts] != d.sent[c.ts-1]) {
			return nil, 0
		}
		// "Serena Williams": a minor place's name inside a longer capitalised
		// run is part of some other name.
		if !p.IsCountry() && !(p.IsDivision() && regionCountries[p.Country]) && !p.Curated &&
			(d.capitalNeighbour(c.ts-1, c.ts) || d.capitalNeighbour(c.te-1, c.te)) {
			return nil, 0
		}
		return &mention{typ: Place, id: p.ID, canonical: p.Name, conf: 0.95, place: p}, placeScore(p)
	}
	return nil, 0
}

// capitalNeighbour reports whether tokens a and b are adjacent words of one
// capitalised run ("Serena Williams"), b not a generic word.
func (d *doc) capitalNeighbour(a, b int) bool {
	if a < 0 || b >= len(d.toks) || d.sent[a] != d.sent[b] {
		return false
	}
	if d.text[d.toks[a].end:d.toks[b].start] != " " {
		return false
	}
	ta, tb := d.toks[a], d.toks[b]
	// "Ahmad al-Doe": a particle joined to a capitalised word is part of the run.
	if nameParticles[tb.lower] && b+1 < len(d.toks) && d.text[tb.end:d.toks[b+1].start] == "-" {
		tb = d.toks[b+1]
	}
	return isUpperStart(ta.text) && isUpperStart(tb.text) && !isAllCaps(ta.text) && !isAllCaps(tb.text) &&
		!commonWords[ta.lower] && !commonWords[tb.lower] && !titleWords[ta.lower] && !titleWords[tb.lower] &&
		!placeGenerics[tb.lower] && !unitWords[tb.lower]
}

// placeScore ranks places that share a name: curated entries, then the
// conflict regions the captions mostly cover, then importance.
func placeScore(p *gazetteer.Place) float64 {
	s := math.Log10(float64(p.Population) + 10)
	if p.Curated {
		s += 20
	}
	switch p.Country {
	case "SY":
		s += 12
	case "IQ", "TR", "LB", "YE", "LY", "UA", "JO", "IL", "PS", "AF":
		s += 10
	}
	switch p.Code {
	case "PCLI", "PCLD", "PCLF", "PCLS", "PCL":
		// Above any city the country's name is also a name of, curated
		// or not: "Mexico" is the country, "Mexico City" the city.
		s += 60
	case "ADM1":
		s += 4 // below the city it is named after: "Aleppo" is the city unless "province" follows
	case "PPLC":
		s += 9
	case "PPLA":
		s += 6
	case "PPLA2":
		s += 3
	}
	return s
}

// extendName widens a mention over what the annotation treats as part of
// the name: a parenthetical abbreviation "(YPG)" or gloss, a unit word after
// a group ("Sultan Murad brigade"), a year before an event ("2019 Masters").
func (d *doc) extendName(m *mention) {
	switch m.typ {
	case ArmedGroup:
		// "Sultan Murad brigade", "Houthi movement"; not "Peshmerga forces"
		// or "CTS units", where the word is generic.
		if m.te < len(d.toks) && nameUnitWords[d.toks[m.te].lower] && d.text[m.end:d.toks[m.te].start] == " " && d.owner[m.te] == nil {
			m.end = d.toks[m.te].end
			m.te++
		}
		// "72nd Mechanized Brigade named after the Black Zaporozhians":
		// a unit's honorific is part of its name.
		if k := m.te + 2; k < len(d.toks) && d.toks[m.te].lower == "named" && d.toks[m.te+1].lower == "after" &&
			d.text[m.end:d.toks[m.te].start] == " " {
			if d.toks[k].lower == "the" {
				k++
			}
			j := k
			for j < len(d.toks) && j-k < 5 && isUpperStart(d.toks[j].text) && d.owner[j] == nil && d.joined(j-1, j) {
				j++
			}
			if j > k && d.free(m.te, j) {
				m.te, m.end = j, d.toks[j-1].end
			}
		}
	case Person:
		// "Mohammed Abbas": a known surname after a first name is someone
		// else of that name, not the public figure.
		k := m.ts
		for k > 0 && d.capitalNeighbour(k-1, k) && d.owner[k-1] == nil {
			k--
		}
		if k < m.ts && m.te-m.ts == 1 {
			m.ts, m.start = k, d.toks[k].start
			m.id, m.canonical, m.term, m.conf = "person:"+slug(d.text[m.start:m.end]), "", nil, confContext
		}
		// "Abu Mohammed al-Jolani": a kunya before a known name is part of
		// the same person's name.
		if k := m.ts - 2; k >= 0 && kunyas[d.toks[k].lower] && isUpperStart(d.toks[k+1].text) && d.free(k, m.ts) &&
			d.text[d.toks[k].end:d.toks[k+1].start] == " " && d.text[d.toks[k+1].end:m.start] == " " {
			m.ts, m.start = k, d.toks[k].start
		}
	case Organization:
		// "Philippine Red Cross", "Kenya Red Cross": a country's society of
		// the movement, not the movement; a demonym or a country before
		// "Red Cross" or "Red Crescent" names it.
		if k := m.ts - 1; k >= 0 && m.te-m.ts == 2 && d.toks[m.ts].lower == "red" &&
			(d.toks[m.ts+1].lower == "cross" || d.toks[m.ts+1].lower == "crescent") && d.text[d.toks[k].end:m.start] == " " {
			o := d.owner[k]
			if o == nil && demonyms[d.toks[k].lower] || o != nil && o.te == m.ts && o.ts == k && o.place != nil && o.place.IsCountry() {
				if o != nil {
					d.remove(o)
				}
				m.ts, m.start = k, d.toks[k].start
				m.id, m.canonical, m.term, m.conf = proposedID(Organization, d.text[m.start:m.end]), "", nil, confContext
			}
		}
	case Event:
		if m.ts > 0 && isYear(d.toks[m.ts-1].text) && d.text[d.toks[m.ts-1].end:m.start] == " " && d.owner[m.ts-1] == nil {
			m.ts--
			m.start = d.toks[m.ts].start
		}
		// "World Cup 2022", "FIFA World Cup Qatar 2022": the edition after
		// the name, its host place included.
		k := m.te
		if k+1 < len(d.toks) && d.text[d.toks[k-1].end:d.toks[k].start] == " " && isUpperStart(d.toks[k].text) &&
			d.text[d.toks[k].end:d.toks[k+1].start] == " " && isYear(d.toks[k+1].text) && d.owner[k+1] == nil {
			if o := d.owner[k]; o == nil || o.typ == Place && o.te == k+1 {
				if o != nil {
					d.remove(o)
				}
				k++
			}
		}
		if k < len(d.toks) && d.text[d.toks[k-1].end:d.toks[k].start] == " " && isYear(d.toks[k].text) && d.owner[k] == nil {
			m.te, m.end = k+1, d.toks[k].end
		}
	}
	if m.typ == ArmedGroup || m.typ == Organization || m.typ == Event {
		// "Islamic State (IS)", "al-Jabha al-Shamiya (the Shamiya Front)".
		rest := d.text[m.end:]
		if strings.HasPrefix(rest, " (") {
			if cl := strings.IndexByte(rest, ')'); cl > 2 && cl < 48 && !strings.ContainsAny(rest[2:cl], "(\n") {
				inner := rest[2:cl]
				if isAllCaps(inner) || d.sameThing(m, inner) || shortForm(inner) {
					end := m.end + cl + 1
					te := m.te
					for te < len(d.toks) && d.toks[te].end <= end {
						te++
					}
					if !d.free(m.te, te) {
						// A minor place of that spelling gives way to the
						// short form: "(Morena)".
						var o *mention
						if m.te < len(d.owner) {
							o = d.owner[m.te]
						}
						if o == nil || o.typ != Place || o.ts != m.te || o.te != te || o.place != nil && (o.place.IsCountry() || o.place.IsDivision()) {
							return // another mention already holds the parenthesis: no nesting
						}
						d.remove(o)
					}
					m.end, m.te = end, te
					if isAllCaps(inner) {
						m.short = inner
					}
				}
			}
		}
	}
}

// kunyas open an Arabic teknonym: "Abu Mohammed", "Umm Ahmad".
var kunyas = set("abu", "abou", "umm", "um")

// shortForm reports whether s, in brackets after a name, is a short form
// of it written as a word: "(Morena)", "(Topos)".
func shortForm(s string) bool {
	return len(s) >= 3 && len(s) <= 12 && isUpperStart(s) && !strings.ContainsAny(s, " ,.;:")
}

// sameThing reports whether name names what m does, by the tables.
func (d *doc) sameThing(m *mention, name string) bool {
	name = strings.TrimPrefix(strings.TrimPrefix(name, "the "), "The ")
	switch {
	case m.group != nil:
		g := d.x.ix.Group(name)
		return g != nil && g.ID == m.group.ID
	case m.term != nil:
		t := d.x.ix.Term(name)
		return t != nil && t.ID == m.term.ID
	}
	return false
}

// addCredit turns the parsed credit into mentions.
func (d *doc) addCredit() {
	for _, p := range d.credit.parts {
		m := &mention{typ: p.typ, start: p.start, end: p.end, ts: -1, te: -1, conf: 0.9, credit: true}
		switch p.typ {
		case Photographer:
			m.id = "photographer:" + slug(p.text)
			m.conf = 0.9
		default:
			if t := d.x.creditTerm(p.text); t != nil {
				m.id, m.canonical, m.term = t.ID, t.Name, t
				m.conf = 0.97
			} else {
				m.id = strings.ToLower(string(p.typ)) + ":" + slug(p.text)
			}
		}
		d.mentions = append(d.mentions, m)
	}
}

// adminAreas returns the places of p's admin chain, and last after them
// when it is not nil.
func (x *Extractor) adminAreas(p, last *gazetteer.Place) []AdminArea {
	n := len(p.AdminIDs)
	if last != nil {
		n++
	}
	if n == 0 {
		return nil
	}
	out := make([]AdminArea, 0, n)
	for i, id := range p.AdminIDs {
		a := AdminArea{ID: id, Name: p.Admin[i]}
		if q := x.ix.Place(id); q != nil {
			a = area(q)
		}
		out = append(out, a)
	}
	if last != nil {
		out = append(out, area(last))
	}
	return out
}

func area(p *gazetteer.Place) AdminArea {
	return AdminArea{ID: p.ID, Name: p.Name, GeoNamesID: p.GeoNamesID, Wikidata: p.Wikidata, Latitude: p.Lat, Longitude: p.Lon,
		FeatureClass: p.Class, FeatureCode: p.Code}
}

// entities converts mentions to output entities, with code-point offsets.
func (d *doc) entities() []Entity {
	toRune := runeOffsets(d.text)
	out := make([]Entity, 0, len(d.mentions))
	for _, m := range d.mentions {
		e := Entity{
			ID:         m.id,
			Text:       d.text[m.start:m.end],
			Type:       m.typ,
			Start:      toRune(m.start),
			End:        toRune(m.end),
			Confidence: round2(m.conf),
		}
		e.Canonical = m.canonical // one name per id across captions, whatever the spelling
		switch {
		case m.date != nil:
			e.Value, e.Precision = m.date.value, m.date.precision
		case m.place != nil:
			p := m.place
			e.GeoNamesID, e.Wikidata = p.GeoNamesID, p.Wikidata
			e.Latitude, e.Longitude = p.Lat, p.Lon
			e.FeatureClass, e.FeatureCode = p.Class, p.Code
			e.Country = p.Country
			e.Admin = p.Admin
			e.AdminAreas = d.x.adminAreas(p, nil)
		case m.container != nil:
			p := m.container
			e.Latitude, e.Longitude = p.Lat, p.Lon
			e.Country = p.Country
			e.Admin = append(slices.Clip(p.Admin), p.Name)
			e.AdminAreas = d.x.adminAreas(p, p)
			e.GeoPrecision = "container"
		case m.group != nil:
			e.GroupType = m.group.Type
			e.Aliases = m.group.Aliases
		}
		out = append(out, e)
	}
	return out
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

// slug makes an id fragment from a name: folded, words joined by '-'.
func slug(s string) string {
	var b strings.Builder
	for _, t := range tokenize(gazetteer.Fold(s)) {
		if b.Len() > 0 {
			b.WriteByte('-')
		}
		b.WriteString(t.lower)
	}
	return b.String()
}
