package synth

import (
	"strconv"
	"strings"
)

// A date is a calendar day.
type date struct{ y, m, d int }

// Date styles.
const (
	dateFull      = iota // May 3, 2016
	dateAP               // Sept. 14, 2012
	dateAPWeekday        // Tuesday, Oct. 8, 2019
	dateEPA              // 14 March 2017
	dateMonth            // January 2014
)

func (g *Generator) date(c *country) date {
	y := c.years[g.r.IntN(len(c.years))]
	m := 1 + g.r.IntN(12)
	return date{y, m, 1 + g.r.IntN(daysIn[m])}
}

// weekday returns 0 for Sunday (Sakamoto's method).
func weekday(t date) int {
	offs := [12]int{0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4}
	y := t.y
	if t.m < 3 {
		y--
	}
	return (y + y/4 - y/100 + y/400 + offs[t.m-1] + t.d) % 7
}

func appendDate(b []byte, t date, style int) []byte {
	switch style {
	case dateAPWeekday:
		b = append(b, weekdays[weekday(t)]...)
		b = append(b, ", "...)
		fallthrough
	case dateAP:
		b = append(b, monthAP[t.m]...)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(t.d), 10)
	case dateEPA:
		b = strconv.AppendInt(b, int64(t.d), 10)
		b = append(b, ' ')
		b = append(b, monthFull[t.m]...)
		b = append(b, ' ')
		return strconv.AppendInt(b, int64(t.y), 10)
	case dateMonth:
		b = append(b, monthFull[t.m]...)
		b = append(b, ' ')
		return strconv.AppendInt(b, int64(t.y), 10)
	default:
		b = append(b, monthFull[t.m]...)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(t.d), 10)
	}
	b = append(b, ", "...)
	return strconv.AppendInt(b, int64(t.y), 10)
}

// dateStyle picks how a caption of the given credit style writes dates.
func (g *Generator) dateStyle(style int) int {
	n := g.r.IntN(100)
	if n < 5 {
		return dateMonth
	}
	switch style {
	case styleAP:
		if n < 55 {
			return dateAPWeekday
		}
		return dateAP
	case styleEPA:
		return dateEPA
	case styleGuardian, styleOther:
		if n < 50 {
			return dateEPA
		}
	}
	return dateFull
}

