package queries

import (
	"fmt"
	"strconv"
	"strings"
)

// SPARQLMarker is the line of a saved SPARQL query that [Query.BindSPARQL]
// replaces with the parameters' VALUES blocks.
const SPARQLMarker = "#params"

// BindSPARQL checks values as [Query.BindVariants] does and returns q's
// SPARQL query with its "#params" line replaced by one VALUES block per
// parameter: VALUES ?param_NAME { ... }. Strings become escaped literals
// (one per spelling, for parameters that name entities, and <IRI> for a
// capgraph IRI); ints become integers, dates xsd:date literals and an
// empty optional int or date UNDEF.
func (q Query) BindSPARQL(values map[string]string, variants map[string][]string) (string, error) {
	if q.SPARQL == "" {
		return "", fmt.Errorf("query %s has no SPARQL version", q.Name)
	}
	vals, err := q.values(values)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, p := range q.Params {
		fmt.Fprintf(&b, "  VALUES ?param_%s {", p.Name)
		switch v := vals[p.Name].(type) {
		case nil:
			b.WriteString(" UNDEF")
		case int64:
			b.WriteString(" " + strconv.FormatInt(v, 10))
		case string:
			switch {
			case p.Type == "date":
				b.WriteString(" " + SPARQLString(v) + "^^<http://www.w3.org/2001/XMLSchema#date>")
			case p.Resolve != "" && v != "":
				for _, s := range Spellings(append([]string{v}, variants[p.Name]...)...) {
					if strings.HasPrefix(s, "<") {
						b.WriteString(" " + s)
					} else {
						b.WriteString(" " + SPARQLString(s))
					}
				}
			default:
				b.WriteString(" " + SPARQLString(v))
			}
		}
		b.WriteString(" }\n")
	}
	var out strings.Builder
	found := false
	for line := range strings.Lines(q.SPARQL) {
		if !found && strings.TrimSpace(line) == SPARQLMarker {
			out.WriteString(b.String())
			found = true
			continue
		}
		out.WriteString(line)
	}
	if !found && len(q.Params) > 0 {
		return "", fmt.Errorf("query %s: SPARQL has no %s line", q.Name, SPARQLMarker)
	}
	return out.String(), nil
}

// SPARQLString returns s as a SPARQL double-quoted string literal: quote,
// backslash, newline, carriage return, tab, backspace and form feed take
// their ECHAR escapes and other control characters \u escapes. (A \u escape
// of a quote would not do: SPARQL decodes \u before parsing.)
func SPARQLString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
