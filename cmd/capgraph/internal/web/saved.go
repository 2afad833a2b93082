package web

import "github.com/capgraph/capgraph/queries"

// SavedQueries adapts the saved queries of package queries for a [Server].
// variants, when not nil, gives other spellings of the values of
// parameters that name entities (see [queries.Query.BindVariants]).
func SavedQueries(qs []queries.Query, variants func(queries.Query, map[string]string) (map[string][]string, error)) []Query {
	out := make([]Query, 0, len(qs))
	for _, q := range qs {
		wq := Query{Name: q.Name, Description: q.Description, Lang: "gizmo", Columns: q.Columns, Params: []Param{}}
		for _, p := range q.Params {
			wq.Params = append(wq.Params, Param{Name: p.Name, Type: p.Type, Description: p.Description,
				Default: p.Default, Example: p.Example, Required: p.Required})
		}
		spellings := func(values map[string]string) (map[string][]string, error) {
			if variants == nil {
				return nil, nil
			}
			return variants(q, values)
		}
		wq.Bind = func(values map[string]string) (string, error) {
			vs, err := spellings(values)
			if err != nil {
				return "", err
			}
			return q.BindVariants(values, vs)
		}
		if q.SQL != "" {
			wq.BindSQL = func(values map[string]string) (string, []any, error) {
				vs, err := spellings(values)
				if err != nil {
					return "", nil, err
				}
				return q.BindSQL(values, vs)
			}
		}
		out = append(out, wq)
	}
	return out
}
