// Package gazetteer holds the reference data that the caption extractor
// matches against: places (GeoNames cities500, first-level divisions and the
// second-level divisions of conflict countries, plus
// a curated table of neighbourhoods, bases, camps, crossings and venues that
// GeoNames lacks or misnames), armed groups with their aliases, and the
// agencies, organisations and events of the lexicon. [Load] decodes the
// embedded data once; [Data.Index] answers name look-ups.
//
// Place data is from GeoNames (https://www.geonames.org), CC BY 4.0; see
// data/README.md.
package gazetteer

//go:generate sh gen.sh
//go:generate sh gen-wikidata.sh

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/capgraph/capgraph/extract/gazetteer/internal/fold"
)

//go:embed data/places.tsv.gz data/countries.tsv data/curated_places.tsv data/groups.tsv data/lexicon.tsv data/forbidden.tsv data/wikidata.tsv data/divisions.tsv
var files embed.FS

// Place is one gazetteer place.
type Place struct {
	ID         string   // "place:geonames:170654" for GeoNames places, "place:adm1:SY.12" and "place:adm2:UA.21.5" for divisions, "place:<slug>" for curated ones
	GeoNamesID int      // 0 when there is none (curated places, some divisions, a few countries)
	Name       string   // preferred (English, usually ASCII) name
	Names      []string // every Latin-script name and variant, Name first, distinct under [Fold]
	Lat, Lon   float64  // WGS84 degrees; approximate for curated places, the capital for countries
	Class      string   // GeoNames feature class: P, A, S, T, L, H, V or R; curated rows map their kind to one
	Code       string   // GeoNames feature code: PPL, PPLA, PPLC, ADM1, PCLI, AIRB, CMP, ...; curated rows map too
	Kind       string   // curated kind (neighbourhood, air base, camp, ...) or one derived from Code (city, town, village, country, province, district)
	Country    string   // ISO 3166-1 alpha-2 code
	Admin      []string // admin chain names, widest first: ["Syria", "Idlib", "Ariha District"], as far as known; empty for countries
	AdminIDs   []string // the IDs of Admin's places, "" where the gazetteer holds no place of that name
	Wikidata   string   // the Wikidata item ("Q858"), "" when data/wikidata.tsv has none
	Parent     string   // ID of the curated parent place ("" when none): Jobar -> Damascus
	Population int      // 0 when unknown
	Curated    bool     // true when the curated table made or amended this place
}

// IsCountry reports whether p is a country.
func (p *Place) IsCountry() bool { return p.Code == "PCLI" }

// IsDivision reports whether p is a first-level administrative division
// (governorate, province, oblast, state).
func (p *Place) IsDivision() bool { return p.Code == "ADM1" }

// CityOf reports whether p is a city of the first-level division d: its
// seat, a capital or a place of 100,000 people or more that d holds, as
// Idlib is of the Idlib governorate and New York of the state. A name
// that both bear means the city, unless an administrative word follows.
func (p *Place) CityOf(d *Place) bool {
	return (p.Code == "PPLA" || p.Code == "PPLC" || p.Population >= 100000) && d.IsDivision() && slices.Contains(p.AdminIDs, d.ID)
}

// Group is an armed group: a state force, rebel group, militia, ....
type Group struct {
	ID       string   // "group:<slug>"
	Name     string   // canonical name
	Type     string   // one of GroupTypes
	Parent   string   // ID of the parent group ("" when none): Nusra Front -> al Qaeda
	Country  string   // ISO 3166-1 alpha-2 code of the country it fights in or belongs to; "" when several
	Aliases  []string // every other name, abbreviation and spelling
	Wikidata string   // the Wikidata item, "" when data/wikidata.tsv has none
}

// GroupTypes lists the values of [Group.Type].
var GroupTypes = []string{"state forces", "rebel group", "jihadist group", "militia", "foreign forces", "kurdish forces", "separatists", "coalition", "police", "peacekeepers", "gang", "cartel"}

// Term is a news or photo agency, an organisation or a named event.
type Term struct {
	ID       string   // "agency:<slug>", "org:<slug>" or "event:<slug>"
	Name     string   // canonical name
	Type     string   // AGENCY, ORGANIZATION, EVENT or PERSON (public figures captions name by surname alone)
	Variants []string // other names and spellings
	Wikidata string   // the Wikidata item, "" when data/wikidata.tsv has none
}

