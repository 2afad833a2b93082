package extract

import (
	"slices"
	"strings"

	"github.com/capgraph/capgraph/extract/gazetteer"
)

// relations derives the caption's facts from its mentions and the sentence
// patterns wire captions use.
func (d *doc) relations() []Relation {
	r := &relSet{}
	d.bodies = make(map[EntityType][]*mention, 8) // mentions are final from here on
	for _, m := range d.mentions {
		if !m.credit {
			continue
		}
		switch m.typ {
		case Photographer:
			r.add(d.photo(), PhotographedBy, d.arg(m), 0.9)
		case Agency:
			r.add(d.photo(), DistributedBy, d.arg(m), 0.9)
		}
	}
	if m := d.takenOn(); m != nil {
		r.add(d.photo(), TakenOn, d.arg(m), 0.85)
	}
	links, chains := d.placeStructure()
	d.placeInContainers(links) // first: it gives the places it places their ids
	for _, l := range links {
		r.add(d.arg(l.inner), LocatedIn, d.arg(l.outer), 0.8)
	}
	if m := d.depictedPlace(chains, links); m != nil {
		r.add(d.photo(), DepictsPlace, d.arg(m), 0.75)
	}
	for _, m := range d.depictedPeople() {
		r.add(d.photo(), DepictsPerson, d.arg(m), 0.7)
	}
	d.memberOf(r)
	d.aliases(r)
	d.controlledBy(r, links)
	d.eventAt(r)
	return r.list
}

// placeInContainers gives a place the gazetteer does not know the
// coordinates of the place the caption puts it in, when that is smaller
// than a country: "Kin Ma village, Pauk township" is placed at Pauk. Links
// come inner first along a chain, so walking them backwards places an
// unknown district before the village in it.
func (d *doc) placeInContainers(links []link) {
	for _, l := range slices.Backward(links) {
		in, out := l.inner, l.outer
		if in.place != nil || in.container != nil {
			continue
		}
		switch {
		case out.place != nil && !out.place.IsCountry():
			in.container = out.place
		case out.container != nil:
			in.container = out.container
		default:
			continue
		}
		// The id says where: a name the gazetteer lacks may be villages
		// in two provinces, and the place one caption puts it in must not
		// decide where another caption's lies ("place:sharan:in:adm1:SY.09").
		if in.id != "" {
			in.id += ":in:" + strings.TrimPrefix(in.container.ID, "place:")
		}
	}
}

// An arg is a relation argument: its text as written and its canonical id.
type arg struct{ text, id string }

func (d *doc) arg(m *mention) arg    { return arg{d.text[m.start:m.end], m.id} }
func (d *doc) photo() arg            { return arg{PhotoSubject, "photo"} }
func roleArg(text string) arg        { return arg{text, "role:" + strings.ToLower(text)} }
func controllerArg(value string) arg { return arg{value, "controller:" + slug(value)} }

// A relSet collects a caption's relations once each. A caption has a
// dozen or so, so a scan beats a map.
type relSet struct {
	list []Relation
}

func (r *relSet) add(s arg, rel RelationType, o arg, conf float64) {
	if s.text == o.text && s.id == o.id {
		return
	}
	for _, have := range r.list {
		if have.Rel == rel && have.Subj == s.text && have.Obj == o.text {
			return
		}
	}
	r.list = append(r.list, Relation{Subj: s.text, Rel: rel, Obj: o.text, SubjID: s.id, ObjID: o.id, Confidence: conf})
}

// body returns the description's mentions of one type, in order. Once
// relations begin the mentions no longer change, so each list is built once.
func (d *doc) body(typ EntityType) []*mention {
	if out, ok := d.bodies[typ]; ok {
		return out
	}
	var out []*mention
	for _, m := range d.mentions {
		if m.typ == typ && !m.credit {
			out = append(out, m)
		}
	}
	if d.bodies != nil {
		d.bodies[typ] = out
	}
	return out
}

// takenOn picks the date of the pictured scene: "Picture taken <date>",
// else the last full date of the first sentence that has one, else the
// first dated mention anywhere; never a date the caption says the picture
// was released or uploaded on, and never a bare month.
func (d *doc) takenOn() *mention {
	dates := d.body(Date)
	var usable []*mention
	for _, m := range dates {
		if m.date.precision == "month" && !m.date.hasYear {
			continue
		}
		before := d.text[max(0, m.start-80):m.start]
		if k := strings.LastIndexAny(before, ".!?"); k >= 0 && !isAbbrevEnd(d.text, max(0, m.start-80)+k) {
			before = before[k+1:] // this sentence only
		}
		if strings.Contains(strings.ToLower(before), "picture taken") || strings.Contains(strings.ToLower(before), "photo taken") {
			return m
		}
		if releaseCue(before) {
			continue
		}
		// "the 04 August blast": a date used as a modifier is an event's, not the picture's.
		if !m.date.hasYear && m.te < len(d.toks) && d.text[m.end:d.toks[m.te].start] == " " && !isUpperStart(d.toks[m.te].text) &&
			d.toks[m.te].lower != "in" && d.toks[m.te].lower != "at" && d.toks[m.te].lower != "on" {
			continue
		}
		usable = append(usable, m)
	}
	if len(usable) == 0 {
		return nil
	}
	first := d.sent[usable[0].ts]
	var pick *mention
	for _, m := range usable {
		if d.sent[m.ts] != first {
			break
		}
		if pick == nil || m.date.precision == "day" || pick.date.precision != "day" {
			pick = m
		}
	}
	return pick
}

// A link is a caption-stated containment: inner located_in outer.
type link struct{ inner, outer *mention }

// A chain is a run of place mentions the caption strings together ("Douma,
// eastern Ghouta, near Damascus, Syria"), with how it is introduced.
type chain struct {
	places []*mention
	score  int // how strongly the chain is the setting; < 0 not at all
	// away is set on a chain that a word of motion or origin introduces
	// ("fleeing from X", "the road from A to B"): no setting, unless the
	// sentence names no other place.
	away   bool
	anchor bool // introduced by "near", "north of", ...
}