// caption appends one caption to b, drawing from g.r.
func (g *Generator) caption(b []byte) []byte {
	ph := &g.photogs[g.skewed(len(g.photogs))]
	ci := ph.country
	if g.r.IntN(5) == 0 {
		ci = g.pickCountry()
	}
	c := g.countries[ci]
	style := ph.style
	when := g.date(c)
	ds := g.dateStyle(style)

	// The opening.
	file, inThis := false, false
	switch n := g.r.IntN(100); {
	case n < 8 || (style == styleAP && n < 25):
		b = append(b, "FILE - "...)
		file = true
		inThis = style == styleAP || g.r.IntN(3) == 0
	case style == styleAFP && n < 30:
		b = append(b, "TOPSHOT - "...)
	case n < 11:
		b = append(b, "WARNING - GRAPHIC CONTENT - "...)
	case n < 14 || (style == styleAP && n < 35):
		inThis = true
	}
	if inThis {
		if ds == dateMonth || g.r.IntN(3) > 0 {
			b = append(b, "In this "...)
			b = appendDate(b, when, ds)
			if file {
				b = append(b, " file"...)
			}
			b = append(b, " photo, "...)
		} else {
			b = append(b, "In this photo taken "...)
			b = appendDate(b, when, ds)
			b = append(b, ", "...)
		}
	}

	// The scene: subject, verb phrase, setting and date.
	start := len(b)
	var vs []verb
	plural := false
	common := true // the subject is a common noun phrase, lower-cased after "In this ... photo,"
	switch n := g.r.IntN(100); {
	case n < 35:
		gr := g.group(c)
		vs = fighterVerbs
		switch g.r.IntN(4) {
		case 0:
			b = appendArticle(b, gr.name)
			b = append(b, gr.name...)
			b = append(b, ' ')
			b = append(b, gr.role...)
		case 1:
			b = append(b, "Members of "...)
			b = appendGroup(b, gr)
			plural = true
		case 2:
			b = appendGroupMembers(b, gr)
			plural, common = true, gr.the
		default:
			b = append(b, "A member of "...)
			b = appendGroup(b, gr)
		}
	case n < 45:
		vs = civilianVerbs
		common = false
		b = append(b, g.personName(c.people)...)
		b = append(b, ", "...)
		b = strconv.AppendInt(b, int64(4+g.skewed(80)), 10)
		b = append(b, ',')
	default:
		vs = civilianVerbs
		if g.r.IntN(2) == 0 {
			plural = true
			s := g.one(pluralSubjects)
			if g.r.IntN(4) == 0 {
				b = append(b, "Displaced "...)
				s = c.plural
			}
			b = append(b, s...)
		} else {
			s := g.one(singularSubjects)
			if g.r.IntN(4) == 0 && (strings.HasPrefix(s, "A m") || strings.HasPrefix(s, "A b") || strings.HasPrefix(s, "A w") || strings.HasPrefix(s, "A g")) {
				b = append(b, "A "...)
				b = append(b, c.demonym...)
				s = s[1:]
			}
			b = append(b, s...)
		}
	}
	if inThis && common {
		b[start] += 'a' - 'A' // "In this ... photo, a boy"
	}
	v := vs[g.r.IntN(len(vs))]
	b = append(b, ' ')
	if plural {
		b = append(b, v.pl...)
	} else {
		b = append(b, v.sg...)
	}
	b = append(b, ' ')
	if n := g.r.IntN(100); n < 20 {
		b = append(b, g.one([]string{"after what activists said was shelling by ", "after an air strike blamed on ", "during clashes with ", "after an attack by "})...)
		b = appendGroup(b, g.group(c))
		b = append(b, ' ')
	} else if n < 40 {
		b = append(b, g.one(sceneClauses)...)
		b = append(b, ' ')
	}
	lvl := g.pickWeightedLevel(c)
	pl := &c.levels[lvl][g.skewed(len(c.levels[lvl]))]
	b = g.appendSetting(b, c, lvl, pl)
	if !inThis {
		switch {
		case ds == dateMonth:
			b = append(b, " in "...)
		case style == styleAFP || style == styleGetty || style == styleOther || (style == styleAP && g.r.IntN(2) == 0):
			b = append(b, " on "...)
		case style == styleReuters && g.r.IntN(3) == 0:
			b = append(b, ' ')
		default:
			b = append(b, ", "...)
		}
		b = appendDate(b, when, ds)
	}
	b = append(b, '.')

	// Background sentences.
	reutersDate := style == styleReuters && !inThis && g.r.IntN(6) == 0
	for n := g.pickWeighted([]int{22, 38, 27, 13}); n > 0; n-- {
		b = append(b, ' ')
		b = g.appendBackground(b, c, pl)
	}
	if reutersDate {
		b = append(b, " Picture taken "...)
		b = appendDate(b, when, ds)
		b = append(b, '.')
	}
	return g.appendCredit(b, c, ph, file)
}

func (g *Generator) pickWeightedLevel(c *country) int {
	for {
		lvl := g.pickWeighted(levelWeights[:])
		if len(c.levels[lvl]) > 0 {
			return lvl
		}
	}
}

// group picks an armed group fighting in c: its own mostly.
func (g *Generator) group(c *country) *group { return &c.groups[g.groupIndex(c)] }

func (g *Generator) groupIndex(c *country) int {
	if c.nOwn == 0 || (c.nOwn < len(c.groups) && g.r.IntN(4) == 0) {
		return c.nOwn + g.skewed(len(c.groups)-c.nOwn)
	}
	return g.skewed(c.nOwn)
}

func appendArticle(b []byte, word string) []byte {
	if strings.ContainsRune("AEIOU", rune(word[0])) {
		return append(b, "An "...)
	}
	return append(b, "A "...)
}

// appendGroupMembers appends "Hezbollah fighters" or, for a name that is
// already plural or collective, "Fighters of the Syrian Democratic Forces".
func appendGroupMembers(b []byte, gr *group) []byte {
	if gr.the {
		b = append(b, gr.role...)
		b[len(b)-len(gr.role)] -= 'a' - 'A'
		b = append(b, "s of the "...)
		return append(b, gr.name...)
	}
	b = append(b, gr.name...)
	b = append(b, ' ')
	b = append(b, gr.role...)
	return append(b, 's')
}

func appendGroup(b []byte, gr *group) []byte {
	if gr.the {
		b = append(b, "the "...)
	}
	return append(b, gr.name...)
}

func (g *Generator) appendCountry(b []byte, c *country) []byte {
	if g.r.IntN(5) > 0 {
		b = append(b, ", "...)
		b = append(b, c.name...)
	}
	return b
}

