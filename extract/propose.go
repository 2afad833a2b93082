package extract

import (
	"strings"

	"github.com/capgraph/capgraph/extract/gazetteer"
)

// Names no table knows are proposed from the contexts wire captions put
// them in, with a lower confidence than table matches.

const (
	confContext = 0.6  // a name proposed from its context alone
	confResolve = 0.75 // a proposed name the gazetteer knows by transliteration
)

// nameRun returns the end (exclusive token index) of a run of name tokens
// starting at i: capitalised words, joined by name gaps, with lower-case
// particles ("al-", "bin") inside. It returns i when there is none.
func (d *doc) nameRun(i, max int) int {
	j := i
	for j < len(d.toks) && j-i < max && d.owner[j] == nil {
		t := d.toks[j]
		if j > i && !gapJoins(d.text[d.toks[j-1].end:t.start]) {
			break
		}
		if j > i && d.sent[j] != d.sent[j-1] {
			break
		}
		switch {
		case isUpperStart(t.text) && !isDigits(t.text):
		case nameParticles[t.lower] && j+1 < len(d.toks) && isUpperStart(d.toks[j+1].text) && gapJoins(d.text[t.end:d.toks[j+1].start]):
		case j > i && givenSyllable(d, j):
		default:
			return trimParticles(d, i, j)
		}
		j++
	}
	return trimParticles(d, i, j)
}

// titleInside reports whether a title word stands inside the run [i, j),
// after its first token: "Italian Prime Minister Jane DOE", "Army General
// John Doe".
func (d *doc) titleInside(i, j int) bool {
	for k := i + 1; k < j-1; k++ {
		if titleWords[d.toks[k].lower] && isUpperStart(d.toks[k].text) {
			return true
		}
	}
	return false
}

// givenSyllable reports whether token j is the lower-case second
// syllable of a hyphenated given name, as Korean names write it:
// "Moo-hyun", "Jun-seok". English compounds after a hyphen ("US-backed",
// "Pro-democracy") are longer or end in -ed.
func givenSyllable(d *doc, j int) bool {
	t, prev := d.toks[j], d.toks[j-1]
	return d.text[prev.end:t.start] == "-" && isUpperStart(prev.text) && !isAllCaps(prev.text) &&
		len(prev.text) <= 5 && len(t.text) >= 2 && len(t.text) <= 4 && !strings.HasSuffix(t.lower, "ed") &&
		!commonWords[t.lower] && !hyphenWords[t.lower] && j+1 <= len(d.toks)
}

// hyphenWords are short English words that follow a hyphen in compounds.
var hyphenWords = set("led", "run", "era", "old", "day", "war", "age", "aid", "gun", "tax", "law", "bus", "car", "way", "off", "up", "out", "set", "top", "end", "on", "in", "go", "ups", "like", "free", "wide", "long", "year", "time", "made", "born", "type", "size", "rich", "poor", "held", "hit", "torn", "owned", "left", "right", "high", "low", "new", "hand", "home", "bound", "term", "ish", "wing", "line", "less", "full", "side", "back", "mid", "pro", "anti", "non", "post", "pre", "per", "vs", "ii", "iii", "iv")

// trimParticles drops trailing particles, single capitals and the
// modifier of a generic word ("Rhoo IDP camp") from a run.
func trimParticles(d *doc, i, j int) int {
	for j > i && (nameParticles[d.toks[j-1].lower] || isAllCaps(d.toks[j-1].text) && len(d.toks[j-1].text) == 1 ||
		j-1 > i && genericModifiers[d.toks[j-1].lower] && j < len(d.toks) && placeGenerics[d.toks[j].lower]) {
		j--
	}
	return j
}

// runOK reports whether tokens [i, j) can be a new name: not all of them
// ordinary capitalised words.
func (d *doc) runOK(i, j int) bool {
	if j <= i {
		return false
	}
	for k := i; k < j; k++ {
		if !commonWords[d.toks[k].lower] && !titleWords[d.toks[k].lower] && !roleWords[d.toks[k].lower] &&
			!placeGenerics[d.toks[k].lower] && !genericModifiers[d.toks[k].lower] && !unitWords[d.toks[k].lower] && !demonyms[d.toks[k].lower] {
			return true
		}
	}
	return false
}

