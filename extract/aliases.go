package extract

import (
	"strings"

	"github.com/capgraph/capgraph/extract/gazetteer"
)

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
				// The short form is the alias, whichever comes first:
				// "NATO ... the North Atlantic Treaty Organization".
				if fa, fb := d.text[a.first.start:a.first.end], d.text[b.start:b.end]; isAcronym(fa) && !isAcronym(fb) {
					r.add(d.arg(a.first), AliasOf, d.arg(b), 0.8)
				} else {
					r.add(d.arg(b), AliasOf, d.arg(a.first), 0.8)
				}
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

// knownAsCues introduce another name of what precedes them.
var knownAsCues = []string{", also known as ", ", known locally as ", ", better known as ", ", known as "}

// knownAs returns the length of the cue for another name that text opens
// with (", also known as "), or 0.
func knownAs(text string) int {
	for _, cue := range knownAsCues {
		if len(text) >= len(cue) && strings.EqualFold(text[:len(cue)], cue) {
			return len(cue)
		}
	}
	return 0
}
