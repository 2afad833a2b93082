package gazetteer_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/capgraph/capgraph/extract/gazetteer"
)

// worldData loads the gazetteer for the tests of this file.
func worldData(t *testing.T) (*gazetteer.Data, *gazetteer.Index) {
	t.Helper()
	d, err := gazetteer.Load()
	if err != nil {
		t.Fatal(err)
	}
	return d, d.Index()
}

// groupID is the ID Index.Group gives name, "" for none.
func groupID(ix *gazetteer.Index, name string) string {
	if g := ix.Group(name); g != nil {
		return g.ID
	}
	return ""
}

// TestGroupsWorldMainActors checks that the main actors of every armed
// conflict active since 2010 resolve, in the forms wire captions write.
func TestGroupsWorldMainActors(t *testing.T) {
	_, ix := worldData(t)
	tests := []struct{ name, id string }{
		// Ukraine and Russia
		{"Ukrainian Armed Forces", "group:armed-forces-of-ukraine"},
		{"Ukrainian army", "group:armed-forces-of-ukraine"},
		{"National Guard of Ukraine", "group:ukrainian-national-guard"},
		{"Azov Brigade", "group:azov"},
		{"Azov Regiment", "group:azov"},
		{"3rd Assault Brigade", "group:third-assault-brigade"},
		{"Third Separate Assault Brigade", "group:third-assault-brigade"},
		{"Kraken unit", "group:kraken-unit"},
		{"72nd Mechanized Brigade", "group:brigade-72"},
		{"72nd Mechanized Brigade named after the Black Zaporozhians", "group:brigade-72"},
		{"Russian Volunteer Corps", "group:russian-volunteer-corps"},
		{"Freedom of Russia Legion", "group:freedom-of-russia-legion"},
		{"Wagner Group", "group:wagner-group"},
		{"Africa Corps", "group:africa-corps"},
		{"Akhmat", "group:chechen-forces"},
		{"Russian army", "group:russian-army"},
		{"DPR militia", "group:dpr"},
		{"LPR", "group:lpr"},
		{"North Korean army", "group:north-korean-army"},
		// Israel, Palestine, Lebanon
		{"Israel Defense Forces", "group:israel-defense-forces"},
		{"IDF", "group:israel-defense-forces"},
		{"Israeli army", "group:israel-defense-forces"},
		{"Israeli military", "group:israel-defense-forces"},
		{"Golani Brigade", "group:golani-brigade"},
		{"Givati Brigade", "group:givati-brigade"},
		{"Shin Bet", "group:shin-bet"},
		{"Hamas", "group:hamas"},
		{"Qassam Brigades", "group:qassam-brigades"},
		{"Izz al-Din al-Qassam Brigades", "group:qassam-brigades"},
		{"Palestinian Islamic Jihad", "group:islamic-jihad"},
		{"al-Quds Brigades", "group:al-quds-brigades"},
		{"Al-Aqsa Martyrs' Brigades", "group:al-aqsa-martyrs-brigades"},
		{"Lions' Den", "group:lions-den"},
		{"Jenin Brigade", "group:jenin-brigade"},
		{"Jenin Battalion", "group:jenin-brigade"},
		{"Hezbollah", "group:hezbollah"},
		{"Radwan Force", "group:radwan-force"},
		{"Lebanese Armed Forces", "group:lebanese-army"},
		{"United Nations Interim Force", "group:unifil"},
		{"UNIFIL", "group:unifil"},
		// Syria after 2024, Kurds, Iraq
		{"HTS", "group:hts"},
		{"Syrian army", "group:syrian-army"},
		{"SDF", "group:sdf"},
		{"Men of Dignity", "group:men-of-dignity"},
		{"Suwayda Military Council", "group:suwayda-military-council"},
		{"PKK", "group:pkk"},
		{"YPG", "group:ypg"},
		{"YPJ", "group:ypj"},
		{"Hashd al-Shaabi", "group:pmf"},
		{"al-Hashed al-Shaabi", "group:pmf"},
		{"Kataib Hezbollah", "group:kataib-hezbollah"},
		{"Harakat Hezbollah al-Nujaba", "group:nujaba"},
		{"Peshmerga", "group:peshmerga"},
		// Yemen
		{"Houthi", "group:houthis"},
		{"Huthi", "group:houthis"},
		{"Huthi movement", "group:houthis"},
		{"Houthi movement", "group:houthis"},
		{"Ansar Allah", "group:houthis"},
		{"Southern Transitional Council", "group:southern-transitional-council"},
		{"Giants Brigades", "group:giants-brigades"},
		// Sudan, South Sudan
		{"Sudanese Armed Forces", "group:sudan-army"},
		{"Sudanese army", "group:sudan-army"},
		{"Rapid Support Forces", "group:sudan-rsf"},
		{"RSF", "group:sudan-rsf"},
		{"SPLM-N", "group:splm-n"},
		{"SSPDF", "group:sspdf"},
		{"SPLA-IO", "group:splm-io"},
		{"UNMISS", "group:unmiss"},
		// Ethiopia
		{"ENDF", "group:endf"},
		{"Ethiopian army", "group:endf"},
		{"TPLF", "group:tplf"},
		{"Tigray People’s Liberation Front", "group:tplf"},
		{"Tigray Defence Forces", "group:tigray-defence-forces"},
		{"Fano", "group:fano"},
		{"Fano militia", "group:fano"},
		{"Oromo Liberation Army", "group:ola"},
		// Somalia, Kenya
		{"al-Shabaab", "group:al-shabaab"},
		{"Al-Shabab", "group:al-shabaab"},
		{"Somali National Army", "group:somali-national-army"},
		{"ATMIS", "group:al-shabaab-amisom"},
		{"AMISOM", "group:al-shabaab-amisom"},
		{"Kenya Defence Forces", "group:kenya-defence-forces"},
		// Mozambique
		{"Ansar al-Sunna", "group:ansar-al-sunna"},
		{"Rwanda Defence Forces", "group:rwanda-defence-force"},
		{"Rwanda Defence Forces (RDF)", "group:rwanda-defence-force"},
		{"SAMIM", "group:samim"},
		// Sahel, Lake Chad
		{"JNIM", "group:jnim"},
		{"Group for the Support of Islam and Muslims", "group:jnim"},
		{"Islamic State Sahel Province", "group:islamic-state-sahel"},
		{"ISGS", "group:islamic-state-sahel"},
		{"FAMa", "group:mali-army"},
		{"Malian army", "group:mali-army"},
		{"VDP", "group:vdp"},
		{"Nigerien army", "group:niger-army"},
		{"Boko Haram", "group:boko-haram"},
		{"ISWAP", "group:iswap"},
		{"Nigerian army", "group:nigerian-army"},
		{"MINUSMA", "group:minusma"},
		{"Ambazonia Defence Forces", "group:ambazonia-defence-forces"},
		// DR Congo, CAR
		{"FARDC", "group:fardc"},
		{"Congolese army", "group:fardc"},
		{"M23", "group:m23"},
		{"Congo River Alliance", "group:congo-river-alliance"},
		{"ADF", "group:adf"},
		{"CODECO", "group:codeco"},
		{"Codeco", "group:codeco"},
		{"Cooperative for the Development of Congo", "group:codeco"},
		{"Mai Mai militia", "group:mai-mai"},
		{"Mai-Mai", "group:mai-mai"},
		{"Wazalendo", "group:wazalendo"},
		{"MONUSCO", "group:monusco"},
		{"Monusco", "group:monusco"},
		{"United Nations Mission in DR Congo", "group:monusco"},
		{"FACA", "group:faca"},
		{"anti-Balaka", "group:anti-balaka"},
		{"MINUSCA", "group:minusca"},
		// Libya
		{"Libyan National Army", "group:libyan-national-army"},
		{"LNA", "group:libyan-national-army"},
		// Myanmar
		{"Tatmadaw", "group:tatmadaw"},
		{"Myanmar military", "group:tatmadaw"},
		{"PDF", "group:peoples-defence-force"},
		{"People's Defence Force", "group:peoples-defence-force"},
		{"Arakan Army", "group:arakan-army"},
		{"TNLA", "group:tnla"},
		{"Ta'ang National Liberation Army", "group:tnla"},
		{"MNDAA", "group:mndaa"},
		{"KIA", "group:kia"},
		{"KNLA", "group:knla"},
		{"KNU", "group:knu"},
		{"KNDF", "group:kndf"},
		{"Chin National Front", "group:chin-national-front"},
		{"Three Brotherhood Alliance", "group:three-brotherhood-alliance"},
		// Afghanistan, Pakistan, India, Philippines
		{"Taliban", "group:taliban"},
		{"Fateh Zwak unit", "group:fateh-zwak"},
		{"ISKP", "group:islamic-state-khorasan"},
		{"IS-Khorasan", "group:islamic-state-khorasan"},
		{"TTP", "group:pakistani-taliban"},
		{"Balochistan Liberation Army", "group:bla"},
		{"Pakistan Army", "group:pakistan-army"},
		{"Communist Party of India (Maoist)", "group:cpi-maoist"},
		{"Indian Army", "group:indian-army"},
		{"New People's Army", "group:npa"},
		{"NPA", "group:npa"},
		{"Abu Sayyaf", "group:abu-sayyaf"},
		// Haiti
		{"G9 et Famille", "group:g9"},
		{"G9 alliance", "group:g9"},
		{"Viv Ansanm", "group:viv-ansanm"},
		{"400 Mawozo", "group:400-mawozo"},
		{"Gran Grif", "group:gran-grif"},
		{"Haitian National Police", "group:haitian-national-police"},
		// Latin America
		{"FARC", "group:farc"},
		{"ELN", "group:eln"},
		{"Clan del Golfo", "group:clan-del-golfo"},
		{"Colombian army", "group:colombian-army"},
		{"Sinaloa cartel", "group:sinaloa-cartel"},
		{"Jalisco New Generation Cartel", "group:cjng"},
		{"CJNG", "group:cjng"},
		{"Gulf cartel", "group:gulf-cartel"},
		{"Tren de Aragua", "group:tren-de-aragua"},
		// Nagorno-Karabakh
		{"Azerbaijani army", "group:azerbaijani-army"},
		{"Armenian army", "group:armenian-army"},
		{"Artsakh Defence Army", "group:artsakh-defence-army"},
		// UN missions named as a force
		{"UNDOF", "group:undof"},
	}
	for _, tt := range tests {
		if got := groupID(ix, tt.name); got != tt.id {
			t.Errorf("Group(%q) = %q, want %q", tt.name, got, tt.id)
		}
	}
}

