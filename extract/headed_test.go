package extract_test

import (
	"testing"

	"github.com/capgraph/capgraph/extract"
)

// TestHeadedNames: names no table holds, told by their head word, on
// captions written for this test.
func TestHeadedNames(t *testing.T) {
	checkNames(t, []nameCase{
		{text: "Protesters march on Rustaveli Avenue in Tbilisi, Georgia, May 1, 2024. REUTERS/Jane Doe",
			want: []extract.Entity{{Text: "Rustaveli Avenue", Type: extract.Place}}},
		{text: "Officials of the Election Commission of India count ballots in Lucknow, India, June 4, 2024.",
			want: []extract.Entity{{Text: "Election Commission of India", Type: extract.Organization}}},
		{text: "Members of the Search and Rescue Association search the rubble in Antakya, February 9, 2023.",
			want: []extract.Entity{{Text: "Search and Rescue Association", Type: extract.Organization}}},
		{text: "Soldiers of the 41st Mechanised Brigade fire a howitzer near Kupiansk, Ukraine, March 2, 2024.",
			want: []extract.Entity{{Text: "41st Mechanised Brigade", Type: extract.ArmedGroup}}},
		{text: "Runners cross a bridge during the 48th Berlin Marathon in Berlin, Germany, September 24, 2023.",
			want: []extract.Entity{{Text: "48th Berlin Marathon", Type: extract.Event}}},
		{text: "Marines land on a beach during Operation Sea Breeze near Odesa, Ukraine, July 1, 2021.",
			want: []extract.Entity{{Text: "Operation Sea Breeze", Type: extract.Event}}},
		{text: "Mothers gather in plaza de Mayo in Buenos Aires, Argentina, March 24, 2025.",
			want: []extract.Entity{{Text: "plaza de Mayo", Type: extract.Place}}},
		{text: "The ceremony took place at Camille Chamoun Sports City Stadium in Beirut, Lebanon, February 23, 2025.",
			want: []extract.Entity{{Text: "Camille Chamoun Sports City Stadium", Type: extract.Place}},
			not:  []extract.Entity{{Text: "place at Camille Chamoun Sports City Stadium", Type: extract.Place}}},
		{text: "Travellers wait at the Abbey Gate of Hamid Karzai International Airport in Kabul, Afghanistan, August 26, 2021.",
			want: []extract.Entity{{Text: "Hamid Karzai International Airport", Type: extract.Place}}},
		{text: "Crews of Southern California Edison Co. repair lines in Malibu, California, January 9, 2025.",
			want: []extract.Entity{{Text: "Southern California Edison Co.", Type: extract.Organization}}},
		{text: "Residents wade through a flooded street after Typhoon Haiyan hit Tacloban, Philippines, November 10, 2013.",
			want: []extract.Entity{{Text: "Typhoon Haiyan", Type: extract.Event}}},
		{text: "Former South Korean President Roh Moo-hyun speaks in Seoul, South Korea, May 3, 2007.",
			want: []extract.Entity{{Text: "Roh Moo-hyun", Type: extract.Person}}},
		{text: "Italian Prime Minister Jane ROSSI and Ursula VON DER LEYEN talk in Brussels, Belgium, June 27, 2024.",
			want: []extract.Entity{{Text: "Jane ROSSI", Type: extract.Person}, {Text: "Ursula VON DER LEYEN", Type: extract.Person}},
			not:  []extract.Entity{{Text: "VON", Type: extract.Place}, {Text: "Italian Prime Minister Jane ROSSI", Type: extract.Person}}},
		{text: "Sheikh Tamim bin Hamad Al Thani arrives in Doha, Qatar, May 1, 2023.",
			want: []extract.Entity{{Text: "Tamim bin Hamad Al Thani", Type: extract.Person}}},
		{text: "Runners pass during “I Love Tartus” marathon at the Corniche in Tartus, Syria, May 5, 2018.",
			want: []extract.Entity{{Text: "I Love Tartus", Type: extract.Event}}},
		{text: "Fans cheer before the FIFA World Cup Qatar 2022 final in Lusail, Qatar, December 18, 2022.",
			want: []extract.Entity{{Text: "FIFA World Cup Qatar 2022", Type: extract.Event}}},
		{text: "Delegates arrive at the Walter E. Washington Convention Center in Washington, May 3, 2024.",
			want: []extract.Entity{{Text: "Walter E. Washington Convention Center", Type: extract.Place}}},
		{text: "Supporters of the National Regeneration Movement (Morena) rally in Mexico City, June 2, 2024.",
			not: []extract.Entity{{Text: "Morena", Type: extract.Place}}},
		{text: "Marines board a ship off Okinawa, Japan, May 3, 2024. U.S. Marine Corps/Handout via REUTERS",
			want: []extract.Entity{{Text: "U.S. Marine Corps", Type: extract.ArmedGroup}},
			not:  []extract.Entity{{Text: "U.S. Marine Corps", Type: extract.Photographer}}},
		{text: "Supporters gather at the People's Palace in Damascus, Syria, May 3, 2025.",
			want: []extract.Entity{{Text: "People's Palace", Type: extract.Place}}},
		{text: "Fans watch a match at the Stade de l'Unite in Goma, Congo, May 3, 2024.",
			want: []extract.Entity{{Text: "Stade de l'Unite", Type: extract.Place}}},
		{text: "Displaced people queue for water in Tawila, North Darfur, Sudan, May 3, 2024.",
			want: []extract.Entity{{Text: "North Darfur", Type: extract.Place}},
			not:  []extract.Entity{{Text: "Darfur", Type: extract.Place}}},
		{text: "The General Elections Commission (KPU) counts ballots in Jakarta, Indonesia, February 15, 2024.",
			want: []extract.Entity{{Text: "General Elections Commission (KPU)", Type: extract.Organization}},
			not:  []extract.Entity{{Text: "Elections Commission", Type: extract.Person}}},
		{text: "The Open Championship is played at Royal Troon, Scotland, July 18, 2024.",
			not: []extract.Entity{{Text: "The Open Championship", Type: extract.Event}}},
		{text: "Victims are taken to Civil Hospital Quetta, Pakistan, November 9, 2024.",
			want: []extract.Entity{{Text: "Civil Hospital Quetta", Type: extract.Place}}},
		{text: "Officials of the Islamic Emirate of Afghanistan meet in Kabul, August 15, 2022.",
			want: []extract.Entity{{Text: "Islamic Emirate of Afghanistan", Type: extract.Place}},
			not:  []extract.Entity{{Text: "Islamic Emirate", Type: extract.Person}}},
		{text: "Soldiers of the 72nd Mechanized Brigade named after the Black Zaporozhians fire near Vuhledar, Ukraine, May 3, 2023.",
			want: []extract.Entity{{Text: "72nd Mechanized Brigade named after the Black Zaporozhians", Type: extract.ArmedGroup}}},
		{text: "Mothers march during the National Day of Remembrance for Truth and Justice in Buenos Aires, Argentina, March 24, 2025.",
			want: []extract.Entity{{Text: "National Day of Remembrance for Truth and Justice", Type: extract.Event}}},
		{text: "Volunteers of the Philippine Red Cross and the Kenya Red Cross help survivors in Tacloban, Philippines, November 11, 2013.",
			want: []extract.Entity{{Text: "Philippine Red Cross", Type: extract.Organization}, {Text: "Kenya Red Cross", Type: extract.Organization}},
			not:  []extract.Entity{{Text: "Kenya", Type: extract.Place}}},
		{text: "Smoke rises over burnt buildings in Mingin Township, Sagaing Division, Myanmar. Photo: AFP",
			not: []extract.Entity{{Text: "Sagaing Division", Type: extract.ArmedGroup}}},
	})
}

