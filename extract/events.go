package extract

import "strings"

// eventAt links a named event to the place stated for it: "<event> in
// London", "<event> at Augusta National", "Eid al-Fitr prayers at the
// <mosque>", "the <cup> final match between <team> and <team> at <stadium>".
func (d *doc) eventAt(r *relSet) {
	for _, e := range d.body(Event) {
		for _, p := range d.body(Place) {
			if p.start < e.end || d.sent[p.ts] != d.sent[e.ts] {
				continue
			}
			switch eventGap(d.maskedGap(e.end, p.start)) {
			case gapPlace:
				r.add(d.arg(e), EventAt, d.arg(p), 0.7)
			case gapContinue:
				continue // a team's or an opponent's country: read on
			}
			break
		}
	}
}

// What the words between an event and a place after it make of the place.
const (
	gapOther    = iota // something else: the event has no stated place
	gapPlace           // the event's place
	gapContinue        // a place inside the event's description ("between Argentina and France")
)

// eventGap reads the masked words between an event and a place: at most
// an abbreviation in brackets, a few nouns of the event ("final match",
// "prayers"), the sides ("between ent and ent", "against ent"), then "in"
// or "at" and an article.
func eventGap(gap string) int {
	gap = strings.TrimLeft(strings.ToLower(gap), "”\"")
	gap = strings.TrimPrefix(gap, " (ent)")
	words := strings.Fields(gap)
	sides := false
	for i, w := range words {
		switch {
		case eventNouns[w] || eventPartNouns[w]:
		case w == "between" || w == "against" || w == "and" || w == "ent":
			sides = true
		case (w == "in" || w == "at") && (i == len(words)-1 || i == len(words)-2 && (words[i+1] == "the" || words[i+1] == "a")):
			return gapPlace
		default:
			return gapOther
		}
	}
	if sides && len(words) > 0 && words[len(words)-1] != "ent" {
		return gapContinue
	}
	return gapOther
}

// eventPartNouns name a part or kind of an event after its name: "the
// World Cup final", "Eid al-Fitr prayers".
var eventPartNouns = set("final", "finals", "semi-final", "semifinal", "quarter-final", "match", "game", "prayers",
	"prayer", "celebrations", "festivities", "opening", "closing", "session", "meeting", "talks", "vigil", "service")

// eventAliases makes the name a caption gives an event after ", known
// locally as" an alias of it, and an event whatever a table took it for:
// "Typhoon Haiyan, known locally as Yolanda" (a place in the gazetteer).
func (d *doc) eventAliases() {
	for _, e := range d.mentions {
		if e.typ != Event {
			continue
		}
		n := knownAs(d.text[e.end:])
		if n == 0 {
			continue
		}
		m := d.mentionAtToken(d.tokenAt(e.end + n))
		if m == nil || m.start != e.end+n || m.typ == Person || m.typ == Event && m.id == e.id {
			continue
		}
		if m.typ != Event {
			*m = mention{typ: Event, start: m.start, end: m.end, ts: m.ts, te: m.te, conf: confContext,
				id: proposedID(Event, d.text[m.start:m.end]), proposed: true}
		}
		m.aliasOf = e
	}
}
