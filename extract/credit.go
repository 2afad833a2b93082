package extract

import (
	"strings"
	"unicode"
)

// A creditPart is one name in a photo credit, in byte offsets of the caption.
type creditPart struct {
	text       string
	start, end int
	typ        EntityType // Agency, Photographer or Organization
}

// A credit is the parsed credit line of a caption.
type credit struct {
	start int // byte offset where the credit begins; len(text) when there is none
	parts []creditPart
}

// lookupTerm tells the credit parser what a name is: Agency, Organization,
// or "" when no table knows it.
type lookupTerm func(name string) EntityType

// Words in a credit that stand for no one in particular.
var creditFiller = map[string]bool{
	"stringer": true, "handout": true, "pool": true, "file": true, "staff": true,
	"social media website": true, "social media": true, "courtesy": true, "str": true,
	"photo": true, "photos": true, "picture": true, "pictures": true, "image": true,
	"video": true, "screengrab": true, "reuters photographer": true, "ho": true,
	"anonymous": true, "supplied": true, "via": true,
}

// Openings that introduce a credit ("Photo by", "Photograph:").
var creditPrefixes = []string{
	"photographs by", "photograph by", "photographs:", "photograph:", "photos by", "photo by",
	"all photos:", "all pictures:", "photos:", "photo:", "pictures:", "picture:", "picture by",
	"credit:", "image:", "via",
}

// parseCredit finds the credit at the end of a caption in its real styles:
// "REUTERS/Name", "(Photo by Name/Agency)", "(AP Photo/Name, file)",
// "/ AFP / NAME", "Name/AFP/Getty Images" on its own line, "EPA-EFE/NAME",
// "Photograph: Name/AFP/Getty", "Name/Org/Handout via REUTERS", "All
// photos: Reuters" and a photographer's name glued to the last sentence
// ("...Syria.Jane Doe").
func parseCredit(text string, lookup lookupTerm) credit {
	none := credit{start: len(text)}
	end := len(strings.TrimRightFunc(text, unicode.IsSpace))
	if end == 0 {
		return none
	}
	segStart, segEnd := -1, end

	// A closing parenthetical: "(AP Photo/Name)".
	if text[end-1] == ')' {
		if open := matchingOpen(text, end-1); open >= 0 && looksLikeCredit(text[open+1:end-1], lookup) {
			segStart, segEnd = open+1, end-1
		}
	}
	// The last line of a multi-line caption: "\nName/AFP/Getty Images".
	if segStart < 0 {
		if nl := strings.LastIndexByte(text[:end], '\n'); nl >= 0 && looksLikeCredit(text[nl+1:end], lookup) {
			segStart = nl + 1
		}
	}
	// What follows the last sentence: ". REUTERS/Name", ". / AFP / NAME".
	glued := false
	if segStart < 0 {
		if i := lastSentenceEnd(text[:end]); i >= 0 {
			tail := text[i:end]
			switch {
			case looksLikeCredit(tail, lookup):
				segStart = i
			case i > 0 && !unicode.IsSpace(rune(text[i-1])) && i < end && isUpperStart(tail) && looksLikeName(tail):
				// "...in Aleppo, Syria.Jane Doe": a glued photographer credit.
				segStart, glued = i, true
			}
		}
	}
	// A credit that starts the final sentence without a full stop before
	// it: "... 2016 (AFP Photo/)" was handled above; "... Syria REUTERS/Name"
	// is found by looking back from the first slash for an agency name.
	if segStart < 0 {
		if s := creditBySlash(text[:end], lookup); s >= 0 {
			segStart = s
		}
	}
	if segStart < 0 {
		return none
	}
	c := credit{start: segStart}
	if segStart > 0 && text[segStart-1] == '(' {
		c.start = segStart - 1
	}
	if glued {
		s, e := trimSpan(text, segStart, segEnd)
		c.parts = append(c.parts, creditPart{text[s:e], s, e, Photographer})
		return c
	}
	c.parts = splitCredit(text, segStart, segEnd, lookup)
	if len(c.parts) == 0 {
		return none
	}
	return c
}

