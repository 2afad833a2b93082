// Package queries holds capgraph's saved queries: Gizmo programs embedded
// in the binary, each with a comment header that names its parameters, and
// beside each an equivalent SPARQL query for other triple stores. Users add
// their own from a directory ([Load]); theirs override built-ins of the same
// name. The package only knows query text: running a query is the graph
// store's job.
//
// # Header
//
// A saved query is a file NAME.gizmo. Its name is the file name; its header
// is the run of // comment lines at the top:
//
//	// Photos taken in a place or anywhere inside it.
//	//
//	// Free text: any further lines up to the first param: line are the
//	// query's documentation.
//	//
//	// param: place string required resolve=place example=Idlib  Place name, alias or IRI
//	// param: limit int default=100  Most rows to return; 0 means all
//	// columns: photo id date place place_label
//
// The first line is the one-line description. A param line gives the
// parameter's name ([a-z][a-z0-9_]*), its type (string, int or date, a date
// being YYYY-MM-DD), then options: required, default=V, example=V and
// resolve=place|group|entity (a name the runner may expand with gazetteer
// spellings); V may be a Go-quoted string. The rest of the line describes the
// parameter. The columns line names the keys of each result row, in order.
//
// # Shared helpers
//
// Between the params line and the query's text the runner places lib.js,
// the helper functions every query may call (P, label, named, within,
// emitSorted, ...); a user's query can use them too.
//
// # Parameters are data, never code
//
// Cayley's Gizmo session has no parameter binding API, so [Query.Bind]
// never edits the query text. It prepends one generated line:
//
//	var params = Object.freeze(JSON.parse("{\"place\":\"Idlib\",\"$names\":{...}}"));
//
// The JSON document holds every parameter, checked against its type and
// with defaults filled in (ints as numbers, strings and dates as strings).
// It is written as a JavaScript string literal by a strict encoder that
// escapes quotes, backslashes, every control character, U+2028, U+2029 and
// "</" and anything outside ASCII, so whatever a user passes is parsed by
// JSON.parse as a value and can never end the literal. A query reads
// params.place; it never evaluates it. params.$names holds, for each
// parameter that names an entity, the spellings to look up: the value and
// its case variants, plus any the runner adds ([Query.BindVariants]), with
// values that Cayley would read as an IRI, blank node or typed literal
// dropped, and capgraph IRIs written as <IRI>.
//
// # SPARQL
//
// sparql/NAME.rq answers the same question over the N-Quads export in any
// SPARQL 1.1 store: every pattern names its graph, as stores with default
// settings do not merge named graphs into the default graph, and places
// inside places are read from the containment graph that the export
// derives (docs/model.md, "Querying the export"). Its parameters are one
// VALUES block per parameter, which [Query.BindSPARQL] writes in place of
// the line "#params" with escaped literals (capgraph query show NAME
// --sparql -p k=v prints the result).
//
// # SQL
//
// sql/NAME.sql answers the same question on a PostgreSQL store in one
// statement over the two tables of Cayley's SQL backend, nodes (hash,
// value_string, datatype, iri, ...) and quads (subject_hash,
// predicate_hash, object_hash, label_hash), so that PostgreSQL does the
// joins where Cayley would walk them a node at a time; the runner uses it
// instead of the Gizmo query there. It returns the query's columns in
// order, its rows sorted and cut as the Gizmo query's are. Its text holds
// no values: [Query.BindSQL] replaces these tokens with placeholders ($1,
// $2, ...) and returns their values beside the text:
//
//	<https://schema.org/name>  an IRI, bound as its node's hash
//	@name                     the parameter's value: text, a bigint, or NULL when empty
//	@name.names               the node hashes of the literal spellings of a parameter
//	                          that names an entity (params.$names of the Gizmo query)
//	@name.iris                the node hashes of the <IRI>s among those spellings
//
// Tokens are read anywhere in the text, comments and string literals
// included, so a twin keeps them out of those.
package queries

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/capgraph/capgraph/graph/model"
)

