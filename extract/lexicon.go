package extract

import (
	"strings"

	"github.com/capgraph/capgraph/extract/gazetteer"
)

// A ref is what one name in the token trie stands for.
type ref struct {
	kind    gazetteer.NameKind
	idx     int32
	acronym bool // the name is an all-caps abbreviation: the caption must write it in capitals too
}

type edge struct {
	from int32
	tok  string
}

// A trie maps folded token sequences to the names that spell them. It is a
// single hash map of edges, which is smaller and faster to build than a tree
// of maps; matching walks it one caption token at a time.
type trie struct {
	edges map[edge]int32
	refs  [][]ref // by node; node 0 is the root
}

func (t *trie) add(toks []string, r ref) {
	node := int32(0)
	for _, tok := range toks {
		next, ok := t.edges[edge{node, tok}]
		if !ok {
			next = int32(len(t.refs))
			t.refs = append(t.refs, nil)
			t.edges[edge{node, tok}] = next
		}
		node = next
	}
	for _, have := range t.refs[node] {
		if have.kind == r.kind && have.idx == r.idx {
			return
		}
	}
	t.refs[node] = append(t.refs[node], r)
}

func (t *trie) step(node int32, tok string) (int32, bool) {
	next, ok := t.edges[edge{node, tok}]
	return next, ok
}

// nameTokens splits a table name the way captions are split, folded, and
// appends the tokens to dst. ASCII names, nearly all of them, take a fast
// path; intern shares the token strings between names.
func nameTokens(dst []string, name string, intern map[string]string) []string {
	ascii := true
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if !ascii {
		for _, t := range tokenize(name) {
			dst = append(dst, internString(intern, foldToken(t)))
		}
		return dst
	}
	var buf [64]byte
	w := buf[:0]
	flush := func() {
		if len(w) > 0 {
			dst = append(dst, internBytes(intern, w))
			w = w[:0]
		}
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			w = append(w, c)
		case c >= 'A' && c <= 'Z':
			w = append(w, c+'a'-'A')
		default:
			flush()
		}
	}
	flush()
	return dst
}

func internBytes(m map[string]string, b []byte) string {
	if s, ok := m[string(b)]; ok { // no allocation for the look-up
		return s
	}
	s := string(b)
	m[s] = s
	return s
}

func internString(m map[string]string, s string) string {
	if have, ok := m[s]; ok {
		return have
	}
	m[s] = s
	return s
}

// foldToken returns the form of a token used for look-ups: lower case
// without diacritics. ASCII tokens, nearly all of them, skip the Unicode
// machinery.
func foldToken(t token) string {
	for i := 0; i < len(t.text); i++ {
		if t.text[i] >= 0x80 {
			return gazetteer.Fold(t.text)
		}
	}
	return t.lower
}

// isAcronymName reports whether a table name is an abbreviation such as
// "FSA", "IS" or "AP", which must match capitals only: "is" and "Is" are words.
func isAcronymName(name string) bool {
	letters := 0
	for _, r := range name {
		switch {
		case r >= 'A' && r <= 'Z':
			letters++
		case r == '-' || r == '.' || r == ' ' || (r >= '0' && r <= '9'):
		default:
			return false
		}
	}
	return letters >= 1 && letters <= 6
}

// buildTrie indexes every gazetteer, group and term name.
func buildTrie(ix *gazetteer.Index) *trie {
	n := 0
	ix.Names(func(string, gazetteer.NameKind, int) bool { n++; return true })
	// Most names add one or two edges; sizing for that avoids rehashing.
	t := &trie{edges: make(map[edge]int32, n*3/2), refs: make([][]ref, 1, n*3/2)}
	intern := make(map[string]string, n/2)
	var toks []string
	ix.Names(func(name string, kind gazetteer.NameKind, idx int) bool {
		toks = nameTokens(toks[:0], name, intern)
		// "the White Helmets": the article is never part of a span.
		if len(toks) > 1 && toks[0] == "the" {
			toks = toks[1:]
		}
		if len(toks) == 0 || len(toks) > 8 {
			return true
		}
		t.add(toks, ref{kind: kind, idx: int32(idx), acronym: isAcronymName(strings.TrimSpace(name))})
		return true
	})
	return t
}
