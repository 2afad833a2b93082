package extract

import (
	"iter"
	"strings"
)

// splitCredit splits a credit segment on "/", "|", ",", ";", line breaks,
// " - ", " via " and " for ", and types each piece.
func splitCredit(text string, start, end int, lookup lookupTerm) []creditPart {
	var parts []creditPart
	for s, e := range creditPieceSpans(text, start, end) {
		ps, _ := classifyCreditPiece(text, s, e, lookup)
		parts = append(parts, ps...)
	}
	return parts
}

// creditPieceSpans yields the pieces of text[start:end] between credit
// separators, past their openings and trimmed, as byte ranges.
func creditPieceSpans(text string, start, end int) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		pieceStart := start
		flush := func(pieceEnd int) bool {
			s, e := stripCreditPrefix(text, pieceStart, pieceEnd)
			if s, e = trimSpan(text, s, e); s < e {
				return yield(s, e)
			}
			return true
		}
		for i := start; i < end; i++ {
			switch {
			case text[i] == '/' || text[i] == ',' || text[i] == ';' || text[i] == '|' || text[i] == '\n':
				if !flush(i) {
					return
				}
				pieceStart = i + 1
			case hasWordAt(text, i, end, " via "), hasWordAt(text, i, end, " for "), hasWordAt(text, i, end, " - "):
				if !flush(i) {
					return
				}
				pieceStart = i + 5
				if text[i+1] == '-' {
					pieceStart = i + 3
				}
				i = pieceStart - 1
			}
		}
		flush(end)
	}
}

// stripCreditPrefix narrows a piece past its opening: "Photo by", "—
// Photo credit:", "© ".
func stripCreditPrefix(text string, s, e int) (int, int) {
	s, e = trimSpan(text, s, e)
	for s < e && (text[s] == '(' || text[s] == '[') {
		s++
	}
	lower := asciiLower(text[s:e])
	for _, p := range creditPrefixes {
		if strings.HasPrefix(lower, p) && (p != "via" || len(lower) > 3 && lower[3] == ' ') {
			return s + len(p), e
		}
	}
	return s, e
}

func hasWordAt(text string, i, end int, w string) bool {
	return i+len(w) <= end && strings.EqualFold(text[i:i+len(w)], w)
}

// classifyCreditPiece types one piece of a credit: an agency (with a
// trailing "Photo" or "PHOTO" outside the span), an organisation, a filler
// word (no part), a photographer's name, or a name and an agency without a
// slash between them ("JANE DOE AFP"). ok is false for a piece that is none
// of these: prose, not a credit.
func classifyCreditPiece(text string, s, e int, lookup lookupTerm) (parts []creditPart, ok bool) {
	piece := text[s:e]
	lower := asciiLower(piece)
	// "VIA EPA-EFE", "Photo Afp": a leading "via" or "photo".
	for _, w := range []string{"via ", "photo ", "photos "} {
		if strings.HasPrefix(lower, w) && (w == "via " || lookup(piece[len(w):]) == Agency) {
			s += len(w)
			s, e = trimSpan(text, s, e)
			piece, lower = text[s:e], asciiLower(text[s:e])
		}
	}
	if creditFiller[lower] || s >= e {
		return nil, true
	}
	// "AP Photo", "AFP PHOTO": only the agency is the span, unless the
	// word is the agency's own ("Magnum Photos").
	for _, suffix := range []string{" photos", " photo", " pictures", " pool"} {
		if strings.HasSuffix(lower, suffix) && lookup(piece) != Agency {
			if t := lookup(piece[:len(piece)-len(suffix)]); t == Agency {
				return []creditPart{{piece[:len(piece)-len(suffix)], s, e - len(suffix), Agency}}, true
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
	case Agency, Organization, ArmedGroup:
		return []creditPart{{piece, s, e, t}}, true
	}
	// "Ukrainian Presidential Press Service": a nationality is not part of
	// the provider's name.
	if sp := strings.IndexByte(piece, ' '); sp > 0 && commonWords[lower[:sp]] {
		if t := lookup(piece[sp+1:]); t == Agency || t == Organization {
			return []creditPart{{piece[sp+1:], s + sp + 1, e, t}}, true
		}
	}
	// "JANE DOE AFP": a name and an agency with only a space between.
	if sp := strings.LastIndexByte(piece, ' '); sp > 0 && lookup(piece[sp+1:]) == Agency && looksLikeName(piece[:sp]) &&
		len(strings.Fields(piece[:sp])) >= 2 {
		return []creditPart{{piece[:sp], s, s + sp, Photographer}, {piece[sp+1:], s + sp + 1, e, Agency}}, true
	}
	// "Prigozhin Press Service", "Shaam News Network": providers no table
	// knows, told from people by their last word.
	if words := strings.Fields(lower); len(words) >= 2 {
		switch w := words[len(words)-1]; {
		case mediaHeads[w]:
			return []creditPart{{piece, s, e, Agency}}, true
		case orgHeads[w] || providerHeads[w]:
			return []creditPart{{piece, s, e, Organization}}, true
		case forceHeads[w]:
			// "U.S. Marine Corps/Handout", "Hellenic Navy": a force that
			// hands a picture out is typed as what it is.
			return []creditPart{{piece, s, e, ArmedGroup}}, true
		}
	}
	if looksLikeName(piece) {
		return []creditPart{{piece, s, e, Photographer}}, true
	}
	return nil, false
}

// providerHeads end the names of offices that hand pictures out.
var providerHeads = set("diwan", "palace", "court", "presidency", "house")

// forceHeads end the names of forces that hand pictures out.
var forceHeads = set("army", "navy", "corps", "forces", "force", "police", "guard", "command", "marines", "military", "gendarmerie")

// looksLikeCredit reports whether seg reads as a photo credit rather than
// caption prose.
func looksLikeCredit(seg string, lookup lookupTerm) bool {
	seg = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(seg), "-—–|©"))
	if seg == "" || len(seg) > 160 {
		return false
	}
	lower := asciiLower(seg)
	if hasCreditPrefix(lower) {
		return true
	}
	if strings.HasPrefix(lower, "via ") && lookup(strings.TrimSpace(seg[4:])) == Agency {
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
	if lookup(seg) == Agency {
		return true
	}
	return creditPieces(seg, lookup)
}

// creditPieces reports whether seg, split as a credit is, is made only of
// credit pieces of at most five words, one of them an agency the tables
// know: "Jane Doe | AFP", "Jane Doe - stringer, ASSOCIATED PRESS", "JANE
// DOE AFP", "Photo Afp".
func creditPieces(seg string, lookup lookupTerm) bool {
	agency := false
	for s, e := range creditPieceSpans(seg, 0, len(seg)) {
		if len(strings.Fields(seg[s:e])) > 5 {
			return false
		}
		parts, ok := classifyCreditPiece(seg, s, e, lookup)
		if !ok {
			return false
		}
		for _, p := range parts {
			agency = agency || p.typ == Agency && lookup(p.text) == Agency
		}
	}
	return agency
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