// Param is one parameter of a saved query.
type Param struct {
	Name        string // [a-z][a-z0-9_]*
	Type        string // "string", "int" (a count: 0 or more) or "date" (YYYY-MM-DD)
	Default     string // used when the parameter is not given; "" with Required false means empty
	Example     string // a value to show in help; may be ""
	Description string // one line
	Required    bool
	// Resolve is "place", "group" or "entity" when the value names a
	// thing that a gazetteer may know under other spellings; "" otherwise.
	Resolve string
}

// Query is one saved query.
type Query struct {
	Name        string   // the file name without .gizmo
	Description string   // one line
	Doc         string   // further documentation; may be ""
	Text        string   // the Gizmo program, header included
	Params      []Param  // in header order
	Columns     []string // keys of each result row, in order
	SPARQL      string   // the equivalent SPARQL query; "" when there is none
	SQL         string   // the same query for a PostgreSQL store (see [Query.BindSQL]); "" when there is none
	Builtin     bool     // embedded in the binary rather than loaded from a directory
}

// ErrUnknown reports a query name that no saved query has.
var ErrUnknown = errors.New("unknown query")

// A ParamError reports a parameter value that is missing, unknown or of
// the wrong type.
type ParamError struct {
	Query, Param string
	Err          error
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("query %s: parameter %s: %v", e.Query, e.Param, e.Err)
}

func (e *ParamError) Unwrap() error { return e.Err }

// Sentinels that a [ParamError] wraps.
var (
	ErrMissingParam = errors.New("required parameter missing")
	ErrUnknownParam = errors.New("no such parameter")
	ErrBadValue     = errors.New("bad value")
)

// lib is lib.js: helper functions every saved query may call (P, label,
// named, within, emitSorted, ...), kept in one place instead of twelve.
//
//go:embed lib.js
var lib string

//go:embed *.gizmo sparql/*.rq sql/*.sql
var files embed.FS

// Builtin returns the saved queries embedded in the binary, sorted by name.
func Builtin() []Query {
	qs, err := loadFS(files, ".", true)
	if err != nil {
		panic("queries: embedded query: " + err.Error()) // tested
	}
	return qs
}

// Load returns the built-in queries and those in dir (NAME.gizmo files,
// with optional sparql/NAME.rq and sql/NAME.sql beside them), sorted by name; a query in
// dir replaces a built-in of the same name. dir "" means built-ins only;
// a dir that is not a directory is an error. Files of dir that do not
// parse are left out and reported in a [*BrokenError], returned with the
// queries that did: one bad file does not take the others away.
func Load(dir string) ([]Query, error) {
	qs := Builtin()
	if dir == "" {
		return qs, nil
	}
	if fi, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("queries: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("queries: %s is not a directory", dir)
	}
	user, err := loadFS(os.DirFS(dir), ".", false)
	var broken *BrokenError
	if err != nil && !errors.As(err, &broken) {
		return nil, fmt.Errorf("queries: load %s: %w", dir, err)
	}
	if broken != nil {
		broken.Dir = dir
	}
	for _, u := range user {
		if i := slices.IndexFunc(qs, func(q Query) bool { return q.Name == u.Name }); i >= 0 {
			qs[i] = u
		} else {
			qs = append(qs, u)
		}
	}
	slices.SortFunc(qs, func(a, b Query) int { return strings.Compare(a.Name, b.Name) })
	if broken != nil {
		return qs, broken
	}
	return qs, nil
}

// A BrokenError reports the query files of a directory that did not
// parse, by query name.
type BrokenError struct {
	Dir   string
	Files map[string]error
}

func (e *BrokenError) Error() string {
	names := slices.Sorted(maps.Keys(e.Files))
	msgs := make([]string, len(names))
	for i, n := range names {
		msgs[i] = fmt.Sprintf("%s: %v", filepath.Join(e.Dir, n+".gizmo"), e.Files[n])
	}
	return "queries: left out: " + strings.Join(msgs, "; ")
}