// TestPersonCues: people named without a title before them, by the
// grammar around the name.
func TestPersonCues(t *testing.T) {
	checkNames(t, []nameCase{
		{text: "Rescuers pull nine-year-old Jane Maria Doe from the rubble in Antakya, Turkey, February 9, 2023.",
			want: []extract.Entity{{Text: "Jane Maria Doe", Type: extract.Person}}},
		{text: "Soldiers guard a street in Culiacan, Mexico, January 5, 2023, after the arrest of John Roe Lopez.",
			want: []extract.Entity{{Text: "John Roe Lopez", Type: extract.Person}}},
		{text: "Club forward Janinho reacts after the final in Lisbon, Portugal, August 23, 2020.",
			want: []extract.Entity{{Text: "Janinho", Type: extract.Person}}},
		{text: "Jane Doe, presidential candidate of the ruling party, greets supporters in Mexico City, June 3, 2024.",
			want: []extract.Entity{{Text: "Jane Doe", Type: extract.Person}}},
		{text: "Vice President-elect Jane Roe greets supporters in Wilmington, Delaware, November 7, 2020.",
			want: []extract.Entity{{Text: "Jane Roe", Type: extract.Person}}},
		{text: "The leader, known by his nom de guerre Abu Mohammed al-Jolani, speaks in Idlib, Syria, May 3, 2019.",
			want: []extract.Entity{{Text: "Abu Mohammed al-Jolani", Type: extract.Person}},
			not:  []extract.Entity{{Text: "al-Jolani", Type: extract.Person}}},
	})
}