// placeStructure finds located_in links between consecutive places of a
// sentence and groups places into chains.
func (d *doc) placeStructure() ([]link, []chain) {
	places := d.body(Place)
	var links []link
	var chains []chain
	for i, p := range places {
		if i > 0 {
			q := places[i-1]
			if d.sent[q.ts] == d.sent[p.ts] {
				kind := d.classifyGap(q, p)
				var l link
				switch kind {
				case gapForward:
					l = link{q, p}
				case gapReverse:
					l = link{p, q}
				case gapOfGeneric:
					if placeRank(q) > placeRank(p) {
						l = link{p, q}
					} else {
						l = link{q, p}
					}
				}
				// A country or province is never inside a town: "strikes on
				// Yemen, in Sanaa" strings two settings together.
				if l.inner != nil {
					if placeRank(l.inner) >= 5 && placeRank(l.outer) < placeRank(l.inner) {
						kind = gapNone
					} else {
						links = append(links, l)
					}
				}
				if kind != gapNone && kind != gapAnchor && kind != gapAlias {
					c := &chains[len(chains)-1]
					c.places = append(c.places, p)
					continue
				}
				if kind == gapAlias {
					continue // another name of the place before: no chain of its own
				}
				if kind == gapAnchor {
					// "X, north of Y": Y is a reference point for X's chain.
					c := &chains[len(chains)-1]
					c.places = append(c.places, p)
					continue
				}
			}
		}
		score, anchor := d.introScore(p)
		away := score == scoreAway
		if away {
			score = -1
		}
		chains = append(chains, chain{places: []*mention{p}, score: score, anchor: anchor, away: away})
	}
	// "Bar Elias, in Lebanon's Bekaa Valley": the possessed place is the
	// container, the possessor contains both.
	for i, l := range links {
		for _, l2 := range links {
			if l2.outer == l.outer && l2.inner != l.inner && l2.inner.start > l.outer.end &&
				possessiveGap(d.maskedGap(l.outer.end, l2.inner.start)) {
				links[i].outer = l2.inner
			}
		}
	}
	return links, chains
}

type gapKind int

const (
	gapNone      gapKind = iota
	gapForward           // "X, Y", "X in Y", "X town, Y province"
	gapReverse           // "Y's X"
	gapOfGeneric         // "the X neighbourhood of Y", "the Y suburb of X": rank decides
	gapAnchor            // "X, north of Y", "X near Y"
	gapAlias             // "X, also known as Y": one place, two names
)

// maskedGap returns the text between two offsets with every mention inside
// it replaced by the word "ent", so that "held by the alliance Hayat Tahrir
// al-Sham (HTS)," reads as words and commas.
func (d *doc) maskedGap(from, to int) string {
	var b strings.Builder
	pos := from
	// Mentions are sorted by start (Extract sorts them before relations):
	// begin at the first inside the gap rather than walk them all, which
	// for every pair of neighbours made long captions quadratic.
	first, _ := slices.BinarySearchFunc(d.mentions, from, func(m *mention, from int) int { return m.start - from })
	for _, m := range d.mentions[first:] {
		if m.start >= to {
			break
		}
		if m.credit || m.end > to {
			continue
		}
		b.WriteString(d.text[pos:m.start])
		b.WriteString("ent")
		pos = m.end
	}
	b.WriteString(d.text[pos:to])
	return b.String()
}

// alsoKnownAs reports a gap that introduces another name for what precedes it.
func alsoKnownAs(gap string) bool {
	g := strings.ToLower(strings.TrimSpace(gap))
	for _, cue := range []string{", also known as", ", known as", ", formerly known as", ", also called", ", or", "also known as", "known locally as"} {
		if strings.TrimSpace(cue) == g || cue == g {
			return true
		}
	}
	return false
}

// gapWords splits the text between two mentions into lower-case words and
// commas.
func gapWords(gap string) []string {
	var out []string
	for f := range strings.FieldsSeq(strings.ToLower(gap)) {
		for f != "" {
			if i := strings.IndexByte(f, ','); i >= 0 {
				if i > 0 {
					out = append(out, f[:i])
				}
				out = append(out, ",")
				f = f[i+1:]
				continue
			}
			out = append(out, f)
			break
		}
	}
	return out
}

// fillerWord reports words that may stand between chained places without
// changing their relation: articles, directions, nationality adjectives,
// generic place words.
func fillerWord(w string) bool {
	w = strings.Trim(w, "-")
	for _, suffix := range []string{"-held", "-controlled", "-backed", "-led", "-run", "-based", "-listed", "-allied", "-linked"} {
		if strings.HasSuffix(w, suffix) && len(w) > len(suffix) {
			return true
		}
	}
	if appositiveAdjectives[w] || statusAdjectives[w] {
		return true
	}
	if i := strings.IndexByte(w, '-'); i > 0 { // "Syrian-Turkish", "rebel-held"
		return fillerWord(w[:i]) && fillerWord(w[i+1:])
	}
	return w == "the" || w == "a" || w == "an" || directionWords[w] || placeGenerics[w] ||
		genericModifiers[w] || commonWords[w] && !settingWords[w] && !notSettingWords[w] && !anchorWords[w] && w != "and" && w != "of"
}

// possessiveGap reports "'s " between two places, with only filler words
// after it: "Syria's southern Sweida".
func possessiveGap(gap string) bool {
	rest, ok := strings.CutPrefix(gap, "'s ")
	if !ok {
		rest, ok = strings.CutPrefix(gap, "’s ")
	}
	if !ok {
		return false
	}
	for w := range strings.FieldsSeq(rest) {
		if !directionWords[w] && !statusAdjectives[w] {
			return false
		}
	}
	return true
}