func loadFS(fsys fs.FS, dir string, builtin bool) ([]Query, error) {
	names, err := fs.Glob(fsys, filepath.Join(dir, "*.gizmo"))
	if err != nil {
		return nil, err
	}
	var qs []Query
	var broken *BrokenError
	for _, p := range names {
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(filepath.Base(p), ".gizmo")
		q, err := parseFS(fsys, dir, name, string(b))
		if err != nil {
			if builtin {
				return nil, err
			}
			if broken == nil {
				broken = &BrokenError{Files: map[string]error{}}
			}
			broken.Files[name] = err
			continue
		}
		q.Builtin = builtin
		qs = append(qs, q)
	}
	slices.SortFunc(qs, func(a, b Query) int { return strings.Compare(a.Name, b.Name) })
	if broken != nil {
		return qs, broken
	}
	return qs, nil
}

// parseFS parses the query name of dir from its text, with its twins from
// sparql/ and sql/ beside it, if there.
func parseFS(fsys fs.FS, dir, name, text string) (Query, error) {
	q, err := Parse(name, text)
	if err != nil {
		return q, err
	}
	if b, err := fs.ReadFile(fsys, filepath.Join(dir, "sparql", name+".rq")); err == nil {
		q.SPARQL = string(b)
	}
	if b, err := fs.ReadFile(fsys, filepath.Join(dir, "sql", name+".sql")); err == nil {
		q.SQL = string(b)
		if err := q.checkSQL(); err != nil {
			return q, err
		}
	}
	return q, nil
}

// Lookup returns the query of qs with the given name.
func Lookup(qs []Query, name string) (Query, bool) {
	for _, q := range qs {
		if q.Name == name {
			return q, true
		}
	}
	return Query{}, false
}

// Param returns q's parameter with the given name.
func (q Query) Param(name string) (Param, bool) {
	for _, p := range q.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

var (
	nameRE  = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)
	paramRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
)

// Parse reads a saved query named name from its text. It reports a header
// that lacks a description, a malformed param line, a duplicate parameter or
// a default of the wrong type.
func Parse(name, text string) (Query, error) {
	q := Query{Name: name, Text: text}
	if !nameRE.MatchString(name) {
		return q, fmt.Errorf("query %q: name must match %s", name, nameRE)
	}
	var doc []string
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		if !strings.HasPrefix(line, "//") {
			break
		}
		body := strings.TrimPrefix(strings.TrimPrefix(line, "//"), " ")
		switch {
		case strings.HasPrefix(body, "param:"):
			p, err := parseParam(strings.TrimSpace(strings.TrimPrefix(body, "param:")))
			if err != nil {
				return q, fmt.Errorf("query %s: %w", name, err)
			}
			if _, dup := q.Param(p.Name); dup {
				return q, fmt.Errorf("query %s: parameter %s declared twice", name, p.Name)
			}
			q.Params = append(q.Params, p)
		case strings.HasPrefix(body, "columns:"):
			q.Columns = strings.Fields(strings.TrimPrefix(body, "columns:"))
		case q.Description == "":
			q.Description = strings.TrimSpace(body)
		default:
			doc = append(doc, body)
		}
	}
	if q.Description == "" {
		return q, fmt.Errorf("query %s: header has no description line", name)
	}
	q.Doc = strings.TrimSpace(strings.Join(doc, "\n"))
	return q, nil
}

var types = []string{"string", "int", "date"}

