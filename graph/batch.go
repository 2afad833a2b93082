package graph

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// rowsOf returns the rows a query result stands for: a batch's rows, sorted
// and cut as it asks, or the result itself.
//
// A batch is an object whose "$rows" is an array; it may also hold
// "$sort", the names of the columns to sort its rows by (a leading "-"
// sorts descending), and "$limit", how many of the sorted rows to keep
// (0 or less keeps all). An object with any other key is a result like any
// other. Sorting here rather than in the query saves the row-heavy queries
// much of their JavaScript: goja took about 10 µs a row to build and sort
// string keys, Go takes about 1 (BenchmarkSortBatch).
func rowsOf(r any) []any {
	m, ok := r.(map[string]any)
	if !ok {
		return []any{r}
	}
	rows, ok := m["$rows"].([]any)
	if !ok {
		return []any{r}
	}
	var keys []string
	limit := -1
	for k, v := range m {
		switch k {
		case "$rows":
		case "$sort":
			if keys, ok = sortKeys(v); !ok {
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
	if len(keys) > 0 {
		slices.SortStableFunc(rows, func(a, b any) int { return compareRows(a, b, keys) })
	}
	if limit >= 0 && limit < len(rows) {
		rows = rows[:limit]
	}
	return rows
}

// sortKeys reads a batch's "$sort": a list of column names.
func sortKeys(v any) ([]string, bool) {
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

// compareRows orders two rows by keys. A row that is not an object sorts
// as one with no columns.
func compareRows(a, b any, keys []string) int {
	ma, _ := a.(map[string]any)
	mb, _ := b.(map[string]any)
	for _, k := range keys {
		name, desc := strings.CutPrefix(k, "-")
		if c := compareValues(ma[name], mb[name]); c != 0 {
			if desc {
				return -c
			}
			return c
		}
	}
	return 0
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
