package extract

import "strings"

// Ministries, administrations and emergency services are named the same
// way in every country's captions, in any capitalisation: a country, place
// or demonym, a few modifiers and a head noun ("Kharkiv military
// administration", "Palestinian Health Ministry", "Russian Defence
// Ministry Press-Service"), or the head noun first ("Ministry of Defence",
// "State Emergency Service of Ukraine"). The annotation takes the whole
// phrase as one ORGANIZATION, the place inside it included, so the pass
// runs after the tables and may take over a place they found.

// Head nouns of an administrative body.
var adminHeads = set("ministry", "administration", "directorate", "secretariat", "inspectorate")

// Head nouns that name a body only after a modifier from adminModifiers:
// "State Emergency Service", "Ukrainian Rescue Service", "Press Service".
var serviceHeads = set("service", "services", "committee", "council", "office", "department", "agency")

// Words that may stand between the place or demonym and the head noun.
var adminModifiers = set("military", "regional", "state", "city", "civil", "civic", "defence", "defense",
	"health", "interior", "foreign", "emergency", "emergencies", "rescue", "press", "information",
	"local", "district", "provincial", "municipal", "oblast", "county", "national", "security",
	"intelligence", "border", "justice", "education", "finance", "energy", "affairs", "public",
	"presidential", "military-civil", "civil-military", "home", "war", "humanitarian", "relief",
	"disaster", "management", "federal")

// findOrganizations proposes the administrative bodies described above.
func (d *doc) findOrganizations() {
	for h := 0; h < len(d.toks); h++ {
		head := d.toks[h].lower
		if !adminHeads[head] && !serviceHeads[head] {
			continue
		}
		if serviceHeads[head] && (h == 0 || !adminModifiers[d.toks[h-1].lower]) {
			continue
		}
		if m := d.owner[h]; m != nil && m.typ == Organization && !m.proposed {
			h = m.te - 1 // a table's organisation already ("International Rescue Committee")
			continue
		}
		s, anchored := d.orgStart(h)
		e := d.orgEnd(h)
		if !anchored && !isUpperStart(d.toks[h].text) {
			continue // "the defence ministry", "Emergency services quickly responded"
		}
		if !d.takeOver(s, e) {
			continue
		}
		m := d.newMention(Organization, s, e, confContext)
		m.proposed = true
		d.add(m)
		h = e - 1
	}
}

// orgStart walks left from the head noun over modifiers to the place or
// demonym that opens the name, and returns the name's first token and true.
// Without such an opening it returns the first capitalised modifier, or h,
// and false.
func (d *doc) orgStart(h int) (int, bool) {
	s := h
	for k := h - 1; k >= 0 && h-k <= 5; k-- {
		if !gapJoins(d.text[d.toks[k].end:d.toks[k+1].start]) || d.sent[k] != d.sent[h] {
			break
		}
		t := d.toks[k]
		if m := d.owner[k]; m != nil {
			if m.typ == Place || m.typ == Organization {
				return m.ts, true // "Kharkiv military administration", "Odesa Regional State Administration"
			}
			break
		}
		switch {
		case demonyms[t.lower]:
			return k, true // "Palestinian Health Ministry"
		case adminModifiers[t.lower]:
			if isUpperStart(t.text) {
				s = k
			}
		default:
			return s, false
		}
	}
	return s, false
}

