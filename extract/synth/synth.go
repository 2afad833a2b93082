// Package synth generates synthetic news-photo captions in wire style, for
// measuring capgraph at scale (build time, memory and query latency over
// 10^4 to 10^6 captions).
//
// The captions name real places, armed groups, agencies, organisations and
// events from the [gazetteer], so that the extractor finds what it would in
// a real corpus: mostly the conflict region (Syria, Iraq, Ukraine, Yemen,
// Libya, Lebanon, Turkey, Jordan) at every administrative level, from the
// country down to curated neighbourhoods, camps and bases. Photographers
// and the people captions name are invented.
//
// A [Generator] is deterministic: caption i depends only on the seed given
// to [New] and on i.
package synth

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/extract/gazetteer"
)

// Place levels.
const (
	lvlCountry = iota
	lvlProvince
	lvlCity
	lvlTown
	lvlVillage
	lvlSpot // a curated neighbourhood, camp, base, landmark or region
	numLevels
)

// levelWeights is how often a caption's setting is at each level.
var levelWeights = [numLevels]int{3, 7, 27, 20, 13, 30}

// A place is one setting a caption can name, with what its phrases need.
type place struct {
	name     string
	kind     string // spots only: neighbourhood, camp, air base, ...
	parent   string // spots only: the place it lies in, "" when none
	province string // "Idlib province", "" when unknown or named as the place
	near     string // a nearby larger city, "" when none
	dir      string // compass direction from near: "north"
	km       int    // distance from near
}

// A group is an armed group as captions name it.
type group struct {
	name  string
	the   bool   // "the Free Syrian Army", but "Hezbollah"
	role  string // "fighter", "soldier" or "officer"
	short string // its abbreviation ("SDF"), "" when it has none of its own
}

// A country is the part of the conflict region a caption is set in.
type country struct {
	code     string
	weight   int
	divWord  string   // "province", "region"
	demonym  string   // "Syrian"
	plural   string   // "Syrians"
	held     []string // "rebel-held", ...
	years    []int    // years captions are dated, repeated for weight
	people   int      // which name lists its people's names come from
	leader   string   // lexicon id of a public figure, "" when none
	foreign  []string // countries of groups that fight there too
	name     string
	leaderNm string
	levels   [numLevels][]place
	groups   []group // own groups, then foreign
	nOwn     int     // groups[:nOwn] are its own
}

// Name lists by culture.
const (
	peopleArabic = iota
	peopleTurkish
	peopleUkrainian
	peopleEnglish
)

func years(spec ...int) []int { // pairs of year, weight
	var ys []int
	for i := 0; i+1 < len(spec); i += 2 {
		for range spec[i+1] {
			ys = append(ys, spec[i])
		}
	}
	return ys
}

