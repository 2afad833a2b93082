package graph

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// rowsOf returns the rows a query result stands for: a batch's rows, made,
// sorted, deduplicated and cut as it asks, or the result itself.
//
// A batch is an object whose "$rows" is an array. It may also hold:
//
//   - "$columns", an object that names each column of its rows and the
//     tag that fills it. The rows are then Gizmo tag maps, as TagArray gives
//     them, and each becomes a row of just those columns: a tag's value
//     made plain (plainValue), "" for a tag its path did not bind.
//   - "$sort", the names of the columns to sort the rows by (a leading "-"
//     sorts descending).
//   - "$unique", the names of columns whose values together name a row:
//     of the rows that agree on them, only the first after sorting is kept.
//   - "$limit", how many of the rows left to keep (0 or less keeps all).
//
// An object with any other key is a result like any other. Doing this here
// rather than in the query saves the row-heavy queries most of their
// JavaScript: goja took about 10 µs a row to build and sort string keys,
// Go takes about 1 (BenchmarkSortBatch), and a TagArray handed over whole
// is never made into JavaScript objects.
func rowsOf(r any) []any {
	m, ok := r.(map[string]any)
	if !ok {
		return []any{r}
	}
	rows, ok := batchRows(m["$rows"])
	if !ok {
		return []any{r}
	}
	var columns map[string]any
	var keys, unique []string
	limit := -1
	for k, v := range m {
		switch k {
		case "$rows":
		case "$columns":
			if columns, ok = v.(map[string]any); !ok {
				return []any{r}
			}
		case "$sort":
			if keys, ok = names(v); !ok {
				return []any{r}
			}
		case "$unique":
			if unique, ok = names(v); !ok {
				return []any{r}
			}
		case "$limit":
			n, ok := number(v)
			if !ok {
				return []any{r}
			}
			if n > 0 {
				limit = int(min(n, math.MaxInt32))
			}
		default:
			return []any{r}
		}
	}
	if columns != nil {
		rows = plainRows(rows, columns)
	}
	if len(keys) > 0 {
		sortRows(rows, keys)
	}
	if len(unique) > 0 {
		rows = uniqueRows(rows, unique)
	}
	if limit >= 0 && limit < len(rows) {
		rows = rows[:limit]
	}
	return rows
}

// batchRows reads a batch's "$rows": an array made in JavaScript, or a
// TagArray's, which reaches Go as the slice Gizmo made.
func batchRows(v any) ([]any, bool) {
	switch rows := v.(type) {
	case []any:
		return rows, true
	case []map[string]any:
		out := make([]any, len(rows))
		for i, r := range rows {
			out[i] = r
		}
		return out, true
	}
	return nil, false
}

// plainRows makes each tag map a row of columns, each named by the tag
// that fills it.
func plainRows(rows []any, columns map[string]any) []any {
	out := make([]any, len(rows))
	for i, r := range rows {
		tags, _ := r.(map[string]any)
		row := make(map[string]any, len(columns))
		for c, tag := range columns {
			name, _ := tag.(string)
			v, ok := tags[name]
			if !ok {
				v = ""
			}
			row[c] = plainValue(v)
		}
		out[i] = row
	}
	return out
}

// plainValue is a node's value as a row shows it, as lib.js's bare() and
// Number() make it: an IRI ("<iri>") as its text, a literal of an XSD
// number type as a number, another typed literal as its lexical form.
// Gizmo gives plain strings, and the types it knows (xsd:integer,
// xsd:boolean...), as Go values already.
func plainValue(v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	if len(s) >= 2 && s[0] == '<' && s[len(s)-1] == '>' {
		return s[1 : len(s)-1]
	}
	i := strings.Index(s, `"^^<`)
	if len(s) == 0 || s[0] != '"' || i <= 0 || s[len(s)-1] != '>' {
		return s
	}
	lex, typ := s[1:i], s[i+4:len(s)-1]
	if xsdNumber[typ] {
		if n, err := strconv.ParseFloat(lex, 64); err == nil {
			if n == math.Trunc(n) && math.Abs(n) < 1<<53 {
				return int64(n)
			}
			return n
		}
	}
	return lex
}

