package gazetteer

import (
	"testing"
	"time"
)

// TestLoadTime reports (it does not assert: machines differ) how long a
// fresh decode of the data plus the index takes; the budget is 300 ms.
func TestLoadTime(t *testing.T) {
	start := time.Now()
	d, err := load()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("load + index: %v for %d places, %d groups, %d terms", time.Since(start), len(d.Places), len(d.Groups), len(d.Terms))
}

// BenchmarkLoad measures decoding the embedded data and building the index,
// which Load does once per process.
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := load(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/load")
}

func BenchmarkResolve(b *testing.B) {
	d, err := Load()
	if err != nil {
		b.Fatal(err)
	}
	ix := d.Index()
	names := []string{"Aleppo", "Haresta", "Hemeimeem", "Zzyzxqwv", "Kafr Nabl", "Deir al-Zour"}
	n := 0
	for b.Loop() {
		ix.Resolve(names[n%len(names)])
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "lookups/s")
}

func TestFuzzyHelpers(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		one  bool
	}{
		{"harasta", "harasta", true}, {"hamaimim", "hmaimim", true}, {"abc", "abd", true},
		{"abc", "abcd", true}, {"abc", "bcd", false}, {"idlib", "irbid", false}, {"", "a", true},
	} {
		if got := withinOne(tt.a, tt.b); got != tt.one {
			t.Errorf("withinOne(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.one)
		}
	}
	if s := jaroWinkler("martha", "marhta"); s < 0.96 || s > 0.962 {
		t.Errorf("jaroWinkler(martha, marhta) = %v, want 0.961", s)
	}
	if s := jaroWinkler("abc", "xyz"); s != 0 {
		t.Errorf("jaroWinkler(abc, xyz) = %v, want 0", s)
	}
}
