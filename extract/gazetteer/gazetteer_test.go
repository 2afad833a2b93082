package gazetteer_test

import (
	"fmt"
	"log"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/capgraph/capgraph/extract/gazetteer"
)

func load(t testing.TB) *gazetteer.Index {
	t.Helper()
	d, err := gazetteer.Load()
	if err != nil {
		t.Fatal(err)
	}
	return d.Index()
}

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Şanlıurfa", "sanliurfa"},
		{"Ḩamāh", "hamah"},
		{"Ma’arrat al-Nu‘man", "ma'arrat al-nu'man"},
		{"  Deir   ez-Zor ", "deir ez-zor"},
		{"Mürşitpınar", "mursitpinar"},
		{"Łódź", "lodz"},
		{"REUTERS", "reuters"},
		{"Dūmā", "duma"},
	}
	for _, tt := range tests {
		if got := gazetteer.Fold(tt.in); got != tt.want {
			t.Errorf("Fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestKey(t *testing.T) {
	same := [][2]string{
		{"Haresta", "Harasta"},
		{"Deir ez-Zor", "Dayr az Zawr"},
		{"Deir ez-Zor", "Deir al-Zor"},
		{"Qabasin", "Kabbasin"},
		{"Jobar", "Jawbar"},
		{"Raqqa", "Ar Raqqah"},
		{"Raqqa", "Raqa"},
		{"Deraa", "Daraa"},
		{"Dar'a", "Daraa"},
		{"al-Qaida", "Al Qaeda"},
		{"Ma'arshurin", "Maarshureen"},
		{"Şanlıurfa", "Sanliurfa"},
		{"Hamouriyeh", "Hamuriyah"},
	}
	for _, p := range same {
		if a, b := gazetteer.Key(p[0]), gazetteer.Key(p[1]); a != b {
			t.Errorf("Key(%q) = %q, Key(%q) = %q, want equal", p[0], a, p[1], b)
		}
	}
	differ := [][2]string{
		{"Douma", "Ad Dumayr"},
		{"Harasta", "Al Hasakah"},
		{"Idlib", "Irbid"},
		{"US Army", "Army"}, // "us" is no article
		{"Homs", "Hama"},
	}
	for _, p := range differ {
		if a := gazetteer.Key(p[0]); a == gazetteer.Key(p[1]) {
			t.Errorf("Key(%q) == Key(%q) == %q, want different", p[0], p[1], a)
		}
	}
}

func FuzzKey(f *testing.F) {
	for _, s := range []string{"Deir ez-Zor", "Ma'arrat al-Nu‘man", "ahh", "aww b", "Şanlıurfa", "al al al", "x\x00y", "ÉÈ", "phh ck"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k := gazetteer.Key(s)
		if k2 := gazetteer.Key(k); k2 != k {
			t.Fatalf("Key(%q) = %q, but Key(%q) = %q: not idempotent", s, k, k, k2)
		}
		if k3 := gazetteer.Key(gazetteer.Fold(s)); k3 != k {
			t.Fatalf("Key(Fold(%q)) = %q, Key = %q", s, k3, k)
		}
		if strings.ContainsAny(k, " -'") {
			t.Fatalf("Key(%q) = %q has a separator", s, k)
		}
	})
}

func TestResolve(t *testing.T) {
	ix := load(t)
	tests := []struct {
		name    string
		id      string // wanted Place.ID; "" means want nil
		country string
		minConf float64
	}{
		{"Haresta", "place:geonames:169897", "SY", 0.75}, // Harasta
		{"Harasta", "place:geonames:169897", "SY", 1},
		{"Hemeimeem", "place:hmeimim", "SY", 0.75},
		{"Hmeimim", "place:hmeimim", "SY", 1},
		{"Duma", "place:geonames:170592", "SY", 1}, // Douma
		{"Douma", "place:geonames:170592", "SY", 1},
		{"Raqa", "place:geonames:172955", "SY", 0.9},
		{"Deraa", "place:geonames:170905", "SY", 0.9},
		{"Aleppo", "place:geonames:170063", "SY", 1},
		{"Idlib", "place:geonames:169389", "SY", 1},
		{"Idlib province", "place:adm1:SY.12", "SY", 1}, // a curated variant
		{"Sumy Region", "", "", 0},                      // generated divisions go by their bare name
		{"Syria", "place:geonames:163843", "SY", 1},
		{"Mosul", "place:geonames:99072", "IQ", 1},
		{"Jobar", "place:jobar", "SY", 1},
		{"Jawbar", "place:jobar", "SY", 1},
		{"Kafr Nabl", "place:geonames:168661", "SY", 1}, // Kafranbel
		{"Ma'arshurin", "place:maarshureen", "SY", 1},
		{"Dayr az Zawr", "place:geonames:170794", "SY", 1},
		{"Tripoli", "place:geonames:2210247", "LY", 1},
		{"eastern al-Ghouta", "place:eastern-ghouta", "SY", 1},
		{"US", "place:geonames:6252001", "US", 1},
		{"Artemivsk", "place:geonames:713174", "UA", 1},
		{"Zzyzxqwv", "", "", 0},
	}
	for _, tt := range tests {
		p, conf := ix.Resolve(tt.name)
		if tt.id == "" {
			if p != nil {
				t.Errorf("Resolve(%q) = %s, want nil", tt.name, p.ID)
			}
			continue
		}
		if p == nil {
			t.Errorf("Resolve(%q) = nil, want %s", tt.name, tt.id)
			continue
		}
		if p.ID != tt.id || p.Country != tt.country || conf < tt.minConf {
			t.Errorf("Resolve(%q) = %s %s %q (%.2f), want %s %s (>= %.2f)", tt.name, p.ID, p.Country, p.Name, conf, tt.id, tt.country, tt.minConf)
		}
	}
}

// TestResolveForbidden checks that look-alike names stay apart even though
// both are in the gazetteer.
func TestResolveForbidden(t *testing.T) {
	ix := load(t)
	for _, tt := range []struct{ name, notCountry, notName string }{
		{"Douma", "", "Ad Dumayr"},
		{"Harasta", "", "Al Hasakah"},
		{"Idlib", "JO", ""},
		{"Midan", "UA", ""},
	} {
		p, _ := ix.Resolve(tt.name)
		if p == nil {
			t.Errorf("Resolve(%q) = nil", tt.name)
			continue
		}
		if p.Country == tt.notCountry || p.Name == tt.notName {
			t.Errorf("Resolve(%q) = %s %q in %s: a forbidden merge", tt.name, p.ID, p.Name, p.Country)
		}
	}
}

func TestPlacesRanking(t *testing.T) {
	ix := load(t)
	ps := ix.Places("Aleppo")
	if len(ps) == 0 || ps[0].Country != "SY" || ps[0].Class != "P" {
		t.Fatalf("Places(Aleppo)[0] = %+v, want the Syrian city", ps)
	}
	if ps := ix.Places("us"); len(ps) != 0 && ps[0].IsCountry() {
		t.Errorf("Places(us) found the United States: acronyms must match case")
	}
	jobar := ix.Place("place:jobar")
	if jobar == nil || ix.Place(jobar.Parent) == nil || ix.Place(jobar.Parent).Name != "Damascus" {
		t.Errorf("Jobar's parent is not Damascus: %+v", jobar)
	}
}

// TestPlacesDivisions: a division's population is that of its towns,
// which ranks it above a village of its name abroad, but below the city
// of its name it holds; a curated division's row amends the division of
// its own name, not one that an alias of it also names.
func TestPlacesDivisions(t *testing.T) {
	ix := load(t)
	for name, want := range map[string]string{
		"California":        "place:adm1:US.CA",
		"Bali":              "place:adm1:ID.02",
		"Idlib":             "place:geonames:169389",
		"New York":          "place:geonames:5128581",
		"Damascus province": "place:adm1:SY.08",
	} {
		if ps := ix.Places(name); len(ps) == 0 || ps[0].ID != want {
			t.Errorf("Places(%q)[0] = %v, want %s", name, ps[:min(2, len(ps))], want)
		}
	}
	ca, la := ix.Place("place:adm1:US.CA"), ix.Place("place:geonames:5368361")
	if ca == nil || la == nil || ix.Population(ca) <= la.Population || ix.Population(la) != la.Population {
		t.Errorf("Population: California %v, Los Angeles %v", ca, la)
	}
}

func TestGroup(t *testing.T) {
	ix := load(t)
	tests := []struct{ name, id string }{
		{"FSA", "group:free-syrian-army"},
		{"free Syrian Army", "group:free-syrian-army"},
		{"ISIL", "group:islamic-state"},
		{"Daesh", "group:islamic-state"},
		{"IS", "group:islamic-state"},
		{"is", ""},
		{"al-Qaida", "group:al-qaeda"},
		{"Al Qaeda", "group:al-qaeda"},
		{"Houthis", "group:houthis"},
		{"Jabhat al-Nusra", "group:nusra-front"},
		{"Kurdish People's Protection Units (YPG)", "group:ypg"},
		{"Iraqi Special Operations Forces (ISOF)", "group:isof"},
		{"rebels", ""},
		{"government forces", ""},
		{"Turkish soldiers", ""},
	}
	for _, tt := range tests {
		g := ix.Group(tt.name)
		switch {
		case g == nil && tt.id != "":
			t.Errorf("Group(%q) = nil, want %s", tt.name, tt.id)
		case g != nil && g.ID != tt.id:
			t.Errorf("Group(%q) = %s, want %q", tt.name, g.ID, tt.id)
		}
	}
	if n := ix.GroupByID("group:nusra-front"); n == nil || n.Parent != "group:al-qaeda" {
		t.Errorf("Nusra Front's parent = %v, want group:al-qaeda", n)
	}
}

// TestGroupsNoGeneric keeps the generic descriptions of the annotation
// guidelines out of the group table: they are not entities.
func TestGroupsNoGeneric(t *testing.T) {
	d, err := gazetteer.Load()
	if err != nil {
		t.Fatal(err)
	}
	generic := []string{"rebels", "rebel fighters", "opposition fighters", "insurgents", "militants",
		"government forces", "syrian regime forces", "pro-russian separatists", "turkish soldiers",
		"kurdish forces", "the us-backed coalition", "us-backed coalition", "regime forces", "opposition"}
	for _, g := range d.Groups {
		for _, n := range append([]string{g.Name}, g.Aliases...) {
			for _, x := range generic {
				if gazetteer.Fold(n) == x {
					t.Errorf("group %s has the generic alias %q", g.ID, n)
				}
			}
		}
	}
	if len(d.Groups) < 100 {
		t.Errorf("%d groups, want 100 or more", len(d.Groups))
	}
}

func TestTerm(t *testing.T) {
	ix := load(t)
	tests := []struct{ name, id, typ string }{
		{"Reuters", "agency:reuters", "AGENCY"},
		{"REUTERS", "agency:reuters", "AGENCY"},
		{"AP", "agency:ap", "AGENCY"},
		{"The Associated Press", "agency:ap", "AGENCY"},
		{"ap", "", ""},
		{"White Helmets", "org:white-helmets", "ORGANIZATION"},
		{"civil defence", "org:white-helmets", "ORGANIZATION"},
		{"Eid al-Adha", "event:eid-al-adha", "EVENT"},
		{"French Open", "event:french-open", "EVENT"},
	}
	for _, tt := range tests {
		x := ix.Term(tt.name)
		switch {
		case x == nil && tt.id != "":
			t.Errorf("Term(%q) = nil, want %s", tt.name, tt.id)
		case x != nil && (x.ID != tt.id || x.Type != tt.typ):
			t.Errorf("Term(%q) = %s %s, want %q %s", tt.name, x.ID, x.Type, tt.id, tt.typ)
		}
	}
}

// TestWikidata: data/wikidata.tsv links countries by ISO code and table
// entries by name, data/divisions.tsv links divisions to GeoNames and
// Wikidata, and both leave out the links rejects.tsv says are wrong and
// the names that are only acronyms.
func TestWikidata(t *testing.T) {
	d, err := gazetteer.Load()
	if err != nil {
		t.Fatal(err)
	}
	ix := d.Index()
	items := make(map[string]string)
	for _, g := range d.Groups {
		items[g.ID] = g.Wikidata
	}
	for _, x := range d.Terms {
		items[x.ID] = x.Wikidata
	}
	for _, tt := range []struct{ id, want string }{
		{"place:geonames:163843", "Q858"}, // Syria
		{"group:us-army", "Q9212"},
		{"group:indian-air-force", "Q330658"},
		{"org:un", "Q1065"},
		{"org:msf", "Q49330"},           // by its variant Médecins Sans Frontières
		{"group:badr-organization", ""}, // rejected: "Badr" is an Algerian bank
		{"agency:petra", ""},            // rejected: a Czech company
		{"org:african-union", ""},       // "AU" is an acronym, not matched
		{"group:islamic-state", ""},     // no item in the source
		{"place:adm1:US.CA", "Q99"},     // a division, by its flag
		{"place:adm1:US.NY", ""},        // rejected: the flag is New York City's
	} {
		got, ok := items[tt.id]
		if p := ix.Place(tt.id); p != nil {
			got, ok = p.Wikidata, true
		}
		if !ok {
			t.Errorf("%s: no such entry", tt.id)
		} else if got != tt.want {
			t.Errorf("%s: Wikidata %q, want %q", tt.id, got, tt.want)
		}
	}
	// Divisions have GeoNames ids where data/divisions.tsv links them.
	for id, want := range map[string]int{"place:adm1:SY.12": 169387, "place:adm1:UA.14": 702657, "place:adm1:US.CA": 5332921} {
		if p := ix.Place(id); p == nil || p.GeoNamesID != want {
			t.Errorf("%s: %+v, want GeoNames id %d", id, p, want)
		}
	}
}

func TestNames(t *testing.T) {
	d, err := gazetteer.Load()
	if err != nil {
		t.Fatal(err)
	}
	counts := map[gazetteer.NameKind]int{}
	d.Index().Names(func(name string, kind gazetteer.NameKind, ref int) bool {
		if name == "" {
			t.Fatalf("empty %v name, ref %d", kind, ref)
		}
		switch kind {
		case gazetteer.PlaceName:
			if ref < 0 || ref >= len(d.Places) {
				t.Fatalf("place ref %d out of range", ref)
			}
		case gazetteer.GroupName:
			if ref < 0 || ref >= len(d.Groups) {
				t.Fatalf("group ref %d out of range", ref)
			}
		case gazetteer.TermName:
			if ref < 0 || ref >= len(d.Terms) {
				t.Fatalf("term ref %d out of range", ref)
			}
		}
		counts[kind]++
		return true
	})
	t.Logf("names: %d places (%d place names), %d groups (%d names), %d terms (%d names)",
		len(d.Places), counts[gazetteer.PlaceName], len(d.Groups), counts[gazetteer.GroupName], len(d.Terms), counts[gazetteer.TermName])
	stopped := 0
	d.Index().Names(func(string, gazetteer.NameKind, int) bool { stopped++; return false })
	if stopped != 1 {
		t.Errorf("Names went on after yield returned false: %d calls", stopped)
	}
}

// TestLoadConcurrent loads from many goroutines (run with -race).
func TestLoadConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	ds := make([]*gazetteer.Data, 8)
	for i := range ds {
		wg.Go(func() {
			d, err := gazetteer.Load()
			if err != nil {
				t.Error(err)
				return
			}
			d.Index().Resolve("Aleppo")
			ds[i] = d
		})
	}
	wg.Wait()
	for _, d := range ds[1:] {
		if d != ds[0] {
			t.Fatal("Load returned different *Data")
		}
	}
}

