package extract

import (
	"math"
	"strings"

	"github.com/capgraph/capgraph/extract/gazetteer"
)

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
			if j > i && !tableGap(d.text[d.toks[j-1].end:d.toks[j].start]) {
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
	// "a D-30 howitzer", "Su-25 jets": a name glued to a number is a
	// model's designation; a lone letter is no name.
	if rest := d.text[last.end:]; len(rest) > 1 && rest[0] == '-' && rest[1] >= '0' && rest[1] <= '9' || single && len(surface) == 1 {
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
		if m == nil {
			continue
		}
		// "Idlib" is the city, not the governorate of its name, unless
		// an administrative word follows.
		if !adminNext && best != nil && best.place != nil && m.place != nil && best.place.CityOf(m.place) {
			continue
		}
		if score > bestScore || !adminNext && best != nil && best.place != nil && m.place != nil && m.place.CityOf(best.place) {
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

// tableGap reports whether gap may stand inside a table's name: what
// joins the words of any name, and the possessive of a plural and the
// ampersand, which only a name the tables hold can span ("Peoples'
// Democratic Party", "Humanity & Inclusion").
func tableGap(gap string) bool {
	return gapJoins(gap) || gap == "' " || gap == "’ " || gap == " & "
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
		// "Thai protesters", "the Jewish settlement of Eli": a demonym is
		// no village of its spelling, and before a lower-case noun no
		// division either; "in Amhara" is the region.
		if single && demonyms[lowerSurface] && !p.IsCountry() && !curated &&
			(!p.IsDivision() || c.te < len(d.toks) && d.text[d.toks[c.te-1].end:d.toks[c.te].start] == " " && !isUpperStart(d.toks[c.te].text) && !gazetteer.IsAdminWord(d.toks[c.te].lower)) {
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
		return &mention{typ: Place, id: p.ID, canonical: p.Name, conf: 0.95, place: p}, placeScore(p, d.x.ix.Population(p))
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
// conflict regions the captions mostly cover, then importance; population
// is the place's, or a division's towns' ([gazetteer.Index.Population]).
// A division has no bonus of its own: its towns weigh it, and a city of
// it that bears its name comes first whatever the scores ([doc.accept]).
func placeScore(p *gazetteer.Place, population int) float64 {
	s := math.Log10(float64(population) + 10)
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
		// "Mohammed Abbas", "Abbas Araghchi": a known one-word name inside
		// a longer run of names is someone else of that name, not the
		// public figure; a title's "of" phrase before it is no name
		// ("Minister of Foreign Affairs Abbas Araghchi").
		k, e := m.ts, m.te
		for k > 0 && d.capitalNeighbour(k-1, k) && d.owner[k-1] == nil && !d.inTitleObject(k-1) {
			k--
		}
		for e < len(d.toks) && d.capitalNeighbour(e-1, e) && d.owner[e] == nil && m.te-m.ts == 1 {
			e++
			// "Saleh al-Khatib": a particle takes the word joined to it.
			if e < len(d.toks) && nameParticles[d.toks[e-1].lower] && d.text[d.toks[e-1].end:d.toks[e].start] == "-" && d.owner[e] == nil {
				e++
			}
		}
		if (k < m.ts || e > m.te) && m.te-m.ts == 1 {
			m.ts, m.start, m.te, m.end = k, d.toks[k].start, e, d.toks[e-1].end
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
