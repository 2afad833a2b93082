package extract

import (
	"slices"
	"strings"

	"github.com/capgraph/capgraph/extract/gazetteer"
)

// Official names end in a head noun that says what they name: "Sule
// Pagoda", "Legislative Council Complex" (places), "Election Commission of
// India", "Search and Rescue Association" (organisations), "41st
// Mechanised Brigade" (armed groups), "32nd Arab League Summit",
// "Operation Checkmate" (events). No table can hold them all, but their
// grammar is the same in every country: capitalised words, the lower-case
// connectors of official names between them, an ordinal or a year before
// or inside, and the head last, or first for operations. A place a table
// found inside such a name is part of it ("Sri Lanka Army", "Brandenburg
// Gate"), as the annotation takes no nested entities.

// eventHeads are the words that end an event's name.
var eventHeads = set("summit", "conference", "games", "olympics", "marathon", "cup", "championship",
	"championships", "festival", "forum", "expo", "day", "convention", "tournament",
	"open", "rally", "jamboree", "parade", "awards", "tour", "fire", "wildfire", "meeting", "prix")

// eventFirst are the words that open an event's name: "Operation Sea
// Breeze", "Hurricane Katrina", "Typhoon Haiyan".
var eventFirst = set("operation", "hurricane", "typhoon", "cyclone", "storm", "tropical")

// placeFirst are the words that open a place's name: "Mount Suribachi",
// "Lake Tanganyika", "Fort Bragg", "Cape Horn".
var placeFirst = set("mount", "mt", "lake", "cape", "fort")

// companySuffixes end a company's name, with their full stop: "Tokyo
// Electric Power Co., Inc.", "Edison Co.".
var companySuffixes = set("co", "corp", "inc", "ltd", "llc", "plc", "gmbh", "ag", "sa", "nv", "bv", "spa", "pte")

// facilityHeads are the words that end a place's name and are too rare
// in other names to need a context: "Rustaveli Avenue", "Yamato-Saidaiji
// Station".
var facilityHeads = set("avenue", "boulevard", "pagoda", "temple", "shrine", "complex", "building",
	"buildings", "terminal", "library", "mall", "station", "plaza", "basilica", "monastery",
	"synagogue", "memorial", "monument", "gardens", "beach", "pier", "quay", "tunnel", "barracks",
	"courthouse", "superdome", "dome", "pavilion", "racecourse", "circuit", "velodrome", "lane",
	"causeway", "promenade", "embankment", "wharf", "dock", "docks", "reservoir", "canal", "bay")

// venueCenters make "Center" after them a place: "Convention Center".
var venueCenters = set("convention", "exhibition", "trade", "shopping", "sports", "conference", "aquatics", "aquatic", "congress", "transit", "detention")

// polityHeads end the names of states and self-proclaimed polities,
// which take an "of" phrase: "Islamic Emirate of Afghanistan".
var polityHeads = set("emirate", "republic", "kingdom", "caliphate", "sultanate", "principality")

// placeHouseWords make "House" after them a place: "Opera House".
var placeHouseWords = set("opera", "guest", "state", "government", "parliament", "court", "custom", "customs")

// officialConnectors are lower-case words inside official names.
var officialConnectors = set("of", "and", "for", "the", "on", "de", "del", "la", "do", "da", "di", "des", "du", "y", "et")

// streetFirst are generic words that open street and square names in
// other languages: "plaza de Mayo", "Avenida Paulista", "place de la
// République". The generic is part of the name.
var streetFirst = set("plaza", "piazza", "place", "rue", "avenida", "avenue", "calle", "praça", "praca",
	"largo", "maidan", "via", "boulevard", "paseo", "rambla", "ulitsa", "platz", "plac", "meydanı",
	"stade", "estadio", "stadio", "palais", "palacio", "palazzo", "parc", "parque", "pont", "puente", "ponte")

// streetParticles are the words between a street's generic and its name.
var streetParticles = set("de", "del", "la", "las", "los", "du", "des", "della", "di", "do", "da", "dos", "das", "el", "l", "d")

