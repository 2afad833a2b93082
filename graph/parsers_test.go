package graph_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/graph/model"
)

// devExtractions turns the gold annotations of ../shared/captions/dev.jsonl
// (relative to the repository root) into extractions, so that the export
// is tested on real caption text. It returns nil when the file is absent.
func devExtractions(t *testing.T) []extract.Extraction {
	f, err := os.Open(filepath.Join("..", "..", "shared", "captions", "dev.jsonl"))
	if err != nil {
		t.Logf("no dev captions (%v): testing on the hand-made sample only", err)
		return nil
	}
	defer f.Close()
	slug := regexp.MustCompile(`[^\p{L}\p{N}]+`)
	id := func(typ, text string) string {
		return strings.ToLower(typ) + ":" + strings.Trim(slug.ReplaceAllString(strings.ToLower(text), "-"), "-")
	}
	var xs []extract.Extraction
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var gold struct {
			ID, Text  string
			Entities  []struct{ Text, Type string }
			Relations []struct{ Subj, Rel, Obj string }
		}
		if err := json.Unmarshal(sc.Bytes(), &gold); err != nil {
			t.Fatal(err)
		}
		x := extract.Extraction{ID: gold.ID, Text: gold.Text}
		runes := []rune(gold.Text)
		ids := map[string]string{"photo": extract.PhotoID(gold.ID)}
		for _, e := range gold.Entities {
			at := strings.Index(gold.Text, e.Text)
			if at < 0 {
				continue
			}
			start := len([]rune(gold.Text[:at]))
			ent := extract.Entity{ID: id(e.Type, e.Text), Text: e.Text, Type: extract.EntityType(e.Type),
				Start: start, End: start + len([]rune(e.Text)), Confidence: 0.5}
			if string(runes[ent.Start:ent.End]) != e.Text {
				t.Fatalf("offsets of %q", e.Text)
			}
			if ent.Type == extract.Date {
				ent.Value, ent.Precision = "2014", "year"
			}
			ids[e.Text] = ent.ID
			x.Entities = append(x.Entities, ent)
		}
		for _, r := range gold.Relations {
			x.Relations = append(x.Relations, extract.Relation{Subj: r.Subj, Rel: extract.RelationType(r.Rel), Obj: r.Obj,
				SubjID: ids[r.Subj], ObjID: ids[r.Obj], Confidence: 0.5})
		}
		xs = append(xs, x)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return xs
}

// tricky is a caption that exercises escaping in every format.
func tricky() extract.Extraction {
	text := "Quote \"test\" \\ back\\slash\nnew line\ttab \u00e9\u0645\u062f\u064a\u0646\u0629 \U0001F600 'single' <angle> {brace} \r end"
	return extract.Extraction{ID: "tricky \"id\" <x>\\{y}", Text: text,
		Entities: []extract.Entity{{ID: "person:o'brien \"x\"", Text: "test", Type: extract.Person, Start: 7, End: 11, Confidence: 1}}}
}

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	if e := strings.ToLower(stderr.String()); strings.Contains(e, "error") || strings.Contains(e, "warning") {
		t.Errorf("%s %s:\n%s", name, strings.Join(args, " "), stderr.String())
	}
	return stdout.String()
}

func lineSet(s string) []string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	slices.Sort(lines)
	return slices.Compact(lines)
}

func TestExportParsesElsewhere(t *testing.T) {
	if _, err := exec.LookPath("rapper"); err != nil {
		t.Skip("rapper is not installed (apt-get install raptor2-utils): cannot check nt, nq and ttl with an independent parser")
	}
	s := open(t, "")
	defer s.Close()
	xs := append(sample(), tricky())
	xs = append(xs, devExtractions(t)...)
	load(t, s, xs)
	dir := t.TempDir()
	files := make(map[graph.Format]string)
	for _, f := range []graph.Format{graph.NQuads, graph.NTriples, graph.Turtle, graph.JSONLD} {
		files[f] = filepath.Join(dir, "out."+string(f))
		if err := os.WriteFile(files[f], []byte(export(t, s, f)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	nt := lineSet(run(t, "rapper", "-q", "-i", "ntriples", "-o", "ntriples", files[graph.NTriples]))
	for f, syntax := range map[graph.Format]string{graph.NQuads: "nquads", graph.Turtle: "turtle"} {
		got := lineSet(run(t, "rapper", "-q", "-i", syntax, "-o", "ntriples", files[f]))
		if !slices.Equal(got, nt) {
			t.Errorf("%s holds %d distinct triples, N-Triples %d", f, len(got), len(nt))
		}
	}
	// One named graph per caption, the entities graph and the containment graph.
	graphs := make(map[string]bool)
	for l := range strings.Lines(run(t, "rapper", "-q", "-i", "nquads", "-o", "nquads", files[graph.NQuads])) {
		graphs[strings.TrimSuffix(l[strings.LastIndex(strings.TrimSuffix(l, " .\n"), " ")+1:], " .\n")] = true
	}
	if len(graphs) != len(xs)+2 || !graphs["<"+model.EntitiesGraph+">"] || !graphs["<"+model.ContainmentGraph+">"] {
		t.Errorf("N-Quads holds %d graphs for %d captions, the entities graph and the containment graph", len(graphs), len(xs))
	}
	t.Logf("%d captions, %d distinct triples", len(xs), len(nt))

	python := ""
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(p, "-c", "import rdflib").Run() == nil {
			python = p
			break
		}
	}
	if python == "" {
		t.Skip("python3-rdflib is not installed: cannot check JSON-LD with an independent parser")
	}
	const script = `
import json, sys
from rdflib import Dataset, Graph
ds = Dataset()
ds.parse(sys.argv[1], format="json-ld")
jl = set((s.n3(), p.n3(), o.n3()) for s, p, o, g in ds.quads((None, None, None, None)))
gs = set(g for s, p, o, g in ds.quads((None, None, None, None)))
nt = set((s.n3(), p.n3(), o.n3()) for s, p, o in Graph().parse(sys.argv[2], format="nt"))
print(json.dumps({"jsonld": len(jl), "nt": len(nt), "graphs": len(gs), "same": jl == nt,
  "only_jsonld": sorted(jl - nt)[:3], "only_nt": sorted(nt - jl)[:3]}))
`
	out := run(t, python, "-c", script, files[graph.JSONLD], files[graph.NTriples])
	var res struct {
		JSONLD, NT, Graphs int
		Same               bool
		OnlyJSONLD         [][]string `json:"only_jsonld"`
		OnlyNT             [][]string `json:"only_nt"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !res.Same || res.Graphs != len(xs)+2 || res.NT != len(nt) {
		t.Errorf("rdflib: %+v", res)
	}
}
