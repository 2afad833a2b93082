package synth_test

import (
	"bytes"
	"fmt"
	"log"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/extract/synth"
)

func corpus(t testing.TB, seed uint64, n int) []byte {
	t.Helper()
	g, err := synth.New(seed)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for i := range n {
		c := g.Caption(i)
		buf.WriteString(c.ID)
		buf.WriteByte('\t')
		buf.WriteString(c.Text)
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

func TestDeterministic(t *testing.T) {
	a, b := corpus(t, 1, 1000), corpus(t, 1, 1000)
	if !bytes.Equal(a, b) {
		t.Fatal("two generators with seed 1 differ")
	}
	if c := corpus(t, 2, 1000); bytes.Equal(a, c) {
		t.Fatal("seeds 1 and 2 give the same captions")
	}
	// Caption i does not depend on the captions made before it.
	g, err := synth.New(1)
	if err != nil {
		t.Fatal(err)
	}
	want := g.Caption(500)
	for _, i := range []int{7, 900, 3} {
		g.Caption(i)
	}
	if got := g.Caption(500); got.Text != want.Text || got.ID != want.ID {
		t.Errorf("caption 500 changed after making others:\n%s\n%s", got.Text, want.Text)
	}
}

func TestCaptionsWellFormed(t *testing.T) {
	g, err := synth.New(7)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for i := range 5000 {
		c := g.Caption(i)
		switch {
		case c.Text == "":
			t.Fatalf("caption %d is empty", i)
		case !utf8.ValidString(c.Text):
			t.Fatalf("caption %d is not valid UTF-8: %q", i, c.Text)
		case strings.ContainsRune(c.Text, 0):
			t.Fatalf("caption %d has a NUL byte: %q", i, c.Text)
		case strings.Count(c.Text, "\n") > 1:
			t.Fatalf("caption %d has more than one newline: %q", i, c.Text)
		case strings.Contains(c.Text, "  ") || strings.TrimSpace(c.Text) != c.Text:
			t.Fatalf("caption %d has stray spaces: %q", i, c.Text)
		case ids[c.ID]:
			t.Fatalf("caption %d repeats id %s", i, c.ID)
		}
		ids[c.ID] = true
	}
	if id := synth.ID(123); id != "syn-000000123" {
		t.Errorf("ID(123) = %q", id)
	}
}

// TestExtractorFindsWhatWasWritten runs the real extractor over generated
// captions: nearly every one should yield a credit, a date, a place and the
// place the photo shows.
func TestExtractorFindsWhatWasWritten(t *testing.T) {
	const n = 2000
	g, err := synth.New(42)
	if err != nil {
		t.Fatal(err)
	}
	x, err := extract.New()
	if err != nil {
		t.Fatal(err)
	}
	var credit, date, place, group, depicts, takenOn, entities, chars int
	var lengths [6]int // <150, <250, <350, <400, <500, more
	var missing []string
	for i := range n {
		c := g.Caption(i)
		chars += len(c.Text)
		switch l := len(c.Text); {
		case l < 150:
			lengths[0]++
		case l < 250:
			lengths[1]++
		case l < 350:
			lengths[2]++
		case l < 400:
			lengths[3]++
		case l < 500:
			lengths[4]++
		default:
			lengths[5]++
		}
		ex := x.Extract(c)
		entities += len(ex.Entities)
		seen := map[extract.EntityType]bool{}
		for _, e := range ex.Entities {
			seen[e.Type] = true
		}
		if seen[extract.Photographer] || seen[extract.Agency] {
			credit++
		}
		if seen[extract.Date] {
			date++
		}
		if seen[extract.Place] {
			place++
		}
		if seen[extract.ArmedGroup] {
			group++
		}
		rels := map[extract.RelationType]bool{}
		for _, r := range ex.Relations {
			rels[r.Rel] = true
		}
		if rels[extract.DepictsPlace] {
			depicts++
		} else if len(missing) < 10 {
			missing = append(missing, c.Text)
		}
		if rels[extract.TakenOn] {
			takenOn++
		}
	}
	frac := func(k int) float64 { return float64(k) / n }
	t.Logf("%d captions: credit %.3f, date %.3f, place %.3f, armed group %.3f, depicts_place %.3f, taken_on %.3f",
		n, frac(credit), frac(date), frac(place), frac(group), frac(depicts), frac(takenOn))
	t.Logf("mean length %.0f bytes, %.1f entities per caption; lengths <150: %d, <250: %d, <350: %d, <400: %d, <500: %d, more: %d",
		float64(chars)/n, float64(entities)/n, lengths[0], lengths[1], lengths[2], lengths[3], lengths[4], lengths[5])
	for _, m := range missing {
		t.Logf("no depicts_place: %s", m)
	}
	for _, f := range []struct {
		name string
		got  float64
		min  float64
	}{
		{"credit", frac(credit), 0.98},
		{"date", frac(date), 0.97},
		{"place", frac(place), 0.97},
		{"depicts_place", frac(depicts), 0.90},
		{"taken_on", frac(takenOn), 0.85},
		{"armed group", frac(group), 0.30},
		{"150 to 400 bytes", float64(lengths[1]+lengths[2]+lengths[3]) / n, 0.70},
	} {
		if f.got < f.min {
			t.Errorf("%s in %.3f of captions, want at least %.2f", f.name, f.got, f.min)
		}
	}
}

func ExampleGenerator_Caption() {
	g, err := synth.New(1)
	if err != nil {
		log.Fatal(err)
	}
	c := g.Caption(123)
	fmt.Println(c.ID, c.Text == g.Caption(123).Text, len(c.Text) > 50)
	// Output: syn-000000123 true true
}

func BenchmarkGenerate(b *testing.B) {
	g, err := synth.New(1)
	if err != nil {
		b.Fatal(err)
	}
	var buf []byte
	n := 0
	for b.Loop() {
		buf = g.AppendText(buf[:0], n)
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "captions/s")
}

func BenchmarkCaption(b *testing.B) {
	g, err := synth.New(1)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for b.Loop() {
		g.Caption(n)
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "captions/s")
}