// eventNouns are the lower-case nouns after which a quoted name is an
// event's: "“I Love Damascus” marathon".
var eventNouns = set("marathon", "race", "festival", "concert", "exhibition", "campaign", "rally", "march",
	"tournament", "competition", "contest", "games", "fair", "conference", "summit", "forum", "parade",
	"ceremony", "celebration", "event", "operation", "offensive", "protest", "protests", "initiative", "drill", "drills", "exercise", "exercises")

// findQuotedEvents proposes the quoted names of events that a generic
// noun after them types: "during “I Love Damascus” marathon". The span
// is the name inside the quotes.
func (d *doc) findQuotedEvents() {
	for i := 0; i+1 < len(d.toks); i++ {
		if i == 0 && d.toks[0].start == 0 {
			continue
		}
		before := d.text[:d.toks[i].start]
		if !strings.HasSuffix(before, "“") && !strings.HasSuffix(before, "\"") || !isUpperStart(d.toks[i].text) {
			continue
		}
		// The closing quote within six words, in the same sentence, and
		// the noun right after it.
		e := i + 1
		for e < len(d.toks) && e-i < 6 && d.sent[e] == d.sent[i] && !strings.ContainsAny(d.text[d.toks[e-1].end:d.toks[e].start], "”\"") {
			e++
		}
		if e >= len(d.toks) || e-i >= 6 {
			continue
		}
		if gap := d.text[d.toks[e-1].end:d.toks[e].start]; gap != "” " && gap != "\" " || !eventNouns[d.toks[e].text] {
			continue
		}
		// A place inside is part of the name: "I Love Damascus".
		if !d.takeOver(i, e) {
			continue
		}
		m := d.newMention(Event, i, e, confContext)
		m.proposed = true
		d.add(m)
		i = e
	}
}

// shortForms finds the later mentions of a name by the short form its
// first mention gave in brackets: "the NSW Rural Fire Service (RFS) said
// ... the RFS warned" names one body twice, and the guide links the two
// with alias_of. A table knows the short forms of the names it holds; this
// is for the names it does not.
//
// The caption's own short form also beats a table's reading of it as
// another agency or body: after "the Arakan Army (AA)", "the AA said" is
// the army, not Anadolu.
func (d *doc) shortForms() {
	for _, m := range slices.Clone(d.mentions) {
		short := m.short
		if short == "" && m.typ != Date && !m.credit {
			// A table that knows "Arakan Army (AA)" whole.
			if text := d.text[m.start:m.end]; strings.HasSuffix(text, ")") {
				if i := strings.LastIndex(text, " ("); i > 0 && isAllCaps(text[i+2:len(text)-1]) {
					short = text[i+2 : len(text)-1]
				}
			}
		}
		if short == "" || strings.ContainsRune(short, ' ') {
			continue
		}
		for k := m.te; k < len(d.toks); k++ {
			if d.toks[k].text != short {
				continue
			}
			if o := d.owner[k]; o != nil {
				if o.ts != k || o.te != k+1 || o.id == m.id || o.credit || o.typ != Agency && o.typ != Organization {
					continue
				}
				d.remove(o)
			}
			s := *m
			s.ts, s.te, s.start, s.end, s.short = k, k+1, d.toks[k].start, d.toks[k].end, ""
			d.add(&s)
		}
	}
}

// findHeadedNames proposes the names above. It runs after the tables, so
// a name a table knows whole keeps its table's type.
func (d *doc) findHeadedNames() {
	for i := 0; i < len(d.toks); i++ {
		if i > 0 && d.owner[i-1] == nil && d.toks[i-1].lower != "the" && !demonyms[d.toks[i-1].lower] && isUpperStart(d.toks[i-1].text) &&
			gapJoins(d.text[d.toks[i-1].end:d.toks[i].start]) && d.sent[i-1] == d.sent[i] {
			continue // mid-run: the run began before ("the French 92nd Infantry Regiment" begins after the demonym)
		}
		typ, e := d.headedName(i)
		if typ == "" {
			continue
		}
		// "Quetta Railway Station": a facility named after its town lies
		// in it, as far as anyone can tell without a map.
		var town *gazetteer.Place
		for k := i; k < e; k++ {
			if o := d.owner[k]; o != nil && o.place != nil && o.place.Class == "P" {
				town = o.place
			}
		}
		for k := i; k < e; k++ {
			if o := d.owner[k]; o != nil {
				d.remove(o) // headedName checked that it fits inside
			}
		}
		m := d.newMention(typ, i, e, confContext)
		if typ == Organization && companySuffixes[d.toks[e-1].lower] && strings.HasPrefix(d.text[m.end:], ".") {
			m.end++ // "Edison Co."
			m.id = proposedID(typ, d.text[m.start:m.end])
		}
		if typ == Place && town != nil {
			m.container = town
			m.id += ":in:" + strings.TrimPrefix(town.ID, "place:")
		}
		m.proposed = true
		d.extendName(m)
		d.add(m)
		i = m.te - 1
	}
}