// TestGroupsWorldNearNames checks pairs of close names that must resolve to
// different groups, or to none.
func TestGroupsWorldNearNames(t *testing.T) {
	_, ix := worldData(t)
	tests := []struct {
		a, b     string
		idA, idB string // "" for no group
	}{
		// Islamic State and its provinces.
		{"Islamic State", "Islamic State Sahel Province", "group:islamic-state", "group:islamic-state-sahel"},
		{"Islamic State West Africa Province", "Islamic State Sahel Province", "group:iswap", "group:islamic-state-sahel"},
		{"ISWAP", "Boko Haram", "group:iswap", "group:boko-haram"},
		{"Islamic State Khorasan Province", "Islamic State", "group:islamic-state-khorasan", "group:islamic-state"},
		{"Islamic State Central Africa Province", "Allied Democratic Forces", "group:iscap", "group:adf"},
		{"Islamic State Mozambique Province", "Ansar al-Sunna", "group:islamic-state-mozambique", "group:ansar-al-sunna"},
		// A group and its armed wing; a possessive gives two entities, not a name.
		{"Hamas", "Qassam Brigades", "group:hamas", "group:qassam-brigades"},
		{"Hamas's Qassam Brigades", "Hamas’s Qassam Brigades", "", ""},
		{"Palestinian Islamic Jihad", "al-Quds Brigades", "group:islamic-jihad", "group:al-quds-brigades"},
		{"al-Quds Brigades", "Al-Quds Brigade", "group:al-quds-brigades", "group:liwa-al-quds"}, // PIJ vs the Syrian Liwa al-Quds
		{"Quds Force", "Quds Brigades", "group:quds-force", "group:al-quds-brigades"},
		{"Hezbollah", "Kataib Hezbollah", "group:hezbollah", "group:kataib-hezbollah"},
		{"Harakat Hezbollah al-Nujaba", "Kataib Hezbollah", "group:nujaba", "group:kataib-hezbollah"},
		// RSF is the Sudanese paramilitary; Reporters Without Borders is no armed group.
		{"RSF", "Reporters Without Borders", "group:sudan-rsf", ""},
		{"Rapid Support Forces", "Janjaweed", "group:sudan-rsf", "group:janjaweed"},
		// Two al-Shabaabs are one name; Mozambique's insurgents have their own.
		{"al-Shabaab", "Ansar al-Sunna", "group:al-shabaab", "group:ansar-al-sunna"},
		{"Ansar al-Sunna", "Ansar al-Islam", "group:ansar-al-sunna", "group:ansar-al-islam"},
		{"Ansarul Islam", "Ansar al-Islam", "group:ansarul-islam", "group:ansar-al-islam"},
		{"Ansar Dine", "Ansar Allah", "group:ansar-dine", "group:houthis"},
		// SNA is both the Syrian and the Somali National Army: full names only.
		{"SNA", "Syrian National Army", "", "group:syrian-national-army"},
		{"Somali National Army", "Syrian National Army", "group:somali-national-army", "group:syrian-national-army"},
		// AA is Anadolu Agency; the Arakan Army goes by its name.
		{"AA", "Arakan Army", "", "group:arakan-army"},
		{"AFP", "Armed Forces of the Philippines", "", "group:philippine-army"},
		// Myanmar's People's Defence Force vs the PKK's People's Defence Forces (HPG).
		{"PDF", "HPG", "group:peoples-defence-force", "group:pkk-hpg"},
		// Nigeria and Niger.
		{"Nigerian army", "Nigerien army", "group:nigerian-army", "group:niger-army"},
		// Azov is a sea and a town; only the unit names are groups.
		{"Azov", "Azov Regiment", "", "group:azov"},
		{"Kraken", "Kraken unit", "", "group:kraken-unit"},
		// Brigades and their army; the 3rd Assault Brigade is not Azov.
		{"3rd Assault Brigade", "Azov Brigade", "group:third-assault-brigade", "group:azov"},
		{"Russian Volunteer Corps", "Freedom of Russia Legion", "group:russian-volunteer-corps", "group:freedom-of-russia-legion"},
		{"Wagner Group", "Africa Corps", "group:wagner-group", "group:africa-corps"},
		// The TPLF and its army; the Tigray forces are generic.
		{"TPLF", "TDF", "group:tplf", "group:tigray-defence-forces"},
		{"Tigrayan forces", "Tigray Defence Forces", "", "group:tigray-defence-forces"},
		// Clan del Golfo (Colombia) vs the Gulf cartel (Mexico).
		{"Clan del Golfo", "Cartel del Golfo", "group:clan-del-golfo", "group:gulf-cartel"},
		{"Gulf Clan", "Gulf cartel", "group:clan-del-golfo", "group:gulf-cartel"},
		{"Sinaloa cartel", "Jalisco cartel", "group:sinaloa-cartel", "group:cjng"},
		// Haiti's gang alliances.
		{"G9 alliance", "Viv Ansanm", "group:g9", "group:viv-ansanm"},
		{"G9", "G-Pep", "group:g9", "group:g-pep"},
		// UN missions.
		{"MONUSCO", "MINUSCA", "group:monusco", "group:minusca"},
		{"UNIFIL", "UNDOF", "group:unifil", "group:undof"},
		{"United Nations", "UN peacekeepers", "", ""},
		// Demonym + army/military is a group; + forces/troops/soldiers is generic.
		{"Israeli army", "Israeli troops", "group:israel-defense-forces", ""},
		{"Russian army", "Russian forces", "group:russian-army", ""},
		{"Sudanese army", "Sudanese soldiers", "group:sudan-army", ""},
		{"Congolese army", "Congolese forces", "group:fardc", ""},
		{"Malian army", "Malian soldiers", "group:mali-army", ""},
		{"Ukrainian Armed Forces", "Ukrainian forces", "group:armed-forces-of-ukraine", ""},
		// A country's possessive or a country name before "military" is the country.
		{"Azerbaijan's military", "United States military", "", ""},
		// A self-proclaimed polity is a place; the Taliban's emirate too.
		{"Donetsk People's Republic", "Islamic Emirate of Afghanistan", "", ""},
		// The short form of a group named "<name> group" is the name.
		{"Houthi group", "Houthi", "", "group:houthis"},
		{"FARC", "Revolutionary Armed Forces", "group:farc", "group:farc"},
	}
	for _, tt := range tests {
		if got := groupID(ix, tt.a); got != tt.idA {
			t.Errorf("Group(%q) = %q, want %q", tt.a, got, tt.idA)
		}
		if got := groupID(ix, tt.b); got != tt.idB {
			t.Errorf("Group(%q) = %q, want %q", tt.b, got, tt.idB)
		}
		if tt.idA != "" && tt.idA == tt.idB && tt.a != "FARC" {
			t.Errorf("%q and %q should name different groups", tt.a, tt.b)
		}
	}
}

