package queries

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/capgraph/capgraph/graph"
)

// sqlToken matches the tokens of an SQL twin that [Query.BindSQL] binds:
// <IRI>, @param, @param.names and @param.iris.
var sqlToken = regexp.MustCompile(`<(https?://[^<>\s"{}|\\^` + "`" + `]+)>|@([a-z][a-z0-9_]*)(\.names|\.iris)?`)

// BindSQL checks values as [Query.BindVariants] does and returns q's SQL
// twin with its tokens replaced by placeholders, and the placeholders'
// values: strings, int64s, nil, a [graph.Term] (an IRI) or a []graph.Term
// (spellings), which [graph.Store.QuerySQL] binds as node hashes.
func (q Query) BindSQL(values map[string]string, variants map[string][]string) (string, []any, error) {
	if q.SQL == "" {
		return "", nil, fmt.Errorf("query %s has no SQL version", q.Name)
	}
	vals, err := q.values(values)
	if err != nil {
		return "", nil, err
	}
	spellings := make(map[string][]string)
	for _, p := range q.Params {
		if p.Resolve != "" {
			s, _ := vals[p.Name].(string)
			spellings[p.Name] = Spellings(append([]string{s}, variants[p.Name]...)...)
		}
	}
	var args []any
	at := make(map[string]int) // token -> placeholder, so a repeated token is one argument
	var bad error
	text := sqlToken.ReplaceAllStringFunc(q.SQL, func(tok string) string {
		if n, ok := at[tok]; ok {
			return fmt.Sprintf("$%d", n)
		}
		arg, err := q.sqlArg(tok, vals, spellings)
		if err != nil {
			bad = err
			return tok
		}
		args = append(args, arg)
		at[tok] = len(args)
		return fmt.Sprintf("$%d", len(args))
	})
	if bad != nil {
		return "", nil, bad
	}
	return text, args, nil
}

// sqlArg returns the value of one token of an SQL twin.
func (q Query) sqlArg(tok string, vals map[string]any, spellings map[string][]string) (any, error) {
	m := sqlToken.FindStringSubmatch(tok)
	if m[1] != "" {
		return graph.IRI(m[1]), nil
	}
	p, ok := q.Param(m[2])
	if !ok {
		return nil, fmt.Errorf("query %s: SQL names %s, which is not a parameter", q.Name, tok)
	}
	if m[3] == "" {
		return vals[p.Name], nil
	}
	if p.Resolve == "" {
		return nil, fmt.Errorf("query %s: SQL names %s, but %s names no entity (resolve=)", q.Name, tok, p.Name)
	}
	nodes := []graph.Term{}
	for _, s := range spellings[p.Name] {
		iri := strings.HasPrefix(s, "<")
		switch {
		case iri && m[3] == ".iris":
			nodes = append(nodes, graph.IRI(s[1:len(s)-1]))
		case !iri && m[3] == ".names":
			nodes = append(nodes, graph.Literal(s))
		}
	}
	return nodes, nil
}

// checkSQL reports a token of q's SQL twin that BindSQL could not bind.
func (q Query) checkSQL() error {
	vals := make(map[string]any)
	for _, tok := range sqlToken.FindAllString(q.SQL, -1) {
		if _, err := q.sqlArg(tok, vals, nil); err != nil {
			return err
		}
	}
	return nil
}