// classifyGap reads the words between two places of one sentence.
func (d *doc) classifyGap(a, b *mention) gapKind {
	gap := d.maskedGap(a.end, b.start)
	if possessiveGap(gap) {
		return gapReverse
	}
	if strings.ContainsAny(gap, ".;:()\"") {
		return gapNone
	}
	if alsoKnownAs(gap) {
		return gapAlias
	}
	words := gapWords(gap)
	if len(words) > 12 {
		return gapNone
	}
	// Walk back from b to the word that introduces it.
	k := len(words) - 1
	genericOf := false
	for k >= 0 {
		w := words[k]
		switch {
		case w == "of" && k > 0 && (placeGenerics[words[k-1]] || words[k-1] == "capital"):
			genericOf = true // "X neighbourhood of Y", "X, the capital of Y"
			k -= 2
			continue
		case w == "of" && k > 0 && anchorWords[words[k-1]]:
			return gapAnchor
		case w == "of" && k > 0 && words[k-1] == "site":
			genericOf = true
			k -= 2
			continue
		case fillerWord(w):
			k--
			continue
		}
		break
	}
	if k < 0 {
		if genericOf {
			return gapOfGeneric
		}
		return gapNone
	}
	w := words[k]
	prefix := words[:k]
	switch {
	case w == "," || w == "in" || w == "inside" || w == "within":
		if d.prefixOK(prefix) {
			return gapForward
		}
	case anchorWords[w]:
		if d.prefixOK(prefix) {
			return gapAnchor
		}
	}
	return gapNone
}

// prefixOK reports whether the words between the first place and the
// connector that introduces the second only describe the first ("Tel Abyad
// town, ..."), with at most short side phrases set off by commas ("X,
// near the border, Y").
func (d *doc) prefixOK(words []string) bool {
	seg := 0
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "," {
			seg = 0
			continue
		}
		seg++
		if fillerWord(w) {
			continue
		}
		// A side phrase: ", near the Syrian-Turkish border,".
		if anchorWords[w] || w == "along" || w == "on" {
			j := i + 1
			for j < len(words) && words[j] != "," && fillerWord(words[j]) {
				j++
			}
			if (j == len(words) || words[j] == ",") && j-i <= 5 {
				i = j - 1
				continue
			}
		}
		// A participle phrase: ", held by the Nusra Front,", ", recaptured
		// by government forces from rebels,".
		if sideParticiples[w] && (i == 0 || words[i-1] == ",") {
			j := i + 1
			for j < len(words) && words[j] != "," {
				j++
			}
			if j < len(words) && j-i <= 10 {
				i = j - 1
				continue
			}
		}
		return false
	}
	return true
}

// placeRank orders places by size for "the X <generic> of Y", where either
// may contain the other.
func placeRank(m *mention) int {
	p := m.place
	if p == nil {
		return 1
	}
	switch {
	case p.Code == "PCLI" || p.Kind == "country":
		return 6
	case p.Code == "ADM1":
		return 5
	case p.Code == "PPLC" || p.Population >= 500000:
		return 4
	case p.Population >= 100000:
		return 3
	case p.GeoNamesID != 0 && p.Class == "P":
		return 2
	}
	return 1
}

// introScore reads how a chain's first place is introduced: the dateline
// at the start of a sentence or "in", "at", "view of" make it the setting;
// "near" or "north of" make it an anchor; "from", "towards", "fled" or a
// possessive before a title ("Syria's President") make it no setting.
func (d *doc) introScore(p *mention) (int, bool) {
	// "the United States military", "Burkina Faso soldiers": a country
	// used as an adjective is not the scene.
	if p.te < len(d.toks) && d.text[p.end:d.toks[p.te].start] == " " && attributiveNouns[d.toks[p.te].lower] &&
		!(p.te+1 < len(d.toks) && genericModifiers[d.toks[p.te].lower] && placeGenerics[d.toks[p.te+1].lower]) { // "Hemeimeem air base"
		return -1, false
	}
	// "Syria's President ...": a possessive modifier, not a place shown.
	after := d.text[p.end:]
	if strings.HasPrefix(after, "'s ") || strings.HasPrefix(after, "’s ") {
		k := p.te + 1
		if k < len(d.toks) && (titleWords[d.toks[k].lower] || d.mentionAtToken(k) != nil && d.mentionAtToken(k).typ != Place) {
			return -1, false
		}
	}
	// "..., which overlooks X": a place in a relative clause describes
	// something else; it is not the scene.
	// "Mayadeen, an ISIS stronghold on the Euphrates", "Kobani, also known
	// as Ayn al-Arab": an apposition describes the place before it.
	for k := p.ts - 1; k > 0 && d.sent[k] == d.sent[p.ts]; k-- {
		if strings.ContainsAny(d.text[d.toks[k-1].end:d.toks[k].start], ",;") {
			w := d.toks[k].lower
			if relativeWords[w] {
				return -1, false
			}
			if (w == "a" || w == "an" || w == "the" || w == "also" || w == "formerly" || w == "known") && k-1 >= 0 {
				if m := d.mentionAtToken(k - 1); m != nil && m.typ == Place {
					return -1, false
				}
			}
			break
		}
	}
	i := p.ts - 1
	steps := 0
	genericOf := false
	for i >= 0 && d.sent[i] == d.sent[p.ts] && steps < 7 {
		w := d.toks[i].lower
		if m := d.mentionAtToken(i); m != nil && m.typ != Date {
			if m.typ == Place {
				break
			}
			i = m.ts - 1
			steps++
			continue
		}
		switch {
		case w == "of" && i > 0 && d.toks[i-1].lower == "view":
			return 4, false // "A general view of X" shows X
		case w == "of" && i > 0 && (placeGenerics[d.toks[i-1].lower] || d.toks[i-1].lower == "site"):
			genericOf = true
			i -= 2
			steps += 2
			continue
		case w == "of" && i > 0 && anchorWords[d.toks[i-1].lower]:
			return 1, true
		case nearWords[w]:
			return 1, true
		case w == "from" && i > 0 && emissionVerbs[d.toks[i-1].lower]:
			return 2, false // "smoke rises from X" shows X
		case w == "to" && i > 0 && (d.toks[i-1].lower == "visit" || d.toks[i-1].lower == "trip" || d.toks[i-1].lower == "tour"):
			return 2, false // "during a visit to X"
		case motionWords[w]:
			return scoreAway, false
		case notSettingWords[w]:
			return -1, false
		case settingWords[w]:
			return 2, false
		case fillerWord(w) || strings.Contains(w, "-") || w == "s":
			i--
			steps++
			continue
		}
		if genericOf {
			return 2, false
		}
		return 1, false
	}
	if i < 0 || d.sent[i] != d.sent[p.ts] {
		return 3, false // a dateline: "Idlib, Syria A boy ..."
	}
	return 1, false
}

