package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/capgraph/capgraph/graph/model"
)

// iriInText finds the IRIs that query text and the web page's script name,
// quoted or in angle brackets.
var iriInText = regexp.MustCompile(`["<](https?://[^">\s]*)[">]`)

// TestVocabularyIsTheModels ties every IRI that the saved queries, their
// SPARQL twins, lib.js and the web page name to graph/model, the one
// vocabulary: each lies in one of the model's namespaces or under its
// base, and the graphs the model names are named as it spells them. A
// namespace or base changed in the model and not in the text fails here,
// with the file that still names the old one.
func TestVocabularyIsTheModels(t *testing.T) {
	root := filepath.Join("..", "..")
	var files []string
	for _, pattern := range []string{"queries/*.gizmo", "queries/lib.js", "queries/sparql/*.rq", "cmd/capgraph/internal/web/static/*.js"} {
		m, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pattern)))
		if err != nil {
			t.Fatal(err)
		}
		if len(m) == 0 {
			t.Fatalf("no file matches %s", pattern)
		}
		files = append(files, m...)
	}
	namespaces := []string{model.Base}
	for _, p := range model.Prefixes {
		namespaces = append(namespaces, p.IRI)
	}
	notRDF := map[string]bool{"http://www.w3.org/2000/svg": true} // the page draws with SVG
	graphs := map[string]bool{model.TalliesGraph: true, model.ContainmentGraph: true, model.EntitiesGraph: true}
	found := 0
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range iriInText.FindAllStringSubmatch(string(b), -1) {
			iri := m[1]
			if notRDF[iri] {
				continue
			}
			found++
			known := false
			for _, ns := range namespaces {
				known = known || strings.HasPrefix(iri, ns)
			}
			if !known {
				t.Errorf("%s names %s, in none of graph/model's namespaces (model.Prefixes) nor under model.Base", path, iri)
			}
			if rest, ok := strings.CutPrefix(iri, model.Base); ok && !strings.Contains(rest, "/") && rest != "" && !graphs[iri] {
				t.Errorf("%s names the graph %s, which graph/model does not", path, iri)
			}
		}
	}
	if found < 50 {
		t.Errorf("found only %d IRIs in %d files: is the pattern still right?", found, len(files))
	}
}
