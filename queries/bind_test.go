package queries_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capgraph/capgraph/extract/gazetteer"
	"github.com/capgraph/capgraph/graph/model"
	"github.com/capgraph/capgraph/queries"
)

// TestHostileValuesAreData binds values that would break out of a spliced
// string and shows that they reach the query as data: looked up as names
// they match nothing, and echoed back they come back byte for byte.
func TestHostileValuesAreData(t *testing.T) {
	s, err := fixture()
	if err != nil {
		t.Fatal(err)
	}
	hostile := []string{
		`"); g.V().All(); ("`,
		`'); g.Emit("pwned"); //`,
		"Idlib\"\n g.Emit(1)",
		`*/ g.Emit("x") /*`,
		"a\u2028g.Emit(2)\u2029b",
		`</script><script>g.Emit(3)`,
		`\u0022); g.Emit(4); //`,
		"\x00\x1f\x7f",
		`<https://capgraph.org/id/place/geonames/164816> <x>`,
		`_:b0`,
		`"x"^^<http://www.w3.org/2001/XMLSchema#date>`,
		"Idlib 😀 ` ${g.Emit(5)}",
	}
	q, _ := queries.Lookup(queries.Builtin(), "photos-in-place")
	echo, err := queries.Parse("echo", "// Echo a value.\n// param: v string required  Any value\ng.Emit({v: params.v, names: params.$names.v || []});\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range hostile {
		t.Run(fmt.Sprintf("%q", v), func(t *testing.T) {
			if rows := runGizmo(t, s, q, map[string]string{"place": v}); len(rows) != 0 {
				t.Errorf("place=%q matched %d rows, want none: %v", v, len(rows), rows)
			}
			rows := runGizmo(t, s, echo, map[string]string{"v": v})
			if len(rows) != 1 {
				t.Fatalf("echo returned %d rows, want 1: %v", len(rows), rows)
			}
			if got := rows[0]["v"]; got != strings.ToValidUTF8(v, "\uFFFD") {
				t.Errorf("echo returned %q, want %q", got, v)
			}
		})
	}
}

// TestIRIParameter: a place given by its capgraph IRI in the angle
// brackets N-Triples writes it in finds what the bare IRI finds.
func TestIRIParameter(t *testing.T) {
	s, err := fixture()
	if err != nil {
		t.Fatal(err)
	}
	d, err := gazetteer.Load()
	if err != nil {
		t.Fatal(err)
	}
	idlib, _ := d.Index().Resolve("Idlib")
	if idlib == nil {
		t.Fatal("Idlib is not in the gazetteer")
	}
	q, _ := queries.Lookup(queries.Builtin(), "photos-in-place")
	iri := model.EntityIRI(idlib.ID)
	want := runGizmo(t, s, q, map[string]string{"place": iri})
	if len(want) == 0 {
		t.Fatalf("no photos in %s in the fixture", iri)
	}
	for _, v := range []string{"<" + iri + ">", " <" + iri + "> "} {
		if got := runGizmo(t, s, q, map[string]string{"place": v}); len(got) != len(want) {
			t.Errorf("place=%q: %d rows, want %d as for the bare IRI", v, len(got), len(want))
		}
	}
}

func TestBindErrors(t *testing.T) {
	q, _ := queries.Lookup(queries.Builtin(), "photos-between")
	tests := []struct {
		values map[string]string
		want   error
	}{
		{map[string]string{"from": "2014-01-01"}, queries.ErrMissingParam},
		{map[string]string{"from": "2014-01-01", "to": "2014-13-01"}, queries.ErrBadValue},
		{map[string]string{"from": "2014-01-01", "to": "2014-02-01", "nope": "1"}, queries.ErrUnknownParam},
		{map[string]string{"from": "2014-01-01", "to": " "}, queries.ErrMissingParam},
	}
	for _, tt := range tests {
		_, err := q.Bind(tt.values)
		if !errors.Is(err, tt.want) {
			t.Errorf("Bind(%v) = %v, want %v", tt.values, err, tt.want)
		}
		if _, ok := errors.AsType[*queries.ParamError](err); !ok {
			t.Errorf("Bind(%v) error %T is not a *ParamError", tt.values, err)
		}
	}
	c, _ := queries.Lookup(queries.Builtin(), "co-occurrence")
	for _, limit := range []string{"ten", "-1"} {
		if _, err := c.Bind(map[string]string{"limit": limit}); !errors.Is(err, queries.ErrBadValue) {
			t.Errorf("limit=%s: %v, want ErrBadValue", limit, err)
		}
	}
	if _, err := c.Bind(map[string]string{"limit": "0"}); err != nil {
		t.Errorf("limit=0: %v", err)
	}
}