func (d *doc) newMention(typ EntityType, i, j int, conf float64) *mention {
	s, e := d.toks[i].start, d.toks[j-1].end
	return &mention{typ: typ, start: s, end: e, ts: i, te: j, conf: conf, id: proposedID(typ, d.text[s:e])}
}

// proposedID is the id of a name no table knows: its type and its slug,
// "place:kafr-nabudah".
func proposedID(typ EntityType, text string) string {
	return strings.ToLower(strings.ReplaceAll(string(typ), "_", "-")) + ":" + slug(text)
}

// findPeople proposes PERSON mentions: after a title ("President X"), in an
// age apposition ("X, 30," "X, a 9-year-old"), as "X of <country>" in sport,
// after a kinship noun ("her sister X"), in "X and Y" with a person, after
// a club's possessive, after pro-/anti- prefixes of known people.
func (d *doc) findPeople() {
	d.quotedNicknames() // first, so that a nickname cue later can name the full name
	for i := 0; i < len(d.toks); i++ {
		if d.owner[i] != nil {
			continue
		}
		prev := ""
		if i > 0 {
			prev = d.toks[i-1].lower
		}
		if d.inTitleObject(i) {
			continue // "Secretary of State": the name begins after the title
		}
		j := d.nameRun(i, 6)
		if j == i || !d.runOK(i, j) || titleWords[d.toks[i].lower] || d.titleInside(i, j) {
			continue // a title inside: the name begins after it, where the loop will find it
		}
		if last := d.toks[j-1].lower; orgHeads[last] || eventHeads[last] || facilityHeads[last] {
			continue // "Elections Commission" is no one's name
		}
		if j < len(d.toks) && placeGenerics[d.toks[j].text] && d.text[d.toks[j-1].end:d.toks[j].start] == " " {
			continue // "the Sheikh Radwan neighbourhood", "the Imam Hussein shrine": a place's name
		}
		// A run that opens with a particle is a name only when the particle
		// is joined to it: "al-Doe", not "an Islamic Emirate".
		if !isUpperStart(d.toks[i].text) && d.text[d.toks[i].end:d.toks[i+1].start] != "-" {
			continue
		}
		// Skip runs that start mid-name (the previous token joins them).
		if i > 0 && isUpperStart(d.toks[i-1].text) && gapJoins(d.text[d.toks[i-1].end:d.toks[i].start]) && !titleWords[prev] && !d.inTitleObject(i-1) && d.owner[i-1] == nil {
			continue
		}
		after := d.text[d.toks[j-1].end:]
		gapBefore := ""
		if i > 0 {
			gapBefore = d.text[d.toks[i-1].end:d.toks[i].start]
		}
		shown := positionApposition(after) // "Jane Doe (left)", "says Jane, right,"
		conf := 0.0
		var alias *mention
		switch {
		case i > 0 && (titleWords[prev] || d.inTitleObject(i-1)) && gapBefore == " " && (isUpperStart(d.toks[i-1].text) || j-i >= 2):
			conf = 0.8
		case i > 0 && titleWords[prev] && gapBefore == ", " && isUpperStart(d.toks[i-1].text) && j-i >= 2:
			conf = 0.75 // "the Syrian Foreign Minister, Jane Doe"
		case j-i >= 2 && i > 1 && prev == "by" && leaderVerbs[d.toks[i-2].lower]:
			conf = 0.75 // "led by Jane Doe"
		case j-i >= 2 && i > 0 && gapBefore == " " && d.orgBefore(i):
			conf = 0.7 // "the Kharkiv military administration Jane Doe"
		case i > 0 && nicknameCues[prev] && gapBefore == " " || i > 1 && prev == "as" && d.toks[i-2].lower == "known":
			conf = 0.7 // "his nickname Barbecue", "also known as Barbecue"
			alias = d.lastFullPerson(i)
		case j-i == 1 && strings.HasPrefix(after, " family") && (len(after) == 7 || !isLetterByte(after[7])) && !commonWords[d.toks[i].lower]:
			conf = 0.65 // "the al-Doe family home"
		case shown:
			conf = 0.75
		case j-i >= 2 && d.titleApposition(after):
			conf = 0.7 // "Jane Doe, the leader of ..."
		case j-i >= 2 && i > 1 && d.possessivePlace(i):
			conf = 0.7 // "Spain's Rafael Nadal"
		case i > 0 && kinWords[prev] && d.text[d.toks[i-1].end:d.toks[i].start] == " ":
			conf = 0.7
		case ageApposition(after):
			conf = 0.8
		case i > 2 && prev == "old" && d.toks[i-2].lower == "year" && gapBefore == " ":
			conf = 0.8 // "nine-year-old Jane Doe"
		case j-i >= 2 && i > 1 && prev == "of" && gapBefore == " " && ofPersonNouns[d.toks[i-2].lower]:
			conf = 0.7 // "the arrest of Jane Doe"
		case j-i == 1 && i > 0 && titleWords[prev] && gapBefore == " " && !isUpperStart(d.toks[i-1].text) && !commonWords[d.toks[i].lower] &&
			(j >= len(d.toks) || !isUpperStart(d.toks[j].text)):
			conf = 0.65 // "forward Neymar"
		case j-i >= 2 && d.ofCountry(j):
			conf = 0.75
		case j-i >= 2 && i > 1 && d.possessiveOrg(i):
			conf = 0.7
		case j-i >= 2 && i > 1 && (prev == "and" || contactVerbs[prev] || prev == "with") && d.personBefore(i-1):
			conf = 0.65
		}
		if conf == 0 {
			continue
		}
		// "the al-Doe family": a lower-case particle joined by a hyphen
		// belongs to the name.
		if i > 0 && nameParticles[prev] && !isUpperStart(d.toks[i-1].text) && gapBefore == "-" && d.owner[i-1] == nil {
			i--
		}
		m := d.newMention(Person, i, j, conf)
		m.aliasOf = alias
		m.shown = shown
		d.add(m)
		i = j - 1
	}
	d.surnames()
}