// TestGroupsWorldUniqueNames keeps every name and alias of the group table
// on one group: two groups that share a name under Fold, or under Key for
// names that are not acronyms, make Index.Group answer by table order.
func TestGroupsWorldUniqueNames(t *testing.T) {
	d, _ := worldData(t)
	// Spellings whose transliteration keys meet by accident; Fold keeps them apart.
	keyOK := map[string]bool{"Nigerian|Nigerien": true}
	byFold := map[string]string{}
	byKey := map[string]string{}
	keyName := map[string]string{}
	for _, g := range d.Groups {
		for _, n := range append([]string{g.Name}, g.Aliases...) {
			f := gazetteer.Fold(n)
			if o, ok := byFold[f]; ok && o != g.ID {
				t.Errorf("%q names both %s and %s", n, o, g.ID)
			}
			byFold[f] = g.ID
			if gazetteer.CaseSensitive(n) {
				continue
			}
			k := gazetteer.Key(n)
			if len(k) < 4 {
				continue
			}
			if o, ok := byKey[k]; ok && o != g.ID {
				pair := keyName[k] + "|" + n
				if !keyOK[firstWords(pair)] {
					t.Errorf("%q (%s) and %q (%s) share the key %q", keyName[k], o, n, g.ID, k)
				}
			}
			byKey[k], keyName[k] = g.ID, n
		}
	}
}