// scoreAway is introScore's answer for a place after a word of motion or
// origin ("from", "to", "into").
const scoreAway = -2

// Words of motion and origin: the place after them is no setting, unless
// it is the only place ("evacuating from X"). A place after "towards" or
// "against" is a target, never the scene.
var motionWords = set("from", "to", "into", "leaving", "left", "fled", "flee", "fleeing")

// Nouns after which a place is an adjective: "US president", "Burkina
// Faso soldiers", "the United States military".
var attributiveNouns = set("president", "military", "army", "soldiers", "troops", "forces", "government",
	"officials", "embassy", "envoy", "minister", "ministry", "police", "authorities", "navy", "air",
	"leader", "leaders", "citizens", "nationals", "delegation", "ambassador", "prime", "foreign", "defence",
	"defense", "security", "intelligence", "parliament", "lawmakers")

// depictedPlace picks the setting: the innermost place of the strongest
// setting chain in the first sentence that has one, later chains winning
// ties (wire captions put the setting last, before the date).
func (d *doc) depictedPlace(chains []chain, links []link) *mention {
	if len(chains) == 0 {
		return nil
	}
	// "evacuating from eastern X", "the road from A to B": when the first
	// sentence with places names them only after words of motion, the
	// last of those is the scene.
	first, away, setting := d.sent[chains[0].places[0].ts], -1, false
	for i, c := range chains {
		if d.sent[c.places[0].ts] == first {
			setting = setting || c.score >= 0
			if c.away {
				away = i
			}
		}
	}
	if !setting && away >= 0 {
		return innermost(chains[away].places, links)
	}
	dates := d.body(Date)
	best := -1
	bestScore := -1
	sentence := -1
	for i, c := range chains {
		s := d.sent[c.places[0].ts]
		if sentence >= 0 && s != sentence {
			break
		}
		if c.score < 0 {
			continue
		}
		score := c.score
		last := c.places[len(c.places)-1]
		for _, dm := range dates {
			if dm.start >= last.end && d.sent[dm.ts] == s {
				gap := strings.Join(gapWords(d.text[last.end:dm.start]), " ")
				for _, w := range gapWords(gap) {
					if placeGenerics[w] {
						gap = strings.Replace(gap, w, "", 1)
					}
				}
				gap = strings.TrimSpace(gap)
				if !c.anchor && (gap == "," || gap == "" || gap == "on" || gap == ", on") {
					score++
				}
				break
			}
		}
		if len(c.places) == 1 && placeRank(c.places[0]) >= 5 {
			score--
		}
		if score >= bestScore {
			best, bestScore, sentence = i, score, s
		}
	}
	if best < 0 {
		return nil
	}
	pick := innermost(chains[best].places, links)
	// "near the Parliament Buildings during protests ... in Nairobi": a
	// facility that frames the scene is more specific than the town, be
	// the town the dateline's or the sentence's.
	if !d.isFacility(pick) {
		for _, c := range chains {
			s := d.sent[c.places[0].ts]
			if s < sentence || s > sentence+1 || s == sentence+1 && chains[best].score != 3 || c.score < 1 {
				continue
			}
			if p := innermost(c.places, links); d.isFacility(p) {
				return p
			}
		}
	}
	// "near Bakhmut, ..., in the Donetsk region": a region is the setting
	// only when the sentence names nothing more specific.
	if placeRank(pick) >= 5 {
		for _, c := range chains {
			if d.sent[c.places[0].ts] == sentence && c.score >= 0 {
				if p := innermost(c.places, links); placeRank(p) < 5 {
					return p
				}
			}
		}
	}
	return pick
}

// isFacility reports whether m names a building, a site or a street: a
// gazetteer spot, or a name with a facility's head word.
func (d *doc) isFacility(m *mention) bool {
	if m.place != nil {
		return m.place.Class == "S"
	}
	last, first := d.toks[m.te-1].lower, d.toks[m.ts].lower
	return facilityHeads[last] || placeHeads[last] && !gazetteer.IsAdminWord(last) && last != "valley" && last != "district" ||
		streetFirst[first] && m.te-m.ts > 1
}

// innermost returns the first place of ps that the links do not put inside
// another place of ps... that is, the most specific one: no other place of
// the chain is located in it.
func innermost(ps []*mention, links []link) *mention {
	for _, p := range ps {
		contains := false
		for _, l := range links {
			if l.outer == p {
				contains = true
				break
			}
		}
		if !contains {
			return p
		}
	}
	return ps[0]
}

