package rows

import (
	"cmp"
	"fmt"
	"iter"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// All yields the rows that results stand for ([Of]), up to limit rows (0
// means no limit), and stops at the first error, which it yields.
func All(results iter.Seq2[any, error], limit int) iter.Seq2[any, error] {
	return func(yield func(any, error) bool) {
		n := 0
		for r, err := range results {
			if err != nil {
				yield(nil, err)
				return
			}
			for _, row := range Of(r) {
				if !yield(row, nil) {
					return
				}
				if n++; n == limit {
					return
				}
			}
		}
	}
}

// Of returns the rows a query result stands for: a batch's rows, made,
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
// Go takes under 1 (BenchmarkSortBatch), and a TagArray handed over whole
// is never made into JavaScript objects.
func Of(r any) []any {
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
	t := &table{rows: rows}
	if columns != nil {
		t = plainTable(rows, columns)
	}
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	if len(keys) > 0 {
		t.sort(order, keys)
	}
	if len(unique) > 0 {
		order = t.unique(order, unique)
	}
	if limit >= 0 && limit < len(order) {
		order = order[:limit]
	}
	out := make([]any, len(order))
	for i, at := range order {
		out[i] = t.rows[at]
	}
	return out
}

// A table is a batch's rows and those of their columns read so far.
type table struct {
	rows []any
	cols map[string]column
}

// col returns a column, reading it from the rows the first time.
func (t *table) col(name string) column {
	c, ok := t.cols[name]
	if !ok {
		c = columnOf(t.rows, name)
		if t.cols == nil {
			t.cols = make(map[string]column)
		}
		t.cols[name] = c
	}
	return c
}

// A column holds one column's values, a row each, as strings or numbers
// when every value is one, so that sorting and deduplicating compare
// them without a type switch: about half the cost of a batch of people's
// rows (BenchmarkTaggedBatch). A row that is not an object, or lacks the
// column, has nil there.
type column struct {
	strs []string
	nums []float64
	vals []any // when the values are of several kinds
}

func columnOf(rows []any, name string) column {
	vals := make([]any, len(rows))
	for i, r := range rows {
		m, _ := r.(map[string]any)
		vals[i] = m[name]
	}
	return typedColumn(vals)
}

// typedColumn is a column of vals, typed if they are all strings or all
// numbers.
func typedColumn(vals []any) column {
	strs, nums := len(vals) > 0, len(vals) > 0
	for _, v := range vals {
		switch kind(v) {
		case kindString:
			nums = false
		case kindNumber:
			strs = false
		default:
			strs, nums = false, false
		}
	}
	switch {
	case strs:
		c := column{strs: make([]string, len(vals))}
		for i, v := range vals {
			c.strs[i] = v.(string)
		}
		return c
	case nums:
		c := column{nums: make([]float64, len(vals))}
		for i, v := range vals {
			c.nums[i], _ = number(v)
		}
		return c
	}
	return column{vals: vals}
}

// compare orders rows i and j by the column, as compareValues does.
func (c column) compare(i, j int) int {
	switch {
	case c.strs != nil:
		return strings.Compare(c.strs[i], c.strs[j])
	case c.nums != nil:
		return cmp.Compare(c.nums[i], c.nums[j])
	}
	return compareValues(c.vals[i], c.vals[j])
}

// appendKey appends row i's value in a form that two rows share only if
// compare finds them equal.
func (c column) appendKey(key []byte, i int) []byte {
	switch {
	case c.strs != nil:
		return appendKey(key, c.strs[i])
	case c.nums != nil:
		return appendKey(key, c.nums[i])
	}
	return appendKey(key, c.vals[i])
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

// plainTable makes each tag map a row of columns, each named by the tag
// that fills it, and keeps the columns as it goes.
func plainTable(rows []any, columns map[string]any) *table {
	names := slices.Sorted(maps.Keys(columns))
	tags := make([]string, len(names))
	vals := make([][]any, len(names))
	for i, c := range names {
		tags[i], _ = columns[c].(string)
		vals[i] = make([]any, len(rows))
	}
	t := &table{rows: make([]any, len(rows)), cols: make(map[string]column, len(names))}
	for i, r := range rows {
		m, _ := r.(map[string]any)
		row := make(map[string]any, len(names))
		for j, c := range names {
			v, ok := m[tags[j]]
			if !ok {
				v = ""
			}
			v = plainValue(v)
			row[c], vals[j][i] = v, v
		}
		t.rows[i] = row
	}
	for j, c := range names {
		t.cols[c] = typedColumn(vals[j])
	}
	return t
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
		return v // as it was: no new interface value
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

// unique keeps the rows of order that come first of those that agree on
// columns.
func (t *table) unique(order []int, columns []string) []int {
	cols := make([]column, len(columns))
	for i, name := range columns {
		cols[i] = t.col(name)
	}
	out := order[:0]
	seen := make(map[string]bool, len(order))
	if len(cols) == 1 && cols[0].strs != nil {
		// One column of strings, as a node's IRI: its own values are the keys.
		for _, at := range order {
			if k := cols[0].strs[at]; !seen[k] {
				seen[k] = true
				out = append(out, at)
			}
		}
		return out
	}
	var key []byte
	for _, at := range order {
		key = key[:0]
		for _, c := range cols {
			key = c.appendKey(key, at)
		}
		if !seen[string(key)] {
			seen[string(key)] = true
			out = append(out, at)
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

// sort sorts order, the indexes of rows, by keys, stably. A row that is
// not an object sorts as one with no columns.
func (t *table) sort(order []int, keys []string) {
	cols := make([]column, len(keys))
	desc := make([]bool, len(keys))
	for i, k := range keys {
		var name string
		name, desc[i] = strings.CutPrefix(k, "-")
		cols[i] = t.col(name)
	}
	slices.SortFunc(order, func(a, b int) int {
		for k, c := range cols {
			if x := c.compare(a, b); x != 0 {
				if desc[k] {
					return -x
				}
				return x
			}
		}
		return cmp.Compare(a, b) // rows that tie keep their order
	})
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