// appendSetting appends where the scene is, in one of the shapes wire
// captions use.
func (g *Generator) appendSetting(b []byte, c *country, lvl int, pl *place) []byte {
	switch lvl {
	case lvlCountry:
		b = append(b, "in "...)
		b = append(b, g.one([]string{"", "", "northern ", "southern ", "eastern ", "western ", "northwestern "})...)
		return append(b, pl.name...)
	case lvlProvince:
		b = append(b, g.one([]string{"in ", "in ", "in the countryside of ", "in a village in "})...)
		b = append(b, pl.name...)
		return g.appendCountry(b, c)
	case lvlCity:
		switch g.r.IntN(7) {
		case 0:
			b = append(b, "in the city of "...)
		case 1:
			b = append(b, "in the "...)
			b = append(b, g.one(c.held)...)
			b = append(b, " city of "...)
		case 2:
			b = append(b, "in central "...)
		case 3:
			b = append(b, "on the outskirts of "...)
		case 4:
			if pl.province != "" && !strings.HasPrefix(pl.province, pl.name+" ") {
				b = append(b, "in "...)
				b = append(b, pl.name...)
				b = append(b, ", "...)
				b = append(b, pl.province...)
				return g.appendCountry(b, c)
			}
			b = append(b, "in "...)
		default:
			b = append(b, "in "...)
		}
		b = append(b, pl.name...)
		return g.appendCountry(b, c)
	case lvlTown, lvlVillage:
		word := "town"
		if lvl == lvlVillage {
			word = "village"
		}
		n := g.r.IntN(6)
		if pl.near == "" && (n == 2 || n == 3) {
			n = 0
		}
		switch n {
		case 0:
			b = append(b, "in "...)
			b = append(b, pl.name...)
			if pl.province != "" {
				b = append(b, ", "...)
				b = append(b, pl.province...)
			}
		case 1:
			b = append(b, "in the "...)
			b = append(b, g.one(c.held)...)
			b = append(b, ' ')
			b = append(b, word...)
			b = append(b, " of "...)
			b = append(b, pl.name...)
		case 2:
			b = append(b, "in the "...)
			b = append(b, word...)
			b = append(b, " of "...)
			b = append(b, pl.name...)
			b = append(b, ", "...)
			b = append(b, pl.dir...)
			b = append(b, " of "...)
			b = append(b, pl.near...)
		case 3:
			b = append(b, "in "...)
			b = append(b, pl.name...)
			b = append(b, ", about "...)
			b = strconv.AppendInt(b, int64(pl.km), 10)
			b = append(b, " km ("...)
			b = strconv.AppendInt(b, int64(float64(pl.km)*0.621+0.5), 10)
			b = append(b, " miles) "...)
			b = append(b, pl.dir...)
			b = append(b, " of "...)
			b = append(b, pl.near...)
		case 4:
			b = append(b, "near "...)
			b = append(b, pl.name...)
		default:
			b = append(b, "in the "...)
			b = append(b, word...)
			b = append(b, " of "...)
			b = append(b, pl.name...)
			if pl.province != "" {
				b = append(b, " in "...)
				b = append(b, pl.province...)
			}
		}
		return g.appendCountry(b, c)
	}
	// Spots.
	lower := strings.ToLower(pl.name)
	switch pl.kind {
	case "neighbourhood", "suburb", "district":
		if pl.parent == "" {
			b = append(b, "in "...)
			b = append(b, pl.name...)
			break
		}
		word := g.one([]string{"neighbourhood", "neighborhood", "district"})
		if pl.kind == "suburb" {
			word = g.one([]string{"suburb", "district"})
		}
		switch g.r.IntN(5) {
		case 0, 1:
			b = append(b, "in the "...)
			b = append(b, pl.name...)
			b = append(b, ' ')
			b = append(b, word...)
			b = append(b, " of "...)
			b = append(b, pl.parent...)
		case 2:
			b = append(b, "in "...)
			b = append(b, pl.parent...)
			b = append(b, "'s "...)
			b = append(b, pl.name...)
			b = append(b, " district"...)
			return b
		case 3:
			b = append(b, "in the "...)
			b = append(b, g.one(c.held)...)
			b = append(b, ' ')
			b = append(b, pl.name...)
			b = append(b, ' ')
			b = append(b, word...)
			b = append(b, " of "...)
			b = append(b, pl.parent...)
		default:
			b = append(b, "in "...)
			b = append(b, pl.name...)
			b = append(b, ", "...)
			b = append(b, pl.parent...)
		}
	case "camp":
		b = append(b, g.one([]string{"at ", "in "})...)
		if strings.Contains(lower, "camp") {
			if !strings.HasPrefix(lower, "camp ") {
				b = append(b, "the "...)
			}
			b = append(b, pl.name...)
		} else {
			b = append(b, "the "...)
			b = append(b, pl.name...)
			b = append(b, g.one([]string{" camp", " refugee camp", " camp for displaced people"})...)
		}
		b = g.appendNearParent(b, pl)
	case "air base", "base", "airport":
		b = append(b, "at "...)
		switch {
		case strings.HasPrefix(lower, "camp "):
			b = append(b, pl.name...)
		case strings.Contains(lower, "base") || strings.Contains(lower, "airport"):
			b = append(b, "the "...)
			b = append(b, pl.name...)
		default:
			b = append(b, "the "...)
			b = append(b, pl.name...)
			b = append(b, " military base"...)
		}
		b = g.appendNearParent(b, pl)
	case "region", "valley":
		b = append(b, "in "...)
		if pl.kind == "valley" || strings.HasSuffix(pl.name, "Plains") {
			b = append(b, "the "...)
		}
		b = append(b, pl.name...)
	case "crossing":
		b = append(b, "at the "...)
		b = append(b, pl.name...)
		if !strings.Contains(lower, "crossing") {
			b = append(b, " border crossing"...)
		}
	default:
		b = append(b, g.one([]string{"at ", "near ", "outside "})...)
		if !strings.HasPrefix(lower, "al") && !strings.HasPrefix(lower, "mount ") && !strings.HasPrefix(lower, "bab ") && !strings.HasPrefix(lower, "nabi ") {
			b = append(b, "the "...)
		}
		b = append(b, pl.name...)
		if pl.parent != "" && !strings.Contains(pl.name, pl.parent) {
			b = append(b, " in "...)
			b = append(b, pl.parent...)
		}
	}
	return g.appendCountry(b, c)
}

