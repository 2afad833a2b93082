package rows_test

import (
	"encoding/json"
	"testing"

	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/queries/rows"
)

// TestQueryReadsBatchesAsRows runs Gizmo programs that emit batches in a
// store, and reads their results as rows.
func TestQueryReadsBatchesAsRows(t *testing.T) {
	s, err := graph.Open(t.Context(), "", graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, tt := range []struct {
		name, prog string
		limit      int
		want       string
	}{
		{"batch", `g.Emit({"$rows": [{n: 1}, {n: 2}]}); g.Emit({n: 3})`, 0, `[{"n":1},{"n":2},{"n":3}]`},
		{"limit counts rows", `g.Emit({"$rows": [{n: 1}, {n: 2}]}); g.Emit({"$rows": [{n: 3}]})`, 2, `[{"n":1},{"n":2}]`},
		{"limit past a batch", `g.Emit({"$rows": [{n: 1}]}); g.Emit({"$rows": [{n: 2}, {n: 3}]})`, 2, `[{"n":1},{"n":2}]`},
		{"empty batch", `g.Emit({"$rows": []}); g.Emit({n: 1})`, 0, `[{"n":1}]`},
		{"other keys", `g.Emit({"$rows": [{n: 1}], m: 2})`, 0, `[{"$rows":[{"n":1}],"m":2}]`},
		{"not an array", `g.Emit({"$rows": "x"})`, 0, `[{"$rows":"x"}]`},
		{"array result", `g.Emit([1, 2])`, 0, `[[1,2]]`},
		{"sorted", `g.Emit({"$rows": [{n: 2, s: "b"}, {n: 1, s: "c"}, {n: 2, s: "a"}], "$sort": ["-n", "s"]})`, 0, `[{"n":2,"s":"a"},{"n":2,"s":"b"},{"n":1,"s":"c"}]`},
		{"sorted and cut", `g.Emit({"$rows": [{n: 2}, {n: 3}, {n: 1}], "$sort": ["n"], "$limit": 2})`, 0, `[{"n":1},{"n":2}]`},
		{"limit 0 keeps all", `g.Emit({"$rows": [{n: 2}, {n: 1}], "$limit": 0})`, 0, `[{"n":2},{"n":1}]`},
		{"sort not names", `g.Emit({"$rows": [{n: 1}], "$sort": [1]})`, 0, `[{"$rows":[{"n":1}],"$sort":[1]}]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []any
			for r, err := range rows.All(s.Query(t.Context(), "gizmo", tt.prog, tt.limit), tt.limit) {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, r)
			}
			b, _ := json.Marshal(got)
			if string(b) != tt.want {
				t.Errorf("rows = %s, want %s", b, tt.want)
			}
		})
	}
}