// headedName returns the type and end of a headed name that starts at
// token i, or "" when none does.
func (d *doc) headedName(i int) (EntityType, int) {
	t := d.toks[i]
	if streetFirst[t.lower] {
		return d.streetName(i)
	}
	if (eventFirst[t.lower] || placeFirst[t.lower]) && isUpperStart(t.text) && i+1 < len(d.toks) && d.joined(i, i+1) &&
		isUpperStart(d.toks[i+1].text) && d.owner[i+1] == nil && !eventFirst[d.toks[i+1].lower] {
		e := i + 2
		for e < len(d.toks) && e-i < 4 && d.joined(e-1, e) && isUpperStart(d.toks[e].text) && d.owner[e] == nil {
			e++
		}
		if placeFirst[t.lower] {
			return Place, e
		}
		return Event, e
	}
	ordinal := isOrdinal(t.text)
	if !ordinal && (!isUpperStart(t.text) || articles[t.lower] || d.owner[i] != nil && (d.owner[i].typ == Date || d.owner[i].ts != i)) {
		return "", 0
	}
	// Walk the run: capitalised words (a table's place among them),
	// connectors between them, a year; note the last head.
	var typ EntityType
	head := -1
run:
	for k := i; k < len(d.toks) && k-i < 9; k++ {
		if k > i && (!d.joined(k-1, k) || d.sent[k] != d.sent[i]) {
			break
		}
		w := d.toks[k]
		if m := d.owner[k]; m != nil {
			if m.typ == Date || m.ts < i {
				break
			}
			if m.typ == Event && eventHeads[d.toks[m.te-1].lower] {
				typ, head = Event, m.te-1 // "Beijing 2008" + "Olympic Games"
			}
			if m.typ == Place && m.ts > i && headType(d, m.te-1) == Place {
				typ, head = Place, m.te-1 // "Baiturrahman" + "Grand Mosque"
			}
			k = m.te - 1
			continue
		}
		switch {
		case isUpperStart(w.text):
			if ht := headType(d, k); ht != "" && k > i {
				typ, head = ht, k
			}
		case k == i && ordinal:
		case head >= 0 && officialConnectors[w.lower]:
			// "Abbey Gate of Hamid Karzai International Airport", "Tishrin
			// Dam on the Euphrates River": a connector after a head ends
			// the name; ofPhrase decides what a body's "of" takes.
			break run
		case head < 0 && w.lower == "of":
			// "Officials of the Election Commission": the name begins
			// after "of", where the loop over starts will find it.
			return "", 0
		case k > i && officialConnectors[w.lower] && k+1 < len(d.toks) && (isUpperStart(d.toks[k+1].text) || d.toks[k+1].lower == "the"):
		case (w.lower == "l" || w.lower == "d") && k+1 < len(d.toks) && isApostrophe(d.text[w.end:d.toks[k+1].start]) && isUpperStart(d.toks[k+1].text):
			// "Notre Dame de l'Assomption Cathedral"
		case w.lower == "s" && isApostrophe(d.text[d.toks[k-1].end:w.start]) && d.owner[k-1] == nil && k+1 < len(d.toks) && isUpperStart(d.toks[k+1].text):
			// "People's Palace"; not "Damascus's Umayyad Square", a
			// known place's possessive.
		case isYear(w.text) && k > i:
		default:
			break run
		}
	}
	if head < 0 {
		return "", 0
	}
	e := head + 1
	h := d.toks[head].lower
	switch {
	case typ == Place && polityHeads[h]:
		e = d.ofPhrase(e)
	case typ == Place && (facilityHeads[h] || placeHeads[h]) && d.townAt(e, head):
		e = d.owner[e].te // "Civil Hospital Quetta": a town right after a facility's head is part of its name
	}
	if typ != Place {
		// "Election Commission of India", "Armed Forces of the Democratic
		// Republic of the Congo": an "of" phrase after the head.
		e = d.ofPhrase(e)
	}
	if !d.nameWorthy(i, head) {
		return "", 0
	}
	if typ == ArmedGroup && gazetteer.IsAdminWord(d.toks[head].lower) && !ordinal {
		return "", 0 // "Sagaing Division" is a region; "58th Division" a unit
	}
	if m := d.owner[i]; m != nil && m.te == e {
		return "", 0 // a table knows the name whole: "French Open"
	}
	// What a table found inside must fit: a place in any name ("Sri Lanka
	// Army"), a person in a facility's ("Hamid Karzai International
	// Airport"), a body or a group in an event's ("32nd Arab League
	// Summit"), a body in a body's.
	for k := i; k < e; k++ {
		m := d.owner[k]
		if m != nil && (m.ts < i || m.te > e) {
			return "", 0
		}
		if m == nil || m.typ == Place || m.typ == typ {
			continue
		}
		if typ == Place && m.typ == Person || typ == Event {
			continue
		}
		return "", 0
	}
	if typ == Organization && companySuffixes[d.toks[e-1].lower] {
		e = d.companyEnd(e)
	}
	return typ, e
}

