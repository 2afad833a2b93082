package rows_test

import (
	"math"
	"testing"

	"github.com/capgraph/capgraph/queries/rows"
)

func TestCell(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want string
	}{
		{nil, ""},
		{"", ""},
		{"Damascus", "Damascus"},
		{"<https://capgraph.org/id/place/geonames/170654>", "https://capgraph.org/id/place/geonames/170654"},
		{"<", "<"},
		{`"42"^^<http://www.w3.org/2001/XMLSchema#integer>`, "42"},
		{`"2014-03"^^<http://www.w3.org/2001/XMLSchema#gYearMonth>`, "2014-03"},
		{float64(3), "3"},
		{float64(1e6), "1000000"},
		{float64(-2.5), "-2.5"},
		{float64(1e20), "100000000000000000000"},
		{math.Inf(1), "+Inf"},
		{int64(7), "7"},
		{12, "12"},
		{true, "true"},
		{[]any{"a", float64(1)}, `["a",1]`},
		{map[string]any{"k": "v"}, `{"k":"v"}`},
	} {
		if got := rows.Cell(tt.v); got != tt.want {
			t.Errorf("Cell(%#v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