// titleObjects are the capitalised words of a title's "of" phrase:
// "Secretary of State", "Minister of Foreign Affairs", "Chief of the
// General Staff".
var titleObjects = set("state", "defense", "defence", "foreign", "affairs", "interior", "home", "justice",
	"health", "finance", "economy", "education", "energy", "trade", "commerce", "treasury", "agriculture",
	"labor", "labour", "transport", "transportation", "information", "culture", "staff", "general",
	"homeland", "security", "war", "veterans", "environment", "tourism", "industry", "immigration",
	"communications", "internal", "external", "public", "works", "and", "the")

// inTitleObject reports whether token k is a word of a title's "of"
// phrase: capitalised (or "and", "the"), with only such words back to an
// "of" after a title word.
func (d *doc) inTitleObject(k int) bool {
	if k < 2 || !titleObjects[d.toks[k].lower] || !isUpperStart(d.toks[k].text) && d.toks[k].lower != "and" && d.toks[k].lower != "the" {
		return false
	}
	for j := k - 1; j >= 1; j-- {
		w := d.toks[j].lower
		switch {
		case w == "of":
			return titleWords[d.toks[j-1].lower] && isUpperStart(d.toks[j-1].text)
		case !titleObjects[w] || d.sent[j] != d.sent[k]:
			return false
		}
	}
	return false
}

// Verbs of leading: "led by X", "headed by X".
var leaderVerbs = set("led", "headed", "commanded", "chaired", "founded", "run", "ruled")

// Words after which a name is a nickname: "his nickname Barbecue".
var nicknameCues = set("nickname", "nicknamed", "dubbed", "alias", "aka", "moniker", "nom", "guerre")

