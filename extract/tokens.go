package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A token is a maximal run of letters and digits in a caption. Everything
// between tokens (spaces, hyphens, apostrophes, punctuation) is a gap that
// rules inspect through the caption text itself.
type token struct {
	text       string // as written
	lower      string // lower case, for word tests
	start, end int    // byte offsets into the caption
}

// tokenize splits text into tokens.
func tokenize(text string) []token {
	// Lower-casing an ASCII text keeps every offset, so its tokens' lower
	// forms are slices of one lower-cased copy: one allocation, not one
	// per token.
	lower := ""
	if isASCII(text) {
		lower = strings.ToLower(text)
	}
	newToken := func(start, end int) token {
		s := text[start:end]
		l := ""
		if lower != "" {
			l = lower[start:end]
		} else {
			l = strings.ToLower(s)
		}
		return token{text: s, lower: l, start: start, end: end}
	}
	toks := make([]token, 0, len(text)/5)
	start, end := -1, -1 // of the token being read, end after its last word rune
	for i, r := range text {
		word := unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
		switch {
		case word:
			if start < 0 {
				start = i
			}
			end = i + utf8.RuneLen(r)
		case start >= 0 && unicode.Is(unicode.Cf, r):
			// An invisible character (a zero-width space or joiner, a
			// soft hyphen) inside a word leaves it one word; folding
			// drops it, so "Ale\u200bppo" is Aleppo.
		case start >= 0:
			toks = append(toks, newToken(start, end))
			start = -1
		}
	}
	if start >= 0 {
		toks = append(toks, newToken(start, end))
	}
	return toks
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// isUpperStart reports whether s begins with an upper-case letter.
func isUpperStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// isAllCaps reports whether s has at least two letters and no lower-case one.
func isAllCaps(s string) bool {
	n := 0
	for _, r := range s {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n >= 2
}

// runeOffsets converts byte offsets of text to code-point offsets. It returns
// a function valid for offsets at rune boundaries, which every token edge is.
func runeOffsets(text string) func(int) int {
	if isASCII(text) {
		return func(b int) int { return b }
	}
	idx := make([]int32, len(text)+1)
	n := int32(0)
	for i := range text {
		idx[i] = n
		n++
	}
	idx[len(text)] = n
	// Fill continuation bytes so any offset maps to its rune's index.
	for i := 1; i < len(text); i++ {
		if !utf8.RuneStart(text[i]) {
			idx[i] = idx[i-1]
		}
	}
	return func(b int) int { return int(idx[b]) }
}

// isAcronym reports whether s is written like an abbreviation: no
// lower-case letter, and two letters or a letter and a digit ("IS", "M23",
// "G9").
func isAcronym(s string) bool {
	letters, digits := 0, 0
	for _, r := range s {
		switch {
		case unicode.IsLower(r):
			return false
		case unicode.IsLetter(r):
			letters++
		case unicode.IsDigit(r):
			digits++
		}
	}
	return letters >= 2 || letters == 1 && digits > 0
}