func countries() []*country {
	return []*country{
		{code: "SY", weight: 40, divWord: "province", demonym: "Syrian", plural: "Syrians", people: peopleArabic, leader: "person:bashar-al-assad",
			held:    []string{"rebel-held", "rebel-held", "government-held", "opposition-held", "Kurdish-controlled", "besieged"},
			years:   years(2011, 2, 2012, 6, 2013, 6, 2014, 5, 2015, 5, 2016, 6, 2017, 4, 2018, 5, 2019, 3, 2020, 3, 2021, 2, 2022, 1, 2023, 2, 2024, 2),
			foreign: []string{"", "IR", "RU", "TR", "US", "LB"}},
		{code: "IQ", weight: 16, divWord: "province", demonym: "Iraqi", plural: "Iraqis", people: peopleArabic, leader: "person:haider-al-abadi",
			held:    []string{"Islamic State-held", "militant-held", "government-held"},
			years:   years(2011, 1, 2013, 1, 2014, 4, 2015, 3, 2016, 4, 2017, 5, 2018, 2, 2019, 2, 2020, 1, 2021, 1, 2023, 1, 2024, 1),
			foreign: []string{"", "US", "IR"}},
		{code: "UA", weight: 16, divWord: "region", demonym: "Ukrainian", plural: "Ukrainians", people: peopleUkrainian, leader: "person:volodymyr-zelenskiy",
			held:    []string{"Russian-occupied", "Russian-controlled", "separatist-held", "frontline"},
			years:   years(2014, 3, 2015, 2, 2016, 1, 2018, 1, 2019, 1, 2021, 1, 2022, 8, 2023, 7, 2024, 5),
			foreign: []string{"RU"}},
		{code: "YE", weight: 8, divWord: "province", demonym: "Yemeni", plural: "Yemenis", people: peopleArabic, leader: "person:abd-rabbu-mansour-hadi",
			held:    []string{"Houthi-held", "Houthi-controlled", "government-held"},
			years:   years(2011, 2, 2012, 1, 2014, 1, 2015, 4, 2016, 3, 2017, 3, 2018, 3, 2019, 2, 2020, 1, 2021, 1, 2022, 1, 2024, 2),
			foreign: []string{"", "SA", "AE"}},
		{code: "LY", weight: 6, divWord: "district", demonym: "Libyan", plural: "Libyans", people: peopleArabic, leader: "person:khalifa-haftar",
			held:    []string{"rebel-held", "government-held", "militia-held"},
			years:   years(2011, 6, 2012, 1, 2014, 2, 2015, 1, 2016, 2, 2017, 1, 2019, 3, 2020, 2, 2023, 1),
			foreign: []string{"", "RU"}},
		{code: "LB", weight: 5, divWord: "governorate", demonym: "Lebanese", plural: "Lebanese", people: peopleArabic, leader: "person:hassan-nasrallah",
			held:    []string{"Hezbollah-controlled"},
			years:   years(2012, 1, 2013, 2, 2014, 1, 2015, 1, 2017, 1, 2019, 1, 2020, 3, 2021, 1, 2023, 1, 2024, 3),
			foreign: []string{"SY", "IL"}},
		{code: "TR", weight: 6, divWord: "province", demonym: "Turkish", plural: "Turks", people: peopleTurkish, leader: "person:recep-tayyip-erdogan",
			held:    []string{"border"},
			years:   years(2012, 1, 2013, 1, 2014, 2, 2015, 2, 2016, 2, 2017, 1, 2018, 1, 2019, 2, 2023, 3),
			foreign: []string{"SY"}},
		{code: "JO", weight: 3, divWord: "governorate", demonym: "Jordanian", plural: "Jordanians", people: peopleArabic,
			held:    []string{"border"},
			years:   years(2012, 2, 2013, 3, 2014, 2, 2015, 1, 2016, 1, 2018, 1, 2020, 1),
			foreign: []string{"SY"}},
	}
}

// Credit styles, each of one agency.
const (
	styleReuters  = iota // "REUTERS/First Last"
	styleAP              // "(AP Photo/First Last)"
	styleAFP             // "/ AFP / FIRST LAST"
	styleGetty           // "First Last/AFP/Getty Images" on its own line, "(Photo by ...)"
	styleEPA             // "EPA-EFE/FIRST LAST"
	styleGuardian        // "Photograph: First Last/AFP/Getty"
	styleOther           // "(Photo by First Last/Anadolu Agency via Getty Images)"
	numStyles
)

var styleWeights = [numStyles]int{36, 18, 16, 8, 10, 5, 7}

// A photographer is one invented photographer with a home agency and region.
type photographer struct {
	name, upper string
	style       int
	country     int
	agency      string // styleOther only: the agency's name
}

// A Generator makes synthetic captions. It is not safe for concurrent use;
// give each goroutine its own (they share the gazetteer).
type Generator struct {
	seed      uint64
	pcg       *rand.PCG
	r         *rand.Rand
	buf       []byte
	countries []*country
	cumW      []int // cumulative country weights
	photogs   []photographer
	orgs      []string
	events    []string
	people    [4][2][]string // first and last names by culture
}