func parseParam(s string) (Param, error) {
	var p Param
	next := func() (string, bool, error) { // one token, unquoting a quoted value
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return "", false, nil
		}
		end := strings.IndexAny(s, " \t")
		if end < 0 {
			end = len(s)
		}
		if i := strings.IndexByte(s[:end], '='); i >= 0 && i+1 < len(s) && s[i+1] == '"' {
			pre, err := strconv.QuotedPrefix(s[i+1:])
			if err != nil {
				return "", false, err
			}
			end = i + 1 + len(pre)
		}
		tok := s[:end]
		s = s[end:]
		return tok, true, nil
	}
	name, _, _ := next()
	typ, _, _ := next()
	if !paramRE.MatchString(name) {
		return p, fmt.Errorf("param %q: name must match %s", name, paramRE)
	}
	if !slices.Contains(types, typ) {
		return p, fmt.Errorf("param %s: type %q is not one of string, int, date", name, typ)
	}
	p.Name, p.Type = name, typ
	for {
		rest := s
		tok, ok, err := next()
		if err != nil {
			return p, fmt.Errorf("param %s: %w", name, err)
		}
		if !ok {
			break
		}
		key, val, hasVal := strings.Cut(tok, "=")
		if hasVal && strings.HasPrefix(val, `"`) {
			if val, err = strconv.Unquote(val); err != nil {
				return p, fmt.Errorf("param %s: %s: %w", name, key, err)
			}
		}
		switch {
		case tok == "required":
			p.Required = true
		case hasVal && key == "default":
			p.Default = val
		case hasVal && key == "example":
			p.Example = val
		case hasVal && key == "resolve":
			p.Resolve = val
		default:
			p.Description = strings.TrimSpace(rest)
			s = ""
		}
	}
	if p.Default != "" {
		if _, err := p.check(p.Default); err != nil {
			return p, fmt.Errorf("param %s: default: %w", name, err)
		}
	}
	return p, nil
}

// quoteOpt writes an option value, quoting it when it would not read back
// as one plain token.
func quoteOpt(v string) string {
	if v == "" || strings.ContainsAny(v, " \t\"\\=") || !utf8.ValidString(v) || strings.IndexFunc(v, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return strconv.Quote(v)
	}
	return v
}

// String returns p as a header param line body, which parseParam reads back.
func (p Param) String() string {
	var b strings.Builder
	b.WriteString(p.Name + " " + p.Type)
	if p.Required {
		b.WriteString(" required")
	}
	if p.Default != "" {
		b.WriteString(" default=" + quoteOpt(p.Default))
	}
	if p.Example != "" {
		b.WriteString(" example=" + quoteOpt(p.Example))
	}
	if p.Resolve != "" {
		b.WriteString(" resolve=" + quoteOpt(p.Resolve))
	}
	if p.Description != "" {
		b.WriteString("  " + p.Description)
	}
	return b.String()
}

// check validates one value against p's type and returns it as a JSON value.
func (p Param) check(v string) (any, error) {
	switch p.Type {
	case "int":
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 53)
		if err != nil {
			return nil, fmt.Errorf("%w: %q is not an integer", ErrBadValue, v)
		}
		if n < 0 {
			return nil, fmt.Errorf("%w: %d is not a count (0 or more)", ErrBadValue, n)
		}
		return n, nil
	case "date":
		if _, err := time.Parse(time.DateOnly, v); err != nil {
			return nil, fmt.Errorf("%w: %q is not a date (YYYY-MM-DD)", ErrBadValue, v)
		}
		return v, nil
	}
	if !utf8.ValidString(v) {
		return nil, fmt.Errorf("%w: not valid UTF-8", ErrBadValue)
	}
	return v, nil
}

// values checks values against q's parameters and fills defaults.
func (q Query) values(values map[string]string) (map[string]any, error) {
	out := make(map[string]any, len(q.Params))
	for k := range values {
		if _, ok := q.Param(k); !ok {
			return nil, &ParamError{q.Name, k, ErrUnknownParam}
		}
	}
	for _, p := range q.Params {
		v, ok := values[p.Name]
		if p.Required && ok && strings.TrimSpace(v) == "" {
			// "-p place=" names nothing: as if it were not given.
			return nil, &ParamError{q.Name, p.Name, fmt.Errorf("%w: the value is empty", ErrMissingParam)}
		}
		if !ok {
			if p.Required {
				return nil, &ParamError{q.Name, p.Name, ErrMissingParam}
			}
			v = p.Default
			if v == "" && p.Type != "string" {
				out[p.Name] = nil
				continue
			}
		}
		jv, err := p.check(v)
		if err != nil {
			return nil, &ParamError{q.Name, p.Name, err}
		}
		out[p.Name] = jv
	}
	return out, nil
}