// Nouns of a person's role in an apposition: "X, the leader of ...".
var personNouns = set("leader", "head", "chief", "commander", "founder", "boss", "kingpin", "trafficker",
	"spokesman", "spokeswoman", "spokesperson", "deputy", "president", "minister", "general", "colonel",
	"officer", "mother", "father", "son", "daughter", "wife", "husband", "brother", "sister", "widow",
	"resident", "farmer", "teacher", "doctor", "nurse", "student", "journalist", "photographer", "activist",
	"lawyer", "member", "fighter", "soldier", "survivor", "victim", "owner", "man", "woman", "boy", "girl",
	"refugee", "candidate", "migrant", "worker", "volunteer", "mayor", "governor", "nominee", "winner", "rescuer")

// ofPersonNouns are nouns whose "of" names a person after it: "the arrest
// of Jane Doe", "the funeral of John Roe".
var ofPersonNouns = set("arrest", "death", "funeral", "killing", "assassination", "trial", "release", "government",
	"wife", "widow", "portrait", "portraits", "poster", "posters", "statue", "grave", "coffin", "murder",
	"kidnapping", "abduction", "detention", "extradition", "resignation", "inauguration", "impeachment")

func isLetterByte(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// orgBefore reports an ORGANIZATION mention that ends right before token i.
func (d *doc) orgBefore(i int) bool {
	m := d.mentionAtToken(i - 1)
	return m != nil && m.typ == Organization && m.te == i
}

// lastFullPerson returns the last person of two or more words before token
// i, the one a nickname names again.
func (d *doc) lastFullPerson(i int) *mention {
	var last *mention
	for _, m := range d.mentions {
		if m.typ == Person && m.te <= i && m.te-m.ts >= 2 && (last == nil || m.ts > last.ts) {
			last = m
		}
	}
	return last
}

// positionApposition reports " (left)", ", right," and the like after a name.
func positionApposition(after string) bool {
	for _, p := range []string{" (left)", " (right)", " (centre)", " (center)", " (L)", " (R)", " (C)", ", left,", ", right,", ", centre,", ", center,"} {
		if strings.HasPrefix(after, p) {
			return true
		}
	}
	return false
}

// titleApposition reports ", the leader of", ", an alleged drug trafficker":
// an apposition whose first few words name a person's role.
func (d *doc) titleApposition(after string) bool {
	rest, ok := strings.CutPrefix(after, ", ")
	if !ok {
		return false
	}
	// "Johnson Andre, also known as Izo, leader of ...": past the alias.
	if knownAs(after) > 0 {
		if k := strings.Index(rest, ", "); k > 0 {
			rest = rest[k+2:]
		}
	}
	words := strings.Fields(rest)
	if len(words) == 0 {
		return false
	}
	if words[0] != "the" && words[0] != "a" && words[0] != "an" && words[0] != "his" && words[0] != "her" {
		// "Jane Doe, presidential candidate of ...": a role without an
		// article, then "of" or "for".
		for k := 0; k < len(words)-1 && k <= 1; k++ {
			w := strings.ToLower(words[k])
			if (personNouns[w] || titleWords[w]) && (words[k+1] == "of" || words[k+1] == "for") {
				return true
			}
		}
		return false
	}
	for k := 1; k < len(words) && k <= 3; k++ {
		w := strings.ToLower(strings.TrimRight(words[k], ",.;"))
		if personNouns[w] {
			return true
		}
		if w != words[k] && strings.ContainsAny(words[k], ",.;") {
			break
		}
	}
	return false
}

// quotedNicknames finds full names with a quoted nickname inside, one
// PERSON span: "Jane “The Hawk” Doe".
func (d *doc) quotedNicknames() {
	for i := 0; i+2 < len(d.toks); i++ {
		if d.owner[i] != nil || !isUpperStart(d.toks[i].text) || commonWords[d.toks[i].lower] {
			continue
		}
		open := d.text[d.toks[i].end:d.toks[i+1].start]
		if open != " “" && open != " \"" {
			continue
		}
		// The nickname: one to three capitalised words, then the closing quote.
		k := i + 1
		for k < len(d.toks) && k-i <= 3 && isUpperStart(d.toks[k].text) && d.owner[k] == nil {
			gap := d.text[d.toks[k].end:min(len(d.text), d.toks[k].end+4)]
			if strings.HasPrefix(gap, "” ") || strings.HasPrefix(gap, "\" ") {
				break
			}
			k++
		}
		if k >= len(d.toks)-1 || !isUpperStart(d.toks[k].text) {
			continue
		}
		close := d.text[d.toks[k].end:d.toks[k+1].start]
		if close != "” " && close != "\" " || !isUpperStart(d.toks[k+1].text) || d.owner[k+1] != nil && d.owner[k+1].typ != Person {
			continue
		}
		e := k + 2
		if m := d.owner[k+1]; m != nil {
			if m.ts != k+1 {
				continue
			}
			e = m.te
			d.remove(m)
		}
		d.add(d.newMention(Person, i, e, 0.75))
		i = e - 1
	}
}

// surnames finds later mentions of a person by surname alone: "President
// Jane Roe ... Roe said". They name the same person, so they share the id.
func (d *doc) surnames() {
	known := make(map[string]*mention)
	for _, m := range d.mentions {
		if m.typ == Person && m.te-m.ts >= 2 {
			known[d.toks[m.te-1].text] = m
		}
	}
	if len(known) == 0 {
		return
	}
	// A surname the lexicon also knows ("Abbas") is this caption's person.
	for _, m := range d.mentions {
		if full, ok := known[d.text[m.start:m.end]]; ok && m.typ == Person && m.te-m.ts == 1 && m.ts >= full.te {
			m.id, m.canonical, m.term = full.id, d.text[full.start:full.end], nil
		}
	}
	for i, t := range d.toks {
		full, ok := known[t.text]
		if !ok || d.owner[i] != nil || i < full.te || !isUpperStart(t.text) {
			continue
		}
		d.add(&mention{typ: Person, start: t.start, end: t.end, ts: i, te: i + 1, id: full.id,
			canonical: d.text[full.start:full.end], conf: 0.7})
	}
}

// ageApposition reports text such as ", 30," or ", a 9-year-old".
func ageApposition(after string) bool {
	if !strings.HasPrefix(after, ", ") {
		return false
	}
	rest := after[2:]
	k := 0
	for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
		k++
	}
	if k > 0 && k <= 3 && k < len(rest) && (rest[k] == ',' || strings.HasPrefix(rest[k:], " years old") || strings.HasPrefix(rest[k:], "-year-old")) {
		return true
	}
	for _, p := range []string{"a ", "an "} {
		if strings.HasPrefix(rest, p) {
			r := rest[len(p):]
			k := 0
			for k < len(r) && r[k] >= '0' && r[k] <= '9' {
				k++
			}
			if k > 0 && strings.HasPrefix(r[k:], "-year-old") {
				return true
			}
		}
	}
	return false
}