// orgEnd extends the name after its head: "Ministry of Defence", "State
// Emergency Service of Ukraine", "Defence Ministry Press-Service". It
// returns the end token, exclusive.
func (d *doc) orgEnd(h int) int {
	e := h + 1
	// "Press-Service", "Press Service" after a ministry.
	if e+1 < len(d.toks) && d.toks[e].lower == "press" && (d.toks[e+1].lower == "service" || d.toks[e+1].lower == "office") &&
		gapJoins(d.text[d.toks[h].end:d.toks[e].start]) {
		e += 2
	}
	// "of Defence", "of Health", "of Ukraine", "of the Interior": capitalised
	// words after "of" (and "the").
	if e < len(d.toks) && d.toks[e].lower == "of" && isUpperStart(d.toks[h].text) {
		k := e + 1
		if k < len(d.toks) && d.toks[k].lower == "the" {
			k++
		}
		j := k
		for j < len(d.toks) && j-k < 4 && d.text[d.toks[j-1].end:d.toks[j].start] == " " &&
			(isUpperStart(d.toks[j].text) && (d.owner[j] == nil || d.owner[j].typ == Place && d.owner[j].te <= j+1) ||
				j > k && d.toks[j].lower == "and" && j+1 < len(d.toks) && isUpperStart(d.toks[j+1].text) && d.owner[j+1] == nil) {
			j++ // "of Refugees and Repatriation"
		}
		if j > k {
			e = j
		}
	}
	return e
}

// takeOver reports whether tokens [s, e) may become one organisation, and
// then frees them: only places, and an organisation the tables found
// inside the longer name, give way.
func (d *doc) takeOver(s, e int) bool {
	var inside []*mention
	for k := s; k < e; k++ {
		m := d.owner[k]
		if m == nil {
			continue
		}
		if m.ts < s || m.te > e || m.typ != Place && m.typ != Organization {
			return false
		}
		if len(inside) == 0 || inside[len(inside)-1] != m {
			inside = append(inside, m)
		}
	}
	for _, m := range inside {
		d.remove(m)
	}
	return true
}

// demonyms are adjectives of nationality, origin and faith, which open names of
// bodies ("Palestinian Health Ministry") but are never places themselves.
var demonyms = set(
	"afghan", "albanian", "algerian", "american", "angolan", "arab", "argentine", "armenian",
	"australian", "austrian", "azerbaijani", "azeri", "bahraini", "bangladeshi", "belarusian",
	"belgian", "beninese", "bolivian", "bosnian", "brazilian", "british", "bulgarian", "burkinabe",
	"burmese", "burundian", "cameroonian", "canadian", "chadian", "chilean", "chinese", "colombian",
	"congolese", "croatian", "cuban", "cypriot", "czech", "danish", "djiboutian", "dutch", "ecuadorian",
	"egyptian", "emirati", "eritrean", "estonian", "ethiopian", "european", "finnish", "french",
	"gabonese", "gambian", "georgian", "german", "ghanaian", "greek", "guatemalan", "guinean",
	"haitian", "honduran", "hungarian", "indian", "indonesian", "iranian", "iraqi", "irish", "israeli",
	"italian", "ivorian", "jamaican", "japanese", "jordanian", "kazakh", "kenyan", "korean", "kosovar",
	"kurdish", "kuwaiti", "kyrgyz", "latvian", "lebanese", "liberian", "libyan", "lithuanian",
	"malagasy", "malawian", "malaysian", "malian", "mauritanian", "mexican", "moldovan", "mongolian",
	"moroccan", "mozambican", "namibian", "nepalese", "nicaraguan", "nigerian", "nigerien",
	"norwegian", "omani", "pakistani", "palestinian", "panamanian", "paraguayan", "peruvian",
	"filipino", "philippine", "polish", "portuguese", "qatari", "romanian", "russian", "rwandan",
	"salvadoran", "saudi", "senegalese", "serbian", "singaporean", "slovak", "slovenian",
	"somali", "somalian", "sudanese", "swedish", "swiss", "syrian", "taiwanese", "tajik", "tanzanian",
	"thai", "tigrayan", "togolese", "tunisian", "turkish", "turkmen", "ugandan", "ukrainian", "uruguayan",
	"uzbek", "venezuelan", "vietnamese", "yemeni", "zambian", "zimbabwean", "amhara", "oromo", "rohingya",
	"druze", "alawite", "yazidi", "baloch", "pashtun", "tuareg",
	"fulani", "hausa", "bedouin", "chechen", "crimean", "tatar", "abkhaz", "ossetian", "darfuri",
	"jewish", "christian", "muslim", "sunni", "shiite", "shia", "coptic", "maronite", "hindu", "sikh",
)

