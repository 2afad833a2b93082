package eval_test

import (
	"strings"
	"testing"
	"unicode"

	"github.com/capgraph/capgraph/extract/eval"
)

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		// The README's example: a short trailing parenthetical is dropped.
		{"Islamic State (IS)", "islamic state"},
		{"Islamic State", "islamic state"},
		{"Kurdish People's Protection Units (YPG)", "kurdish peoples protection units"},
		{"al-Jabha al-Shamiya (the Shamiya Front)", "al jabha al shamiya"},
		{"Islamic State (IS) ", "islamic state"},
		{"(IS)", "is"},                                                          // nothing before it: kept
		{"X (" + strings.Repeat("y", 31) + ")", "x " + strings.Repeat("y", 31)}, // too long: kept
		{"Nusra (Front) fighters", "nusra front fighters"},                      // not trailing: kept
		{"X (B (C))", "x b c"},                                                  // nested: kept
		// Case variants.
		{"REUTERS", "reuters"},
		{"Reuters", "reuters"},
		{"Eastern Ghouta", "eastern ghouta"},
		{"eastern Ghouta", "eastern ghouta"},
		{"al-Mallah", "al mallah"},
		{"Al-Mallah", "al mallah"},
		// Accents and compatibility forms.
		{"José Núñez", "jose nunez"},
		{"Mürşitpınar", "mursitpınar"}, // dotless ı has no decomposition
		{"İdlib", "idlib"},
		{"ﬁeld", "field"},
		{"Ｒｅｕｔｅｒｓ", "reuters"},
		// Punctuation.
		{"U.S.", "us"},
		{"Washington, D.C.", "washington dc"},
		{"September 11, 2014", "september 11 2014"},
		{"EPA-EFE", "epa efe"},
		{"al-Qaida", "al qaida"},
		{"al Qaida", "al qaida"},
		{"Bashar-Al-Assad", "bashar al assad"},
		{"Bashar al–Assad", "bashar al assad"}, // en dash
		{"Syria’s", "syrias"},
		{"\u201cGhosts\u201d", "ghosts"},
		{"Shaam\u00adNews", "shaamnews"}, // soft hyphen is a format character
		// Leading articles: English only, as a separate word.
		{"The Associated Press", "associated press"},
		{"the Free Syrian Army", "free syrian army"},
		{"A Houthi", "houthi"},
		{"An Nabk", "nabk"},
		{"The The", "the"},
		{"the", "the"},
		{"The A Team", "team"},
		{"Theodore", "theodore"},
		{"Al Zaatari", "al zaatari"},
		{"El Salvador", "el salvador"},
		{"al Qaeda", "al qaeda"},
		{"Free Syrian Army, the", "free syrian army the"},
		// Whitespace.
		{"  Douma,\teastern\u00a0al-Ghouta \n", "douma eastern al ghouta"},
		{"", ""},
		{"...", ""},
	}
	for _, tt := range tests {
		if got := eval.Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"Islamic State (IS)", "The Associated Press", "al-Mallah", "José Núñez",
		"U.S.", "(The) A (b)", "İ\u0307", "ǅ", "\u00ad", "a (\u0301)", "\u037a (a)", "Ｒ", "ϒ", "ẞ", "A. Smith"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := eval.Normalize(s)
		if again := eval.Normalize(n); again != n {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, n, again)
		}
		if strings.ToLower(n) != n {
			t.Fatalf("Normalize(%q) = %q has upper case", s, n)
		}
		if strings.TrimSpace(n) != n || strings.Contains(n, "  ") {
			t.Fatalf("Normalize(%q) = %q: whitespace not collapsed", s, n)
		}
		for _, r := range n {
			if unicode.IsPunct(r) || (unicode.IsSpace(r) && r != ' ') || unicode.Is(unicode.Mn, r) {
				t.Fatalf("Normalize(%q) = %q has %U", s, n, r)
			}
		}
		if w, rest, ok := strings.Cut(n, " "); ok && rest != "" && (w == "the" || w == "a" || w == "an") {
			t.Fatalf("Normalize(%q) = %q keeps a leading article", s, n)
		}
		if n == "" && strings.IndexFunc(s, func(r rune) bool { return r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)) }) >= 0 {
			t.Fatalf("Normalize(%q) is empty", s)
		}
		// ASCII case never matters.
		if u := eval.Normalize(asciiUpper(s)); u != n {
			t.Fatalf("Normalize(%q) = %q but Normalize(%q) = %q", s, n, asciiUpper(s), u)
		}
	})
}

func asciiUpper(s string) string {
	return strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}, s)
}