// depictedPeople returns the people of the first sentence that the caption
// shows: not those it only mentions ("forces loyal to President X",
// "supporters of X", "pro-X").
func (d *doc) depictedPeople() []*mention {
	var out []*mention
	var prev *mention
	for _, m := range d.body(Person) {
		if m.shown {
			out = append(out, m)
			continue
		}
		if d.sent[m.ts] != 0 {
			continue
		}
		// "X's group": a possessive person is named for what is theirs.
		if rest := d.text[m.end:]; strings.HasPrefix(rest, "'s ") || strings.HasPrefix(rest, "’s ") {
			continue
		}
		// "X, also known as Y": the other name is the same person, shown
		// once under the name before it.
		if m.aliasOf != nil || m.ts >= 2 && d.toks[m.ts-1].lower == "as" && d.toks[m.ts-2].lower == "known" {
			continue
		}
		// "for slain commanders X and Y": the second shares the first's fate.
		if prev != nil && m.ts == prev.te+1 && d.toks[prev.te].lower == "and" {
			if slices.Contains(out, prev) {
				out = append(out, m)
			}
			prev = m
			continue
		}
		prev = m
		shown := true
	scan:
		for k := m.ts - 1; k >= 0 && k >= m.ts-6; k-- {
			w := d.toks[k].lower
			switch {
			case contactVerbs[w]:
				break scan // "embraces Andy Murray of Britain"
			case notShownCues[w] || k >= m.ts-4 && (w == "to" || w == "of" || w == "by" || w == "for" || w == "under"):
				shown = false
				break scan
			}
		}
		if shown {
			out = append(out, m)
		}
	}
	return out
}

// Words before a person that show the caption names rather than shows
// them: "against", "posters of", "the funeral for slain ...".
var notShownCues = set("against", "defeating", "defeated", "beat", "beating", "pro", "anti", "poster", "posters",
	"portrait", "portraits", "picture", "pictures", "image", "images", "funeral", "slain", "late",
	"killed", "assassinated", "memorial", "mourn", "mourning", "commemorating", "commemorate", "statue",
	"mural", "billboard", "banner")

// memberOf finds the depicted combatant and the group the caption says
// they belong to: "A <group> fighter", "Members of the <group>", "a
// soldier who defected to join the <group>"; and group-to-group membership:
// "<parent>'s <group>", "<group>, which operates under the <parent>",
// "<group> fighter, part of the <parent>".
func (d *doc) memberOf(r *relSet) {
	groups := d.body(ArmedGroup)
	// Group to parent group.
	for i, g := range groups {
		if i > 0 {
			p := groups[i-1]
			gap := d.maskedGap(p.end, g.start)
			if gap == "'s " || gap == "’s " || affiliateGap(gap) {
				r.add(d.arg(g), MemberOf, d.arg(p), 0.75)
			}
		}
		if i+1 < len(groups) && d.sent[groups[i+1].ts] == d.sent[g.ts] && partOfGap(d.maskedGap(g.end, groups[i+1].start)) {
			r.add(d.arg(g), MemberOf, d.arg(groups[i+1]), 0.75)
		}
	}
	// The depicted role: only the first sentence's first combatant counts.
	for i, t := range d.toks {
		if d.sent[i] != 0 {
			break
		}
		if !roleWords[t.lower] || d.owner[i] != nil {
			continue
		}
		if d.notDepicted(i) {
			continue
		}
		var g *mention
		// "<group> fighter": the group ends right before the role.
		if i > 0 {
			if m := d.mentionAtToken(i - 1); m != nil && m.typ == ArmedGroup && m.te == i {
				if gap := d.text[m.end:t.start]; gap == " " {
					if !d.notDepicted(m.ts) {
						g = m
					}
				}
			}
		}
		// "Members of the <group>", "fighters from <group>", "Marines with
		// the <unit>", "Fighters loyal to the <group>".
		if g == nil && i+1 < len(d.toks) {
			k := i + 1
			w := d.toks[k].lower
			if w == "loyal" && k+1 < len(d.toks) && d.toks[k+1].lower == "to" {
				k, w = k+1, "to"
			}
			if w == "of" || w == "from" || w == "with" || w == "to" && d.toks[k-1].lower == "loyal" {
				k++
				if k < len(d.toks) && d.toks[k].lower == "the" {
					k++
				}
				g = d.groupFrom(k)
			}
		}
		// "a soldier, who has defected to join the <group>".
		if g == nil {
			rest := strings.ToLower(d.text[t.end:min(len(d.text), t.end+50)])
			for _, cue := range []string{" who defected to join the ", ", who has defected to join the ", ", who defected to join the ", " who has defected to join the ", " who joined the "} {
				if strings.HasPrefix(rest, cue) {
					if m := d.mentionAtToken(d.tokenAt(t.end + len(cue))); m != nil && m.typ == ArmedGroup {
						g = m
					}
				}
			}
		}
		if g == nil {
			continue
		}
		role := roleArg(t.text)
		r.add(role, MemberOf, d.arg(g), 0.75)
		// "..., part of the Free Syrian Army": the member belongs to the parent too.
		rest := d.text[t.end:]
		if strings.HasPrefix(rest, " (") {
			if cl := strings.IndexByte(rest, ')'); cl > 0 && cl < 8 {
				rest = rest[cl+1:]
			}
		}
		for _, cue := range []string{", part of the ", ", part of "} {
			if strings.HasPrefix(strings.ToLower(rest), cue) {
				if m := d.mentionAtToken(d.tokenAt(len(d.text) - len(rest) + len(cue))); m != nil && m.typ == ArmedGroup {
					r.add(role, MemberOf, d.arg(m), 0.7)
				}
			}
		}
		return
	}
}