// Data is the whole gazetteer. It is read-only once [Load] returns it.
type Data struct {
	Places []Place
	Groups []Group
	Terms  []Term

	ix *Index
}

var (
	loadOnce sync.Once
	loaded   *Data
	loadErr  error
)

// Load decodes the embedded gazetteer and builds its [Index], once; later
// calls return the same *Data. It is safe for concurrent use.
func Load() (*Data, error) {
	loadOnce.Do(func() { loaded, loadErr = load() })
	return loaded, loadErr
}

// Index returns the name index of d, built by [Load].
func (d *Data) Index() *Index { return d.ix }

func load() (*Data, error) {
	d := &Data{Places: make([]Place, 0, 36000)} // about 34,000 places
	countries, err := readCountries(d)
	if err != nil {
		return nil, err
	}
	if err := readGeoNames(d, countries); err != nil {
		return nil, err
	}
	linkAdmin(d, countries)
	ix := newIndex(d)
	ix.addPlaces(0)
	if err := readCurated(d, ix, countries); err != nil {
		return nil, err
	}
	if err := readGroups(d); err != nil {
		return nil, err
	}
	if err := readLexicon(d); err != nil {
		return nil, err
	}
	if err := readWikidata(d, ix); err != nil {
		return nil, err
	}
	if err := readDivisionLinks(ix); err != nil {
		return nil, err
	}
	if err := ix.finish(); err != nil {
		return nil, err
	}
	d.ix = ix
	return d, nil
}

