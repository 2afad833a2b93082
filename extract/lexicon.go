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

// A trie maps folded token sequences to the names that spell them. Tokens
// are interned to small integers, and the whole tree is one hash map from
// (node, token) to child node: smaller and faster to build than a tree of
// maps. Matching walks it one caption token at a time.
type trie struct {
	tokens map[string]uint32 // folded token -> token id
	edges  map[uint64]int32  // node<<32 | token id -> child node
	refs   [][]ref           // by node; node 0 is the root
}

func (t *trie) tokenID(tok string) uint32 {
	id, ok := t.tokens[tok]
	if !ok {
		id = uint32(len(t.tokens))
		t.tokens[tok] = id
	}
	return id
}

func (t *trie) add(toks []uint32, r ref) {
	node := int32(0)
	for _, tok := range toks {
		k := uint64(node)<<32 | uint64(tok)
		next, ok := t.edges[k]
		if !ok {
			next = int32(len(t.refs))
			t.refs = append(t.refs, nil)
			t.edges[k] = next
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

// id returns the id of a folded caption token, or -1 when no name has it.
// A caption's tokens are looked up once, not once per trie walk.
func (t *trie) id(tok string) int64 {
	if id, ok := t.tokens[tok]; ok {
		return int64(id)
	}
	return -1
}

// step follows the edge for a token id from node.
func (t *trie) step(node int32, id int64) (int32, bool) {
	if id < 0 {
		return 0, false
	}
	next, ok := t.edges[uint64(node)<<32|uint64(id)]
	return next, ok
}

// nameTokens splits a table name the way captions are split, folds each
// token and appends its id to dst. ASCII names, nearly all of them, take a
// fast path that allocates only for tokens the trie has not seen.
func (t *trie) nameTokens(dst []uint32, name string) []uint32 {
	if !isASCII(name) {
		for _, tok := range tokenize(name) {
			dst = append(dst, t.tokenID(foldToken(tok)))
		}
		return dst
	}
	var buf [64]byte
	w := buf[:0]
	flush := func() {
		if len(w) > 0 {
			id, ok := t.tokens[string(w)] // no allocation for the look-up
			if !ok {
				id = t.tokenID(string(w))
			}
			dst = append(dst, id)
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

// foldToken returns the form of a token used for look-ups: lower case
// without diacritics. ASCII tokens, nearly all of them, skip the Unicode
// machinery.
func foldToken(t token) string {
	if !isASCII(t.text) {
		return gazetteer.Fold(t.text)
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

// maxNameTokens bounds the names the trie holds, and so the walk from each
// token: the longest the tables name is ten words ("Armed Forces of the
// Democratic Republic of the Congo").
const maxNameTokens = 12

// buildTrie indexes every gazetteer, group and term name of data, whose
// index ix is.
func buildTrie(data *gazetteer.Data, ix *gazetteer.Index) *trie {
	n := 0
	ix.Names(func(string, gazetteer.NameKind, int) bool { n++; return true })
	// Most names add one or two edges; sizing for that avoids rehashing.
	t := &trie{tokens: make(map[string]uint32, n/2), edges: make(map[uint64]int32, n*3/2), refs: make([][]ref, 1, n*3/2)}
	the := t.tokenID("the")
	var toks []uint32
	ix.Names(func(name string, kind gazetteer.NameKind, idx int) bool {
		toks = t.nameTokens(toks[:0], name)
		// "the White Helmets": the article is never part of a span. But
		// a place's other name of one word after it is a nickname, which
		// without its article is an ordinary word: Nenagh's "The
		// Meeting", Detroit's "The D". It is left out.
		if len(toks) == 2 && toks[0] == the && kind == gazetteer.PlaceName && data.Places[idx].Name != name {
			return true
		}
		if len(toks) > 1 && toks[0] == the {
			toks = toks[1:]
		}
		if len(toks) == 0 || len(toks) > maxNameTokens {
			return true
		}
		t.add(toks, ref{kind: kind, idx: int32(idx), acronym: isAcronymName(strings.TrimSpace(name))})
		return true
	})
	return t
}