// groupFrom reads the group a role belongs to from token k on, past
// modifiers: "the US-backed Syrian Democratic Forces", "Ukraine's Azov
// Regiment", "al Qaeda's Nusra Front", "al Qaeda's Syrian affiliate, the
// Nusra Front" (the inner group in the last two).
func (d *doc) groupFrom(k int) *mention {
	for steps := 0; k < len(d.toks) && steps < 4; steps++ {
		m := d.mentionAtToken(k)
		if m == nil || m.ts != k {
			if fillerWord(d.toks[k].lower) || d.toks[k].lower == "led" || d.toks[k].lower == "backed" || demonyms[d.toks[k].lower] {
				k++
				continue
			}
			return nil
		}
		poss := m.te+1 < len(d.toks) && d.toks[m.te].lower == "s" && isApostrophe(d.text[m.end:d.toks[m.te].start])
		switch {
		case m.typ == ArmedGroup && poss:
			// "al Qaeda's Nusra Front", "al Qaeda's Syrian affiliate, the Nusra Front".
			for j := m.te + 1; j < len(d.toks) && j < m.te+7 && d.sent[j] == d.sent[k]; j++ {
				if m2 := d.mentionAtToken(j); m2 != nil && m2.typ == ArmedGroup && m2.ts == j {
					return m2
				}
			}
			return m
		case m.typ == ArmedGroup:
			return m
		case m.typ == Place && poss:
			k = m.te + 1 // "Ukraine's Azov Regiment"
		case m.typ == Place && m.te < len(d.toks) && (d.toks[m.te].lower == "backed" || d.toks[m.te].lower == "led"):
			k = m.te + 1 // "US-backed"
		default:
			return nil
		}
	}
	return nil
}

// affiliateGap reports "'s Syrian affiliate, the " between a parent group
// and its branch.
func affiliateGap(gap string) bool {
	if !strings.HasPrefix(gap, "'s ") && !strings.HasPrefix(gap, "’s ") {
		return false
	}
	words := gapWords(gap[strings.IndexByte(gap, ' ')+1:])
	n := len(words)
	return n >= 3 && n <= 6 && words[n-1] == "the" && words[n-2] == "," && partNouns[words[n-3]]
}

// partOfGap reports the words between two groups that make the first part
// of the second: ", part of the ", ", a faction of the Turkish-backed ",
// ", which operates under the ", " is the all-female wing of the ".
func partOfGap(gap string) bool {
	words := gapWords(gap)
	if len(words) == 0 || len(words) > 9 || words[len(words)-1] == "ent" {
		return false
	}
	// Drop the article and modifiers before the second group.
	k := len(words) - 1
	for k >= 0 && (words[k] == "the" || fillerWord(words[k])) {
		k--
	}
	if k < 1 {
		return false
	}
	switch {
	case words[k] == "of" && partNouns[words[k-1]]:
		return true
	case words[k] == "under" && (words[k-1] == "operates" || words[k-1] == "operating" || words[k-1] == "fights" || words[k-1] == "fighting"):
		return true
	case words[k] == "joined" || words[k] == "within":
		return true
	}
	return false
}

// notDepicted reports a combatant mention that is the other side of the
// scene: "clashes with <group> fighters", "killed by ...", "belonged to ...".
// sameMoment are the subordinators of a clause that happens as the
// picture is taken.
var sameMoment = set("as", "while")

func (d *doc) notDepicted(i int) bool {
	// A combatant in a subordinate clause is not the picture's subject:
	// "after the army said it had driven Islamic State militants out".
	if d.prevSub == nil {
		// Once per caption: scanning back from every group mention to
		// its sentence's start made a long sentence quadratic.
		d.prevSub = make([]int, len(d.toks))
		last := -1
		for k, t := range d.toks {
			// "gestures as she stands near a soldier": a clause of the
			// same moment still shows what it names.
			if subordinators[t.lower] && !sameMoment[t.lower] {
				last = k
			}
			d.prevSub[k] = last
		}
	}
	if i > 0 {
		if k := d.prevSub[i-1]; k >= 0 && d.sent[k] == d.sent[i] {
			return true
		}
	}
	steps := 0
	for k := i - 1; k >= 0 && steps < 3; k-- {
		if m := d.mentionAtToken(k); m != nil && m.typ == ArmedGroup {
			k = m.ts // a group name counts as one word
		}
		switch d.toks[k].lower {
		case "with", "against", "by", "between", "from", "killed", "fight", "fighting", "battle", "attack", "on",
			"belonged", "belonging", "loyal", "after", "as", "while", "when", "before", "until", "since":
			return true
		}
		steps++
	}
	return false
}

// aliases links two mentions of one thing written differently: the later
// one is the alias ("... Free Syrian Army ... the FSA said").
func (d *doc) aliases(r *relSet) {
	var named []*mention
	for _, m := range d.mentions {
		if m.credit || m.typ == Date || m.typ == Person || m.id == "" {
			continue
		}
		named = append(named, m)
	}
	for _, m := range d.mentions {
		if m.aliasOf != nil {
			r.add(d.arg(m), AliasOf, d.arg(m.aliasOf), 0.75) // "his nickname Barbecue"
		}
	}
	// Each mention is checked against the earlier ones of its entity, each
	// distinct form once: a long caption names one entity hundreds of
	// times but in few forms, and comparing every pair of mentions made
	// extraction time grow with the square of the caption's length.
	type form struct {
		text  string // aliasForm of the mention
		typ   EntityType
		place bool
		first *mention // the first mention in this form
	}
	forms := make(map[string][]form) // by entity id, in order of first mention
	for _, b := range named {
		tb := aliasForm(d.text[b.start:b.end])
		earlier := forms[b.id]
		// A repeat of an earlier form is no alias: "Kobani, also known as
		// Ayn al-Arab ... besieged Kobani".
		repeat, known := false, false
		for _, a := range earlier {
			repeat = repeat || a.text == tb
			known = known || a.text == tb && a.typ == b.typ && a.place == (b.place != nil)
		}
		if !repeat {
			for _, a := range earlier {
				if a.typ != b.typ || a.place && placeKeyEqual(a.text, tb) {
					continue
				}
				r.add(d.arg(b), AliasOf, d.arg(a.first), 0.8)
				break
			}
		}
		if !known {
			forms[b.id] = append(earlier, form{tb, b.typ, b.place != nil, b})
		}
	}
}