// tsv calls fn with the fields of every line of the embedded file name that
// is neither empty nor a "#" comment. Fields are trimmed of spaces.
func tsv(name string, minFields int, fn func(line int, f []string) error) error {
	data, err := files.ReadFile(name)
	if err != nil {
		return fmt.Errorf("gazetteer: %w", err)
	}
	var r io.Reader = bytes.NewReader(data)
	if strings.HasSuffix(name, ".gz") {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return fmt.Errorf("gazetteer: %s: %w", name, err)
		}
		r = zr
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	fields := make([]string, 0, 16)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		fields = fields[:0]
		for f := range strings.SplitSeq(line, "\t") {
			fields = append(fields, strings.TrimSpace(f))
		}
		if len(fields) < minFields {
			return fmt.Errorf("gazetteer: %s line %d: %d fields, want %d", name, n, len(fields), minFields)
		}
		if err := fn(n, fields); err != nil {
			return fmt.Errorf("gazetteer: %s line %d: %w", name, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("gazetteer: %s: %w", name, err)
	}
	return nil
}

// list splits a "|"-separated field; "" gives nil.
func list(s string) []string {
	if s == "" {
		return nil
	}
	xs := strings.Split(s, "|")
	out := xs[:0]
	for _, x := range xs {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// addNames appends to names each of more not yet in it under Fold.
func addNames(names []string, more ...string) []string {
	for _, m := range more {
		fm := fold.Fold(m)
		dup := false
		for _, n := range names {
			if fold.Fold(n) == fm {
				dup = true
				break
			}
		}
		if !dup {
			names = append(names, m)
		}
	}
	return names
}

// countryTable maps ISO codes to the index of their country place.
type countryTable map[string]int

func readCountries(d *Data) (countryTable, error) {
	ct := countryTable{}
	err := tsv("data/countries.tsv", 3, func(_ int, f []string) error {
		id, err := strconv.Atoi(f[1])
		if err != nil {
			return err
		}
		p := Place{GeoNamesID: id, Name: f[2], Class: "A", Code: "PCLI", Kind: "country", Country: f[0]}
		if id != 0 {
			p.ID = "place:geonames:" + f[1]
		} else {
			p.ID = "place:country:" + strings.ToLower(f[0])
		}
		p.Names = []string{f[2]}
		if len(f) > 3 {
			p.Names = addNames(p.Names, list(f[3])...)
		}
		ct[f[0]] = len(d.Places)
		d.Places = append(d.Places, p)
		return nil
	})
	return ct, err
}

func readGeoNames(d *Data, ct countryTable) error {
	chains := map[[3]string][]string{}
	chain := func(cc, a1, a2 string) []string {
		k := [3]string{cc, a1, a2}
		if c, ok := chains[k]; ok {
			return c
		}
		var c []string
		if i, ok := ct[cc]; ok {
			c = append(c, d.Places[i].Name)
		}
		if a1 != "" {
			c = append(c, a1)
		}
		if a2 != "" {
			c = append(c, a2)
		}
		c = c[:len(c):len(c)]
		chains[k] = c
		return c
	}
	intern := map[string]string{}
	in := func(s string) string {
		if v, ok := intern[s]; ok {
			return v
		}
		intern[s] = s
		return s
	}
	// A country whose capital cities500 does not mark PPLC (Israel,
	// Palestine) is placed at its largest place instead.
	largest := map[string]int{}
	defer func() {
		for cc, j := range largest {
			if i, ok := ct[cc]; ok && d.Places[i].Lat == 0 && d.Places[i].Lon == 0 {
				d.Places[i].Lat, d.Places[i].Lon = d.Places[j].Lat, d.Places[j].Lon
			}
		}
	}()
	return tsv("data/places.tsv.gz", 12, func(_ int, f []string) error {
		var p Place
		if f[0] != "" {
			id, err := strconv.Atoi(f[0])
			if err != nil {
				return err
			}
			p.GeoNamesID = id
			p.ID = "place:geonames:" + f[0]
		} else if f[7] == "ADM2" {
			p.ID = "place:adm2:" + f[1]
		} else {
			p.ID = "place:adm1:" + f[1]
		}
		p.Name = f[2]
		p.Names = append(make([]string, 0, 2+strings.Count(f[3], "|")), f[2])
		if f[3] != "" {
			for n := range strings.SplitSeq(f[3], "|") {
				p.Names = append(p.Names, n)
			}
		}
		var err error
		if p.Lat, err = strconv.ParseFloat(f[4], 64); err != nil {
			return err
		}
		if p.Lon, err = strconv.ParseFloat(f[5], 64); err != nil {
			return err
		}
		p.Class, p.Code, p.Country = in(f[6]), in(f[7]), in(f[8])
		if p.Population, err = strconv.Atoi(f[11]); err != nil {
			return err
		}
		p.Admin = chain(p.Country, in(f[9]), in(f[10]))
		p.Kind = kindOf(p.Code, p.Population)
		if p.Code == "PPLC" {
			if i, ok := ct[p.Country]; ok && d.Places[i].Lat == 0 && d.Places[i].Lon == 0 {
				d.Places[i].Lat, d.Places[i].Lon = p.Lat, p.Lon
			}
		}
		if j, ok := largest[p.Country]; p.Class == "P" && (!ok || p.Population > d.Places[j].Population) {
			largest[p.Country] = len(d.Places)
		}
		d.Places = append(d.Places, p)
		return nil
	})
}

// linkAdmin gives each GeoNames place the IDs of its admin chain: its
// country's, then those of the divisions so named in that country ("" for
// a name no division row has), so that a chain names the same nodes as the
// places themselves.
func linkAdmin(d *Data, ct countryTable) {
	// Names compare folded and without a trailing admin word: GeoNames
	// puts Damascus in "Damascus Governorate", whose row is "Damascus".
	key := func(cc string, names []string) string {
		var b strings.Builder
		b.WriteString(cc)
		for _, n := range names {
			if i := strings.LastIndexByte(n, ' '); i > 0 && IsAdminWord(n[i+1:]) {
				n = n[:i]
			}
			b.WriteByte(0)
			b.WriteString(fold.Fold(n))
		}
		return b.String()
	}
	// A chain's names after its country, with the division's own name.
	divisions := map[string]string{}
	for i := range d.Places {
		if p := &d.Places[i]; p.Code == "ADM1" || p.Code == "ADM2" {
			names := append(slices.Clone(p.Admin[countryNames(d, ct, p):]), p.Name)
			divisions[key(p.Country, names)] = p.ID
		}
	}
	chains := map[string][]string{}
	for i := range d.Places {
		p := &d.Places[i]
		if len(p.Admin) == 0 {
			continue
		}
		k := key(p.Country, p.Admin)
		if ids, ok := chains[k]; ok {
			p.AdminIDs = ids
			continue
		}
		ids := make([]string, len(p.Admin))
		start := countryNames(d, ct, p)
		if start == 1 {
			ids[0] = d.Places[ct[p.Country]].ID
		}
		for j := start; j < len(p.Admin); j++ {
			ids[j] = divisions[key(p.Country, p.Admin[start:j+1])]
		}
		chains[k] = ids
		p.AdminIDs = ids
	}
}

// countryNames is 1 when p's admin chain starts with its country, else 0.
func countryNames(d *Data, ct countryTable, p *Place) int {
	if c, ok := ct[p.Country]; ok && len(p.Admin) > 0 && p.Admin[0] == d.Places[c].Name {
		return 1
	}
	return 0
}

// kindOf derives a kind word from a GeoNames feature code and population.
func kindOf(code string, pop int) string {
	switch code {
	case "PCLI":
		return "country"
	case "ADM1":
		return "province"
	case "ADM2":
		return "district"
	case "PPLX":
		return "neighbourhood"
	case "PPLC", "PPLA", "PPLA2":
		return "city"
	}
	switch {
	case pop >= 100000:
		return "city"
	case pop >= 10000:
		return "town"
	}
	return "village"
}

// curatedKinds maps the kind words of curated_places.tsv to a GeoNames
// feature class and code; merge says whether such a row amends a GeoNames
// place of the same class with a matching name nearby instead of adding one.
var curatedKinds = map[string]struct {
	class, code string
	merge       bool
}{
	"city":          {"P", "PPL", true},
	"town":          {"P", "PPL", true},
	"village":       {"P", "PPL", true},
	"suburb":        {"P", "PPLX", true},
	"neighbourhood": {"P", "PPLX", true},
	"district":      {"P", "PPLX", true},
	"capital":       {"P", "PPLC", true},
	"governorate":   {"A", "ADM1", true},
	"province":      {"A", "ADM1", true},
	"region":        {"L", "RGN", false},
	"valley":        {"T", "VAL", false},
	"mountain":      {"T", "MT", false},
	"heights":       {"T", "UPLD", false},
	"island":        {"T", "ISL", false},
	"peninsula":     {"T", "PEN", false},
	"river":         {"H", "STM", false},
	"sea":           {"H", "SEA", false},
	"strait":        {"H", "STRT", false},
	"gulf":          {"H", "GULF", false},
	"bay":           {"H", "BAY", false},
	"ocean":         {"H", "OCN", false},
	"lake":          {"H", "LK", false},
	"desert":        {"T", "DSRT", false},
	"air base":      {"S", "AIRB", false},
	"airport":       {"S", "AIRP", false},
	"base":          {"S", "MILB", false},
	"camp":          {"S", "CMPRF", false},
	"crossing":      {"S", "PSTB", false},
	"landmark":      {"S", "BLDG", false},
	"mosque":        {"S", "MSQE", false},
	"church":        {"S", "CH", false},
	"castle":        {"S", "CSTL", false},
	"ruins":         {"S", "RUIN", false},
	"palace":        {"S", "PAL", false},
	"square":        {"S", "SQR", false},
	"stadium":       {"S", "STDM", false},
	"venue":         {"S", "STDM", false},
	"golf course":   {"S", "GLFC", false},
	"hospital":      {"S", "HSP", false},
	"prison":        {"S", "PRN", false},
	"plant":         {"S", "MFG", false},
	"dam":           {"S", "DAM", false},
	"port":          {"L", "PRT", false},
	"road":          {"R", "RD", false},
	"street":        {"R", "ST", false},
	"market":        {"S", "MKT", false},
}

// readCurated adds or merges the rows of curated_places.tsv. Parents are
// resolved after every row is in, so a row may name a parent below it.
func readCurated(d *Data, ix *Index, ct countryTable) error {
	type pending struct {
		place  int
		parent string
		line   int
	}
	var parents []pending
	slugs := map[string]int{}
	first := len(d.Places)
	err := tsv("data/curated_places.tsv", 8, func(line int, f []string) error {
		slug, name, variants, kind, cc, parent := f[0], f[1], list(f[2]), f[3], f[6], f[7]
		k, ok := curatedKinds[kind]
		if !ok {
			return fmt.Errorf("unknown kind %q", kind)
		}
		if _, ok := ct[cc]; !ok {
			return fmt.Errorf("unknown country %q", cc)
		}
		if _, dup := slugs[slug]; dup {
			return fmt.Errorf("duplicate slug %q", slug)
		}
		lat, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			return err
		}
		lon, err := strconv.ParseFloat(f[5], 64)
		if err != nil {
			return err
		}
		names := addNames([]string{name}, variants...)
		i := -1
		if k.merge {
			match := names
			if k.class == "A" {
				// GeoNames divisions go by their bare name only.
				match = addNames(slices.Clone(names), bareDivisions(names)...)
			}
			i = ix.mergeTarget(match, k.class, cc, lat, lon, first)
		}
		if i >= 0 {
			p := &d.Places[i]
			if k.class == "A" {
				p.Names = addNames(p.Names, names...) // keep the division's GeoNames name
			} else {
				p.Names = addNames(addNames([]string{name}, p.Names...), names...)
				p.Name = name
			}
			for _, n := range p.Names {
				ix.addPlaceName(int32(i), n) // adds only what is new
			}
			p.Kind = kind
			p.Curated = true
			if p.Class == "P" && k.code == "PPLX" && p.Code == "PPL" {
				p.Code = "PPLX"
			}
		} else {
			i = len(d.Places)
			p := Place{
				ID: "place:" + slug, Name: name, Names: names, Lat: lat, Lon: lon,
				Class: k.class, Code: k.code, Kind: kind, Country: cc, Curated: true,
			}
			if c, ok := ct[cc]; ok {
				p.Admin = []string{d.Places[c].Name}
				p.AdminIDs = []string{d.Places[c].ID}
			}
			d.Places = append(d.Places, p)
		}
		slugs[slug] = i
		if parent != "" {
			parents = append(parents, pending{i, parent, line})
		}
		return nil
	})
	if err != nil {
		return err
	}
	ix.addPlaces(first)
	ix.sortPlaces()
	if err := ix.indexIDs(); err != nil {
		return err
	}
	for _, pp := range parents {
		p := &d.Places[pp.place]
		if j, ok := slugs[pp.parent]; ok {
			p.Parent = d.Places[j].ID
		} else if q := ix.placeIn(pp.parent, p.Country); q != nil {
			p.Parent = q.ID
		} else {
			return fmt.Errorf("gazetteer: data/curated_places.tsv line %d: parent %q not found in %s", pp.line, pp.parent, p.Country)
		}
	}
	// A place's chain is its parent's and the parent: a parent's first,
	// so that a chain agrees with its places' own (Saqba in Eastern Ghouta
	// in Rif Dimashq, whatever the rows' order).
	state := make(map[*Place]int) // 1 resolving, 2 done
	var resolve func(p *Place)
	resolve = func(p *Place) {
		if state[p] != 0 {
			return // done, or a cycle: leave the chain as it is
		}
		state[p] = 1
		if q := ix.Place(p.Parent); q != nil && q != p && (len(p.Admin) <= 1 || !p.inGeoNames()) {
			resolve(q)
			p.Admin = append(append([]string(nil), q.Admin...), q.Name)
			p.AdminIDs = append(append(make([]string, 0, len(q.AdminIDs)+1), q.AdminIDs...), q.ID)
		}
		state[p] = 2
	}
	for _, pp := range parents {
		resolve(&d.Places[pp.place])
	}
	return nil
}

// adminWords are the words that name a kind of division. The annotation
// guidelines leave them outside a place's span ("Sumy Region" is "Sumy",
// "North Kivu province" is "North Kivu"), so a division is indexed by its
// bare name only and the extractor leaves a trailing admin word out.
var adminWords = map[string]bool{
	"governorate": true, "province": true, "oblast": true, "region": true, "state": true,
	"township": true, "division": true, "district": true, "territory": true, "prefecture": true,
	"county": true, "raion": true, "rayon": true, "department": true, "municipality": true,
	"krai": true, "republic": true, "okrug": true, "cercle": true, "locality": true,
}

// IsAdminWord reports whether w (any case) names a kind of administrative
// division: "Province", "oblast", "Township", ....
func IsAdminWord(w string) bool { return adminWords[strings.ToLower(w)] }

// bareDivision returns name without a trailing admin word ("Idlib" for
// "Idlib Governorate"), or name itself when nothing would be left.
func bareDivision(name string) string {
	i := strings.LastIndexByte(name, ' ')
	if i <= 0 || !IsAdminWord(name[i+1:]) {
		return name
	}
	return strings.TrimSpace(name[:i])
}

// bareDivisions maps [bareDivision] over names. Curated rows keep their
// hand-written suffixed variants ("Donetsk region"); the bare forms only
// find the GeoNames division they amend.
func bareDivisions(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = bareDivision(n)
	}
	return out
}

func (p *Place) inGeoNames() bool { return p.GeoNamesID != 0 && p.Code != "PCLI" }

// readWikidata sets the Wikidata items of data/wikidata.tsv on their
// places, groups and terms.
func readWikidata(d *Data, ix *Index) error {
	items := make(map[string]*string, len(d.Groups)+len(d.Terms))
	for i := range d.Groups {
		items[d.Groups[i].ID] = &d.Groups[i].Wikidata
	}
	for i := range d.Terms {
		items[d.Terms[i].ID] = &d.Terms[i].Wikidata
	}
	return tsv("data/wikidata.tsv", 2, func(_ int, f []string) error {
		if p := ix.Place(f[0]); p != nil {
			p.Wikidata = f[1]
		} else if item := items[f[0]]; item != nil {
			*item = f[1]
		} else {
			return fmt.Errorf("no place, group or term %s", f[0])
		}
		return nil
	})
}

// readDivisionLinks sets the GeoNames ids and Wikidata items of
// data/divisions.tsv on their first-level divisions. (places.tsv.gz knows a
// division by its admin1 code only.) It runs after the curated table, which
// looks at GeoNames ids to tell GeoNames places from its own.
func readDivisionLinks(ix *Index) error {
	return tsv("data/divisions.tsv", 3, func(_ int, f []string) error {
		p := ix.Place(f[0])
		if p == nil || !p.IsDivision() {
			return fmt.Errorf("no division %s", f[0])
		}
		id, err := strconv.Atoi(f[1])
		if err != nil || id <= 0 {
			return fmt.Errorf("%s: GeoNames id %q", f[0], f[1])
		}
		p.GeoNamesID = id
		if f[2] != "" {
			p.Wikidata = f[2]
		}
		return nil
	})
}

func readGroups(d *Data) error {
	seen := map[string]bool{}
	err := tsv("data/groups.tsv", 6, func(_ int, f []string) error {
		g := Group{ID: "group:" + f[0], Name: f[1], Type: f[2], Country: f[4]}
		if f[3] != "" {
			g.Parent = "group:" + f[3]
		}
		if !validType(g.Type) {
			return fmt.Errorf("unknown group type %q", g.Type)
		}
		if seen[g.ID] {
			return fmt.Errorf("duplicate group %q", g.ID)
		}
		seen[g.ID] = true
		g.Aliases = addNames([]string{g.Name}, list(f[5])...)[1:]
		d.Groups = append(d.Groups, g)
		return nil
	})
	if err != nil {
		return err
	}
	for _, g := range d.Groups {
		if g.Parent != "" && !seen[g.Parent] {
			return fmt.Errorf("gazetteer: data/groups.tsv: %s: unknown parent %s", g.ID, g.Parent)
		}
	}
	return nil
}

func validType(t string) bool {
	return slices.Contains(GroupTypes, t)
}

var termPrefix = map[string]string{"AGENCY": "agency:", "ORGANIZATION": "org:", "EVENT": "event:", "PERSON": "person:"}

func readLexicon(d *Data) error {
	seen := map[string]bool{}
	return tsv("data/lexicon.tsv", 4, func(_ int, f []string) error {
		prefix, ok := termPrefix[f[0]]
		if !ok {
			return fmt.Errorf("unknown term type %q", f[0])
		}
		t := Term{ID: prefix + f[1], Name: f[2], Type: f[0]}
		if seen[t.ID] {
			return fmt.Errorf("duplicate term %q", t.ID)
		}
		seen[t.ID] = true
		t.Variants = addNames([]string{t.Name}, list(f[3])...)[1:]
		d.Terms = append(d.Terms, t)
		return nil
	})
}

// distanceKm is the great-circle distance between two points, in kilometres.
func distanceKm(lat1, lon1, lat2, lon2 float64) float64 {
	const r = 6371.0
	rad := math.Pi / 180
	dlat := (lat2 - lat1) * rad
	dlon := (lon2 - lon1) * rad
	a := math.Sin(dlat/2)*math.Sin(dlat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dlon/2)*math.Sin(dlon/2)
	return 2 * r * math.Asin(math.Sqrt(a))
}