// Bind checks values against q's parameters (rejecting unknown and missing
// ones and values of the wrong type), fills in defaults, and returns the
// program to run: one generated line defining the frozen params object,
// then the shared helpers of lib.js, then q.Text unchanged. An optional
// int or date left empty is null.
func (q Query) Bind(values map[string]string) (string, error) {
	return q.BindVariants(values, nil)
}

// BindVariants is [Query.Bind] with more spellings to look up for the
// parameters that name entities (those with a Resolve kind), such as a
// gazetteer's canonical name and aliases; they join params.$names.
func (q Query) BindVariants(values map[string]string, variants map[string][]string) (string, error) {
	vals, err := q.values(values)
	if err != nil {
		return "", err
	}
	names := make(map[string][]string)
	for _, p := range q.Params {
		if p.Resolve == "" {
			continue
		}
		s, _ := vals[p.Name].(string)
		names[p.Name] = Spellings(append([]string{s}, variants[p.Name]...)...)
	}
	vals["$names"] = names
	b, err := json.Marshal(vals)
	if err != nil {
		return "", err
	}
	return "var params = Object.freeze(JSON.parse(" + JSString(string(b)) + "));\n" + lib + q.Text, nil
}

// Spellings returns the distinct strings to look names up by: each name
// as given, in lower case, upper case and title case. A capgraph IRI
// becomes <IRI>; an empty name, or one Cayley would read as an IRI, blank
// node or typed or language-tagged literal, is dropped (no name in the
// graph can be spelled so).
func Spellings(names ...string) []string {
	out := []string{}
	add := func(s string) {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if len(n) > 2 && n[0] == '<' && n[len(n)-1] == '>' && strings.HasPrefix(n[1:], model.Base) {
			n = n[1 : len(n)-1] // the IRI as N-Triples writes it
		}
		if strings.HasPrefix(n, model.Base) && !strings.ContainsAny(n, "<>\" \t\n{}|\\^`") {
			add("<" + n + ">")
			continue
		}
		if n == "" || !plainString(n) {
			continue
		}
		add(n)
		add(strings.ToLower(n))
		add(strings.ToUpper(n))
		add(title(n))
	}
	return out
}

// plainString reports whether Cayley's quad.StringToValue reads s as a
// plain string.
func plainString(s string) bool {
	if len(s) <= 2 {
		return true
	}
	if s[0] == '<' && s[len(s)-1] == '>' || s[:2] == "_:" {
		return false
	}
	if s[0] == '"' && (strings.Contains(s, `"^^<`) && s[len(s)-1] == '>' || strings.Contains(s, `"@`) && s[len(s)-1] != '"') {
		return false
	}
	return true
}

func title(s string) string {
	rs := []rune(strings.ToLower(s))
	start := true
	for i, r := range rs {
		if start {
			rs[i] = unicode.ToUpper(r)
		}
		start = r == ' ' || r == '-' || r == '\''
	}
	return string(rs)
}

// JSString returns s as a double-quoted JavaScript string literal that is
// safe anywhere in a program: quotes, backslashes, every control
// character, U+2028, U+2029, the "<" of "</" and everything outside ASCII
// are escaped as \uXXXX (pairs for astral characters). Invalid UTF-8
// becomes U+FFFD.
func JSString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	hex := func(r rune) { fmt.Fprintf(&b, `\u%04x`, r) }
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '"' || r == '\\' || r == '<' || r == '>' || r == '\'' || r == '`':
			hex(r)
		case r < 0x20 || r == 0x7f:
			hex(r)
		case r < 0x80:
			b.WriteRune(r)
		case r > 0xffff:
			r1, r2 := utf16Pair(r)
			hex(r1)
			hex(r2)
		default:
			hex(r) // includes U+2028 and U+2029
		}
	}
	b.WriteByte('"')
	return b.String()
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}
