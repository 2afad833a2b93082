// Package fold holds the name normalisation shared by the gazetteer and its
// generator: [Fold] for case- and accent-insensitive comparison and [Key] for
// transliteration-insensitive comparison of Arabic, Turkish and Slavic names
// written in Latin script.
package fold

import (
	"bytes"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Fold returns s in lower case with diacritics removed (NFD, then combining
// marks dropped), curly quotes, modifier-letter apostrophes, ayn and hamza
// turned into the ASCII apostrophe, Unicode hyphens into '-', and every run of
// white space into one space, trimmed. Hyphens and other punctuation are kept.
func Fold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	if ascii {
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
				space = true
				continue
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			case c == '`':
				c = '\''
			}
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteByte(c)
		}
		return b.String()
	}
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		rep := foldRune(r)
		if rep == "" {
			continue // a combining mark
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteString(rep)
	}
	return b.String()
}

// tableSize covers Latin, Greek, Cyrillic and Latin Extended Additional.
const tableSize = 0x2000

var (
	tableOnce sync.Once
	table     []string // folded form of each rune below tableSize
)

// foldRune returns the folded form of r: "" for a combining mark.
func foldRune(r rune) string {
	if r < tableSize {
		tableOnce.Do(buildTable)
		return table[r]
	}
	return foldRuneSlow(r)
}

func buildTable() {
	t := make([]string, tableSize)
	for r := range rune(tableSize) {
		t[r] = foldRuneSlow(r)
	}
	table = t
}

// foldRuneSlow folds one rune: NFD, combining marks and invisible format
// characters dropped, the special letters and punctuation mapped, lower
// case.
func foldRuneSlow(r rune) string {
	switch r {
	case '‘', '’', '‛', 'ʼ', 'ʻ', 'ʽ', 'ʹ', '′', '`', '´', 'ʿ', 'ʾ', 'ˈ':
		return "'"
	case '“', '”', '„', '‟', '″':
		return `"`
	case '‐', '‑', '‒', '−':
		return "-"
	case 'ı':
		return "i"
	case 'ł', 'Ł':
		return "l"
	case 'ø', 'Ø':
		return "o"
	case 'đ', 'Đ', 'ð', 'Ð':
		return "d"
	case 'ħ', 'Ħ':
		return "h"
	case 'þ', 'Þ':
		return "th"
	case 'ß', 'ẞ':
		return "ss"
	case 'æ', 'Æ':
		return "ae"
	case 'œ', 'Œ':
		return "oe"
	}
	var b strings.Builder
	for _, d := range norm.NFD.String(string(r)) {
		if unicode.Is(unicode.Mn, d) || unicode.Is(unicode.Cf, d) {
			continue // combining marks, and invisible ones: zero-width spaces, joiners, soft hyphens
		}
		b.WriteRune(unicode.ToLower(d))
	}
	return b.String()
}

// Key returns the transliteration key of s: [Fold], then apostrophes, ayn and
// hamza dropped, the Arabic article dropped (al-, el-, ul- before any word, and
// the assimilated forms ad-, ar-, as-, ash-, at-, az-, an-, ed-, ez-, ... before
// a word that starts with the same consonant), a final h after a vowel dropped
// from each word, words joined, and then ee->i, ae->ai, aw->u (before a
// consonant or at the end), ph->f, ck->k, e->a, o->u, q->k, y->i, and runs of
// one letter collapsed. So "Deir ez-Zor" and "Dayr az Zawr" share the key
// "dairazur", and "Raqqah" and "Raqa" share "raka". Letters outside a-z
// (other scripts) and digits are kept; other characters separate words.
// Key is idempotent: Key(Key(s)) == Key(s).
func Key(s string) string {
	return KeyFolded(Fold(s))
}

// KeyFolded is [Key] of a string already passed through [Fold]; it saves the
// second fold when the caller has both.
func KeyFolded(f string) string {
	k := keyOnce(f)
	if isKey(k) {
		return k
	}
	for range 8 {
		k2 := keyOnce(k)
		if k2 == k {
			return k
		}
		k = k2
	}
	return k
}

