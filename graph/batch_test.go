package graph

import (
	"fmt"
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
		if got := rowsOf(batch); len(got) != len(rows) {
			b.Fatalf("%d rows", len(got))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(rows)), "µs/row")
}