// xsdNumber holds the XSD datatypes whose literals rows show as numbers.
var xsdNumber = func() map[string]bool {
	m := make(map[string]bool)
	for _, t := range []string{"integer", "nonNegativeInteger", "positiveInteger", "nonPositiveInteger",
		"negativeInteger", "long", "int", "short", "byte", "unsignedLong", "unsignedInt",
		"unsignedShort", "unsignedByte", "decimal", "double", "float"} {
		m["http://www.w3.org/2001/XMLSchema#"+t] = true
	}
	return m
}()

// uniqueRows keeps the first of the rows that agree on columns.
func uniqueRows(rows []any, columns []string) []any {
	seen := make(map[string]bool, len(rows))
	out := rows[:0]
	var key []byte
	for _, r := range rows {
		m, _ := r.(map[string]any)
		key = key[:0]
		for _, c := range columns {
			key = appendKey(key, m[c])
		}
		if k := string(key); !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

// appendKey appends a value in a form that two values share only if
// compareValues finds them equal.
func appendKey(key []byte, v any) []byte {
	key = append(key, byte('0'+kind(v)))
	switch kind(v) {
	case kindNumber:
		n, _ := number(v)
		key = strconv.AppendFloat(key, n, 'g', -1, 64)
	case kindString:
		key = strconv.AppendInt(key, int64(len(v.(string))), 10)
		key = append(key, ':')
		key = append(key, v.(string)...)
	case kindBool:
		key = strconv.AppendBool(key, v.(bool))
	case kindOther:
		key = fmt.Appendf(key, "%#v", v)
	}
	return append(key, 0)
}

// names reads a list of column names.
func names(v any) ([]string, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	keys := make([]string, len(list))
	for i, k := range list {
		if keys[i], ok = k.(string); !ok {
			return nil, false
		}
	}
	return keys, true
}

// sortRows sorts rows by keys, stably. A row that is not an object sorts
// as one with no columns. Each row's key values are read once, and rows
// that tie keep their order: about twice as fast as a stable sort that
// reads the keys at each comparison.
func sortRows(rows []any, keys []string) {
	type keyed struct {
		values []any
		at     int
		row    any
	}
	names := make([]string, len(keys))
	desc := make([]bool, len(keys))
	for i, k := range keys {
		names[i], desc[i] = strings.CutPrefix(k, "-")
	}
	n := len(names)
	values := make([]any, len(rows)*n)
	ks := make([]keyed, len(rows))
	for i, r := range rows {
		m, _ := r.(map[string]any)
		v := values[i*n : (i+1)*n : (i+1)*n]
		for j, name := range names {
			v[j] = m[name]
		}
		ks[i] = keyed{v, i, r}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		for j, d := range desc {
			if c := compareValues(a.values[j], b.values[j]); c != 0 {
				if d {
					return -c
				}
				return c
			}
		}
		return cmp.Compare(a.at, b.at)
	})
	for i, k := range ks {
		rows[i] = k.row
	}
}

// compareValues orders column values as goja's < does for the values rows
// hold: numbers by value, strings by code point (where ECMAScript would
// compare UTF-16 units, goja compares code points, as Go does). Values of
// different kinds, which JavaScript does not order consistently, sort by
// kind: missing or null, false and true, numbers, strings, the rest.
func compareValues(a, b any) int {
	ka, kb := kind(a), kind(b)
	if ka != kb {
		return cmp.Compare(ka, kb)
	}
	switch ka {
	case kindBool:
		x, y := a.(bool), b.(bool)
		switch {
		case x == y:
			return 0
		case y:
			return -1
		}
		return 1
	case kindNumber:
		x, _ := number(a)
		y, _ := number(b)
		return cmp.Compare(x, y)
	case kindString:
		return strings.Compare(a.(string), b.(string))
	}
	return 0
}

const (
	kindNone = iota
	kindBool
	kindNumber
	kindString
	kindOther
)

func kind(v any) int {
	switch v.(type) {
	case nil:
		return kindNone
	case bool:
		return kindBool
	case string:
		return kindString
	}
	if _, ok := number(v); ok {
		return kindNumber
	}
	return kindOther
}

// number reads a number as the query engine exports it.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}
