package extract

import (
	"fmt"
	"strings"
	"testing"
)

// testTerms stands in for the lexicon in parser tests.
func testTerms(name string) EntityType {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "reuters", "ap", "afp", "getty images", "getty", "epa", "epa-efe", "sana", "reuters tv", "syrian tv", "anadolu":
		return Agency
	case "presidential palace", "presidential press service":
		return Organization
	}
	return ""
}

func TestParseCredit(t *testing.T) {
	tests := []struct {
		text string
		want string // parts as "TYPE:text" joined by "|"
	}{
		{"A man walks in Aleppo, May 3, 2016. REUTERS/Jane Doe", "AGENCY:REUTERS|PHOTOGRAPHER:Jane Doe"},
		{"A man walks in Aleppo. REUTERS/ Jane Doe", "AGENCY:REUTERS|PHOTOGRAPHER:Jane Doe"},
		{"A man walks in Aleppo. (Photo by Jane Doe/Reuters)", "PHOTOGRAPHER:Jane Doe|AGENCY:Reuters"},
		{"A man walks in Aleppo. (Photo by Jane Doe/AP Photo)", "PHOTOGRAPHER:Jane Doe|AGENCY:AP"},
		{"A man walks in Aleppo. (AP Photo/Jane Doe, file)", "AGENCY:AP|PHOTOGRAPHER:Jane Doe"},
		{"A man walks in Aleppo, on March 27, 2016 (AFP Photo/)", "AGENCY:AFP"},
		{"Smoke rises over the city. / AFP / JANE DOE", "AGENCY:AFP|PHOTOGRAPHER:JANE DOE"},
		{"Smoke rises over the city. AFP PHOTO / JANE DOE", "AGENCY:AFP|PHOTOGRAPHER:JANE DOE"},
		{"Soldiers patrol a street in Homs.\nJane Doe/AFP/Getty Images", "PHOTOGRAPHER:Jane Doe|AGENCY:AFP|AGENCY:Getty Images"},
		{"A boy in Aleppo. (Jane al-Doe / AFP/ Getty Images)", "PHOTOGRAPHER:Jane al-Doe|AGENCY:AFP|AGENCY:Getty Images"},
		{"A boy in Idlib\n\nPhotograph: Jane Doe/AFP/Getty", "PHOTOGRAPHER:Jane Doe|AGENCY:AFP|AGENCY:Getty"},
		{"A port in Beirut.\n\nVIA EPA-EFE/JANE DOE", "AGENCY:EPA-EFE|PHOTOGRAPHER:JANE DOE"},
		{"A view of the port. EPA/JANE DOE", "AGENCY:EPA|PHOTOGRAPHER:JANE DOE"},
		{"Supporters wave flags. Jane Doe/Presidential Palace/Handout via REUTERS", "PHOTOGRAPHER:Jane Doe|ORGANIZATION:Presidential Palace|AGENCY:REUTERS"},
		{"A man throws a rock. REUTERS/Social Media Website via Reuters TV", "AGENCY:REUTERS|AGENCY:Reuters TV"},
		{"A man throws a rock. REUTERS/Stringer", "AGENCY:REUTERS"},
		{"A rebel sniper aims in Aleppo, Syria.Jane Doe", "PHOTOGRAPHER:Jane Doe"},
		{"A family shelters in a cave. All photos: Reuters", "AGENCY:Reuters"},
		{"Erdogan speaks.(Presidential Press Service via AP, Pool)", "ORGANIZATION:Presidential Press Service|AGENCY:AP"},
		{"A general view of the city, Friday, April 21, 2023.\n— Photo by Jane Doe via AP", "PHOTOGRAPHER:Jane Doe|AGENCY:AP"},
		{"Rescuers search the rubble in Lviv. [Jane Doe/Reuters]", "PHOTOGRAPHER:Jane Doe|AGENCY:Reuters"},
		{"A convoy crosses the bridge in Goma [John Roe/AFP]", "PHOTOGRAPHER:John Roe|AGENCY:AFP"},
		{"Smoke over Khartoum. (Photo by JANE DOE / AFP) (Photo credit should read JANE DOE/AFP via Getty Images)", "PHOTOGRAPHER:JANE DOE|AGENCY:AFP|AGENCY:Getty Images"},
		{"Shelters in a camp near Mopti on May 2, 2024. JANE DOE AFP", "PHOTOGRAPHER:JANE DOE|AGENCY:AFP"},
		{"A market burns in the old town © JOHN ROE/AFP", "PHOTOGRAPHER:JOHN ROE|AGENCY:AFP"},
		{"A drone hit a depot in Odesa on July 4 / Photo: Jane Doe for Anadolu", "PHOTOGRAPHER:Jane Doe|AGENCY:Anadolu"},
		{"Soldiers march in Bamako.\n\nPhoto credit: Jane Doe | AFP", "PHOTOGRAPHER:Jane Doe|AGENCY:AFP"},
		{"Soldiers march in Bamako.\n\n Jane Doe - stringer, AP", "PHOTOGRAPHER:Jane Doe|AGENCY:AP"},
		{"Volunteers clear debris in Mandalay, Saturday, March 1, 2025. - AP", "AGENCY:AP"},
		{"Smoke over the capital.\nJANE DOE\n/\nAFP", "PHOTOGRAPHER:JANE DOE|AGENCY:AFP"},
		{"Ruins of the old temple, in the background of the image.Photo Afp", "AGENCY:Afp"},
		{"A girl outside her tent. REUTERS/Jane Doe/File Photo", "AGENCY:REUTERS|PHOTOGRAPHER:Jane Doe"},
		{"A crater in the yard. EPA/STATE EMERGENCY SERVICE HANDOUT -- MANDATORY CREDIT -- HANDOUT EDITORIAL USE ONLY/NO SALES", "AGENCY:EPA|ORGANIZATION:STATE EMERGENCY SERVICE"},
		{"A leader speaks.(photo credit: Presidential Palace/HANDOUT VIA REUTERS)", "ORGANIZATION:Presidential Palace|AGENCY:REUTERS"},
		{"A boss of a gang in the capital. | Photo courtesy of Jane Doe", "PHOTOGRAPHER:Jane Doe"},
		{"Jane Doe / Reuters / AFP\n\nDamaged cars stand in a yard in Sumy", "PHOTOGRAPHER:Jane Doe|AGENCY:Reuters|AGENCY:AFP"},
		{"Presidential Palace/Handout via Reuters\nDebris lies in a street after shelling.", "ORGANIZATION:Presidential Palace|AGENCY:Reuters"},
		{"Fighters rest in Aleppo on Sept. 14, 2012. Clashes raged, monitors said.", ""},
		{"Talks in Doha / Qatar broke down, officials said on Monday", ""},
		{"A fighter of the Kurdish People's Protection Units (YPG)", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			c := parseCredit(tt.text, testTerms)
			var got []string
			for _, p := range c.parts {
				if tt.text[p.start:p.end] != p.text {
					t.Errorf("part %q has span %d:%d = %q", p.text, p.start, p.end, tt.text[p.start:p.end])
				}
				if p.start < c.start && p.end > c.descStart {
					t.Errorf("part %q lies in the description [%d, %d)", p.text, c.descStart, c.start)
				}
				got = append(got, fmt.Sprintf("%s:%s", p.typ, p.text))
			}
			if g := strings.Join(got, "|"); g != tt.want {
				t.Errorf("parseCredit = %q, want %q", g, tt.want)
			}
		})
	}
}

