package rows

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

func TestCompareValuesByKind(t *testing.T) {
	// Ascending, each a kind or value after the one before.
	order := []any{nil, false, true, int64(-2), -1.5, int64(0), 0.25, int64(3), "", "A", "a", "é", "😀", []any{}}
	for i, a := range order {
		for j, b := range order {
			if got, want := compareValues(a, b), cmpInt(i, j); got != want {
				t.Errorf("compareValues(%#v, %#v) = %d, want %d", a, b, got, want)
			}
		}
	}
	if compareValues(int64(2), 2.0) != 0 {
		t.Error("2 and 2.0 differ")
	}
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// BenchmarkSortBatch sorts a batch of 2,000 rows as people's are sorted
// (a count descending, then two strings), in µs per row.
func BenchmarkSortBatch(b *testing.B) {
	rows := make([]any, 2000)
	for i := range rows {
		rows[i] = map[string]any{"photos": int64(i * 7919 % 97), "label": fmt.Sprintf("Name %d", i*31%2000), "person": fmt.Sprintf("https://capgraph.org/id/person/%d", i)}
	}
	batch := map[string]any{"$sort": []any{"-photos", "label", "person"}}
	for b.Loop() {
		batch["$rows"] = slices.Clone(rows)
		if got := Of(batch); len(got) != len(rows) {
			b.Fatalf("%d rows", len(got))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(rows)), "µs/row")
}

func TestRowsOf(t *testing.T) {
	const xsd = "http://www.w3.org/2001/XMLSchema#"
	tests := []struct {
		name  string
		batch any
		want  []any
	}{
		{"not a batch", "x", []any{"x"}},
		{"an object without $rows", map[string]any{"a": int64(1)}, []any{map[string]any{"a": int64(1)}}},
		{"an unknown key", map[string]any{"$rows": []any{}, "$by": "a"}, []any{map[string]any{"$rows": []any{}, "$by": "a"}}},
		{"$columns not an object", map[string]any{"$rows": []any{}, "$columns": []any{"a"}}, []any{map[string]any{"$rows": []any{}, "$columns": []any{"a"}}}},
		{
			"sorted, unique and cut",
			map[string]any{
				"$rows": []any{
					map[string]any{"n": int64(1), "s": "b"},
					map[string]any{"n": int64(2), "s": "c"},
					map[string]any{"n": 2.0, "s": "a"},
					map[string]any{"n": int64(1), "s": "a"},
				},
				"$sort":   []any{"-n", "s"},
				"$unique": []any{"n"},
				"$limit":  int64(1),
			},
			[]any{map[string]any{"n": 2.0, "s": "a"}},
		},
		{
			"tag maps made rows",
			map[string]any{
				"$rows": []map[string]any{
					{"id": "<https://example.org/b>", "n": `"12"^^<` + xsd + `nonNegativeInteger>`, "name": "B"},
					{"id": "<https://example.org/a>", "n": `"2.5"^^<` + xsd + `decimal>`},
					{"id": "<https://example.org/b>", "n": `"12"^^<` + xsd + `nonNegativeInteger>`, "name": "A"},
					{"id": "<https://example.org/c>", "n": `"2019-05"^^<` + xsd + `gYearMonth>`, "name": "<not an IRI"},
					{"id": "<https://example.org/d>", "n": int64(7), "name": `"quoted"`},
				},
				"$columns": map[string]any{"node": "id", "count": "n", "label": "name"},
				"$sort":    []any{"node", "label"},
				"$unique":  []any{"node"},
			},
			[]any{
				map[string]any{"node": "https://example.org/a", "count": 2.5, "label": ""},
				map[string]any{"node": "https://example.org/b", "count": int64(12), "label": "A"},
				map[string]any{"node": "https://example.org/c", "count": "2019-05", "label": "<not an IRI"},
				map[string]any{"node": "https://example.org/d", "count": int64(7), "label": `"quoted"`},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Of(tt.batch); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Of() = %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

// TestSortIsStable sorts rows that tie on every key.
func TestSortIsStable(t *testing.T) {
	rows := make([]any, 100)
	for i := range rows {
		rows[i] = map[string]any{"k": int64(i % 3), "i": int64(i)}
	}
	rows = Of(map[string]any{"$rows": rows, "$sort": []any{"-k"}})
	last := map[int64]int64{}
	for _, r := range rows {
		m := r.(map[string]any)
		k, i := m["k"].(int64), m["i"].(int64)
		if prev, ok := last[k]; ok && i < prev {
			t.Fatalf("row %d of key %d after row %d", i, k, prev)
		}
		last[k] = i
	}
	if first := rows[0].(map[string]any)["k"]; first != int64(2) {
		t.Fatalf("first key %v, want 2", first)
	}
}

// BenchmarkTaggedBatch makes rows of 2,300 tag maps as people's are made
// (an IRI, an XSD count and a name a path; some people twice, under two
// names), sorts and dedupes them, in µs per row.
func BenchmarkTaggedBatch(b *testing.B) {
	const n = 2300
	tags := make([]map[string]any, n)
	for i := range tags {
		tags[i] = map[string]any{
			"id":     fmt.Sprintf("<https://capgraph.org/id/person/%d>", i%2200),
			"photos": fmt.Sprintf(`"%d"^^<http://www.w3.org/2001/XMLSchema#nonNegativeInteger>`, (i%2200)*7919%97),
			"label":  fmt.Sprintf("Name %d", i*31%n),
		}
	}
	columns := map[string]any{"person": "id", "label": "label", "photos": "photos"}
	for b.Loop() {
		batch := map[string]any{"$rows": tags, "$columns": columns,
			"$sort": []any{"-photos", "label", "person"}, "$unique": []any{"person"}}
		if got := Of(batch); len(got) != 2200 {
			b.Fatalf("%d rows", len(got))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/row")
}
