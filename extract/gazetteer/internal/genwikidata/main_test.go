package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestCuratedItems: an entry is linked when its names point at one item,
// and not when they point at several, at none, only by an acronym, at an
// item without a description, or at a rejected one.
func TestCuratedItems(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	labels := write("wikidata.json", `{"wikidata": {
		"Q1": {"label": "United Nations", "description": "intergovernmental organization"},
		"Q2": {"label": "Médecins Sans Frontières", "description": "humanitarian organisation"},
		"Q3": {"label": "AU", "description": "Japanese telephone company"},
		"Q4": {"label": "Guardian", "description": "pharmacy chain"},
		"Q5": {"label": "Guardian", "description": "retail chain"},
		"Q6": {"label": "Badr", "description": "Algerian bank"},
		"Q7": {"label": "Sputnik"},
		"Q8": {"label": "United States Army", "description": "land service branch"},
		"Q9": {"label": "Gazprom", "description": "Russian gas company"},
		"Q10": {"label": "Gazprom Neft", "description": "Russian fuel company"}
	}}`)
	rejects := write("rejects.tsv", "# id\twikidata\twhy\ngroup:badr\tQ6\ta bank\n")
	groups := write("groups.tsv", "# slug name type parent country aliases\n"+
		"us-army\tUS Army\tstate forces\t\tUS\tUnited States Army|U.S. Army\n"+
		"badr\tBadr Organization\tmilitia\t\tIQ\tBadr\n")
	lexicon := write("lexicon.tsv", "# type slug name variants\n"+
		"ORGANIZATION\tun\tUnited Nations\tUN\n"+
		"ORGANIZATION\tmsf\tDoctors Without Borders\tMedecins Sans Frontieres|MSF\n"+
		"ORGANIZATION\tau\tAfrican Union\tAU\n"+
		"ORGANIZATION\tgazprom\tGazprom\tGazprom Neft\n"+
		"AGENCY\tguardian\tThe Guardian\tGuardian\n"+
		"AGENCY\tsputnik\tSputnik\t\n")
	items, err := readLabels(labels)
	if err != nil {
		t.Fatal(err)
	}
	rejected, err := readRejects(rejects)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := curatedItems(items, rejected, groups, lexicon)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.id+"="+r.item)
	}
	want := []string{"group:us-army=Q8", "org:un=Q1", "org:msf=Q2", "org:gazprom=Q9"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestSameDivision: two tables name a division alike when its names agree
// but for the words that say what kind of division it is.
func TestSameDivision(t *testing.T) {
	for _, tt := range []struct {
		ours []string
		name string
		want bool
	}{
		{[]string{"Idlib"}, "Idlib Governorate", true},
		{[]string{"Odesa"}, "Odessa Oblast", true},
		{[]string{"Crimea"}, "Autonomous Republic of Crimea", true},
		{[]string{"Saint Gallen", "St. Gallen"}, "Canton of St. Gallen", true},
		{[]string{"Southern Governorate"}, "Northern Governorate", false},
		{[]string{"Sevastopol City"}, "Sevastopol", true},
		{[]string{"Kyiv"}, "Kiev", false},         // spellings Key does not join
		{[]string{"Province"}, "Province", false}, // nothing left to compare
	} {
		if got := sameDivision(tt.ours, tt.name); got != tt.want {
			t.Errorf("sameDivision(%q, %q) = %v, want %v", tt.ours, tt.name, got, tt.want)
		}
	}
}