// ofCountry reports "<name> of <country>" or "of the U.S.", the sports
// captions' way of naming a player.
func (d *doc) ofCountry(j int) bool {
	if j+1 >= len(d.toks) || d.toks[j].lower != "of" {
		return false
	}
	k := j + 1
	if d.toks[k].lower == "the" && k+1 < len(d.toks) {
		k++
	}
	p := d.mentionAtToken(k)
	// "of Spain", "of the Los Angeles Lakers": a country or a club.
	return p != nil && p.ts == k && (p.place != nil && (p.place.Code == "PCLI" || p.place.Kind == "country") ||
		p.typ == Organization && p.proposed && teamPlural(d.toks[p.te-1]))
}

// possessiveOrg reports "<Organisation>'s <name>": "Galatasaray's Jane Doe".
func (d *doc) possessiveOrg(i int) bool {
	if d.toks[i-1].lower != "s" {
		return false
	}
	gap := d.text[d.toks[i-2].end:d.toks[i-1].start]
	if gap != "'" && gap != "’" {
		return false
	}
	m := d.mentionAtToken(i - 2)
	return m != nil && m.typ == Organization
}

// possessivePlace reports "<country>'s <name>": "Spain's Jane Doe".
func (d *doc) possessivePlace(i int) bool {
	if d.toks[i-1].lower != "s" || !isApostrophe(d.text[d.toks[i-2].end:d.toks[i-1].start]) {
		return false
	}
	m := d.mentionAtToken(i - 2)
	return m != nil && m.place != nil && m.place.IsCountry()
}

