package gazetteer_test

import (
	"testing"

	"github.com/capgraph/capgraph/extract/gazetteer"
)

// TestResolveWorld checks near-names from the conflicts beyond the Middle
// East: each resolves to its own place, in the country the news means, and
// look-alikes do not merge.
func TestResolveWorld(t *testing.T) {
	ix := load(t)
	for _, tt := range []struct {
		name, country, code string // code "" accepts any feature code
	}{
		{"Goma", "CD", ""},
		{"Gomel", "BY", ""},
		{"Bunia", "CD", ""},
		{"Beni", "CD", ""},
		{"Benin", "BJ", "PCLI"},
		{"Sake", "CD", ""},
		{"Masisi", "CD", ""},
		{"North Kivu", "CD", "ADM1"},
		{"Ituri", "CD", "ADM1"},
		{"Congo", "CD", "PCLI"},
		{"Republic of the Congo", "CG", "PCLI"},
		{"Mali", "ML", "PCLI"},
		{"Male", "MV", ""},
		{"Niger", "NE", "PCLI"},
		{"Georgia", "GE", "PCLI"},
		{"Sudan", "SD", "PCLI"},
		{"South Sudan", "SS", "PCLI"},
		{"Darfur", "SD", ""},
		{"Kordofan", "SD", ""},
		{"Tigray", "ET", "ADM1"},
		{"Cabo Delgado", "MZ", "ADM1"},
		{"Pemba", "MZ", ""},
		{"Sumy", "UA", ""},
		{"Kherson", "UA", ""},
		{"Pokrovsk", "UA", ""},
		{"Kursk", "RU", ""},
		{"Donbas", "UA", ""},
		{"Rafah", "PS", ""},
		{"Rafha", "SA", ""},
		{"Ramallah", "PS", ""},
		{"Ramla", "IL", ""},
		{"Kassala", "SD", ""},
		{"Kassel", "DE", ""},
		{"Gao", "ML", ""},
		{"Delmas", "HT", ""},
		{"Nagorno-Karabakh", "AZ", ""},
		{"Israel", "IL", "PCLI"},
	} {
		p, _ := ix.Resolve(tt.name)
		if p == nil {
			t.Errorf("Resolve(%q) = nil, want a place in %s", tt.name, tt.country)
			continue
		}
		if p.Country != tt.country || (tt.code != "" && p.Code != tt.code) {
			t.Errorf("Resolve(%q) = %s %q %s in %s, want %s in %s", tt.name, p.ID, p.Name, p.Code, p.Country, tt.code, tt.country)
		}
		if p.Lat == 0 && p.Lon == 0 {
			t.Errorf("Resolve(%q) = %s has no coordinates", tt.name, p.ID)
		}
	}
}

// TestNotPlaces checks the precision guards: ordinary words, months,
// weekdays, directions, demonyms, two-letter names and names with a
// trailing admin word are no place names of the generated data.
func TestNotPlaces(t *testing.T) {
	ix := load(t)
	for _, name := range []string{
		"More", "Along", "Police", "Nothing", "Mission", "West", "North", "Eastern", "Central",
		"January", "Sept", "Dec", "Monday", "Sun", "Ta", "Sudanese", "Bangladeshi", "Ukrainian",
		"Congolese", "Israeli", "Sumy Region", "Mingin Township", "North Kivu province",
		"Kharkiv Oblast", "Masisi Territory",
	} {
		if ps := ix.Places(name); len(ps) > 0 {
			t.Errorf("Places(%q) = %s %q (%s, %s), want none", name, ps[0].ID, ps[0].Name, ps[0].Code, ps[0].Country)
		}
	}
}

// TestDivisions checks that second-level divisions are placed and are not
// first-level ones for Place.IsDivision.
func TestDivisions(t *testing.T) {
	d, err := gazetteer.Load()
	if err != nil {
		t.Fatal(err)
	}
	adm1, adm2 := 0, 0
	for i := range d.Places {
		p := &d.Places[i]
		switch p.Code {
		case "ADM1":
			adm1++
			if !p.IsDivision() {
				t.Errorf("%s is ADM1 but not IsDivision", p.ID)
			}
		case "ADM2":
			adm2++
			if p.IsDivision() || len(p.Admin) < 2 {
				t.Errorf("%s: ADM2 with IsDivision %v, admin %v", p.ID, p.IsDivision(), p.Admin)
			}
		}
		if p.Lat == 0 && p.Lon == 0 {
			t.Errorf("%s %q has no coordinates", p.ID, p.Name)
		}
	}
	if adm1 < 3500 || adm2 < 5000 {
		t.Errorf("%d first-level and %d second-level divisions, want 3,500 and 5,000 or more", adm1, adm2)
	}
	masisi := d.Index().Places("Masisi")
	if len(masisi) == 0 || masisi[0].ID != "place:adm2:CD.11.03" {
		t.Errorf("Places(Masisi) = %v, want the territory place:adm2:CD.11.03 first", masisi)
	}
}