// TestApostropheNames: a place whose name has an apostrophe inside is
// one name.
func TestApostropheNames(t *testing.T) {
	checkNames(t, []nameCase{
		{text: "Refugees walk in Ukhia, Cox's Bazar, Bangladesh, September 5, 2017.",
			want: []extract.Entity{{Text: "Cox's Bazar", Type: extract.Place}}},
		{text: "Fighters patrol in Ta'izz, Yemen, May 2, 2016.",
			want: []extract.Entity{{Text: "Ta'izz", Type: extract.Place}}},
		{text: "Supporters rally in Abidjan, Côte d'Ivoire, October 31, 2020.",
			want: []extract.Entity{{Text: "Côte d'Ivoire", Type: extract.Place}}},
		{text: "A man walks in Ma'arrat al-Nu'man, Idlib, Syria, May 3, 2019.",
			want: []extract.Entity{{Text: "Ma'arrat al-Nu'man", Type: extract.Place}}},
	})
}

type nameCase struct {
	text string
	want []extract.Entity // by Text and Type: present
	not  []extract.Entity // absent
}

func checkNames(t *testing.T, cases []nameCase) {
	t.Helper()
	x := newExtractor(t)
	for _, tt := range cases {
		got := map[string]bool{}
		for _, e := range x.Extract(extract.Caption{ID: "t", Text: tt.text}).Entities {
			got[string(e.Type)+" "+e.Text] = true
		}
		for _, e := range tt.want {
			if !got[string(e.Type)+" "+e.Text] {
				t.Errorf("%q: no %s %q; got %v", tt.text, e.Type, e.Text, got)
			}
		}
		for _, e := range tt.not {
			if got[string(e.Type)+" "+e.Text] {
				t.Errorf("%q: %s %q", tt.text, e.Type, e.Text)
			}
		}
	}
}

// TestCountryOverCity: a country's name is the country, though a city
// also goes by it in the gazetteer ("Mexico" for Mexico City).
func TestCountryOverCity(t *testing.T) {
	x := newExtractor(t)
	got := x.Extract(extract.Caption{ID: "t", Text: "A man walks in Mexico City, Mexico, June 3, 2025."})
	ids := map[string]string{}
	for _, e := range got.Entities {
		ids[e.Text] = e.ID
	}
	if ids["Mexico"] != "place:geonames:3996063" || ids["Mexico City"] != "place:geonames:3530597" {
		t.Errorf("Mexico is %s, Mexico City %s", ids["Mexico"], ids["Mexico City"])
	}
}