// personBefore reports whether a PERSON mention ends right before token i.
func (d *doc) personBefore(i int) bool {
	m := d.mentionEndingAt(i)
	return m != nil && m.typ == Person
}

func (d *doc) mentionAtToken(k int) *mention {
	if k < 0 || k >= len(d.owner) {
		return nil
	}
	return d.owner[k]
}

func (d *doc) mentionEndingAt(k int) *mention {
	for _, m := range d.mentions {
		if m.te == k {
			return m
		}
	}
	return nil
}

// proposeUnknown proposes PLACE and ARMED_GROUP mentions that no table
// knows from their context: "<X> village", "the town of <X>", "in <X>,",
// "<X> brigade".
func (d *doc) proposeUnknown() {
	for i := 0; i < len(d.toks); i++ {
		if d.owner[i] != nil || d.inTitleObject(i) {
			continue
		}
		start := i
		// "al-Mallah farms": a leading lower-case particle belongs to the name.
		if nameParticles[d.toks[i].lower] && !isUpperStart(d.toks[i].text) {
			if i+1 < len(d.toks) && isUpperStart(d.toks[i+1].text) && d.text[d.toks[i].end:d.toks[i+1].start] == "-" {
				start = i
			} else {
				continue
			}
		}
		j := d.nameRun(start, 4)
		if j == start || !d.runOK(start, j) {
			continue
		}
		if i > 0 && isUpperStart(d.toks[i-1].text) && gapJoins(d.text[d.toks[i-1].end:d.toks[i].start]) && d.owner[i-1] == nil {
			continue // mid-run
		}
		typ, conf := d.unknownType(start, j)
		// "Tangyang Township": an administrative word after a name makes it
		// a place, outside the span.
		if j-start >= 2 && gazetteer.IsAdminWord(d.toks[j-1].lower) {
			typ, conf, j = Place, confContext, j-1
		}
		if typ == "" {
			continue
		}
		m := d.newMention(typ, start, j, conf)
		if typ == Place {
			if p, c := d.x.resolve(d.text[m.start:m.end]); p != nil && d.plausible(p, c) {
				m.place, m.id, m.canonical, m.conf = p, p.ID, p.Name, confResolve*c
			}
		}
		// "<X> brigade": the unit word joins the name when it is free and
		// follows in the same sentence ("... Division. Liwa al-Tawhid" is
		// two names).
		if typ == ArmedGroup && j < len(d.toks) && unitWords[d.toks[j].lower] && d.owner[j] == nil &&
			d.text[d.toks[j-1].end:d.toks[j].start] == " " {
			m.end, m.te = d.toks[j].end, j+1
		}
		m.proposed = true
		d.absorbName(m)
		d.add(m)
		i = m.te - 1
	}
	d.repeatProposals()
}

// absorbName widens a name told by its head word over a one-word table
// name just before it: "Manbij" + "Military Council", "Prigozhin" + "Press
// Service" are one name each.
func (d *doc) absorbName(m *mention) {
	if m.ts == 0 || m.te-m.ts < 2 || d.text[d.toks[m.ts-1].end:m.start] != " " {
		return
	}
	last := d.toks[m.te-1].lower
	if !orgHeads[last] && !placeHeads[last] && !unitWords[last] {
		return
	}
	prev := d.mentionAtToken(m.ts - 1)
	if prev == nil || prev.te != m.ts || prev.te-prev.ts != 1 || prev.typ == Date || prev.place != nil && prev.place.IsCountry() {
		return
	}
	d.remove(prev)
	m.ts, m.start = prev.ts, prev.start
	m.id = proposedID(m.typ, d.text[m.start:m.end])
}