func ExampleIndex_Resolve() {
	d, err := gazetteer.Load()
	if err != nil {
		log.Fatal(err)
	}
	ix := d.Index()
	// An exact name, a spelling that matches by transliteration key, and a
	// misspelling that matches only fuzzily.
	for _, name := range []string{"Aleppo", "Kabaseen", "Hmeimiem"} {
		p, conf := ix.Resolve(name)
		fmt.Printf("%s: %s (%s, %s) %.2f\n", name, p.Name, p.Kind, p.Country, conf)
	}
	fmt.Println(ix.Group("Daesh").Name)
	fmt.Println(ix.Term("AFP").Name)
	// Output:
	// Aleppo: Aleppo (city, SY) 1.00
	// Kabaseen: Qabasin (town, SY) 0.90
	// Hmeimiem: Hmeimim air base (air base, SY) 0.75
	// Islamic State
	// Agence France-Presse
}

func ExampleIndex_Population() {
	d, err := gazetteer.Load()
	if err != nil {
		log.Fatal(err)
	}
	ix := d.Index()
	// GeoNames gives a first-level division no population; the index
	// weighs it by the towns it holds, so that a name alone means the
	// state rather than a village of its name abroad.
	ca := ix.Place("place:adm1:US.CA")
	fmt.Println(ca.Population, ix.Population(ca) > 10000000)
	fmt.Println(ix.Places("California")[0].ID)
	// A city comes before the division of its name all the same.
	idlib := ix.Places("Idlib")[0]
	fmt.Println(idlib.Kind, idlib.CityOf(ix.Place("place:adm1:SY.12")))
	// Output:
	// 0 true
	// place:adm1:US.CA
	// city true
}

