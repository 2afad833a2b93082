package web

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	_ "github.com/lib/pq"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/extract/synth"
	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/internal/pgtest"
	"github.com/capgraph/capgraph/queries"
)

// TestSavedQueriesOnPostgres serves the built-ins from a PostgreSQL store,
// where their SQL twins run, and from a bbolt store of the same captions,
// where Gizmo does: every answer has the same rows.
func TestSavedQueriesOnPostgres(t *testing.T) {
	addr := pgtest.Schema(t, "capgraph_web_test")

	xs, err := synth.Extractions(11, 0, 150)
	if err != nil {
		t.Fatal(err)
	}
	qs := queries.Builtin()
	serve := func(addr string) *Server {
		s, err := graph.Open(context.Background(), addr, graph.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		if _, err := s.Load(context.Background(), func(yield func(extract.Extraction, error) bool) {
			for _, x := range xs {
				if !yield(x, nil) {
					return
				}
			}
		}, graph.LoadOptions{ExtractorVersion: extract.Version}); err != nil {
			t.Fatal(err)
		}
		// which answers which twin ran.
		which := Query{Name: "which", Lang: "gizmo", Params: []Param{},
			Bind:    func(map[string]string) (string, error) { return `g.Emit({via: "gizmo"})`, nil },
			BindSQL: func(map[string]string) (string, []any, error) { return `SELECT 'sql' AS via`, nil, nil },
		}
		srv, err := New(s, Options{Queries: append(SavedQueries(qs, nil), which), Hosts: []string{"example.com"}})
		if err != nil {
			t.Fatal(err)
		}
		return srv
	}
	pg, bolt := serve(addr), serve(filepath.Join(t.TempDir(), "store"))
	rows := func(srv *Server, name, body string) string {
		code, _, out := do(t, srv, "POST", "/api/queries/"+name, body)
		if code != 200 {
			t.Fatalf("%s %s: %d %.300s", name, body, code, out)
		}
		var res struct{ Rows []map[string]any }
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res.Rows)
		return string(b)
	}
	if got, want := rows(pg, "which", ""), `[{"via":"sql"}]`; got != want {
		t.Errorf("on PostgreSQL: %s, want %s", got, want)
	}
	if got, want := rows(bolt, "which", ""), `[{"via":"gizmo"}]`; got != want {
		t.Errorf("on bbolt: %s, want %s", got, want)
	}
	some := 0
	for _, q := range qs {
		params := map[string]string{"place": "Syria", "group": "Free Syrian Army", "name": "Aleppo",
			"from": "2011-01-01", "to": "2020-12-31", "subject": "Aleppo", "relation": "located_in", "object": "Syria"}
		for k := range params {
			if _, ok := q.Param(k); !ok {
				delete(params, k)
			}
		}
		body, _ := json.Marshal(params)
		got, want := rows(pg, q.Name, string(body)), rows(bolt, q.Name, string(body))
		if got != want {
			t.Errorf("%s %s:\nPostgreSQL %.600s\nbbolt      %.600s", q.Name, body, got, want)
		}
		if want != "[]" {
			some++
		}
	}
	if some < len(qs)-2 {
		t.Errorf("only %d of %d queries answered rows", some, len(qs))
	}
}
