package gazetteer_test

import (
	"testing"

	"github.com/capgraph/capgraph/extract/gazetteer"
)

// TestLexiconWorld checks that representative agencies, organisations and
// events of the 2019-2025 conflicts and crises beyond Syria resolve through
// Index.Term to the right term and type, region by region.
func TestLexiconWorld(t *testing.T) {
	ix := load(t)
	const (
		ag  = "AGENCY"
		org = "ORGANIZATION"
		ev  = "EVENT"
	)
	tests := []struct {
		region, name, id, typ string
	}{
		// Wire and photo agencies and their credit spellings.
		{"wire", "Anadolu Images", "agency:anadolu", ag},
		{"wire", "Anadolu", "agency:anadolu", ag},
		{"wire", "ASSOCIATED PRESS", "agency:ap", ag},
		{"wire", "AFPTV", "agency:afp", ag},
		{"wire", "picture alliance", "agency:dpa", ag},
		{"wire", "SIPA PRESS", "agency:sipa", ag},
		{"wire", "Sipa USA", "agency:sipa", ag},
		{"wire", "ZUMA Press Wire", "agency:zuma", ag},
		{"wire", "SOPA Images", "agency:sopa", ag},
		{"wire", "Middle East Images", "agency:middle-east-images", ag},
		{"wire", "KCNA", "agency:kcna", ag},
		{"wire", "Bloomberg", "agency:bloomberg", ag},
		{"wire", "Shutterstock", "agency:shutterstock", ag},
		{"wire", "Alamy", "agency:alamy", ag},
		{"wire", "Redux", "agency:redux", ag},
		// Ukraine/Russia.
		{"ukraine", "Scanpix", "agency:scanpix", ag},
		{"ukraine", "LETA", "agency:leta", ag},
		{"ukraine", "Interfax-Ukraine", "agency:interfax", ag},
		{"ukraine", "Ukrinform", "agency:ukrinform", ag},
		{"ukraine", "Gwara Media", "agency:gwara-media", ag},
		{"ukraine", "Suspilne", "agency:suspilne", ag},
		{"ukraine", "Ukrainian State Emergency Service", "org:ukraine-state-emergency-service", org},
		{"ukraine", "State Emergency Service of Ukraine", "org:ukraine-state-emergency-service", org},
		{"ukraine", "STATE EMERGENCY SERVICE", "org:ukraine-state-emergency-service", org},
		{"ukraine", "Kharkiv military administration", "org:kharkiv-regional-administration", org},
		{"ukraine", "Odesa Regional State Administration", "org:odesa-regional-administration", org},
		{"ukraine", "Zaporizhzhia Regional Military Administration", "org:zaporizhzhia-regional-administration", org},
		{"ukraine", "Russian Defence Ministry Press-Service", "org:russian-mod-press-service", org},
		{"ukraine", "Russian defense ministry", "org:russian-defence-ministry", org},
		{"ukraine", "Nova Poshta", "org:nova-poshta", org},
		{"ukraine", "Energoatom", "org:energoatom", org},
		{"ukraine", "Ukrenergo", "org:ukrenergo", org},
		{"ukraine", "Operation Spiderweb", "event:operation-spiderweb", ev},
		{"ukraine", "Victory Day", "event:victory-day", ev},
		// Gaza/Israel/West Bank.
		{"gaza", "WAFA", "agency:wafa", ag},
		{"gaza", "APA Images", "agency:apa-images", ag},
		{"gaza", "Palestinian Health Ministry", "org:palestinian-health-ministry", org},
		{"gaza", "Palestinian Ministry of Health", "org:palestinian-health-ministry", org},
		{"gaza", "Gaza Health Ministry", "org:palestinian-health-ministry", org},
		{"gaza", "Palestinian Civil Defence", "org:palestinian-civil-defence", org},
		{"gaza", "Palestine Red Crescent Society", "org:palestinian-red-crescent", org},
		{"gaza", "UNRWA", "org:unrwa", org},
		{"gaza", "World Central Kitchen", "org:world-central-kitchen", org},
		{"gaza", "Israeli Defense Ministry", "org:israel-defence-ministry", org},
		{"gaza", "Operation Al-Aqsa Flood", "event:operation-al-aqsa-flood", ev},
		{"gaza", "Operation Iron Swords", "event:operation-swords-of-iron", ev},
		{"gaza", "Operation Swords of Iron", "event:operation-swords-of-iron", ev},
		{"gaza", "Nakba Day", "event:nakba", ev},
		{"gaza", "Hanukkah", "event:hanukkah", ev},
		// Lebanon and Iran.
		{"lebanon", "Lebanese Civil Defense", "org:lebanese-civil-defense", org},
		{"lebanon", "Al Mayadeen TV", "agency:al-mayadeen", ag},
		{"lebanon", "Operation Northern Arrows", "event:operation-northern-arrows", ev},
		{"iran", "Tasnim", "agency:tasnim", ag},
		{"iran", "IRNA", "agency:irna", ag},
		{"iran", "Operation Rising Lion", "event:operation-rising-lion", ev},
		// Syria after 2024.
		{"syria", "Syrian Interior Ministry", "org:syria-interior-ministry", org},
		{"syria", "Operation Deterrence of Aggression", "event:operation-deterrence-of-aggression", ev},
		// Sudan.
		{"sudan", "Sudanese Red Crescent", "org:sudanese-red-crescent", org},
		{"sudan", "International Organization for Migration", "org:iom", org},
		{"sudan", "International Organisation for Migration", "org:iom", org},
		{"sudan", "IOM", "org:iom", org},
		{"sudan", "Sudan Tribune", "agency:sudan-tribune", ag},
		{"sudan", "WFP", "org:wfp", org},
		// Yemen/Red Sea.
		{"yemen", "UKMTO", "org:ukmto", org},
		{"yemen", "Operation Prosperity Guardian", "event:operation-prosperity-guardian", ev},
		// Myanmar.
		{"myanmar", "Frontier Myanmar", "agency:frontier-myanmar", ag},
		{"myanmar", "Frontier", "agency:frontier-myanmar", ag},
		{"myanmar", "Mizzima", "agency:mizzima", ag},
		{"myanmar", "National Unity Government", "org:nug", org},
		{"myanmar", "Ta'ang National Revolution Day", "event:taang-national-revolution-day", ev},
		// Sahel.
		{"sahel", "ECOWAS", "org:ecowas", org},
		{"sahel", "Alliance of Sahel States", "org:aes", org},
		{"sahel", "Malian Ministry of Defence", "org:mali-defence-ministry", org},
		{"sahel", "Africa Cup of Nations", "event:africa-cup-of-nations", ev},
		// DR Congo.
		{"drc", "Radio Okapi", "agency:radio-okapi", ag},
		{"drc", "SADC", "org:sadc", org},
		// Haiti.
		{"haiti", "Le Nouvelliste", "agency:le-nouvelliste", ag},
		{"haiti", "Transitional Presidential Council", "org:haiti-transitional-council", org},
		// Ethiopia/Somalia/Mozambique.
		{"horn", "Addis Standard", "agency:addis-standard", ag},
		{"horn", "Hiiraan Online", "agency:hiiraan", ag},
		{"horn", "IGAD", "org:igad", org},
		{"horn", "African Union", "org:african-union", org},
		// Iraq/Afghanistan/Pakistan.
		{"iraq", "Hashd al-Shaabi Media", "agency:hashd-media", ag},
		{"afghanistan", "TOLOnews", "agency:tolo-news", ag},
		{"pakistan", "ISPR", "org:ispr", org},
		{"pakistan", "Edhi Foundation", "org:edhi-foundation", org},
		// Colombia/Mexico.
		{"mexico", "Cuartoscuro", "agency:cuartoscuro", ag},
		{"colombia", "Special Jurisdiction for Peace", "org:jep", org},
		// Nagorno-Karabakh.
		{"karabakh", "Azerbaijani Defence Ministry", "org:azerbaijan-defence-ministry", org},
		{"karabakh", "Second Karabakh War", "event:second-karabakh-war", ev},
		// UN bodies, courts, NGOs, regional bodies, world events.
		{"un", "UN", "org:un", org},
		{"un", "UN Security Council", "org:un-security-council", org},
		{"un", "OCHA", "org:ocha", org},
		{"un", "UNDP", "org:undp", org},
		{"un", "IAEA", "org:iaea", org},
		{"un", "International Court of Justice", "org:icj", org},
		{"un", "ICC", "org:icc", org},
		{"ngo", "Doctors Without Borders", "org:msf", org},
		{"ngo", "Norwegian Refugee Council", "org:nrc", org},
		{"ngo", "Reporters Without Borders", "org:reporters-without-borders", org},
		{"ngo", "Committee to Protect Journalists", "org:cpj", org},
		{"ngo", "IFRC", "org:ifrc", org},
		{"world", "OSCE", "org:osce", org},
		{"world", "Eid al-Fitr", "event:eid-al-fitr", ev},
		{"world", "International Women's Day", "event:international-womens-day", ev},
		{"world", "World Refugee Day", "event:world-refugee-day", ev},
		{"world", "G20 summit", "event:g20-summit", ev},
		{"world", "COP29", "event:cop", ev},
		{"world", "Munich Security Conference", "event:munich-security-conference", ev},
	}
	for _, tt := range tests {
		x := ix.Term(tt.name)
		switch {
		case x == nil:
			t.Errorf("%s: Term(%q) = nil, want %s %s", tt.region, tt.name, tt.typ, tt.id)
		case x.ID != tt.id || x.Type != tt.typ:
			t.Errorf("%s: Term(%q) = %s %s, want %s %s", tt.region, tt.name, x.Type, x.ID, tt.typ, tt.id)
		}
	}
}