func FuzzParseCredit(f *testing.F) {
	f.Add("A man walks in Aleppo. REUTERS/Jane Doe")
	f.Add("x.(AP Photo/Jane Doe, file)")
	f.Add("Idlib\n\nPhotograph: A/AFP/Getty")
	f.Add("((/)")
	f.Add("Jane Doe / Reuters\n\nA man [x/AP]")
	f.Add("TOPSHOT - epa123 (FILES) x © A/AFP -- NO SALES")
	f.Fuzz(func(t *testing.T, text string) {
		c := parseCredit(text, testTerms)
		if c.start < 0 || c.start > len(text) || c.descStart < 0 || c.descStart > c.start {
			t.Fatalf("credit start %d, description start %d outside the text", c.start, c.descStart)
		}
		for _, p := range c.parts {
			if p.start < c.start && p.end > c.descStart || p.end > len(text) || p.start >= p.end || text[p.start:p.end] != p.text {
				t.Fatalf("part %+v does not match the text", p)
			}
			if p.typ != Agency && p.typ != Photographer && p.typ != Organization {
				t.Fatalf("part %+v has type %q", p, p.typ)
			}
		}
	})
}

func TestFindDates(t *testing.T) {
	tests := []struct {
		text string
		want string // "text=value/precision" joined by "|"
	}{
		{"in Douma September 11, 2014. REUTERS", "September 11, 2014=2014-09-11/day"},
		{"on Sept. 14, 2012 in Aleppo", "Sept. 14, 2012=2012-09-14/day"},
		{"Monday, Feb. 28, 2011.", "Monday, Feb. 28, 2011=2011-02-28/day"},
		{"Wednesday Jan. 3, 2018", "Wednesday Jan. 3, 2018=2018-01-03/day"},
		{"the city of Aleppo, October, 15, 2012.", "October, 15, 2012=2012-10-15/day"},
		{"26 November 2014 and 04 August", "26 November 2014=2014-11-26/day|04 August=--08-04/day"},
		{"Ras al-Ain, January 2014.", "January 2014=2014-01/month"},
		{"in Istanbul, May 19.", "May 19=--05-19/day"},
		{"in Kherson, Ukraine, Aug, 22, 2022.", "Aug, 22, 2022=2022-08-22/day"},
		{"Dec 4 talks; Mar 12", ""},
		{"for the first time since October.", "October=--10/month"},
		{"they may go. March on, May", ""},
		{"on Tuesday the army moved", ""},
		{"February 30, 2015", ""},
		{"February 29, 2015", ""},
		{"29 February 2015 in Idlib", "February 2015=2015-02/month"}, // the month still stands
		{"February 29, 2016", "February 29, 2016=2016-02-29/day"},
		{"29 February 2000", "29 February 2000=2000-02-29/day"},
		{"February 29, 1900", ""},
		{"on February 29", "February 29=--02-29/day"},
		{"Dec 5 2015", "Dec 5 2015=2015-12-05/day"}, // a whole date: day and year make the abbreviation safe
		{"Dec 5 talks", ""},
		{"in Nairobi, June 25th, 2024.", "June 25th, 2024=2024-06-25/day"},
		{"on the 25th of June 2024", "25th of June 2024=2024-06-25/day"},
		{"on 1st May", "1st May=--05-01/day"},
		{"taken 2024-06-25 in Kyiv", "2024-06-25=2024-06-25/day"},
		{"ISBN 2024-06-25-1", ""},
		{"a 2024-13-01 typo", ""},
		{"5 of May", ""},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			var got []string
			for _, m := range findDates(tt.text, tokenize(tt.text)) {
				got = append(got, fmt.Sprintf("%s=%s/%s", tt.text[m.start:m.end], m.value, m.precision))
			}
			if g := strings.Join(got, "|"); g != tt.want {
				t.Errorf("findDates = %q, want %q", g, tt.want)
			}
		})
	}
}