// remove drops a mention and frees its tokens.
func (d *doc) remove(m *mention) {
	for i, x := range d.mentions {
		if x == m {
			d.mentions = append(d.mentions[:i], d.mentions[i+1:]...)
			break
		}
	}
	for i := max(m.ts, 0); i < m.te && i < len(d.owner); i++ {
		d.owner[i] = nil
	}
}

// repeatProposals marks later occurrences of a proposed name as the same
// entity: "the al-Mashlab neighbourhood of Raqqa ... took control of
// al-Mashlab" names one place twice, though only the first has context.
func (d *doc) repeatProposals() {
	var props []*mention
	for _, m := range d.mentions {
		if m.proposed {
			props = append(props, m)
		}
	}
	for _, p := range props {
		n := p.te - p.ts
		for i := p.te; i+n <= len(d.toks); i++ {
			if !d.free(i, i+n) || (i > 0 && d.capitalNeighbour(i-1, i)) {
				continue
			}
			same := true
			for k := 0; k < n && same; k++ {
				same = d.toks[i+k].text == d.toks[p.ts+k].text &&
					(k == 0 || d.text[d.toks[i+k-1].end:d.toks[i+k].start] == d.text[d.toks[p.ts+k-1].end:d.toks[p.ts+k].start])
			}
			if !same {
				continue
			}
			m := *p
			m.ts, m.te, m.start, m.end = i, i+n, d.toks[i].start, d.toks[i+n-1].end
			d.add(&m)
			i += n - 1
		}
	}
}

func (d *doc) hasToken(i, j int, lower string) bool {
	for k := i; k < j; k++ {
		if d.toks[k].lower == lower {
			return true
		}
	}
	return false
}

// coherePlaces drops the gazetteer identity of minor places that lie in a
// country none of the caption's other places are in: "the al-Kifah
// neighbourhood of Tal Afar, Iraq" is no town in Mauritania that shares the
// name. The mention stays a place; only the wrong coordinates go.
func (d *doc) coherePlaces() {
	count := make(map[string]int)
	for _, m := range d.mentions {
		if m.place != nil {
			count[m.place.Country]++
		}
	}
	for _, m := range d.mentions {
		p := m.place
		if p == nil || p.Curated || p.IsCountry() || p.IsDivision() || p.Population >= 100000 {
			continue
		}
		alone := count[p.Country] == 1 // the only place of its country here
		if alone && len(count) > 1 {
			m.place, m.canonical = nil, ""
			m.id, m.conf = proposedID(Place, d.text[m.start:m.end]), confContext
		}
	}
}

// resolve looks a proposed place name up by its spelling and then by its
// transliteration key (Haresta = Harasta). The gazetteer's edit-distance
// stage is left out: it cost a sixth of all extraction time on real
// captions, while a proposed name keeps its span and type either way and
// only its coordinates depend on the look-up.
func (x *Extractor) resolve(name string) (*gazetteer.Place, float64) {
	if ps := x.ix.Places(name); len(ps) > 0 {
		return ps[0], gazetteer.ExactConfidence
	}
	if ps := x.ix.PlacesByKey(name); len(ps) > 0 {
		return ps[0], gazetteer.KeyConfidence
	}
	return nil, 0
}

// plausible reports whether a place the gazetteer resolved a proposed name
// to by spelling alone fits the caption: a wrong merge ("al-Mallah" farms
// near Aleppo as Milah in Yemen) is worse than a name left unresolved. A
// transliteration match must lie in a country the caption's known places
// are in, or the caption must have none; a fuzzy one always must.
func (d *doc) plausible(p *gazetteer.Place, conf float64) bool {
	countries := make(map[string]bool)
	for _, m := range d.mentions {
		if m.place != nil && !m.proposed {
			countries[m.place.Country] = true
		}
	}
	switch {
	case countries[p.Country] || p.IsCountry():
		return true
	case len(countries) == 0:
		return conf >= gazetteer.KeyConfidence
	}
	// Another country than the caption's: only an exact name of a place
	// big enough to be named in passing ("refugees from Aleppo").
	return conf >= gazetteer.ExactConfidence && p.Population >= 500000
}

