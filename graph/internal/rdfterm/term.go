package rdfterm

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/graph/model"
)

const hexDigits = "0123456789ABCDEF"

// AppendIRI appends iri as an N-Triples/Turtle IRIREF. Characters that an
// IRIREF may not hold (controls, space, <>"{}|^`\) and invalid UTF-8 bytes
// are percent-encoded, so the output always parses; capgraph's own IRIs
// never hold them.
func AppendIRI(b []byte, iri string) []byte {
	b = append(b, '<')
	for i := 0; i < len(iri); {
		c := iri[i]
		if c < utf8.RuneSelf {
			if c <= 0x20 || strings.IndexByte("<>\"{}|^`\\", c) >= 0 {
				b = append(b, '%', hexDigits[c>>4], hexDigits[c&15])
			} else {
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(iri[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, '%', hexDigits[c>>4], hexDigits[c&15])
		} else {
			b = append(b, iri[i:i+n]...)
		}
		i += n
	}
	return append(b, '>')
}

// AppendString appends s as a double-quoted N-Triples/Turtle string with
// the escapes both grammars share. Invalid UTF-8 becomes U+FFFD.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				b = append(b, '\\', '"')
			case '\\':
				b = append(b, '\\', '\\')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				if c < 0x20 || c == 0x7f {
					b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
				} else {
					b = append(b, c)
				}
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, "\\uFFFD"...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}

// Literal gives a value's lexical form and datatype ("" for plain strings),
// or its language tag. Cayley's native numbers and times are given their
// XSD types.
func Literal(v quad.Value) (lex string, dt quad.IRI, lang string) {
	switch v := v.(type) {
	case quad.String:
		return string(v), "", ""
	case quad.TypedString:
		return string(v.Value), v.Type, ""
	case quad.LangString:
		return string(v.Value), "", v.Lang
	case quad.Int:
		return strconv.FormatInt(int64(v), 10), quad.IRI(model.XSDNS + "integer"), ""
	case quad.Float:
		return strconv.FormatFloat(float64(v), 'E', -1, 64), quad.IRI(model.XSDNS + "double"), ""
	case quad.Bool:
		return strconv.FormatBool(bool(v)), quad.IRI(model.XSDNS + "boolean"), ""
	case quad.Time:
		return time.Time(v).UTC().Format(time.RFC3339Nano), model.XSDDateTime, ""
	}
	return v.String(), "", ""
}

// AppendBNode appends a blank node label made safe for N-Triples.
func AppendBNode(b []byte, id string) []byte {
	b = append(b, "_:b"...)
	for _, r := range id {
		if r < utf8.RuneSelf && (r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_') {
			b = append(b, byte(r))
		} else {
			b = append(b, 'x')
			b = strconv.AppendInt(b, int64(r), 16)
		}
	}
	return b
}

// AppendTerm appends v in N-Triples syntax.
func AppendTerm(b []byte, v quad.Value) []byte { return appendValue(b, v, false) }

// AppendTurtle appends v in Turtle syntax, with prefixed names where they
// are safe.
func AppendTurtle(b []byte, v quad.Value) []byte { return appendValue(b, v, true) }

// appendValue writes v as N-Triples, or with prefixed IRIs for Turtle:
// the two syntaxes differ in nothing else capgraph writes.
func appendValue(b []byte, v quad.Value, prefixed bool) []byte {
	switch v := v.(type) {
	case quad.IRI:
		if prefixed {
			if c, ok := Compact(string(v)); ok {
				return append(b, c...)
			}
		}
		return AppendIRI(b, string(v))
	case quad.BNode:
		return AppendBNode(b, string(v))
	}
	lex, dt, lang := Literal(v)
	b = AppendString(b, lex)
	switch {
	case lang != "":
		b = append(b, '@')
		b = append(b, lang...)
	case dt != "":
		b = append(b, '^', '^')
		b = appendValue(b, dt, prefixed)
	}
	return b
}

// Compact returns the prefixed name for iri when one of the declared
// prefixes covers it with a local name that needs no escaping.
func Compact(iri string) (string, bool) {
	for _, p := range model.Prefixes {
		if local, ok := strings.CutPrefix(iri, p.IRI); ok && safeLocal(local) {
			return p.Prefix + ":" + local, true
		}
	}
	return "", false
}

func safeLocal(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && (c >= '0' && c <= '9' || c == '-')) {
			return false
		}
	}
	return true
}