// findTeams reads a city's name followed by one capitalised plural as a
// club: "the Los Angeles Lakers", "Kansas City Chiefs quarterback",
// "Boston Celtics fans". The plural must be no word of places, units,
// bodies or events ("Golan Heights", "Sinjar Resistance Units").
func (d *doc) findTeams() {
	for i := 0; i < len(d.toks); i++ {
		city := d.owner[i]
		j := i
		switch {
		case city != nil && city.typ == Place && city.ts == i && city.place != nil && city.place.Class == "P":
			j = city.te
		case city == nil && isUpperStart(d.toks[i].text):
			for j < len(d.toks) && j-i < 3 && d.owner[j] == nil && isUpperStart(d.toks[j].text) && (j == i || d.text[d.toks[j-1].end:d.toks[j].start] == " ") {
				j++
			}
			j-- // the last capitalised word is the plural
			if j <= i || !d.isCity(d.text[d.toks[i].start:d.toks[j-1].end]) {
				continue
			}
			city = nil
		default:
			continue
		}
		if j >= len(d.toks) || d.owner[j] != nil || d.text[d.toks[j-1].end:d.toks[j].start] != " " || !teamPlural(d.toks[j]) ||
			j+1 < len(d.toks) && isUpperStart(d.toks[j+1].text) && d.joined(j, j+1) {
			continue
		}
		// A club's name reads as a person's ("Serena Williams"): only
		// "the" before it or a player or fan after it tells.
		after := ""
		if j+1 < len(d.toks) && d.text[d.toks[j].end:d.toks[j+1].start] == " " {
			after = d.toks[j+1].lower
		}
		if !(i > 0 && d.toks[i-1].lower == "the") && !titleWords[after] && !teamFollowers[after] {
			continue
		}
		if city != nil {
			d.remove(city)
		}
		m := d.newMention(Organization, i, j+1, confContext)
		m.proposed = true
		d.add(m)
		i = j
	}
}

// teamFollowers are the words after a club's name that show it is one:
// "Boston Celtics fans".
var teamFollowers = set("fans", "supporters", "players", "player", "teammates", "team")

// isCity reports whether name is a city of 100,000 people or more.
func (d *doc) isCity(name string) bool {
	for _, p := range d.x.ix.Places(name) {
		if p.Class == "P" && p.Population >= 100000 {
			return true
		}
	}
	return false
}

// teamPlural reports whether t is a capitalised plural that can end a
// club's name: "Lakers", "Eagles", not "Heights" or "Units".
func teamPlural(t token) bool {
	w := t.lower
	return isUpperStart(t.text) && !isAllCaps(t.text) && len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") &&
		!placeGenerics[w] && !placeHeads[w] && !facilityHeads[w] && !unitWords[w] && !nameUnitWords[w] && !orgHeads[w] &&
		!eventHeads[w] && !eventNouns[w] && !commonWords[w] && !titleWords[w] && !roleWords[w] && !demonyms[w] && !placeWords[w]
}

// placeWords are plurals that end the names of places: "Golan Heights",
// "Canary Islands".
var placeWords = set("heights", "islands", "isles", "mountains", "hills", "plains", "falls", "lakes", "springs",
	"gardens", "fields", "farms", "keys", "highlands", "lowlands", "marshes", "flats", "rocks", "sands", "woods",
	"downs", "glades", "narrows", "straits", "towers", "estates", "villas", "terraces", "quarters", "gates", "docks",
	"wells", "waters", "shores", "banks", "bays", "ridges", "peaks", "cliffs", "valleys", "forces", "units", "guards",
	"committees", "brigades", "services", "affairs", "news", "times", "games", "olympics", "championships", "awards")