// townAt reports whether a table's town starts at token e, right after
// token head with one space between.
func (d *doc) townAt(e, head int) bool {
	if e >= len(d.toks) || d.text[d.toks[head].end:d.toks[e].start] != " " {
		return false
	}
	m := d.owner[e]
	return m != nil && m.ts == e && m.place != nil && m.place.Class == "P"
}

// headType is the type that token k, capitalised, gives a name it ends.
func headType(d *doc, k int) EntityType {
	w := d.toks[k].lower
	switch {
	case facilityHeads[w], placeHeads[w] && w != "district" && w != "field" && w != "valley":
		return Place
	case w == "house" && k > 0 && placeHouseWords[d.toks[k-1].lower]:
		return Place
	case polityHeads[w]:
		return Place // "Islamic Emirate of Afghanistan": a self-proclaimed polity
	case (w == "center" || w == "centre") && k > 0 && venueCenters[d.toks[k-1].lower]:
		return Place // "Walter E. Washington Convention Center"
	case eventHeads[w]:
		return Event
	case nameUnitWords[w], w == "division", w == "corps", w == "regiment", w == "unit", w == "guard", w == "command",
		w == "police" || w == "gendarmerie" || w == "navy" || w == "carabinieri",
		w == "army" && k > 0 && !demonyms[d.toks[k-1].lower], w == "forces" && k > 0 && d.toks[k-1].lower == "armed":
		return ArmedGroup
	case orgHeads[w] || w == "team" || companySuffixes[w] && d.toks[k].text != strings.ToUpper(d.toks[k].text) || w == "congress" || w == "institute" || w == "university" || w == "college" || w == "academy":
		return Organization
	}
	return ""
}

// ofPhrase extends a name over an "of", "for" or "on" phrase of
// capitalised words after its end token e (exclusive): "Election
// Commission of India", "Armed Forces of the Democratic Republic of the
// Congo", "Day of Remembrance for Truth and Justice", "Summit on
// Refugees". It returns the new end.
func (d *doc) ofPhrase(e int) int {
	for e+1 < len(d.toks) && ofWords[d.toks[e].lower] && d.joined(e-1, e) && d.sent[e] == d.sent[e-1] {
		k := e + 1
		if d.toks[k].lower == "the" && k+1 < len(d.toks) && d.joined(k, k+1) {
			k++
		}
		j := k
		for j < len(d.toks) && j-k < 5 && d.joined(j-1, j) && d.sent[j] == d.sent[e] {
			if m := d.owner[j]; m != nil {
				if m.typ == Place && m.ts == j {
					j = m.te // a place ends the phrase: "of the Russian Federation"
				}
				break
			}
			w := d.toks[j]
			if isUpperStart(w.text) || w.lower == "and" && j > k && j+1 < len(d.toks) && isUpperStart(d.toks[j+1].text) {
				j++
				continue
			}
			break
		}
		if j == k {
			break
		}
		e = j
	}
	return e
}