// New returns a Generator for seed. It loads the embedded gazetteer (once per
// process) and picks from it the places, groups and terms captions name.
func New(seed uint64) (*Generator, error) {
	d, err := gazetteer.Load()
	if err != nil {
		return nil, err
	}
	g := &Generator{seed: seed, pcg: rand.NewPCG(seed, 0x9e3779b97f4a7c15)}
	g.r = rand.New(g.pcg)
	g.people = [4][2][]string{
		{arabicFirst, arabicLast}, {turkishFirst, turkishLast},
		{ukrainianFirst, ukrainianLast}, {englishFirst, englishLast},
	}
	ix := d.Index()
	tables := loadTables(d)
	for _, c := range countries() {
		tables.fill(c)
		if c.leader != "" {
			if t := ix.Term(termName(d, c.leader)); t != nil {
				c.leaderNm = t.Name
			}
		}
		if c.name == "" || len(c.levels[lvlCity]) == 0 || len(c.groups) == 0 {
			continue
		}
		g.countries = append(g.countries, c)
		w := c.weight
		if n := len(g.cumW); n > 0 {
			w += g.cumW[n-1]
		}
		g.cumW = append(g.cumW, w)
	}
	if len(g.countries) == 0 {
		return nil, errors.New("synth: the gazetteer has no usable places")
	}
	for _, id := range orgIDs {
		if n := termName(d, id); n != "" {
			g.orgs = append(g.orgs, n)
		}
	}
	for _, id := range eventIDs {
		if n := termName(d, id); n != "" {
			g.events = append(g.events, n)
		}
	}
	var others []string
	for _, id := range creditAgencies {
		if n := termName(d, id); n != "" {
			others = append(others, n)
		}
	}
	// The roster: a few hundred photographers, each working for one
	// agency in one country, drawn from the seed.
	for range 320 {
		p := photographer{style: g.pickWeighted(styleWeights[:]), country: g.pickCountry()}
		if p.style == styleOther && len(others) == 0 {
			p.style = styleReuters
		}
		if p.style == styleOther {
			p.agency = others[g.r.IntN(len(others))]
		}
		culture := g.countries[p.country].people
		switch {
		case g.r.IntN(5) == 0:
			culture = peopleEnglish
		case g.r.IntN(6) == 0:
			culture = peopleArabic
		}
		p.name = g.personName(culture)
		p.upper = strings.ToUpper(p.name)
		g.photogs = append(g.photogs, p)
	}
	return g, nil
}

// termName returns the canonical name of the lexicon term with the given
// id, or "" when there is none.
func termName(d *gazetteer.Data, id string) string {
	for i := range d.Terms {
		if d.Terms[i].ID == id {
			if t := d.Index().Term(d.Terms[i].Name); t == &d.Terms[i] {
				return t.Name
			}
		}
	}
	return ""
}

// ID returns the id of caption i: "syn-000000123".
func ID(i int) string {
	s := strconv.Itoa(i)
	if len(s) < 9 {
		s = "000000000"[len(s):] + s
	}
	return "syn-" + s
}

// Extractions extracts captions from to from+n-1 of the generator seeded
// with seed: the corpus that tests load into stores.
func Extractions(seed uint64, from, n int) ([]extract.Extraction, error) {
	g, err := New(seed)
	if err != nil {
		return nil, err
	}
	x, err := extract.New()
	if err != nil {
		return nil, err
	}
	xs := make([]extract.Extraction, 0, n)
	for i := from; i < from+n; i++ {
		xs = append(xs, x.Extract(g.Caption(i)))
	}
	return xs, nil
}

// Caption returns caption i (0 or more). It depends only on the seed and on
// i, so captions can be made in any order or split among generators.
func (g *Generator) Caption(i int) extract.Caption {
	g.buf = g.AppendText(g.buf[:0], i)
	return extract.Caption{ID: ID(i), Text: string(g.buf)}
}

// AppendText appends the text of caption i to dst and returns the result.
// Its only newline, when it has one, is before a credit line
// ("\nFirst Last/AFP/Getty Images").
func (g *Generator) AppendText(dst []byte, i int) []byte {
	g.pcg.Seed(g.seed, uint64(i)*0x9e3779b97f4a7c15+1)
	return g.caption(dst)
}