// unknownType decides from context what an unknown name [i, j) is.
func (d *doc) unknownType(i, j int) (EntityType, float64) {
	next, next2 := "", ""
	if j < len(d.toks) && d.text[d.toks[j-1].end:d.toks[j].start] == " " {
		next = d.toks[j].lower
		if j+1 < len(d.toks) {
			next2 = d.toks[j+1].lower
		}
	}
	prev, prev2 := "", ""
	if i > 0 {
		prev = d.toks[i-1].lower
		if i > 1 {
			prev2 = d.toks[i-2].lower
		}
	}
	// The name's own last or first word tells: "Nef Stadium", "Prigozhin
	// Press Service", "Giants Brigades", "Faylaq al-Sham".
	first, last := d.toks[i], d.toks[j-1]
	// "East German border guards": a name that ends in a demonym is an
	// adjective of origin, no entity.
	if demonyms[last.lower] {
		return "", 0
	}
	if j-i >= 2 && !commonWords[first.lower] {
		switch {
		case groupHeads[first.lower]:
			return ArmedGroup, confContext
		case unitWords[last.lower] && isUpperStart(last.text):
			return ArmedGroup, confContext
		case orgHeads[last.lower] && isUpperStart(last.text):
			if d.hasToken(i, j, "military") {
				return ArmedGroup, confContext // "Manbij Military Council"
			}
			return Organization, confContext
		case placeHeads[last.lower] && isUpperStart(last.text):
			return Place, confContext
		}
	}
	if next == "front" && (next2 == "line" || next2 == "lines") {
		return Place, confContext // "the Tal Kurdi front line"
	}
	// "<X> brigade", "<X> Brigades".
	if unitWords[next] && next != "forces" && next != "army" && next != "group" && next != "units" {
		return ArmedGroup, confContext
	}
	// "<X> village", "<X> refugee camp", "<X> air base".
	if placeGenerics[next] || genericModifiers[next] && (placeGenerics[next2] || genericModifiers[next2]) {
		if next != "front" && next != "state" && next != "street" || next == "street" && next2 == "market" {
			return Place, confContext
		}
	}
	// "the Maha Kumbh Mela festival", "the Sea Breeze exercises": a name
	// between "the" and a lower-case noun of an event is the event.
	if prev == "the" && next != "" && !isUpperStart(d.toks[j].text) && namedEventNouns[next] {
		return Event, confContext
	}
	// "the Bataclan concert hall", "the Westgate shopping mall", "the
	// Enrique Rebsamen school": a name between "the" and a lower-case
	// facility noun, with at most one lower-case word between, is the
	// facility; the noun stays outside the span.
	if prev == "the" && next != "" && !isUpperStart(d.toks[j].text) {
		if facilityNouns[next] {
			return Place, confContext
		}
		if next2 != "" && !isUpperStart(d.toks[j+1].text) && d.text[d.toks[j].end:d.toks[j+1].start] == " " && facilityNouns[next2] {
			return Place, confContext
		}
	}
	// "the town of <X>", "the Y district of <X>".
	if prev == "of" && placeGenerics[prev2] {
		return Place, confContext
	}
	// "at the <X> in <place>", "outside the <X> in <place>": a venue.
	if (prev == "the" && (prev2 == "at" || prev2 == "outside" || prev2 == "near" || prev2 == "inside")) &&
		next == "in" && j+1 < len(d.toks) {
		if m := d.mentionAtToken(j + 1); m != nil && m.typ == Place && m.ts == j+1 {
			return Place, confContext - 0.05
		}
	}
	// "in <X>," "in <X> on", "near <X>".
	if prev == "in" || prev == "near" || prev == "outside" || prev == "at" || prev == "as" {
		rest := d.text[d.toks[j-1].end:]
		if strings.HasPrefix(rest, ",") || strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, " on ") ||
			j < len(d.toks) && d.isDateStart(j) {
			return Place, confContext - 0.05
		}
	}
	return "", 0
}

func (d *doc) isDateStart(j int) bool {
	m := d.mentionAtToken(j)
	return m != nil && m.typ == Date && m.ts == j
}