// aliasForm is a name reduced so that case, a plural s and a trailing
// "(ABBR)" do not make two mentions aliases.
func aliasForm(s string) string {
	if i := strings.Index(s, " ("); i > 0 {
		s = s[:i]
	}
	s = strings.ToLower(s)
	s = strings.TrimSuffix(s, "s")
	if first, rest, ok := strings.Cut(s, " "); ok && commonWords[first] {
		s = rest // "Kurdish Peshmerga" and "Peshmerga"
	}
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '-' }), " ")
}

func placeKeyEqual(a, b string) bool { return gazetteer.Key(a) == gazetteer.Key(b) }

// controlledBy finds who holds a named place. Three shapes cover wire
// captions: a holder before the place ("rebel-held X", "the YPG-held
// neighbourhood of X", "X, an opposition-held town"), a passive after it
// ("X, held by <group>", "X ... in rebel hands") and an active verb ("<group>
// has controlled X", "<subject> took control of X").
func (d *doc) controlledBy(r *relSet, links []link) {
	// "Douma in Syria, an area controlled by rebels": the phrase describes
	// the chain's innermost place, not the country after it.
	inner := func(p *mention) *mention {
		for changed := true; changed; {
			changed = false
			for _, l := range links {
				if l.outer == p {
					p, changed = l.inner, true
					break
				}
			}
		}
		return p
	}
	add := func(p *mention, h holder, conf float64) {
		if h.group != nil {
			r.add(d.arg(p), ControlledBy, d.arg(h.group), conf)
		} else if h.value != "" {
			r.add(d.arg(p), ControlledBy, controllerArg(h.value), conf)
		}
	}
	for i := range d.toks {
		if h, end, ok := d.holderCue(i); ok {
			if p := d.heldTarget(i, end); p != nil {
				add(p, h, 0.75)
			}
		}
	}
	for _, p := range d.body(Place) {
		if h := d.heldAfter(p); h.ok() {
			add(inner(p), h, 0.7)
		}
		if h := d.heldByActive(p); h.ok() {
			add(p, h, 0.65)
		}
	}
	d.tookControl(r)
}

// A holder is who controls a place: a named group or a normalised value.
type holder struct {
	group *mention
	value string // ControllerRebels or ControllerGovernment
}

func (h holder) ok() bool { return h.group != nil || h.value != "" }

// holderCue reads a holder phrase that starts at token i and modifies what
// follows: "rebel-held", "rebel held", "opposition-controlled",
// "government-held", "<group>-held", "<group> stronghold". It returns the
// holder and the index of the first token after the phrase.
func (d *doc) holderCue(i int) (holder, int, bool) {
	var h holder
	j := i
	if m := d.mentionAtToken(i); m != nil && m.ts == i && m.typ == ArmedGroup {
		h.group, j = m, m.te
	} else {
		switch d.toks[i].lower {
		case "rebel", "rebels", "opposition", "insurgent", "jihadist", "islamist":
			h.value = ControllerRebels
		case "government", "regime", "army", "loyalist":
			h.value = ControllerGovernment
		default:
			return h, 0, false
		}
		j = i + 1
	}
	if j >= len(d.toks) {
		return h, 0, false
	}
	gap := d.text[d.toks[j-1].end:d.toks[j].start]
	switch w := d.toks[j].lower; {
	case (w == "held" || w == "controlled" || w == "run") && (gap == "-" || gap == " "):
		return h, j + 1, true
	case (w == "stronghold" || w == "strongholds" || w == "bastion") && gap == " ":
		return h, j + 1, true
	}
	return h, 0, false
}

// heldTarget finds the place a holder phrase [i, end) describes: the head of
// an apposition it stands in ("Waer, the last opposition-held district of
// Homs" -> Waer) or else the place it leads to through generic words ("the
// rebel-held besieged town of Douma" -> Douma). An unnamed area ("a
// rebel-held area of Aleppo") is nobody's.
func (d *doc) heldTarget(i, end int) *mention {
	// Apposition: ", a|an|the [adjectives] <cue>" right after a place.
	k := i - 1
	for k >= 0 && (appositiveAdjectives[d.toks[k].lower] || directionWords[d.toks[k].lower]) {
		k--
	}
	if k >= 1 && (d.toks[k].lower == "a" || d.toks[k].lower == "an" || d.toks[k].lower == "the") &&
		strings.Contains(d.text[d.toks[k-1].end:d.toks[k].start], ",") {
		if m := d.mentionAtToken(k - 1); m != nil && m.typ == Place {
			return m
		}
	}
	// Forward to the place: "town of", "besieged Syrian", "the".
	for j := end; j < len(d.toks) && j < end+6 && d.sent[j] == d.sent[i]; j++ {
		if m := d.mentionAtToken(j); m != nil && m.typ == Place && m.ts == j {
			return m
		}
		w := d.toks[j].lower
		if unnamedAreas[w] {
			// "the rebel-controlled area of Maarshureen town": the area of
			// a town is the town; that of a city is a part of it.
			if j+2 < len(d.toks) && d.toks[j+1].lower == "of" {
				if m := d.mentionAtToken(j + 2); m != nil && m.typ == Place && m.ts == j+2 &&
					(m.place == nil || m.place.Class == "P" && m.place.Population < 100000) {
					return m
				}
			}
			return nil
		}
		if !(fillerWord(w) || w == "of") {
			return nil
		}
	}
	return nil
}

