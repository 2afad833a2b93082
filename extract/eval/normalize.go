package eval

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// MaxParenthetical is the longest trailing parenthetical, in code points
// between the brackets, that [Normalize] drops. It is long enough for
// abbreviations ("(ISOF)") and short glosses ("(the Shamiya Front)") and
// short enough that a long bracketed clause is kept.
const MaxParenthetical = 30

// articles are the leading words [Normalize] drops: the English articles only.
var articles = map[string]bool{"the": true, "a": true, "an": true}

// Normalize returns the form of an entity text or relation argument that
// scoring compares, following the "Scoring" section of the caption
// guidelines. In order:
//
//  1. A short trailing parenthetical is dropped: a final "(...)" holding at
//     most [MaxParenthetical] code points and no other bracket, when a
//     letter or digit that survives step 2 precedes it ("Islamic State (IS)" becomes "Islamic State").
//  2. The text is decomposed (Unicode NFKD), combining marks are removed and
//     letters are lower-cased ("Ḥalab" becomes "halab").
//  3. Punctuation is dropped. Dashes, connectors ("_") and slashes separate
//     words, so "al-Qaida" and "al Qaida" both become "al qaida"; every other
//     punctuation mark is deleted, so "U.S." becomes "us" and "People's"
//     becomes "peoples". Control and format characters (zero-width spaces,
//     soft hyphens) are deleted too.
//  4. Whitespace is collapsed to single spaces and trimmed.
//  5. Leading English articles ("the", "a", "an") are dropped while another
//     word follows, so "The Associated Press" matches "Associated Press".
//
// The Arabic article is not dropped. The guidelines keep it in every span
// ("Al Zaatari", "al-Mallah", "Al shabbiha"), so it is part of the name;
// "al-Mallah" and "Al-Mallah" match through lower-casing alone, and
// "al-Mallah" does not match "Mallah".
//
// Normalize is idempotent, and its result has no upper-case letters, no
// punctuation and no leading, trailing or doubled spaces. Text with an
// ASCII letter or digit never normalises to "".
func Normalize(s string) string {
	s = dropParenthetical(s)
	s = fold(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			b.WriteByte(' ')
		case unicode.In(r, unicode.Pd, unicode.Pc) || r == '/' || r == '\\':
			b.WriteByte(' ')
		case unicode.IsPunct(r), unicode.IsControl(r), unicode.Is(unicode.Cf, r):
			// dropped
		default:
			b.WriteRune(r)
		}
	}
	words := strings.Fields(b.String())
	for len(words) > 1 && articles[words[0]] {
		words = words[1:]
	}
	return strings.Join(words, " ")
}

// fold decomposes s, removes combining marks and lower-cases it. Some
// lower-case letters decompose further, so it folds twice.
func fold(s string) string {
	for range 2 {
		s = norm.NFKD.String(s)
		s = strings.Map(func(r rune) rune {
			if unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) {
				return -1
			}
			return unicode.ToLower(r)
		}, s)
	}
	return s
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// dropParenthetical removes a short trailing "(...)" from s when a letter or
// digit that folding keeps precedes it.
func dropParenthetical(s string) string {
	t := strings.TrimRightFunc(s, unicode.IsSpace)
	if !strings.HasSuffix(t, ")") {
		return s
	}
	open := strings.LastIndexByte(t, '(')
	if open < 0 {
		return s
	}
	inner := t[open+1 : len(t)-1]
	if strings.ContainsAny(inner, "()") || len([]rune(inner)) > MaxParenthetical {
		return s
	}
	head := t[:open]
	if strings.IndexFunc(fold(head), isAlnum) < 0 {
		return s
	}
	return head
}