func (g *Generator) pickWeighted(w []int) int {
	sum := 0
	for _, x := range w {
		sum += x
	}
	n := g.r.IntN(sum)
	for i, x := range w {
		if n < x {
			return i
		}
		n -= x
	}
	return len(w) - 1
}

func (g *Generator) pickCountry() int {
	n := g.r.IntN(g.cumW[len(g.cumW)-1])
	for i, w := range g.cumW {
		if n < w {
			return i
		}
	}
	return len(g.cumW) - 1
}

// skewed returns an index below n, small ones far more often: the big
// cities and famous groups recur as they do in a real archive.
func (g *Generator) skewed(n int) int {
	return g.r.IntN(g.r.IntN(n) + 1)
}

func (g *Generator) personName(culture int) string {
	f, l := g.people[culture][0], g.people[culture][1]
	return f[g.r.IntN(len(f))] + " " + l[g.r.IntN(len(l))]
}

func (g *Generator) one(xs []string) string { return xs[g.r.IntN(len(xs))] }

// tables holds what New reads from the gazetteer, by country.
type tables struct {
	d         *gazetteer.Data
	divisions map[string]*gazetteer.Place // country + Key(name) -> division
}

func loadTables(d *gazetteer.Data) *tables {
	t := &tables{d: d, divisions: map[string]*gazetteer.Place{}}
	for i := range d.Places {
		p := &d.Places[i]
		if p.IsDivision() {
			for _, n := range p.Names {
				t.divisions[p.Country+gazetteer.Key(n)] = p
			}
		}
	}
	return t
}

// goodName reports whether a place name is one captions would print: Latin
// letters, spaces, hyphens and apostrophes, starting with a capital.
func goodName(s string) bool {
	if s == "" || !unicode.IsUpper([]rune(s)[0]) || len(s) > 40 || strings.Contains(s, " '") {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && r != ' ' && r != '-' && r != '\'' {
			return false
		}
		if r >= 0x250 { // beyond Latin Extended
			return false
		}
	}
	return true
}

var spotKinds = map[string]bool{
	"neighbourhood": true, "suburb": true, "district": true, "camp": true, "air base": true,
	"base": true, "airport": true, "crossing": true, "square": true, "market": true, "mosque": true,
	"castle": true, "landmark": true, "ruins": true, "prison": true, "plant": true, "port": true,
	"dam": true, "region": true, "valley": true,
}

