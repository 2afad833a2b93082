package extract

import (
	"context"
	"fmt"
	"iter"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/capgraph/capgraph/extract/gazetteer"
	"github.com/capgraph/capgraph/internal/ordered"
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
		defaultX = &Extractor{data: data, ix: ix, trie: buildTrie(data, ix)}
	})
	return defaultX, defaultErr
}

// ExtractAll extracts every caption of captions on workers goroutines (0
// means GOMAXPROCS) and yields the results in input order. An error read
// from captions is yielded in its place; the caller decides whether to go
// on. The sequence stops when ctx is done.
func (x *Extractor) ExtractAll(ctx context.Context, captions iter.Seq2[Caption, error], workers int) iter.Seq2[Extraction, error] {
	type read struct {
		c   Caption
		err error
	}
	in := func(yield func(read) bool) {
		for c, err := range captions {
			if !yield(read{c, err}) {
				return
			}
		}
	}
	extract := func(r read) result {
		if r.err != nil {
			return result{err: r.err}
		}
		ex, err := x.extractGuarded(r.c)
		return result{x: ex, err: err}
	}
	return func(yield func(Extraction, error) bool) {
		for r := range ordered.Map(ctx, in, workers, 0, extract) {
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
	aliasOf    *mention         // what a nickname or a local name names again
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
	d.findTeams()
	d.findHeadedNames()
	d.findQuotedEvents()
	d.findPeople()
	d.proposeUnknown()
	d.coherePlaces()
	d.shortForms()
	d.eventAliases()
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
			e.Wikidata = m.group.Wikidata
		case m.term != nil:
			e.Wikidata = m.term.Wikidata
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
