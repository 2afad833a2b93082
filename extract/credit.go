package extract

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A creditPart is one name in a photo credit, in byte offsets of the caption.
type creditPart struct {
	text       string
	start, end int
	typ        EntityType // Agency, Photographer or Organization
}

// A credit is the parsed credit of a caption: the line at its end, and
// sometimes a line before it ("Jane Doe / Reuters\n\nA man walks ...").
type credit struct {
	start     int // byte offset where the trailing credit begins; len(text) when there is none
	descStart int // byte offset where the description begins: after a leading credit or label
	parts     []creditPart
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
	"anonymous": true, "supplied": true, "via": true, "file photo": true, "files": true,
	"handout photo": true,
}

// Openings that introduce a credit ("Photo by", "Photograph:"), longest first
// where one opens another.
var creditPrefixes = []string{
	"photo credit should read", "photo credit:", "photo credit", "credit should read",
	"photo courtesy of", "courtesy of", "photographs by", "photograph by", "photographs:",
	"photograph:", "photos by", "photo by", "all photos:", "all pictures:", "photos:", "photo:",
	"pictures:", "picture:", "picture by", "photographer:", "credit:", "image:", "©", "via",
}

// creditOpenings are the prefixes that mark a credit wherever they stand
// near the end of a caption, even without a sentence end before them.
var creditOpenings = []string{
	"photo credit should read", "photo credit:", "photo courtesy of", "photograph by",
	"photograph:", "photo by", "photos by", "photo:", "photos:", "photographer:", "credit:", "©",
}

// Wire boilerplate after an EPA, Reuters or handout credit: "HANDOUT
// EDITORIAL USE ONLY/NO SALES", "-- MANDATORY CREDIT --", "TPX IMAGES OF
// THE DAY", "SEARCH "WIDER IMAGE" FOR THIS STORY.". It is neither credit
// nor caption.
var creditBoilerplate = []string{
	"editorial use only", "no sales", "no archives", "no resales", "mandatory credit",
	"best quality available", "restricted to editorial use", "not for sale", "handout",
	"tpx images of the day", "images of the day", `search "wider image" for this story.`,
	`search "wider image" for all stories.`, `search "wider image" for this story`, `search "wider image" for all stories`,
}

// Labels that open a caption without being part of it: "TOPSHOT - ",
// "FILE - ", "(FILES) ", "epaselect ", "epa11258259 ".
var captionLabels = []string{"topshot", "file photo", "file", "(files)", "epaselect", "editor's note:"}

// parseCredit finds the credit of a caption in its real styles:
// "REUTERS/Name", "(Photo by Name/Agency)", "[Name/Reuters]", "(AP
// Photo/Name, file)", "/ AFP / NAME", "Name/AFP/Getty Images" on its own
// line or split over lines, "EPA-EFE/NAME" with its boilerplate, "Photo
// credit: Name | AFP", "© NAME/AFP", "NAME AFP", "Name/Org/Handout via
// REUTERS", "All photos: Reuters", a photographer's name glued to the last
// sentence ("...Syria.Jane Doe") and a credit line printed before the
// caption.
func parseCredit(text string, lookup lookupTerm) credit {
	c := credit{start: len(text)}
	c.descStart = leadLabels(text, 0)
	if start, parts := leadingCredit(text, lookup); start > 0 {
		c.descStart = leadLabels(text, start)
		c.parts = parts
	}
	end := trimBoilerplate(text, trimDecoration(text, len(text)))
	if end <= c.descStart {
		return c
	}
	start, parts := trailingCredit(text, c.descStart, end, lookup)
	if start >= 0 {
		c.start = start
		c.parts = append(c.parts, parts...)
	}
	c.parts = dedupeParts(c.parts)
	return c
}

// trailingCredit finds the credit that ends text[:end], not before from. It
// returns its start and parts, or -1.
func trailingCredit(text string, from, end int, lookup lookupTerm) (int, []creditPart) {
	end = from + len(strings.TrimRightFunc(text[from:end], unicode.IsSpace))
	if end <= from {
		return -1, nil
	}
	// Closing groups: "(AP Photo/Name)", "[Name/Reuters]", and a second one
	// before it: "(Photo by X / AFP) (Photo credit should read X/AFP via Getty Images)".
	start := -1
	var parts []creditPart
	for e := end; e > from && (text[e-1] == ')' || text[e-1] == ']'); {
		open := matchingOpen(text, e-1)
		if open < from || !looksLikeCredit(text[open+1:e-1], lookup) {
			break
		}
		ps := splitCredit(text, open+1, e-1, lookup)
		if len(ps) == 0 {
			break
		}
		start, parts = open, append(ps, parts...)
		e = from + len(strings.TrimRightFunc(text[from:open], unicode.IsSpace))
	}
	if start >= 0 {
		return start, parts
	}
	segStart, glued := findCreditSegment(text, from, end, lookup)
	if segStart < 0 {
		return -1, nil
	}
	if glued {
		s, e := trimSpan(text, segStart, end)
		return segStart, []creditPart{{text[s:e], s, e, Photographer}}
	}
	parts = splitCredit(text, segStart, end, lookup)
	if len(parts) == 0 {
		return -1, nil
	}
	if segStart > from && (text[segStart-1] == '(' || text[segStart-1] == '[') {
		segStart--
	}
	return segStart, parts
}