var ofWords = set("of", "for", "on")

// companyEnd takes a second suffix after a comma into the company name
// ending at e: "Co., Inc.". findHeadedNames adds the last full stop.
func (d *doc) companyEnd(e int) int {
	if e < len(d.toks) && companySuffixes[d.toks[e].lower] && strings.TrimPrefix(d.text[d.toks[e-1].end:d.toks[e].start], ".") == ", " {
		e++
	}
	return e
}

// nameWorthy reports whether tokens [i, head] are more than ordinary
// capitalised words: one of them is not a common word, or an ordinal
// opens them ("6th Brigade").
func (d *doc) nameWorthy(i, head int) bool {
	if isOrdinal(d.toks[i].text) {
		return true
	}
	for k := i; k < head; k++ {
		if d.owner[k] != nil {
			return true
		}
		w := d.toks[k].lower
		if isUpperStart(d.toks[k].text) && !commonWords[w] && !officialConnectors[w] && !titleWords[w] && !roleWords[w] {
			return true
		}
	}
	// "National Stadium", "Central Station": a common word before a
	// facility's head is its name.
	w := d.toks[head].lower
	return head > i && (facilityHeads[w] || placeHeads[w] || eventHeads[w] || w == "guard" || w == "command") && !articles[d.toks[i].lower]
}

var articles = set("the", "a", "an", "this", "that", "its", "their", "his", "her")

// streetName reads a street or square whose generic comes first: the
// generic, its connectors and a capitalised name.
func (d *doc) streetName(i int) (EntityType, int) {
	k := i + 1
	for k < len(d.toks) && k-i <= 3 && streetParticles[d.toks[k].text] && d.joined(k-1, k) {
		k++ // "de", "de la"
	}
	if k >= len(d.toks) || !d.joined(k-1, k) || !isUpperStart(d.toks[k].text) {
		return "", 0
	}
	if m := d.owner[k]; m != nil && m.typ != Place {
		return "", 0
	}
	// A capitalised generic opens a name only before a name of one word
	// or joined words; in lower case it always does.
	capital := isUpperStart(d.toks[i].text)
	if capital && k == i+1 && (commonWords[d.toks[k].lower] || d.owner[k] != nil && d.owner[k].place != nil && d.owner[k].place.IsCountry() && d.toks[i].lower == "place") {
		return "", 0
	}
	if !capital && k == i+1 && d.toks[i].lower != "rue" && d.toks[i].lower != "via" && d.toks[i].lower != "avenida" && d.toks[i].lower != "calle" {
		return "", 0 // "place Mayo" is rare; "plaza de Mayo" is the form
	}
	e := k
	for e < len(d.toks) && e-k < 4 && d.joined(e-1, e) && d.sent[e] == d.sent[i] &&
		(isUpperStart(d.toks[e].text) || nameParticles[d.toks[e].lower] && e+1 < len(d.toks) && isUpperStart(d.toks[e+1].text)) {
		if m := d.owner[e]; m != nil {
			if m.typ != Place || m.ts < k {
				break
			}
			e = m.te
			continue
		}
		e++
	}
	if e == k {
		return "", 0
	}
	return Place, e
}

// joined reports whether tokens a and b = a+1 are joined as words of one
// name are: by a space, a hyphen or an apostrophe.
func (d *doc) joined(a, b int) bool {
	return gapJoins(d.text[d.toks[a].end:d.toks[b].start])
}

// isOrdinal reports whether s is a number written as an ordinal: "41st".
func isOrdinal(s string) bool {
	n := len(s)
	if n < 3 || !isDigits(s[:n-2]) {
		return false
	}
	switch strings.ToLower(s[n-2:]) {
	case "st", "nd", "rd", "th":
		return true
	}
	return false
}