// fill gives c its name, places by level and groups.
func (t *tables) fill(c *country) {
	d, ix := t.d, t.d.Index()
	resolves := func(name string, p *gazetteer.Place) bool {
		q, _ := ix.Resolve(name)
		return q == p
	}
	provName := map[*gazetteer.Place]string{}
	provinceOf := func(p *gazetteer.Place) string {
		if len(p.Admin) < 2 {
			return ""
		}
		div := t.divisions[c.code+gazetteer.Key(p.Admin[1])]
		if div == nil {
			return ""
		}
		if n, ok := provName[div]; ok {
			return n
		}
		n := ""
		if goodName(div.Name) {
			n = div.Name + " " + c.divWord
			if !resolves(n, div) {
				n = ""
			}
		}
		provName[div] = n
		return n
	}
	type city struct {
		p    *gazetteer.Place
		prov string
	}
	var cities []city
	for i := range d.Places {
		p := &d.Places[i]
		if p.Country != c.code || !goodName(p.Name) {
			continue
		}
		if !p.IsDivision() && !resolves(p.Name, p) {
			continue
		}
		switch {
		case p.IsCountry():
			c.name = p.Name
			c.levels[lvlCountry] = append(c.levels[lvlCountry], place{name: p.Name})
		case p.IsDivision():
			if n := provinceOf(&gazetteer.Place{Country: p.Country, Admin: []string{c.code, p.Name}}); n != "" {
				c.levels[lvlProvince] = append(c.levels[lvlProvince], place{name: n})
			}
		case p.Kind == "city" || p.Kind == "capital":
			c.levels[lvlCity] = append(c.levels[lvlCity], place{name: p.Name, province: provinceOf(p)})
			if p.Population >= 20000 || p.Curated {
				cities = append(cities, city{p, provinceOf(p)})
			}
		case p.Kind == "town" || p.Kind == "village":
			pl := place{name: p.Name, province: provinceOf(p)}
			if pl.province != "" && strings.HasPrefix(pl.province, p.Name+" ") {
				pl.province = ""
			}
			lvl := lvlTown
			if p.Kind == "village" {
				lvl = lvlVillage
			}
			c.levels[lvl] = append(c.levels[lvl], pl)
		case spotKinds[p.Kind]:
			pl := place{name: p.Name, kind: p.Kind}
			if p.Parent != "" {
				if q := ix.Place(p.Parent); q != nil && goodName(q.Name) && !q.IsDivision() && resolves(q.Name, q) {
					pl.parent = q.Name
				}
			}
			c.levels[lvlSpot] = append(c.levels[lvlSpot], pl)
		}
	}
	// A nearby larger city for towns and villages, to say "north of X".
	for _, lvl := range []int{lvlTown, lvlVillage} {
		for k := range c.levels[lvl] {
			pl := &c.levels[lvl][k]
			ps, _ := ix.Resolve(pl.name)
			best, bestKm := "", 60.0
			bearing := 0.0
			for _, ct := range cities {
				if ct.prov != pl.province && pl.province != "" {
					continue
				}
				dy := ps.Lat - ct.p.Lat
				dx := (ps.Lon - ct.p.Lon) * math.Cos(ps.Lat*math.Pi/180)
				km := math.Hypot(dx, dy) * 111.2
				if km >= 4 && km < bestKm {
					best, bestKm, bearing = ct.p.Name, km, math.Atan2(dx, dy)
				}
			}
			if best != "" {
				pl.near, pl.km = best, int(math.Round(bestKm/5))*5
				if pl.km == 0 {
					pl.km = 5
				}
				sector := int(math.Round(bearing/(math.Pi/4))+8) % 8
				pl.dir = compass[sector]
			}
		}
	}
	// Curated and bigger places first, so that skewed picks favour them.
	// GeoNames order within a level is already stable; move curated rows
	// ahead without reordering the rest.
	for lvl := range c.levels {
		ps := c.levels[lvl]
		var head, tail []place
		for _, p := range ps {
			if q, _ := ix.Resolve(p.name); q != nil && (q.Curated || q.Population >= 100000) {
				head = append(head, p)
			} else {
				tail = append(tail, p)
			}
		}
		c.levels[lvl] = append(head, tail...)
	}
	// Groups: the country's own, then those of foreign.
	add := func(cc string) {
		for i := range d.Groups {
			gr := &d.Groups[i]
			if gr.Country != cc || strings.ContainsAny(gr.Name, "()–") || ix.Group(gr.Name) != gr {
				continue
			}
			ng := newGroup(gr)
			for _, a := range gr.Aliases {
				if len(a) >= 2 && len(a) <= 5 && strings.ToUpper(a) == a && ix.Group(a) == gr {
					ng.short = a
					break
				}
			}
			c.groups = append(c.groups, ng)
		}
	}
	add(c.code)
	c.nOwn = len(c.groups)
	for _, cc := range c.foreign {
		add(cc)
	}
}

func newGroup(gr *gazetteer.Group) group {
	g := group{name: gr.Name, role: "fighter"}
	switch gr.Type {
	case "state forces", "foreign forces":
		g.role = "soldier"
	case "police":
		g.role = "officer"
	}
	last := gr.Name[strings.LastIndexByte(gr.Name, ' ')+1:]
	switch strings.ToLower(last) {
	case "army", "forces", "force", "front", "units", "brigade", "brigades", "division", "movement",
		"party", "guard", "corps", "group", "organization", "council", "police", "battalion", "navy",
		"gendarmerie", "network", "coalition", "republic", "state", "resistance", "mission", "committees":
		g.the = true
	}
	return g
}
