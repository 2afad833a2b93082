package web

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/extract/synth"
	"github.com/capgraph/capgraph/graph"
)

// fixtureFiles are the project's own example captions.
var fixtureFiles = []string{
	"../../../../examples/captions.jsonl",
	"../../../../extract/testdata/wire.jsonl",
	"../../../../extract/testdata/styles.jsonl",
}

// openFixture builds an in-memory store from the example captions.
func openFixture(tb testing.TB) *graph.Store {
	tb.Helper()
	ctx := context.Background()
	x, err := extract.New()
	if err != nil {
		tb.Fatal(err)
	}
	s, err := graph.Open(ctx, "", graph.Options{ExtractorVersion: extract.Version})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	for _, name := range fixtureFiles {
		f, err := os.Open(name)
		if err != nil {
			tb.Fatal(err)
		}
		rd := extract.NewReader(f, extract.ReaderOptions{Name: filepath.Base(name)})
		if _, err := s.Load(ctx, x.ExtractAll(ctx, rd.All(), 1)); err != nil {
			tb.Fatal(err)
		}
		f.Close()
	}
	return s
}

// testQueries are saved queries for the tests, independent of the queries
// package: one with a parameter, one without.
var testQueries = []Query{
	{
		Name: "captions-of", Description: "Captions that name an entity", Lang: "gizmo",
		Params: []Param{{Name: "entity", Description: "entity IRI", Required: true, Type: "string"}},
		Bind: func(p map[string]string) (string, error) {
			e, ok := p["entity"]
			if !ok || e == "" {
				return "", fmt.Errorf("parameter entity: required parameter missing")
			}
			for k := range p {
				if k != "entity" {
					return "", fmt.Errorf("parameter %s: no such parameter", k)
				}
			}
			if strings.ContainsAny(e, "<>\"\\ \n") {
				return "", fmt.Errorf("parameter entity: bad value")
			}
			return fmt.Sprintf(`g.V(g.IRI(%q)).In("<http://www.w3.org/2005/11/its/rdf#taIdentRef>").Tag("mention").Out("<http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#anchorOf>").Tag("anchor").All()`, e), nil
		},
	},
	{
		Name: "photos", Description: "Every photo with its caption id", Lang: "gizmo",
		Bind: func(p map[string]string) (string, error) {
			if len(p) > 0 {
				return "", fmt.Errorf("no parameters")
			}
			return `g.V().Has("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>", "<https://schema.org/Photograph>").Out("<https://schema.org/identifier>").All()`, nil
		},
	},
}

// newFixtureServer returns a server over the fixture store with its index built.
func newFixtureServer(tb testing.TB, opts Options) *Server {
	tb.Helper()
	s := openFixture(tb)
	if opts.Queries == nil {
		opts.Queries = testQueries
	}
	// httptest.NewRequest names example.com, and the API tests ask Cayley.
	opts.Hosts = append(opts.Hosts, "example.com")
	opts.Cayley = true
	srv, err := New(s, opts)
	if err != nil {
		tb.Fatal(err)
	}
	if err := srv.BuildIndex(context.Background()); err != nil {
		tb.Fatal(err)
	}
	return srv
}

// openSynthetic builds an in-memory store of n generated captions: enough
// graph that an export outlasts the socket buffers of a loopback
// connection.
func openSynthetic(tb testing.TB, n int) *graph.Store {
	tb.Helper()
	ctx := context.Background()
	xs, err := synth.Extractions(5, 0, n)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := graph.Open(ctx, "", graph.Options{ExtractorVersion: extract.Version})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	all := func(yield func(extract.Extraction, error) bool) {
		for _, x := range xs {
			if !yield(x, nil) {
				return
			}
		}
	}
	if _, err := s.Load(ctx, all); err != nil {
		tb.Fatal(err)
	}
	return s
}