// keyOnce does one round of Key on folded f; its output is folded too.
// It works on bytes in stack buffers: the index calls it for every name.
func keyOnce(f string) string {
	// Pass 1: letters and digits, words separated by one space; apostrophes
	// and quotes vanish without splitting a word.
	var cbuf [96]byte
	clean := cbuf[:0]
	for i := 0; i < len(f); {
		c := f[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
				clean = append(clean, c)
			case c == '\'' || c == '"':
			default:
				if len(clean) > 0 && clean[len(clean)-1] != ' ' {
					clean = append(clean, ' ')
				}
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(f[i:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			clean = append(clean, f[i:i+n]...)
		} else if len(clean) > 0 && clean[len(clean)-1] != ' ' {
			clean = append(clean, ' ')
		}
		i += n
	}
	// Pass 2: drop articles and a final h after a vowel, join the words.
	var jbuf [96]byte
	joined := jbuf[:0]
	for start := 0; start < len(clean); {
		end := start
		for end < len(clean) && clean[end] != ' ' {
			end++
		}
		word := clean[start:end]
		next := end + 1
		if next < len(clean) {
			nend := next
			for nend < len(clean) && clean[nend] != ' ' {
				nend++
			}
			if isArticle(word, clean[next:nend]) {
				start = next
				continue
			}
		}
		if n := len(word); n > 2 && word[n-1] == 'h' && isVowel(word[n-2]) {
			word = word[:n-1]
		}
		joined = append(joined, word...)
		start = next
	}
	// Pass 3: letter mapping, then collapse runs of one ASCII letter.
	var obuf [96]byte
	out := obuf[:0]
	b := joined
	for i := 0; i < len(b); i++ {
		c := b[i]
		var next, next2 byte
		if i+1 < len(b) {
			next = b[i+1]
		}
		if i+2 < len(b) {
			next2 = b[i+2]
		}
		switch {
		case c == 'e' && next == 'e':
			out = append(out, 'i')
			i++
			continue
		case c == 'a' && next == 'e':
			out = append(out, 'a', 'i')
			i++
			continue
		case c == 'a' && next == 'w' && !isVowel(next2):
			out = append(out, 'u')
			i++
			continue
		case c == 'p' && next == 'h':
			out = append(out, 'f')
			i++
			continue
		case c == 'c' && next == 'k':
			out = append(out, 'k')
			i++
			continue
		}
		switch c {
		case 'e':
			c = 'a'
		case 'o':
			c = 'u'
		case 'q':
			c = 'k'
		case 'y':
			c = 'i'
		}
		if n := len(out); n > 0 && out[n-1] == c && 'a' <= c && c <= 'z' {
			continue
		}
		out = append(out, c)
	}
	return string(out)
}

// isKey reports, by a quick scan, whether keyOnce would return k unchanged.
// It may answer false for some fixed points (other scripts).
func isKey(k string) bool {
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c >= utf8.RuneSelf:
			return false
		case c == 'e' || c == 'o' || c == 'q' || c == 'y':
			return false
		case i > 0 && c == k[i-1] && 'a' <= c && c <= 'z':
			return false
		case c == 'h' && i > 0 && (k[i-1] == 'p' || i == len(k)-1 && i > 1 && isVowel(k[i-1])):
			return false
		case c == 'k' && i > 0 && k[i-1] == 'c':
			return false
		case c == 'w' && i > 0 && k[i-1] == 'a' && (i == len(k)-1 || !isVowel(k[i+1])):
			return false
		case !('a' <= c && c <= 'z' || '0' <= c && c <= '9'):
			return false
		}
	}
	return true
}

func isVowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u', 'y':
		return true
	}
	return false
}

// isArticle reports whether word is an Arabic article in front of next.
func isArticle(word, next []byte) bool {
	switch string(word) {
	case "al", "el", "ul", "il":
		return true
	}
	if len(word) < 2 || len(word) > 3 || (word[0] != 'a' && word[0] != 'e' && word[0] != 'u') {
		return false
	}
	cons := word[1:] // d, r, s, sh, t, th, dh, z, n
	switch string(cons) {
	case "d", "r", "s", "sh", "t", "th", "dh", "z", "n":
		return bytes.HasPrefix(next, cons)
	}
	return false
}