// TestPlaceInItsContainer: the country or state after a town decides
// which town of that name it is, and the town which state.
func TestPlaceInItsContainer(t *testing.T) {
	x := newExtractor(t)
	for _, tt := range []struct {
		text string
		town string // the town's ID, "" when the test is of the container
		in   string // the container's ID, "" when the test is of the town
	}{
		{"A man walks in Tripoli, Lebanon, May 3, 2024.", "place:geonames:266826", ""},
		{"A man walks in Tripoli, Libya, May 3, 2024.", "place:geonames:2210247", ""},
		{"A man walks in Wilmington, Del., May 3, 2024.", "place:geonames:4145381", ""},
		{"A man walks in Wilmington, N.C., May 3, 2024.", "place:geonames:4499379", ""},
		// The tables chose a container in another country: a US state,
		// not the country of Georgia or a village in Colombia.
		{"Protesters rally in Atlanta, Georgia, May 5, 2020.", "", "place:adm1:US.GA"},
		{"Protesters rally in Sacramento, California, May 5, 2020.", "", "place:adm1:US.CA"},
		{"Protesters rally in Miami, Florida, May 5, 2020.", "", "place:adm1:US.FL"},
		{"A man walks in Batumi, Georgia, May 3, 2024.", "", "place:geonames:614540"},
	} {
		got := x.Extract(extract.Caption{ID: "t", Text: tt.text})
		if len(got.Entities) < 2 || tt.town != "" && got.Entities[0].ID != tt.town || tt.in != "" && got.Entities[1].ID != tt.in {
			t.Errorf("%q: entities %+v, want town %q in %q", tt.text, got.Entities, tt.town, tt.in)
		}
	}
}

// TestPlaceOfAName: a name alone means the place of that name that
// captions mean: a division weighs the towns it holds (a US state before
// a Colombian village, Indonesia's Bali before an Indian village), a city
// comes before the division of its name, and a division before a small
// town of its name in it.
func TestPlaceOfAName(t *testing.T) {
	x := newExtractor(t)
	for name, want := range map[string]string{
		"California":        "place:adm1:US.CA",
		"Maryland":          "place:adm1:US.MD",
		"Ontario":           "place:adm1:CA.08",
		"Bali":              "place:adm1:ID.02",
		"Punjab":            "place:adm1:PK.04",
		"Idlib":             "place:geonames:169389",
		"Aleppo":            "place:geonames:170063",
		"New York":          "place:geonames:5128581",
		"Beni":              "place:geonames:219057", // North Kivu's, not Bolivia's department
		"Parwan":            "place:adm1:AF.40",
		"Raqqa governorate": "place:adm1:SY.04",
		"Damascus province": "place:adm1:SY.08", // Rif Dimashq, whose alias it is
	} {
		text := "People gather in " + name + " on November 5, 2024."
		got := x.Extract(extract.Caption{ID: "t", Text: text})
		if len(got.Entities) == 0 || got.Entities[0].ID != want {
			t.Errorf("%q: entities %+v, want first %s", text, got.Entities, want)
		}
	}
}

// TestTableNames: a table's name is found across a plural's possessive
// and an ampersand, and at ten words.
func TestTableNames(t *testing.T) {
	x := newExtractor(t)
	for text, want := range map[string]string{
		"Supporters of the Peoples' Democratic Party rally in Diyarbakir, Turkey, May 5, 2022.":             "org:hdp",
		"Staff of Humanity & Inclusion work in Kabul, Afghanistan, May 5, 2022.":                            "org:humanity-inclusion",
		"Members of the Sudan Doctors’ Union work in Port Sudan, Sudan, May 5, 2024.":                       "org:sudan-doctors-union",
		"Soldiers of the Armed Forces of the Democratic Republic of the Congo patrol in Goma, May 5, 2024.": "group:fardc",
	} {
		got := x.Extract(extract.Caption{ID: "t", Text: text})
		found := false
		for _, e := range got.Entities {
			found = found || e.ID == want
		}
		if !found {
			t.Errorf("%q: entities %+v, want %s", text, got.Entities, want)
		}
	}
}
