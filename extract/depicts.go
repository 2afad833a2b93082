package extract

import (
	"slices"
	"strings"

	"github.com/capgraph/capgraph/extract/gazetteer"
)

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
	for _, suffix := range []string{"-held", "-controlled", "-backed", "-led", "-run", "-based", "-listed", "-allied", "-linked", "-administered", "-occupied"} {
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
	genericOf, islandOf, cityPart := false, false, false
	for k >= 0 {
		w := words[k]
		switch {
		case w == "of" && k > 0 && (placeGenerics[words[k-1]] || words[k-1] == "capital"):
			genericOf = true // "X neighbourhood of Y", "X, the capital of Y"
			islandOf = words[k-1] == "island"
			cityPart = cityParts[words[k-1]]
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
		// "the Gombe district of Kinshasa": a part of a city lies in it,
		// however the gazetteer ranks a place of the part's name ("the
		// Mosul neighbourhood of Zahra" names the city first).
		if cityPart && b.place != nil && b.place.Class == "P" && (a.place == nil || a.place.Class != "P") {
			return gapForward
		}
		if genericOf {
			return gapOfGeneric
		}
		return gapNone
	}
	w := words[k]
	prefix := words[:k]
	switch {
	case w == "," || w == "in" || w == "inside" || w == "within",
		w == "on" && genericOf && islandOf: // "Moria camp on the island of Lesbos"
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

// cityParts are the generic words of a city's parts: "the X district of
// <city>".
var cityParts = set("district", "neighbourhood", "neighborhood", "quarter", "microdistrict", "micro-district", "commune")

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
		// "the Bataclan concert hall in Paris": the facility's own noun,
		// after at most one word of its kind.
		if i == 0 && facilityNouns[w] {
			continue
		}
		if i == 0 && i+1 < len(words) && facilityNouns[words[i+1]] {
			i++
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
		// "rally in Sanaa, Yemen, to show solidarity with Palestinians in
		// Gaza, January 12": a place that the caption locates down to its
		// country is the wire's location line, more than a place named
		// in passing before the date.
		if len(c.places) > 1 && placeRank(c.places[len(c.places)-1]) == 6 && c.score >= 2 && !c.anchor {
			score += 2
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