func FuzzFindDates(f *testing.F) {
	f.Add("Friday, April 21, 2023 and 4 May")
	f.Fuzz(func(t *testing.T, text string) {
		for _, m := range findDates(text, tokenize(text)) {
			if m.start < 0 || m.end > len(text) || m.start >= m.end {
				t.Fatalf("bad span %+v", m)
			}
			if len(m.value) < 4 || (m.precision != "day" && m.precision != "month") {
				t.Fatalf("bad value %+v", m)
			}
		}
	})
}

// TestExtractPanicIsAnError: a panic in the rules, here from an extractor
// that was never made, reaches ExtractAll's caller as an error naming the
// caption, in the caption's place, and the captions after it go on.
func TestExtractPanicIsAnError(t *testing.T) {
	var x *Extractor
	captions := func(yield func(Caption, error) bool) {
		_ = yield(Caption{ID: "c1", Text: "A man in Aleppo."}, nil) && yield(Caption{ID: "c2", Text: "A boy in Homs."}, nil)
	}
	var errs []error
	for _, err := range x.ExtractAll(t.Context(), captions, 2) {
		errs = append(errs, err)
	}
	if len(errs) != 2 {
		t.Fatalf("%d results, want 2: %v", len(errs), errs)
	}
	for i, err := range errs {
		if want := fmt.Sprintf("caption \"c%d\": internal error", i+1); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("result %d: %v, want an error with %q", i, err, want)
		}
	}
}