func TestJSString(t *testing.T) {
	for _, s := range []string{"\"\\\n\r\u2028\u2029</x>", "😀", "\x00", "plain"} {
		lit := queries.JSString(s)
		for _, bad := range []string{"\n", "\r", "\u2028", "\u2029", "</", "\x00"} {
			if strings.Contains(lit, bad) {
				t.Errorf("JSString(%q) = %s holds %q", s, lit, bad)
			}
		}
		if strings.Count(lit, `"`) != 2 {
			t.Errorf("JSString(%q) = %s has an unescaped quote", s, lit)
		}
	}
}

func TestLoadOverrides(t *testing.T) {
	dir := t.TempDir()
	writeQuery(t, dir, "people.gizmo", "// My people.\n// columns: person\ng.Emit({person: \"x\"});\n")
	writeQuery(t, dir, "mine.gizmo", "// Mine.\n// param: n int default=3  A number\n// columns: n\ng.Emit({n: params.n});\n")
	qs, err := queries.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if q, _ := queries.Lookup(qs, "people"); q.Description != "My people." || q.Builtin {
		t.Errorf("people not overridden: %+v", q)
	}
	if _, ok := queries.Lookup(qs, "mine"); !ok {
		t.Error("mine not loaded")
	}
	writeQuery(t, dir, "bad.gizmo", "g.V().All()\n")
	qs, err = queries.Load(dir)
	be, ok := errors.AsType[*queries.BrokenError](err)
	if !ok || be.Files["bad"] == nil || !strings.Contains(err.Error(), filepath.Join(dir, "bad.gizmo")) {
		t.Errorf("a query without a header: %v, want a BrokenError naming bad.gizmo", err)
	}
	if _, ok := queries.Lookup(qs, "bad"); ok {
		t.Error("a query without a header loaded")
	}
	for _, name := range []string{"mine", "people", "agencies"} {
		if _, ok := queries.Lookup(qs, name); !ok {
			t.Errorf("%s left out with bad.gizmo: one bad file took the others", name)
		}
	}
	for _, notDir := range []string{filepath.Join(dir, "nope"), filepath.Join(dir, "bad.gizmo")} {
		if _, err := queries.Load(notDir); err == nil {
			t.Errorf("Load(%s): no error", notDir)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, q := range queries.Builtin() {
		f.Add(q.Text)
	}
	f.Add("// d\n// param: x string default=\"a b\" example=\"\\x00\"  desc\n")
	f.Fuzz(func(t *testing.T, text string) {
		q, err := queries.Parse("fuzz", text)
		if err != nil {
			return
		}
		var b strings.Builder
		b.WriteString("// " + q.Description + "\n")
		for _, p := range q.Params {
			b.WriteString("// param: " + p.String() + "\n")
		}
		r, err := queries.Parse("fuzz", b.String())
		if err != nil {
			t.Fatalf("reparse of %q: %v", b.String(), err)
		}
		if r.Description != q.Description || len(r.Params) != len(q.Params) {
			t.Fatalf("round trip changed %q/%d to %q/%d", q.Description, len(q.Params), r.Description, len(r.Params))
		}
		for i := range q.Params {
			if r.Params[i] != q.Params[i] {
				t.Fatalf("param %d: %+v became %+v", i, q.Params[i], r.Params[i])
			}
		}
	})
}
