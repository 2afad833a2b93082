package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestQueryCLI(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), []string{"build", "--store", store, "../../queries/testdata/captions.jsonl"}, strings.NewReader(""), &stdout, &stderr); code != exitOK {
		t.Fatalf("build: exit %d: %s", code, stderr.String())
	}
	empty := filepath.Join(dir, "empty")
	if code := run(t.Context(), []string{"build", "--store", empty, writeFile(t, dir, "none.jsonl", "")}, strings.NewReader(""), &stdout, &stderr); code != exitOK {
		t.Fatalf("build empty: exit %d: %s", code, stderr.String())
	}
	mine := filepath.Join(dir, "mine")
	os.Mkdir(mine, 0o755)
	writeFile(t, mine, "agencies.gizmo", "// My agencies.\n// columns: n\ng.Emit({n: 1});\n")
	broken := filepath.Join(dir, "broken")
	os.Mkdir(broken, 0o755)
	writeFile(t, broken, "bad.gizmo", "g.V().All()\n")
	adhoc := writeFile(t, dir, "adhoc.gizmo", `g.V("Saraqeb").In("<https://schema.org/name>").All()`)

	tests := []cliCase{
		{"list", []string{"query", "list"}, "", exitOK, "photos-in-place", "", -1},
		{"list shows params", []string{"query", "list"}, "", exitOK, "-p place=STRING (required)", "", -1},
		{"show", []string{"query", "show", "provenance"}, "", exitOK, "param: relation string required", "", -1},
		{"show sparql", []string{"query", "show", "--sparql", "people"}, "", exitOK, "SELECT ?person", "", -1},
		{"show sparql bound", []string{"query", "show", "--sparql", "photos-in-place", "-p", "place=Haresta"}, "", exitOK, `VALUES ?param_place { "Haresta" "haresta" "HARESTA" "Harasta" "harasta" "HARASTA" <https://capgraph.org/id/place/geonames/169897> }`, "", -1},
		{"show sparql bound by IRI", []string{"query", "show", "--sparql", "entity", "-p", "name=<https://capgraph.org/id/place/geonames/169897>"}, "", exitOK, `VALUES ?param_name { <https://capgraph.org/id/place/geonames/169897> }`, "", -1},
		{"show sparql bad param", []string{"query", "show", "--sparql", "photos-in-place", "-p", "plac=Idlib"}, "", exitUsage, "", "no such parameter", -1},
		{"show gizmo with params", []string{"query", "show", "photos-in-place", "-p", "place=Idlib"}, "", exitUsage, "", "give --sparql too", -1},
		{"run table", []string{"query", "run", "photos-in-place", "-p", "place=Idlib", "--store", store}, "", exitOK, "Maarat al-Numan", "", -1},
		{"run transliterated", []string{"query", "run", "photos-in-place", "-p", "place=Haresta", "--store", store, "-f", "csv"}, "", exitOK, "2017-11-02,fx-08,https://capgraph.org/id/photo/fx-08,https://capgraph.org/id/place/geonames/169897,Harasta", "", -1},
		{"run json empty", []string{"query", "run", "people", "--store", store, "-f", "json", "--queries-dir", mine}, "", exitOK, "", "", -1},
		{"user overrides builtin", []string{"query", "run", "agencies", "--store", store, "-f", "jsonl", "--queries-dir", mine}, "", exitOK, `{"n":1}`, "", -1},
		{"run md", []string{"query", "run", "agencies", "--store", store, "-f", "md"}, "", exitOK, "| https://capgraph.org/id/agency/reuters | Reuters | 9 | 4 |", "", -1},
		{"hostile value is data", []string{"query", "run", "entity", "-p", `name="); g.Emit({entity:"pwned"}); ("`, "--store", store, "-f", "json"}, "", exitOK, "[]", "", -1},
		{"exec stdin", []string{"query", "exec", "--store", store, "-f", "jsonl"}, `g.V("Saraqeb").In("<https://schema.org/name>").All()`, exitOK, "geonames/164816", "", -1},
		{"exec file", []string{"query", "exec", adhoc, "--store", store, "-f", "csv"}, "", exitOK, "geonames/164816", "", -1},
		{"exec empty", []string{"query", "exec", "--store", store}, "  \n", exitUsage, "", "the query is empty", -1},
		{"unknown query", []string{"query", "run", "nope", "--store", store}, "", exitUsage, "", `unknown query "nope"`, -1},
		{"queries dir missing", []string{"query", "list", "--queries-dir", filepath.Join(dir, "nope")}, "", exitUsage, "", "queries_dir", -1},
		{"queries dir a file", []string{"query", "list", "--queries-dir", adhoc}, "", exitUsage, "", "is not a directory", -1},
		{"one broken file leaves the rest", []string{"query", "run", "agencies", "--store", store, "-f", "csv", "--queries-dir", broken}, "", exitOK, "Reuters", "bad.gizmo", -1},
		{"the broken query itself", []string{"query", "run", "bad", "--store", store, "--queries-dir", broken}, "", exitError, "", "saved query bad is left out", -1},
		{"missing param", []string{"query", "run", "photos-in-place", "--store", store}, "", exitUsage, "", "parameter place: required parameter missing", -1},
		{"unknown param", []string{"query", "run", "people", "-p", "x=1", "--store", store}, "", exitUsage, "", "parameter x: no such parameter", -1},
		{"negative limit", []string{"query", "run", "people", "--limit", "-3", "--store", store}, "", exitUsage, "", "--limit: -3 is not a number of rows", -1},
		{"negative timeout", []string{"query", "exec", "--timeout", "-1s", "--store", store}, "g.V().All()", exitUsage, "", "--timeout: -1s is not a duration", -1},
		{"bad date", []string{"query", "run", "photos-between", "-p", "from=2018-02-30", "-p", "to=2018-03-01", "--store", store}, "", exitUsage, "", `"2018-02-30" is not a date`, -1},
		{"bad int", []string{"query", "run", "co-occurrence", "-p", "limit=many", "--store", store}, "", exitUsage, "", `"many" is not an integer`, -1},
		{"bad -p", []string{"query", "run", "people", "-p", "novalue", "--store", store}, "", exitUsage, "", "want name=value", -1},
		{"bad format", []string{"query", "run", "people", "-f", "xml", "--store", store}, "", exitUsage, "", `--format: "xml"`, -1},
		{"empty store", []string{"query", "run", "people", "--store", empty}, "", exitError, "", "is empty", -1},
		{"missing store", []string{"query", "run", "people", "--store", filepath.Join(dir, "nope")}, "", exitError, "", "does not exist", -1},
		{"range too wide", []string{"query", "run", "photos-between", "-p", "from=1900-01-01", "-p", "to=2020-01-01", "--store", store}, "", exitError, "", "more than 3660 days", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.check)
	}
}