func (g *Generator) appendNearParent(b []byte, pl *place) []byte {
	if pl.parent != "" && !strings.Contains(pl.name, pl.parent) {
		b = append(b, g.one([]string{" near ", " outside ", " in "})...)
		b = append(b, pl.parent...)
	}
	return b
}

// otherPlace picks a town or city of c other than pl.
func (g *Generator) otherPlace(c *country, pl *place) string {
	for range 4 {
		lvl := lvlTown
		if g.r.IntN(2) == 0 || len(c.levels[lvlTown]) == 0 {
			lvl = lvlCity
		}
		if q := &c.levels[lvl][g.skewed(len(c.levels[lvl]))]; q.name != pl.name {
			return q.name
		}
	}
	return c.name
}

// appendBackground appends one background sentence about c.
func (g *Generator) appendBackground(b []byte, c *country, pl *place) []byte {
	switch g.r.IntN(9) {
	case 0:
		b = appendGroupMembers(b, g.group(c))
		b = append(b, " took control of "...)
		b = append(b, g.otherPlace(c, pl)...)
		b = append(b, g.one([]string{" last week.", " earlier this month.", " after days of fighting.", " in "})...)
		if b[len(b)-1] == ' ' {
			b = appendDate(b, g.date(c), dateMonth)
			b = append(b, '.')
		}
	case 1:
		gr := g.group(c)
		b = append(b, g.otherPlace(c, pl)...)
		b = append(b, g.one([]string{" is controlled by ", " is held by ", " has been under the control of "})...)
		if gr.short == "" {
			b = appendGroup(b, gr)
			b = append(b, '.')
			break
		}
		// Abbreviations and full names name one group twice, as captions
		// do: "the Syrian Democratic Forces (SDF). The SDF ..." or "the
		// SDF, the Syrian Democratic Forces."
		if g.r.IntN(2) == 0 {
			b = appendGroup(b, gr)
			b = append(b, " ("...)
			b = append(b, gr.short...)
			b = append(b, "). The "...)
			b = append(b, gr.short...)
			b = append(b, " took it in "...)
			b = appendDate(b, g.date(c), dateMonth)
			b = append(b, '.')
		} else {
			b = append(b, "the "...)
			b = append(b, gr.short...)
			b = append(b, ", "...)
			b = appendGroup(b, gr)
			b = append(b, '.')
		}
	case 2:
		i1, i2 := g.groupIndex(c), g.groupIndex(c)
		if i1 == i2 && len(c.groups) > 1 {
			i2 = (i1 + 1 + g.r.IntN(len(c.groups)-1)) % len(c.groups)
		}
		b = append(b, "Clashes between "...)
		b = appendGroup(b, &c.groups[i1])
		b = append(b, " and "...)
		b = appendGroup(b, &c.groups[i2])
		b = append(b, " have killed dozens of people"...)
		if pl.province != "" {
			b = append(b, " in "...)
			b = append(b, pl.province...)
		}
		b = append(b, g.one([]string{", activists said.", ", according to residents.", " since the start of the year."})...)
	case 3:
		if len(g.orgs) > 0 {
			org := g.one(g.orgs)
			if strings.Contains(org, " ") && !strings.HasPrefix(org, "Save") && !strings.HasPrefix(org, "Doctors") && !strings.HasPrefix(org, "Human") && !strings.HasPrefix(org, "Amnesty") {
				b = append(b, "The "...)
			}
			b = append(b, org...)
			b = append(b, " says more than "...)
			b = append(b, g.one(numbers)...)
			b = append(b, " people have fled "...)
			b = append(b, g.otherPlace(c, pl)...)
			b = append(b, " since "...)
			b = appendDate(b, g.date(c), dateMonth)
			return append(b, '.')
		}
		fallthrough
	case 4:
		if len(g.events) > 0 {
			b = append(b, g.one([]string{"Residents", "Families", "Displaced people"})...)
			b = append(b, " were preparing to mark "...)
			ev := g.events
			if c.code == "UA" && len(ev) > 2 {
				ev = ev[len(ev)-2:] // Christmas, Easter
			}
			b = append(b, g.one(ev)...)
			return append(b, g.one([]string{" amid the fighting.", " despite the shelling.", "."})...)
		}
		fallthrough
	case 5:
		if c.leaderNm != "" {
			b = append(b, "Forces loyal to "...)
			b = append(b, c.leaderNm...)
			b = append(b, g.one([]string{" launched an offensive to retake the area in ", " have besieged the area since ", " shelled the area in "})...)
			b = appendDate(b, g.date(c), dateMonth)
			return append(b, '.')
		}
		fallthrough
	case 6:
		b = append(b, "The area was hit by air strikes on "...)
		b = appendDate(b, g.date(c), dateFull)
		b = append(b, ", residents said."...)
	case 7:
		gr := g.group(c)
		if gr.the {
			b = append(b, "The "...)
		}
		b = append(b, gr.name...)
		b = append(b, " said it had pushed "...)
		b = appendGroup(b, g.group(c))
		b = append(b, " out of "...)
		b = append(b, g.otherPlace(c, pl)...)
		b = append(b, '.')
	default:
		b = append(b, "Thousands of "...)
		b = append(b, c.plural...)
		b = append(b, " have fled the fighting in "...)
		b = append(b, g.otherPlace(c, pl)...)
		b = append(b, " in recent weeks."...)
	}
	return b
}

