package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// importRules are who may import what, by directory of the module (slash
// separated) and import path prefix. Each keeps one package's job in one
// place: Cayley behind graph's door, extraction free of the store, and
// settings read where the program is wired.
var importRules = []struct {
	imports string // an import path prefix
	allowed func(dir string) bool
	except  func(path string) bool // imports the rule leaves alone; nil is none
	rule    string
}{
	{"github.com/cayleygraph/", under("graph"), nil,
		"only graph/ speaks Cayley: other packages use graph's own types (graph.Term, graph.Quad) and the vocabulary of graph/model"},
	{"github.com/spf13/viper", func(dir string) bool { return under("cmd")(dir) || under("config")(dir) }, nil,
		"only cmd/ and config/ read settings: other packages take theirs as arguments"},
	{capgraph, func(dir string) bool { return !under("extract")(dir) }, func(path string) bool { return under(capgraph+"extract")(path) || under(capgraph+"internal")(path) },
		"extract/ stands alone: it imports nothing of capgraph's outside extract/ but the toolbox internal/"},
	{capgraph, func(dir string) bool { return !under("internal")(dir) }, under(capgraph + "internal"),
		"internal/ is a toolbox for every package: it imports nothing of capgraph's outside internal/"},
}

const capgraph = "github.com/capgraph/capgraph/"

func under(top string) func(dir string) bool {
	return func(dir string) bool { return dir == top || strings.HasPrefix(dir, top+"/") }
}

// TestImportRules holds every Go file of the module, tests included, to
// importRules.
func TestImportRules(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		rel, _ := filepath.Rel(root, path)
		dir := filepath.ToSlash(filepath.Dir(rel))
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if msg := importViolation(dir, p); msg != "" {
				t.Errorf("%s imports %s: %s", filepath.ToSlash(rel), p, msg)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read only %d Go files under %s: not the module's root?", files, root)
	}
}

// importViolation returns the rule that a file in dir importing path
// breaks, or "".
func importViolation(dir, path string) string {
	for _, r := range importRules {
		if strings.HasPrefix(path, r.imports) && !r.allowed(dir) && (r.except == nil || !r.except(path)) {
			return r.rule
		}
	}
	return ""
}

func TestImportViolation(t *testing.T) {
	for _, tt := range []struct {
		dir, path string
		broken    bool
	}{
		{"graph", "github.com/cayleygraph/quad", false},
		{"graph/internal/plan", "github.com/cayleygraph/cayley/graph/kv", false},
		{"cmd/capgraph/internal/web", "github.com/cayleygraph/quad", true},
		{"queries", "github.com/cayleygraph/cayley/query", true},
		{"graphs", "github.com/cayleygraph/quad", true},
		{"config", "github.com/spf13/viper", false},
		{"cmd/capgraph", "github.com/spf13/viper", false},
		{"graph", "github.com/spf13/viper", true},
		{"extract", "github.com/capgraph/capgraph/extract/gazetteer", false},
		{"extract/eval", "github.com/capgraph/capgraph/extract", false},
		{"extract/synth", "github.com/capgraph/capgraph/graph/model", true},
		{"extract", "github.com/capgraph/capgraph/config", true},
		{"graph", "github.com/capgraph/capgraph/extract", false},
		{"extract", "github.com/capgraph/capgraph/internal/ordered", false},
		{"graph", "github.com/capgraph/capgraph/internal/ordered", false},
		{"internal/ordered", "github.com/capgraph/capgraph/extract", true},
		{"internal/ordered", "github.com/capgraph/capgraph/internal/other", false},
		{"extract", "github.com/capgraph/capgraph/graph/internal/plan", true},
	} {
		if got := importViolation(tt.dir, tt.path) != ""; got != tt.broken {
			t.Errorf("%s importing %s: broken %v, want %v", tt.dir, tt.path, got, tt.broken)
		}
	}
}