func TestQueryJSONIsAnArray(t *testing.T) {
	var out bytes.Buffer
	w := newRowWriter(&out, "json", []string{"a", "b"})
	if err := w.close(); err != nil || out.String() != "[]\n" {
		t.Fatalf("empty json = %q, %v; want []", out.String(), err)
	}
	out.Reset()
	w = newRowWriter(&out, "json", []string{"b", "a"})
	w.row(map[string]any{"a": "x", "b": 2.0})
	w.row(map[string]any{"a": "y", "b": 3.0})
	w.close()
	var rows []map[string]any
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil || len(rows) != 2 {
		t.Fatalf("json output %q: %v", out.String(), err)
	}
	if !strings.HasPrefix(out.String(), "[\n  {\"b\":2,\"a\":\"x\"}") {
		t.Errorf("columns not in order: %s", out.String())
	}
}

// TestQueryTimeout: an endless program stops at --timeout with a message
// that says so, instead of running until killed.
func TestQueryTimeout(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "g.db")
	in := writeFile(t, dir, "c.txt", "A man walks in Aleppo, Syria, May 3, 2014. REUTERS/Jane Doe\n")
	cliCase{args: []string{"build", "-q", "--store", store, in}, lines: -1}.check(t)
	start := time.Now()
	cliCase{args: []string{"query", "exec", "--store", store, "--timeout", "300ms"}, stdin: "for (;;) {}", code: exitError, stderr: "longer than --timeout 300ms", lines: -1}.check(t)
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the endless query stopped after %v", d)
	}
}

// TestQueryTableCap: the table output, which holds its rows, stops at its
// cap and says how to get the rest; csv streams every row.
func TestQueryTableCap(t *testing.T) {
	defer func(n int) { tableRowCap = n }(tableRowCap)
	tableRowCap = 1
	dir := t.TempDir()
	store := filepath.Join(dir, "g.db")
	in := writeFile(t, dir, "c.txt", "A man walks in Aleppo, Syria, May 3, 2014.\nA boy runs in Homs, Syria, May 4, 2014.\n")
	cliCase{args: []string{"build", "-q", "--store", store, in}, lines: -1}.check(t)
	photos := `g.V("<https://schema.org/Photograph>").In("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>").All()`
	cliCase{args: []string{"query", "exec", "--store", store, "-f", "table"}, stdin: photos, stderr: "showing the first 1 rows", lines: -1}.check(t)
	cliCase{args: []string{"query", "exec", "--store", store, "-f", "csv"}, stdin: photos, lines: 3}.check(t)
}
