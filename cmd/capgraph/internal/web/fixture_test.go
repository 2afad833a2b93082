package web

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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

// builtDirs are the stores built for the tests, removed at their end.
var builtDirs []string

// fixtureDir is a store of the example captions, built once.
var fixtureDir = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "capgraph-web-fixture-")
	if err != nil {
		return "", err
	}
	builtDirs = append(builtDirs, dir)
	ctx := context.Background()
	x, err := extract.New()
	if err != nil {
		return "", err
	}
	s, err := graph.Open(ctx, dir, graph.Options{})
	if err != nil {
		return "", err
	}
	for _, name := range fixtureFiles {
		f, err := os.Open(name)
		if err != nil {
			return "", errors.Join(err, s.Close())
		}
		rd := extract.NewReader(f, extract.ReaderOptions{Name: filepath.Base(name)})
		_, err = s.Load(ctx, x.ExtractAll(ctx, rd.All(), 1), graph.LoadOptions{ExtractorVersion: extract.Version})
		f.Close()
		if err != nil {
			return "", errors.Join(err, s.Close())
		}
	}
	return dir, s.Close()
})

// openFixture opens the store of the example captions read-only, as
// serve does.
func openFixture(tb testing.TB) *graph.Store {
	tb.Helper()
	dir, err := fixtureDir()
	if err != nil {
		tb.Fatal(err)
	}
	s, err := graph.Open(context.Background(), dir, graph.Options{ReadOnly: true})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// queryProcessEnv names the store a query process opens: the test binary
// is its own query process when it is set.
const queryProcessEnv = "CAPGRAPH_TEST_QUERY_PROCESS"

// testQueryProcess starts this test binary as the query process for the
// store at dir.
func testQueryProcess(dir string) func(context.Context, QueryLimits) *exec.Cmd {
	return func(ctx context.Context, lim QueryLimits) *exec.Cmd {
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$",
			"-timeout="+lim.Timeout.String(), "-results="+strconv.Itoa(lim.Results), "-memory="+strconv.FormatUint(lim.Memory, 10))
		cmd.Env = append(os.Environ(), queryProcessEnv+"="+dir)
		return cmd
	}
}

// serveQueryProcess is the test binary as a query process.
func serveQueryProcess(dir string) error {
	var lim QueryLimits
	fs := flag.NewFlagSet("query process", flag.ContinueOnError)
	fs.String("test.run", "", "")
	fs.DurationVar(&lim.Timeout, "timeout", 0, "")
	fs.IntVar(&lim.Results, "results", 0, "")
	fs.Uint64Var(&lim.Memory, "memory", 0, "")
	if err := fs.Parse(os.Args[1:]); err != nil {
		return err
	}
	s, err := graph.Open(context.Background(), dir, graph.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer s.Close()
	return ServeQuery(s, os.Stdin, os.Stdout, lim)
}

// testQueries are saved queries for the tests, independent of the queries
// package: one with a parameter, one without, and one that runs until its
// time is up.
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
	{
		Name: "spin", Description: "Never ends", Lang: "gizmo",
		Bind: func(p map[string]string) (string, error) { return "for (;;) {}", nil },
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
	opts.QueryProcess = testQueryProcess(s.Addr())
	srv, err := New(s, opts)
	if err != nil {
		tb.Fatal(err)
	}
	if err := srv.BuildIndex(context.Background()); err != nil {
		tb.Fatal(err)
	}
	return srv
}

// syntheticDir is a store of 1,500 generated captions, built once for
// the tests that need more graph than the fixture: enough that an export
// outlasts the socket buffers of a loopback connection.
var syntheticDir = sync.OnceValues(func() (string, error) {
	xs, err := synth.Extractions(5, 0, 1500)
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "capgraph-web-test-")
	if err != nil {
		return "", err
	}
	builtDirs = append(builtDirs, dir)
	ctx := context.Background()
	w, err := graph.Open(ctx, dir, graph.Options{})
	if err != nil {
		return "", err
	}
	_, err = w.Load(ctx, func(yield func(extract.Extraction, error) bool) {
		for _, x := range xs {
			if !yield(x, nil) {
				return
			}
		}
	}, graph.LoadOptions{ExtractorVersion: extract.Version})
	return dir, errors.Join(err, w.Close())
})

func TestMain(m *testing.M) {
	if dir := os.Getenv(queryProcessEnv); dir != "" {
		if err := serveQueryProcess(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	for _, dir := range builtDirs {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// openSynthetic opens the synthetic store read-only, as serve does, or,
// with copied set, a copy of it that the test may damage. (Cayley's
// in-memory store is not safe for concurrent readers.)
func openSynthetic(tb testing.TB, copied bool) *graph.Store {
	tb.Helper()
	dir, err := syntheticDir()
	if err != nil {
		tb.Fatal(err)
	}
	if copied {
		cp := filepath.Join(tb.TempDir(), "store")
		if err := os.CopyFS(cp, os.DirFS(dir)); err != nil {
			tb.Fatal(err)
		}
		dir = cp
	}
	s, err := graph.Open(context.Background(), dir, graph.Options{ReadOnly: true})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}
