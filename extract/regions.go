package extract

import (
	"slices"
	"strings"

	"github.com/capgraph/capgraph/extract/gazetteer"
)

// After the tables have matched, a few rules read a place against the
// places next to it: a compass word before a region, a US state's
// abbreviation after a town, and the country or state that decides which
// town of a name it is.

// compassRegions widens a region a table found over a capitalised compass
// word before it, which names a part of it: "North Darfur", "South Kivu".
// The annotation keeps such regional names whole; a lower-case word
// ("northern Gaza") and a city ("East London") stay as they are.
func (d *doc) compassRegions() {
	for _, m := range slices.Clone(d.mentions) {
		k := m.ts - 1
		if m.typ != Place || m.place == nil || m.place.IsCountry() || m.place.Class == "P" || k < 0 ||
			d.owner[k] != nil || !compassWords[d.toks[k].lower] || !isUpperStart(d.toks[k].text) || d.text[d.toks[k].end:m.start] != " " {
			continue
		}
		whole := d.text[d.toks[k].start:m.end]
		outer := m.place
		m.ts, m.start = k, d.toks[k].start
		d.owner[k] = m
		if p, c := d.x.resolve(whole); p != nil && !p.IsCountry() && p.Country == outer.Country {
			m.place, m.id, m.canonical, m.conf = p, p.ID, p.Name, confResolve*c
			continue
		}
		m.place, m.canonical, m.proposed, m.conf = nil, "", true, confContext
		m.container = outer
		m.id = proposedID(Place, whole) + ":in:" + strings.TrimPrefix(outer.ID, "place:")
	}
}

// apStates are the abbreviations of US states that AP style writes after
// a town: "Wilmington, Del.", "Uvalde, Texas" needs none.
var apStates = map[string]string{
	"Ala.": "Alabama", "Ariz.": "Arizona", "Ark.": "Arkansas", "Calif.": "California", "Colo.": "Colorado",
	"Conn.": "Connecticut", "Del.": "Delaware", "Fla.": "Florida", "Ga.": "Georgia", "Ill.": "Illinois",
	"Ind.": "Indiana", "Kan.": "Kansas", "Ky.": "Kentucky", "La.": "Louisiana", "Md.": "Maryland",
	"Mass.": "Massachusetts", "Mich.": "Michigan", "Minn.": "Minnesota", "Miss.": "Mississippi",
	"Mo.": "Missouri", "Mont.": "Montana", "Neb.": "Nebraska", "Nev.": "Nevada", "N.H.": "New Hampshire",
	"N.J.": "New Jersey", "N.M.": "New Mexico", "N.Y.": "New York", "N.C.": "North Carolina",
	"N.D.": "North Dakota", "Okla.": "Oklahoma", "Ore.": "Oregon", "Pa.": "Pennsylvania",
	"R.I.": "Rhode Island", "S.C.": "South Carolina", "S.D.": "South Dakota", "Tenn.": "Tennessee",
	"Vt.": "Vermont", "Va.": "Virginia", "Wash.": "Washington", "W.Va.": "West Virginia",
	"Wis.": "Wisconsin", "Wyo.": "Wyoming",
}

// usStates finds the AP abbreviations of US states after a place and a
// comma, "Wilmington, Del.", as places of their own; "Washington, D.C."
// is one place, as the guide decides.
func (d *doc) usStates() {
	for _, m := range slices.Clone(d.mentions) {
		if m.typ != Place || m.te >= len(d.toks) || !strings.HasPrefix(d.text[m.end:], ", ") {
			continue
		}
		rest := d.text[m.end+2:]
		if strings.HasPrefix(rest, "D.C.") && m.te+1 < len(d.toks) {
			// "Washington, D.C.": the tokens D and C join the city's name,
			// whatever a table made of the letters.
			for k := m.te; k < m.te+2; k++ {
				if o := d.owner[k]; o != nil && o.typ == Place && o.ts >= m.te && o.te <= m.te+2 {
					d.remove(o)
				}
			}
			if !d.free(m.te, m.te+2) {
				continue
			}
			m.end += len(", D.C.")
			for m.te < len(d.toks) && d.toks[m.te].start < m.end {
				d.owner[m.te] = m
				m.te++
			}
			continue
		}
		for abbr, name := range apStates {
			if !strings.HasPrefix(rest, abbr) || len(rest) > len(abbr) && isLetterByte(rest[len(abbr)]) {
				continue
			}
			start, end := m.end+2, m.end+2+len(abbr)
			ts, te := m.te, m.te
			for te < len(d.toks) && d.toks[te].start < end {
				te++
			}
			if !d.free(ts, te) {
				break
			}
			s := &mention{typ: Place, start: start, end: end, ts: ts, te: te, conf: confContext}
			if p, _ := d.x.resolve(name); p != nil && p.Country == "US" {
				s.place, s.id, s.canonical, s.conf = p, p.ID, p.Name, 0.9
			} else {
				s.id, s.proposed = proposedID(Place, name), true
			}
			d.add(s)
			break
		}
	}
}

// resolveInContainers re-resolves a place the caption puts in a country or
// a first-level division that does not hold the place the tables chose:
// "Tripoli, Lebanon" is Lebanon's Tripoli, not Libya's capital;
// "Wilmington, Del." is Delaware's. The container wins when the gazetteer
// has a place of that name inside it. Failing that, when the container
// the tables chose lies in another country, the place decides: "Atlanta,
// Georgia" is the US state, not the country, as "Sacramento, California"
// is not Colombia's village.
func (d *doc) resolveInContainers() {
	for _, m := range d.mentions {
		p := m.place
		if m.typ != Place || p == nil || p.IsCountry() || !strings.HasPrefix(d.text[m.end:], ", ") {
			continue
		}
		c := d.mentionAtToken(m.te)
		if c == nil || c.ts != m.te || c.place == nil || inside(p, c.place) {
			continue
		}
		if c.place.IsCountry() || c.place.IsDivision() {
			if d.placeNamed(m, func(q *gazetteer.Place) bool { return !q.IsCountry() && inside(q, c.place) }) != nil {
				continue
			}
		}
		if c.place.Country != p.Country {
			d.placeNamed(c, func(q *gazetteer.Place) bool { return (q.IsCountry() || q.IsDivision()) && inside(p, q) })
		}
	}
}

// placeNamed gives m the first place of its name that ok accepts, and
// returns it; nil, and m unchanged, when there is none.
func (d *doc) placeNamed(m *mention, ok func(*gazetteer.Place) bool) *gazetteer.Place {
	for _, q := range d.x.ix.Places(d.text[m.start:m.end]) {
		if ok(q) {
			m.place, m.id, m.canonical = q, q.ID, q.Name
			return q
		}
	}
	return nil
}

// inside reports whether the gazetteer puts p in the country or division c.
func inside(p, c *gazetteer.Place) bool {
	if c.IsCountry() {
		return p.Country == c.Country
	}
	return slices.Contains(p.AdminIDs, c.ID)
}