// TestAdminChainsAgree: the places of a chain are the gazetteer's own, and
// each sits in the chain before it, as its own chain says. The graph
// describes a place in a chain as it describes the place itself, so a
// chain that disagreed would make the description depend on which caption
// came first.
func TestAdminChainsAgree(t *testing.T) {
	d, err := gazetteer.Load()
	if err != nil {
		t.Fatal(err)
	}
	ix := d.Index()
	linked, bad := 0, 0
	for i := range d.Places {
		p := &d.Places[i]
		if len(p.AdminIDs) != len(p.Admin) {
			t.Fatalf("%s: admin %q, ids %q", p.ID, p.Admin, p.AdminIDs)
		}
		for j, id := range p.AdminIDs {
			if id == "" {
				continue
			}
			linked++
			q := ix.Place(id)
			if q == nil {
				t.Fatalf("%s: chain place %s is not in the gazetteer", p.ID, id)
			}
			// Countries have no chain; others start where p's does.
			if q.IsCountry() && j == 0 {
				continue
			}
			if !slices.Equal(q.AdminIDs, p.AdminIDs[:j]) {
				if bad++; bad <= 10 {
					t.Errorf("%s (%s) is in %q; its chain place %s (%s) is in %q", p.ID, p.Name, p.AdminIDs, q.ID, q.Name, q.AdminIDs)
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d chain links disagree", bad, linked)
	}
	if linked < 50000 {
		t.Errorf("only %d chain links name a gazetteer place", linked)
	}
}
