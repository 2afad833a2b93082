package extract_test

import (
	"testing"

	"github.com/capgraph/capgraph/extract"
)

// TestHeadedNames: names no table holds, told by their head word, on
// captions written for this test.
func TestHeadedNames(t *testing.T) {
	x := newExtractor(t)
	for _, tt := range []struct {
		text string
		want []extract.Entity // Text and Type; present
		not  []extract.Entity // absent
	}{
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
		{text: "Smoke rises over burnt buildings in Mingin Township, Sagaing Division, Myanmar. Photo: AFP",
			not: []extract.Entity{{Text: "Sagaing Division", Type: extract.ArmedGroup}}},
	} {
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
