package rdfterm

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/capgraph/capgraph/graph/model"
)

// unquote parses one N-Triples STRING_LITERAL_QUOTE, as a reader would.
func unquote(t *testing.T, lit string) string {
	t.Helper()
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		t.Fatalf("not a quoted literal: %q", lit)
	}
	body := lit[1 : len(lit)-1]
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '"' || c == '\n' || c == '\r':
			t.Fatalf("unescaped %q in %q", c, lit)
		case c != '\\':
			b.WriteByte(c)
		default:
			i++
			switch body[i] {
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case '"', '\\':
				b.WriteByte(body[i])
			case 'u':
				r, err := strconv.ParseUint(body[i+1:i+5], 16, 32)
				if err != nil {
					t.Fatal(err)
				}
				b.WriteRune(rune(r))
				i += 4
			default:
				t.Fatalf("bad escape in %q", lit)
			}
		}
	}
	return b.String()
}

func FuzzString(f *testing.F) {
	for _, s := range []string{"", "plain", `quote " and \ backslash`, "line\nbreak\r\ttab", "é م 😀 \x7f \x01", "\xff\xfe bad utf8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := string(AppendString(nil, s))
		if !utf8.ValidString(out) {
			t.Fatalf("output is not UTF-8: %q", out)
		}
		got := unquote(t, out)
		if utf8.ValidString(s) && got != s {
			t.Fatalf("round trip: %q -> %q -> %q", s, out, got)
		}
	})
}

func FuzzIRI(f *testing.F) {
	for _, s := range []string{"https://capgraph.org/id/photo/x", "a b<c>\"d{e}|f^g`h\\i", "\x00\xff", "https://é.org/مدينة"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := string(AppendIRI(nil, s))
		body := out[1 : len(out)-1]
		if !utf8.ValidString(body) || strings.ContainsAny(body, "<>\"{}|^`\\ \t\n\r\x00") {
			t.Fatalf("IRIREF %q holds a forbidden character", out)
		}
		if !strings.ContainsAny(s, "<>\"{}|^`\\%") && utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return r <= 0x20 }) && body != s {
			t.Fatalf("clean IRI %q changed to %q", s, body)
		}
		// Minted IRIs need no escaping at all.
		if iri := model.EntityIRI(s); string(AppendIRI(nil, iri)) != "<"+iri+">" {
			t.Fatalf("EntityIRI(%q) = %q needs escaping", s, iri)
		}
	})
}

func TestSafeLocal(t *testing.T) {
	for s, want := range map[string]bool{"caption": true, "ArmedGroup": true, "a-b_c1": true, "": false, "1a": false, "a.b": false, "a/b": false} {
		if got := safeLocal(s); got != want {
			t.Errorf("safeLocal(%q) = %v", s, got)
		}
	}
}