// appendCredit appends the photo credit in the photographer's agency style.
func (g *Generator) appendCredit(b []byte, c *country, ph *photographer, file bool) []byte {
	n := g.r.IntN(100)
	switch ph.style {
	case styleReuters:
		switch {
		case n < 5:
			return append(b, " REUTERS/Stringer"...)
		case n < 10 && c.code == "SY":
			return append(b, " SANA/Handout via REUTERS"...)
		case n < 18:
			b = append(b, " (Photo by "...)
			b = append(b, ph.name...)
			return append(b, "/Reuters)"...)
		case n < 30:
			b = append(b, " REUTERS/ "...)
		default:
			b = append(b, " REUTERS/"...)
		}
		return append(b, ph.name...)
	case styleAP:
		b = append(b, " (AP Photo/"...)
		b = append(b, ph.name...)
		if file {
			b = append(b, ", File"...)
		}
		return append(b, ')')
	case styleAFP:
		if n < 60 {
			b = append(b, " / AFP / "...)
		} else {
			b = append(b, " AFP PHOTO / "...)
		}
		return append(b, ph.upper...)
	case styleGetty:
		if n < 60 {
			b = append(b, '\n')
			b = append(b, ph.name...)
			return append(b, "/AFP/Getty Images"...)
		}
		b = append(b, " (Photo by "...)
		b = append(b, ph.name...)
		return append(b, "/Getty Images)"...)
	case styleEPA:
		b = append(b, " EPA-EFE/"...)
		return append(b, ph.upper...)
	case styleGuardian:
		b = append(b, " Photograph: "...)
		b = append(b, ph.name...)
		return append(b, "/AFP/Getty"...)
	}
	b = append(b, " (Photo by "...)
	b = append(b, ph.name...)
	b = append(b, '/')
	b = append(b, ph.agency...)
	return append(b, " via Getty Images)"...)
}