// findCreditSegment finds where a trailing credit without brackets starts.
// glued reports a photographer's name glued to the last sentence.
func findCreditSegment(text string, from, end int, lookup lookupTerm) (start int, glued bool) {
	// An opening such as "© ", "Photo: " or "Photo credit:" near the end,
	// with no sentence after it: "... on July 24 / Photo: Jane Doe for X".
	if s := lastOpening(text, from, end); s >= 0 {
		return s, false
	}
	// The last lines of a multi-line caption: "\nName/AFP/Getty Images",
	// or one credit split over lines ("\nJANE DOE\n/\nAFP").
	if nl := strings.LastIndexByte(text[from:end], '\n'); nl >= 0 {
		s := from + nl + 1
		if looksLikeCredit(text[s:end], lookup) {
			for s > from {
				prev := strings.LastIndexByte(text[from:s-1], '\n')
				ps := from + prev + 1
				line := strings.TrimSpace(text[ps : s-1])
				next := strings.TrimSpace(text[s:end])
				if line == "" || len(line) > 60 || !(line == "/" || strings.HasSuffix(line, "/") || strings.HasPrefix(next, "/")) {
					break
				}
				s = ps
			}
			return s, false
		}
	}
	// What follows the last sentence: ". REUTERS/Name", ". / AFP / NAME",
	// ". - AP", ". JANE DOE AFP".
	if i := lastSentenceEnd(text[:end]); i > from {
		tail := text[i:end]
		switch {
		case looksLikeCredit(tail, lookup):
			return i, false
		case !unicode.IsSpace(rune(text[i-1])) && isUpperStart(tail) && looksLikeName(tail):
			// "...in Aleppo, Syria.Jane Doe": a glued photographer credit.
			return i, true
		}
	}
	// A credit that starts the final sentence without a full stop before
	// it: "... Syria REUTERS/Name" is found by looking back from the first
	// slash for an agency name.
	if s := creditBySlash(text[:end], lookup); s >= from {
		return s, false
	}
	return -1, false
}

// lastOpening returns the offset of the last credit opening in
// text[from:end] that only a short credit follows, or -1.
func lastOpening(text string, from, end int) int {
	// Only an opening near the end can have a short credit after it.
	from = max(from, end-160)
	lower := asciiLower(text[from:end])
	best := -1
	for _, o := range creditOpenings {
		k := strings.LastIndex(lower, o)
		if k < 0 || k <= best {
			continue
		}
		if k > 0 && o != "©" {
			if r := lower[k-1]; r != ' ' && r != '\n' && r != '(' && r != '[' && r != '/' && r != '|' && r != '.' && r != '-' {
				continue
			}
		}
		rest := strings.TrimSpace(text[from+k+len(o) : end])
		if rest == "" || len(rest) > 120 || strings.Contains(rest, "\n\n") || lastSentenceEnd(rest) >= 0 {
			continue
		}
		best = k
	}
	if best < 0 {
		return -1
	}
	// Take the ASCII separators before the opening with it: "... 24 /
	// Photo:". A dash of several bytes stays with the caption.
	s := from + best
	for s > from && strings.IndexByte(" /|-\n", text[s-1]) >= 0 {
		s--
	}
	return s
}

// leadingCredit finds a credit printed on the caption's first line, before
// the description: "Jane Doe / Reuters / Scanpix\n\nA man walks ...". It
// returns where the description begins and the credit's parts, or 0.
func leadingCredit(text string, lookup lookupTerm) (int, []creditPart) {
	nl := strings.IndexByte(text, '\n')
	if nl <= 0 || nl > 120 {
		return 0, nil
	}
	line := strings.TrimSpace(text[:nl])
	rest := strings.TrimSpace(text[nl:])
	if rest == "" || !strings.ContainsAny(line, "/|") && !hasCreditPrefix(asciiLower(line)) {
		return 0, nil
	}
	if !looksLikeCredit(line, lookup) || lastSentenceEnd(line+" x") >= 0 {
		return 0, nil
	}
	parts := splitCredit(text, 0, nl, lookup)
	hasAgency := false
	for _, p := range parts {
		hasAgency = hasAgency || p.typ == Agency
	}
	if !hasAgency {
		return 0, nil
	}
	start := nl
	for start < len(text) && unicode.IsSpace(rune(text[start])) {
		start++
	}
	return start, parts
}