// splitCredit splits a credit segment on "/", " via " and "," and types each piece.
func splitCredit(text string, start, end int, lookup lookupTerm) []creditPart {
	seg := text[start:end]
	lower := strings.ToLower(seg)
	// Drop an opening such as "Photo by" or "— Photo by".
	off := 0
	for off < len(lower) && (lower[off] == ' ' || lower[off] == '-' || strings.HasPrefix(lower[off:], "—") || strings.HasPrefix(lower[off:], "–")) {
		if lower[off] == ' ' || lower[off] == '-' {
			off++
		} else {
			off += len("—")
		}
	}
	for _, p := range creditPrefixes {
		if strings.HasPrefix(lower[off:], p) {
			off += len(p)
			break
		}
	}
	var parts []creditPart
	pieceStart := start + off
	flush := func(pieceEnd int) {
		s, e := trimSpan(text, pieceStart, pieceEnd)
		if s < e {
			if p, ok := classifyCreditPiece(text, s, e, lookup); ok {
				parts = append(parts, p)
			}
		}
	}
	for i := start + off; i < end; i++ {
		switch {
		case text[i] == '/' || text[i] == ',' || text[i] == ';':
			flush(i)
			pieceStart = i + 1
		case hasWordAt(text, i, end, " via "):
			flush(i)
			pieceStart = i + len(" via ")
			i += len(" via ") - 1
		case hasWordAt(text, i, end, " for "):
			flush(i)
			pieceStart = i + len(" for ")
			i += len(" for ") - 1
		}
	}
	flush(end)
	return parts
}

func hasWordAt(text string, i, end int, w string) bool {
	return i+len(w) <= end && strings.EqualFold(text[i:i+len(w)], w)
}

// classifyCreditPiece types one piece of a credit: an agency (with a
// trailing "Photo" or "PHOTO" outside the span), an organisation, a filler
// word, or else a photographer's name.
func classifyCreditPiece(text string, s, e int, lookup lookupTerm) (creditPart, bool) {
	piece := text[s:e]
	lower := strings.ToLower(piece)
	// "VIA EPA-EFE": a leading "via".
	if strings.HasPrefix(lower, "via ") {
		s += 4
		s, e = trimSpan(text, s, e)
		piece, lower = text[s:e], strings.ToLower(text[s:e])
	}
	if creditFiller[lower] || s >= e {
		return creditPart{}, false
	}
	// "AP Photo", "AFP PHOTO": only the agency is the span.
	for _, suffix := range []string{" photos", " photo", " pictures", " pool"} {
		if strings.HasSuffix(lower, suffix) {
			if t := lookup(piece[:len(piece)-len(suffix)]); t == Agency {
				return creditPart{piece[:len(piece)-len(suffix)], s, e - len(suffix), Agency}, true
			}
		}
	}
	for _, suffix := range []string{" handout", " file"} {
		if strings.HasSuffix(lower, suffix) {
			e -= len(suffix)
			piece, lower = piece[:len(piece)-len(suffix)], lower[:len(lower)-len(suffix)]
		}
	}
	switch t := lookup(piece); t {
	case Agency, Organization:
		return creditPart{piece, s, e, t}, true
	}
	// "Ukrainian Presidential Press Service": a nationality is not part of
	// the provider's name.
	if sp := strings.IndexByte(piece, ' '); sp > 0 && commonWords[lower[:sp]] {
		if t := lookup(piece[sp+1:]); t == Agency || t == Organization {
			return creditPart{piece[sp+1:], s + sp + 1, e, t}, true
		}
	}
	// "Prigozhin Press Service", "Shaam News Network": providers no table
	// knows, told from people by their last word.
	if words := strings.Fields(lower); len(words) >= 2 {
		switch w := words[len(words)-1]; {
		case mediaHeads[w]:
			return creditPart{piece, s, e, Agency}, true
		case orgHeads[w]:
			return creditPart{piece, s, e, Organization}, true
		}
	}
	if looksLikeName(piece) {
		return creditPart{piece, s, e, Photographer}, true
	}
	return creditPart{}, false
}

// looksLikeCredit reports whether seg reads as a photo credit rather than
// caption prose.
func looksLikeCredit(seg string, lookup lookupTerm) bool {
	seg = strings.TrimSpace(seg)
	if seg == "" || len(seg) > 160 {
		return false
	}
	lower := strings.ToLower(strings.TrimLeft(seg, " -—–"))
	for _, p := range creditPrefixes {
		if strings.HasPrefix(lower, p) && p != "via" {
			return true
		}
	}
	if strings.HasPrefix(lower, "via ") && lookup(strings.TrimSpace(seg[strings.Index(strings.ToLower(seg), "via ")+4:])) == Agency {
		return true
	}
	if strings.ContainsRune(seg, '/') {
		// Prose rarely has slashes; a credit has few words between them.
		for piece := range strings.SplitSeq(seg, "/") {
			if len(strings.Fields(piece)) > 6 {
				return false
			}
		}
		return true
	}
	// "(AP Photo, File)".
	if first, _, ok := strings.Cut(seg, ","); ok {
		f := strings.TrimSpace(first)
		for _, suffix := range []string{" Photo", " PHOTO", " photo"} {
			f = strings.TrimSuffix(f, suffix)
		}
		if lookup(f) == Agency {
			return true
		}
	}
	// "(Presidential Press Service via AP, Pool)", "(AP)".
	if i := strings.Index(lower, " via "); i >= 0 {
		return lookup(strings.TrimSpace(strings.Split(seg[i+5:], ",")[0])) == Agency
	}
	return lookup(seg) == Agency
}

