package queries_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/queries"
)

func TestBindSQL(t *testing.T) {
	const header = "// Test.\n// param: place string resolve=place  A place\n// param: limit int default=5  Rows\n// param: day date  A day\n"
	q, err := queries.Parse("t", header)
	if err != nil {
		t.Fatal(err)
	}
	q.SQL = `SELECT 1 FROM quads WHERE predicate_hash = <https://schema.org/name> AND object_hash = ANY(@place.names)
  OR subject_hash = ANY(@place.iris::bytea[]) OR predicate_hash = <https://schema.org/name>
  -- @place is used twice: @place
LIMIT NULLIF(@limit, 0) OFFSET @day`
	hostile := `x') OR 1=1; DROP TABLE quads; --`
	text, args, err := q.BindSQL(map[string]string{"place": hostile}, map[string][]string{"place": {"<https://capgraph.org/id/place/geonames/170654>"}})
	if err != nil {
		t.Fatal(err)
	}
	want := `SELECT 1 FROM quads WHERE predicate_hash = $1 AND object_hash = ANY($2)
  OR subject_hash = ANY($3::bytea[]) OR predicate_hash = $1
  -- $4 is used twice: $4
LIMIT NULLIF($5, 0) OFFSET $6`
	if text != want {
		t.Errorf("text:\n%s\nwant:\n%s", text, want)
	}
	var lits []graph.Term // the value's spellings, as literals
	for _, s := range queries.Spellings(hostile) {
		lits = append(lits, graph.Literal(s))
	}
	wantArgs := []any{graph.IRI("https://schema.org/name"), lits,
		[]graph.Term{graph.IRI("https://capgraph.org/id/place/geonames/170654")}, hostile, int64(5), nil}
	if !reflect.DeepEqual(args, wantArgs) {
		t.Errorf("args:\n%#v\nwant:\n%#v", args, wantArgs)
	}
	if strings.Contains(text, "DROP") {
		t.Error("a value reached the text")
	}
	if _, _, err := q.BindSQL(map[string]string{"nope": "x"}, nil); !errors.Is(err, queries.ErrUnknownParam) {
		t.Errorf("unknown parameter: %v", err)
	}
}

// TestSQLTwinsBind binds every built-in's SQL twin with its examples.
func TestSQLTwinsBind(t *testing.T) {
	for _, q := range queries.Builtin() {
		if q.SQL == "" {
			t.Errorf("%s has no SQL twin", q.Name)
			continue
		}
		values := map[string]string{}
		for _, p := range q.Params {
			if p.Example != "" {
				values[p.Name] = p.Example
			}
		}
		text, args, err := q.BindSQL(values, nil)
		if err != nil {
			t.Errorf("%s: %v", q.Name, err)
			continue
		}
		if strings.Contains(text, "@") || strings.Contains(text, "<http") {
			t.Errorf("%s: a token is left unbound:\n%s", q.Name, text)
		}
		if len(args) == 0 {
			t.Errorf("%s: no arguments", q.Name)
		}
	}
}

// TestUserSQLTwin loads a user's twin beside their query, and leaves out a
// query whose twin names a parameter it does not have.
func TestUserSQLTwin(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "sql"), 0o755)
	for name, text := range map[string]string{
		"good.gizmo":   "// Good.\n// param: place string resolve=place  A place\ng.Emit(1)\n",
		"sql/good.sql": "SELECT @place AS x, @place.names AS y\n",
		"bad.gizmo":    "// Bad.\ng.Emit(1)\n",
		"sql/bad.sql":  "SELECT @nope AS x\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	qs, err := queries.Load(dir)
	var broken *queries.BrokenError
	if !errors.As(err, &broken) || broken.Files["bad"] == nil || !strings.Contains(broken.Files["bad"].Error(), "@nope") {
		t.Fatalf("Load: %v, want bad left out for @nope", err)
	}
	q, ok := queries.Lookup(qs, "good")
	if !ok || q.SQL == "" {
		t.Fatalf("good: %+v", q)
	}
	if _, ok := queries.Lookup(qs, "bad"); ok {
		t.Error("bad is loaded")
	}
}