// heldAfter reads a passive holder after a place: ", controlled by
// <group>", ", which is held by the jihadist alliance <group>", ", an area
// controlled by rebels", "... in rebel hands".
func (d *doc) heldAfter(p *mention) holder {
	for k := p.te; k < len(d.toks) && k < p.te+10 && d.sent[k] == d.sent[p.ts]; k++ {
		w := d.toks[k].lower
		if m := d.mentionAtToken(k); m != nil && m.typ == Place && m != p {
			return holder{}
		}
		if passiveHeld[w] && k+1 < len(d.toks) && d.toks[k+1].lower == "by" {
			return d.holderAt(k + 2)
		}
		if w == "hands" && k >= 2 && d.toks[k-2].lower == "in" {
			return holder{value: controllerWord(d.toks[k-1 : k])}
		}
	}
	return holder{}
}

// holderAt reads the holder named from token j on: a group after at most
// three descriptive words ("the jihadist alliance", "the Kurdish-led"), or
// rebels or government forces.
func (d *doc) holderAt(j int) holder {
	for skipped := 0; j < len(d.toks) && skipped <= 3; skipped++ {
		if m := d.mentionAtToken(j); m != nil && m.typ == ArmedGroup {
			return holder{group: m}
		}
		if v := controllerWord(d.toks[j:min(len(d.toks), j+4)]); v != "" {
			return holder{value: v}
		}
		if m := d.mentionAtToken(j); m != nil {
			j = m.te // "the Kurdish-led", "US-backed": a place inside a modifier
			continue
		}
		if isUpperStart(d.toks[j].text) && !commonWords[d.toks[j].lower] {
			return holder{}
		}
		j++
	}
	return holder{}
}

// heldByActive reads "<group> has controlled X", "<group> have held X
// since", "<group> controls X".
func (d *doc) heldByActive(p *mention) holder {
	k := p.ts - 1
	if k < 1 || !activeHeld[d.toks[k].lower] {
		return holder{}
	}
	k--
	for k >= 0 && (d.toks[k].lower == "has" || d.toks[k].lower == "have" || d.toks[k].lower == "had" || d.toks[k].lower == "still") {
		k--
	}
	if k < 0 {
		return holder{}
	}
	if m := d.mentionAtToken(k); m != nil && m.typ == ArmedGroup && m.te == k+1 {
		return holder{group: m}
	}
	return holder{}
}

// controllerWord maps "rebels", "opposition", "forces loyal to ...",
// "government" to a normalised controller value.
func controllerWord(toks []token) string {
	if len(toks) == 0 {
		return ""
	}
	switch toks[0].lower {
	case "rebels", "rebel", "opposition", "insurgents", "insurgent":
		return ControllerRebels
	case "government", "regime", "pro":
		return ControllerGovernment
	case "forces", "troops":
		if len(toks) >= 3 && toks[1].lower == "loyal" {
			return ControllerGovernment
		}
	}
	return ""
}

// tookControl reads "<subject> took control of X", "<subject> recaptured
// X" and "... recaptured the site", where the site is the place just named.
func (d *doc) tookControl(r *relSet) {
	for i := 0; i < len(d.toks); i++ {
		w := d.toks[i].lower
		var k int
		switch {
		case controlVerbs[w] && i+2 < len(d.toks) && d.toks[i+1].lower == "control" && d.toks[i+2].lower == "of":
			k = i + 3
		case captureVerbs[w]:
			k = i + 1
		default:
			continue
		}
		var place *mention
		for ; k < len(d.toks) && k < i+8 && d.sent[k] == d.sent[i]; k++ {
			if m := d.mentionAtToken(k); m != nil {
				if m.typ == Place && m.ts == k {
					place = m
				}
				break
			}
			tw := d.toks[k].lower
			if (tw == "site" || tw == "city" || tw == "town" || tw == "village") && (k+1 >= len(d.toks) || d.toks[k+1].lower != "of") {
				// "recaptured the site": the place just named.
				for _, m := range d.body(Place) {
					if m.end <= d.toks[i].start && d.sent[m.ts] == d.sent[i] {
						place = m
					}
				}
				break
			}
			if !(fillerWord(tw) || tw == "of") || unnamedAreas[tw] {
				break
			}
		}
		if place == nil {
			continue
		}
		ctl, group := d.sentenceSubject(i)
		switch {
		case group != nil:
			r.add(d.arg(place), ControlledBy, d.arg(group), 0.65)
		case ctl != "":
			r.add(d.arg(place), ControlledBy, controllerArg(ctl), 0.65)
		}
	}
}

// sentenceSubject classifies who acts in the sentence of token i: rebels,
// government forces, or a named group.
func (d *doc) sentenceSubject(i int) (string, *mention) {
	s := d.sent[i]
	for k := range i {
		if d.sent[k] != s {
			continue
		}
		if m := d.mentionAtToken(k); m != nil && m.typ == ArmedGroup {
			return "", m
		}
		switch d.toks[k].lower {
		case "rebel", "rebels", "opposition", "insurgents", "insurgent":
			return ControllerRebels, nil
		case "government", "regime", "army", "soldiers", "troops":
			if k > 0 && (d.toks[k-1].lower == "syrian" || d.toks[k-1].lower == "pro") || d.toks[k].lower == "government" || d.toks[k].lower == "regime" {
				return ControllerGovernment, nil
			}
		}
	}
	return "", nil
}

// eventAt links a named event to the place stated for it: "<event> in
// London", "<event> at Augusta National".
func (d *doc) eventAt(r *relSet) {
	for _, e := range d.body(Event) {
		for _, p := range d.body(Place) {
			if p.start < e.end || d.sent[p.ts] != d.sent[e.ts] {
				continue
			}
			gap := strings.ToLower(d.text[e.end:p.start])
			// "“I Love Damascus” marathon at X": the quote and the noun
			// that typed the event.
			gap = strings.TrimLeft(gap, "”\"")
			if w, rest, ok := strings.Cut(strings.TrimPrefix(gap, " "), " "); ok && eventNouns[w] {
				gap = " " + rest
			}
			if gap == " in " || gap == " at " || gap == " at the " || gap == " in the " {
				r.add(d.arg(e), EventAt, d.arg(p), 0.7)
			}
			break
		}
	}
}