// firstWords reduces "Nigerien army|Nigerian army" to "Nigerian|Nigerien"
// (sorted first words), the form of keyOK.
func firstWords(pair string) string {
	a, b, _ := strings.Cut(pair, "|")
	ws := []string{strings.Fields(a)[0], strings.Fields(b)[0]}
	slices.Sort(ws)
	return ws[0] + "|" + ws[1]
}

// TestGroupsWorldTable checks the shape of the table: known types and
// parents, country codes, no generic descriptions, no aliases that are
// agencies or organisations of the lexicon, and no possessive forms.
func TestGroupsWorldTable(t *testing.T) {
	d, ix := worldData(t)
	generic := []string{"russian forces", "israeli troops", "israeli forces", "ukrainian forces",
		"gunmen", "jihadists", "security forces", "government troops", "tigrayan forces",
		"armed men", "bandits", "gangs", "paramilitaries", "peacekeepers", "un peacekeepers",
		"bedouin tribes", "bedouin fighters", "druze fighters", "druze militias", "maoists",
		"separatists", "cartel", "militia", "gang"}
	types := map[string]int{}
	for _, g := range d.Groups {
		types[g.Type]++
		if !slices.Contains(gazetteer.GroupTypes, g.Type) {
			t.Errorf("%s: unknown type %q", g.ID, g.Type)
		}
		if g.Parent != "" && ix.GroupByID(g.Parent) == nil {
			t.Errorf("%s: unknown parent %s", g.ID, g.Parent)
		}
		if g.Country != "" && (len(g.Country) != 2 || strings.ToUpper(g.Country) != g.Country) {
			t.Errorf("%s: country %q is not an ISO alpha-2 code", g.ID, g.Country)
		}
		for _, n := range append([]string{g.Name}, g.Aliases...) {
			f := gazetteer.Fold(n)
			if slices.Contains(generic, f) {
				t.Errorf("%s has the generic name %q", g.ID, n)
			}
			if tm := ix.Term(n); tm != nil && (tm.Type == "AGENCY" || tm.Type == "ORGANIZATION") && gazetteer.Fold(tm.Name) == f {
				t.Errorf("%s: %q is also the %s %s", g.ID, n, strings.ToLower(tm.Type), tm.ID)
			}
			for _, c := range []string{"Ukraine", "Russia", "Israel", "Iran", "Syria", "Turkey", "Sudan",
				"Lebanon", "Yemen", "Pakistan", "Azerbaijan", "Myanmar", "Hezbollah", "Hamas"} {
				if strings.HasPrefix(n, c+"'s ") || strings.HasPrefix(n, c+"’s ") {
					t.Errorf("%s: possessive alias %q (the country or group is a separate entity)", g.ID, n)
				}
			}
		}
	}
	for _, typ := range []string{"peacekeepers", "gang", "cartel"} {
		if types[typ] == 0 {
			t.Errorf("no group of type %q", typ)
		}
	}
	if len(d.Groups) < 500 {
		t.Errorf("%d groups, want 500 or more for world coverage", len(d.Groups))
	}
}