// TestLexiconWorldLeftOut checks that abbreviations and names the lexicon
// leaves out on purpose stay unresolved or keep their other meaning: RSF is
// the Rapid Support Forces in Sudan captions, not Reporters Without Borders;
// DRC is the country, not the Danish Refugee Council; PTI is a Pakistani
// party and an Indian agency; Duma, Rada, Hiiraan, Irrawaddy and
// al-Mayadeen are places or armed groups as well as media or parliaments.
func TestLexiconWorldLeftOut(t *testing.T) {
	ix := load(t)
	for _, name := range []string{
		"RSF", "DRC", "PTI", "MAP", "Duma", "Rada", "Hiiraan", "Irrawaddy",
		"Al-Mayadeen", "al-Mayadeen", "Bakhtar", "Fana", "Myanmar now",
		"National Police", "Independence", "The National", "Memorial", "Dawn",
		"rsf", "iom", "un",
	} {
		if x := ix.Term(name); x != nil {
			t.Errorf("Term(%q) = %s %s, want nil", name, x.Type, x.ID)
		}
	}
	// RSF stays the Sudanese paramilitary group.
	if g := ix.Group("RSF"); g == nil || g.Name != "Rapid Support Forces" {
		t.Errorf("Group(RSF) = %v, want the Rapid Support Forces", g)
	}
	// Peacekeeping forces are armed groups, not lexicon terms.
	for _, name := range []string{"UNIFIL", "MONUSCO", "MINUSMA"} {
		if x := ix.Term(name); x != nil {
			t.Errorf("Term(%q) = %s %s, want nil: a UN force is an armed group", name, x.Type, x.ID)
		}
	}
}

// TestLexiconAcronyms checks that every all-capital name of 2 to 5 letters in
// the lexicon is matched case-sensitively, so that words spelled alike ("who",
// "Un", "Care") do not resolve.
func TestLexiconAcronyms(t *testing.T) {
	ix := load(t)
	for _, name := range []string{"Who", "who", "Care", "Sac", "Aes", "Ena", "Ani", "App", "Mei"} {
		if x := ix.Term(name); x != nil {
			t.Errorf("Term(%q) = %s %s, want nil", name, x.Type, x.ID)
		}
	}
	d, err := gazetteer.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tm := range d.Terms {
		for _, n := range append([]string{tm.Name}, tm.Variants...) {
			if gazetteer.CaseSensitive(n) && ix.Term(n) == nil {
				t.Errorf("%s: acronym %q does not resolve", tm.ID, n)
			}
		}
	}
}