// creditBySlash finds a credit such as "REUTERS/Name" that follows the last
// sentence without a full stop. It returns its start, or -1.
func creditBySlash(text string, lookup lookupTerm) int {
	slash := strings.LastIndexByte(text, '/')
	if slash < 0 || strings.ContainsAny(text[slash:], ".!?") {
		return -1
	}
	// Walk back from the slash over the agency word(s).
	i := slash
	for i > 0 && text[i-1] != ' ' && text[i-1] != '\n' && text[i-1] != '(' {
		i--
	}
	if i == slash || lookup(strings.TrimSpace(text[i:slash])) != Agency {
		return -1
	}
	return i
}

// lastSentenceEnd returns the offset just after the last sentence-ending
// punctuation ('.', '!', '?', optionally followed by a closing quote) that
// has text after it, or -1.
func lastSentenceEnd(text string) int {
	for i := len(text) - 2; i >= 0; i-- {
		switch text[i] {
		case '.', '!', '?':
			j := i + 1
			for j < len(text) && (text[j] == '"' || text[j] == '\'' || text[j] == ')') {
				j++
			}
			if j < len(text) && !isAbbrevEnd(text, i) {
				return j
			}
		}
	}
	return -1
}

// isAbbrevEnd reports whether the period at text[i] closes an abbreviation
// or initial ("Sept.", "U.S.", "Jr.") rather than a sentence.
func isAbbrevEnd(text string, i int) bool {
	if text[i] != '.' {
		return false
	}
	j := i
	for j > 0 && (unicode.IsLetter(rune(text[j-1]))) {
		j--
	}
	w := text[j:i]
	if len(w) == 1 && w[0] >= 'A' && w[0] <= 'Z' {
		return true // an initial: "U.S.", "John F. Kennedy"
	}
	return abbreviations[strings.ToLower(w)]
}

var abbreviations = map[string]bool{
	"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true,
	"sep": true, "sept": true, "oct": true, "nov": true, "dec": true,
	"mr": true, "mrs": true, "ms": true, "dr": true, "gen": true, "lt": true, "col": true, "capt": true,
	"sgt": true, "st": true, "jr": true, "sr": true, "no": true, "vs": true, "rep": true, "sen": true,
	"gov": true, "maj": true, "brig": true, "prof": true, "rev": true, "mt": true, "ft": true,
}

// looksLikeName reports whether s reads as a person's name: one to five
// words, each starting with a capital letter or being a name particle.
func looksLikeName(s string) bool {
	words := strings.Fields(s)
	if len(words) == 0 || len(words) > 5 || !isUpperStart(words[0]) {
		return false
	}
	for _, w := range words {
		if !isUpperStart(w) && !nameParticles[strings.ToLower(w)] && !particlePrefixed(w) {
			return false
		}
		for _, r := range w {
			if !unicode.IsLetter(r) && r != '-' && r != '\'' && r != '’' && r != '.' {
				return false
			}
		}
	}
	return true
}

// particlePrefixed reports names such as "al-Khatieb" or "el-Sayed".
func particlePrefixed(w string) bool {
	if i := strings.IndexAny(w, "-'’"); i > 0 {
		return nameParticles[strings.ToLower(w[:i])] && isUpperStart(w[i+1:])
	}
	return false
}

var nameParticles = map[string]bool{
	"al": true, "el": true, "bin": true, "ibn": true, "abu": true, "de": true, "da": true,
	"del": true, "della": true, "di": true, "van": true, "von": true, "der": true, "den": true,
	"la": true, "le": true, "du": true, "des": true, "dos": true, "ben": true, "ter": true,
	"ad": true, "as": true, "ash": true, "az": true, "ar": true, "an": true, "at": true, "ul": true,
}

// matchingOpen returns the index of the '(' that the ')' at close closes, or -1.
func matchingOpen(text string, close int) int {
	depth := 0
	for i := close; i >= 0; i-- {
		switch text[i] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// trimSpan narrows [s, e) to exclude surrounding spaces and separators.
func trimSpan(text string, s, e int) (int, int) {
	for s < e && strings.ContainsRune(" \t\n\r-–—:", rune(text[s])) {
		s++
	}
	for e > s && strings.ContainsRune(" \t\n\r-:.", rune(text[e-1])) {
		e--
	}
	// Multi-byte dashes at the start.
	for s < e && (strings.HasPrefix(text[s:e], "—") || strings.HasPrefix(text[s:e], "–")) {
		s += len("—")
		for s < e && text[s] == ' ' {
			s++
		}
	}
	return s, e
}