// leadLabels returns the offset after the labels that open a caption at
// from: "TOPSHOT - ", "(FILES) ", "epa11258259 ".
func leadLabels(text string, from int) int {
	i := from
	for {
		for i < len(text) && unicode.IsSpace(rune(text[i])) {
			i++
		}
		rest := asciiLower(text[i:min(len(text), i+24)]) // labels are short
		n := 0
		for _, l := range captionLabels {
			if strings.HasPrefix(rest, l) {
				n = len(l)
				break
			}
		}
		if n == 0 && strings.HasPrefix(rest, "epa") {
			k := 3
			for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
				k++
			}
			if k > 3 {
				n = k
			}
		}
		if n == 0 {
			return i
		}
		j := i + n
		// A label ends at a separator: "TOPSHOT -", "FILE -", "(FILES)".
		k := j
		for k < len(text) && text[k] == ' ' {
			k++
		}
		switch {
		case strings.HasPrefix(text[k:], "- "), strings.HasPrefix(text[k:], "– "), strings.HasPrefix(text[k:], "— "):
			_, size := utf8.DecodeRuneInString(text[k:])
			j = k + size
		case strings.HasSuffix(rest[:n], ")"), strings.HasPrefix(rest, "epa"), strings.HasSuffix(rest[:n], ":"):
			if j < len(text) && text[j] != ' ' && text[j] != '\n' {
				return i
			}
		default:
			return i
		}
		i = j
	}
}

// trimDecoration returns end moved back over what may follow a caption's
// last word without being part of it: emoji and other symbols, the
// invisible characters that join or vary them, and spaces.
func trimDecoration(text string, end int) int {
	return len(strings.TrimRightFunc(text[:end], func(r rune) bool {
		return unicode.IsSpace(r) || unicode.In(r, unicode.So, unicode.Sk, unicode.Cf, unicode.Me) || r == '\uFE0E' || r == '\uFE0F'
	}))
}

// trimBoilerplate returns end less the wire boilerplate and separators
// that close text[:end]: "... EPA/NAME HANDOUT -- MANDATORY CREDIT --
// EDITORIAL USE ONLY/NO SALES" ends at "NAME".
func trimBoilerplate(text string, end int) int {
	cut, strong := end, false
	for {
		e := len(strings.TrimRight(text[:cut], " \t\n\r-–—/|"))
		found := false
		for _, b := range creditBoilerplate {
			if e < len(b) || !strings.EqualFold(text[e-len(b):e], b) || e > len(b) && isLetterByte(text[e-len(b)-1]) {
				continue
			}
			if b == "handout" && !strong {
				continue // "... Handout" alone may be a credit word the parser wants
			}
			strong, cut, found = true, e-len(b), true
			break
		}
		if !found {
			if strong {
				return e
			}
			return end
		}
	}
}

func hasCreditPrefix(lower string) bool {
	lower = strings.TrimLeft(lower, " -—–|(")
	for _, p := range creditPrefixes {
		if strings.HasPrefix(lower, p) && p != "via" {
			return true
		}
	}
	return false
}

// dedupeParts drops a part that repeats an earlier one's text and type:
// "(Photo by X / AFP) (Photo credit should read X/AFP via Getty Images)"
// credits X and AFP once.
func dedupeParts(parts []creditPart) []creditPart {
	var out []creditPart
	for _, p := range parts {
		if !slices.ContainsFunc(out, func(q creditPart) bool { return q.typ == p.typ && q.text == p.text }) {
			out = append(out, p)
		}
	}
	return out
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
	return abbreviations[asciiLower(w)]
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
		if !isUpperStart(w) && !nameParticles[asciiLower(w)] && !particlePrefixed(w) {
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
		return nameParticles[asciiLower(w[:i])] && isUpperStart(w[i+1:])
	}
	return false
}

var nameParticles = map[string]bool{
	"al": true, "el": true, "bin": true, "ibn": true, "abu": true, "de": true, "da": true,
	"del": true, "della": true, "di": true, "van": true, "von": true, "der": true, "den": true,
	"la": true, "le": true, "du": true, "des": true, "dos": true, "ben": true, "ter": true,
	"ad": true, "as": true, "ash": true, "az": true, "ar": true, "an": true, "at": true, "ul": true,
}

// matchingOpen returns the index of the '(' or '[' that the ')' or ']' at
// close closes, or -1.
func matchingOpen(text string, close int) int {
	closer := text[close]
	opener := byte('(')
	if closer == ']' {
		opener = '['
	}
	depth := 0
	for i := close; i >= 0; i-- {
		switch text[i] {
		case closer:
			depth++
		case opener:
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

// asciiLower lower-cases ASCII letters only, so that every byte offset in
// the result is the same offset in s: the credit parser matches English
// words in a lower-cased copy and cuts the original at the same places.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
