package graph_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cayleygraph/quad"
	"github.com/cayleygraph/quad/nquads"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/extract/synth"
	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/graph/model"
)

// linkedCorpus extracts what the extractor makes of real captions (the
// bundled examples and, when present, ../shared's dev sets) and adds
// generated ones: places of every kind, dates of every precision. (Not the
// hand-made sample, whose places carry no admin areas.)
func linkedCorpus(t *testing.T) []extract.Extraction {
	t.Helper()
	xs := graph.Extracted(t, filepath.Join("..", "examples", "captions.jsonl"),
		filepath.Join("..", "..", "shared", "captions", "dev.jsonl"),
		filepath.Join("..", "..", "shared", "captions", "dev-world.jsonl"))
	gen, err := synth.Extractions(5, 0, 300)
	if err != nil {
		t.Fatal(err)
	}
	return append(xs, gen...)
}

// TestLinkedData exports a store of real and generated captions and checks
// what another dataset's user relies on: every typed literal is valid for
// its datatype, every GeoNames link has the canonical http form, and every
// node has a stated type, mentions, statements and caption graphs included.
func TestLinkedData(t *testing.T) {
	s := open(t, "")
	defer s.Close()
	load(t, s, linkedCorpus(t))
	r := nquads.NewReader(strings.NewReader(export(t, s, graph.NQuads)), false)
	typed, places := make(map[quad.Value]bool), make(map[quad.Value]bool)
	names, parents := make(map[quad.Value]string), make(map[quad.Value]quad.Value)
	props := make(map[quad.Value]map[quad.IRI]bool)
	literals := make(map[quad.IRI]int)
	wikidata := 0
	for {
		q, err := r.ReadQuad()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		p := q.Predicate.(quad.IRI)
		if props[q.Subject] == nil {
			props[q.Subject] = make(map[quad.IRI]bool)
		}
		props[q.Subject][p] = true
		switch {
		case p == model.RDFType:
			typed[q.Subject] = true
			if q.Object == model.SchemaPlace {
				places[q.Subject] = true
			}
		case p == model.SchemaName && q.Label == quad.IRI(model.EntitiesGraph):
			names[q.Subject] = q.Object.String()
		case p == model.SchemaContainedInPlace:
			parents[q.Subject] = q.Object
		}
		switch o := q.Object.(type) {
		case quad.TypedString:
			literals[o.Type]++
			if err := validLiteral(string(o.Value), o.Type); err != nil {
				t.Errorf("%v %v: %v", q.Subject, p, err)
			}
		case quad.IRI:
			switch {
			case p != model.OWLSameAs:
			case strings.Contains(string(o), "geonames"):
				if !geoNamesURI.MatchString(string(o)) {
					t.Errorf("%v owl:sameAs %v: not http://sws.geonames.org/ID/", q.Subject, o)
				}
			case strings.Contains(string(o), "wikidata"):
				wikidata++
				if !wikidataURI.MatchString(string(o)) {
					t.Errorf("%v owl:sameAs %v: not http://www.wikidata.org/entity/Q...", q.Subject, o)
				}
			}
		}
	}
	for _, dt := range []quad.IRI{model.XSDDate, model.XSDGYearMonth, model.XSDGMonthDay, model.XSDDecimal, model.XSDNonNegativeInteger, model.GeoWKTLiteral} {
		if literals[dt] == 0 {
			t.Errorf("no %v literal: the corpus does not test it", dt)
		}
	}
	if wikidata == 0 {
		t.Error("no Wikidata link: the countries have them")
	}
	untyped := 0
	for n := range props {
		if typed[n] {
			continue
		}
		if untyped++; untyped <= 10 {
			t.Errorf("%v has no type", n)
		}
	}
	// One node per place: no two places of one name in the same place (or
	// both at the top), as a country and its gazetteer node were, or a
	// province named by a caption and the same province in a chain.
	seenPlace := make(map[string]quad.Value)
	for n := range places {
		k := names[n] + " in " + fmt.Sprint(parents[n])
		if other, ok := seenPlace[k]; ok {
			t.Errorf("%v and %v are both %s", other, n, k)
		}
		seenPlace[k] = n
	}
	t.Logf("%d subjects, %d typed, %d places; literals by datatype: %v", len(props), len(typed), len(places), literals)
}

var (
	geoNamesURI = regexp.MustCompile(`^http://sws\.geonames\.org/[1-9][0-9]*/$`)
	wikidataURI = regexp.MustCompile(`^http://www\.wikidata\.org/entity/Q[1-9][0-9]*$`)
)

var (
	decimalForm = regexp.MustCompile(`^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$`)
	integerForm = regexp.MustCompile(`^\+?[0-9]+$`)
	gYearForm   = regexp.MustCompile(`^-?[0-9]{4,}$`)
	wktPoint    = regexp.MustCompile(`^POINT\((\S+) (\S+)\)$`)
)

// validLiteral reports whether v is a valid lexical form of datatype t,
// by XML Schema 1.1 (and GeoSPARQL for WKT points).
func validLiteral(v string, t quad.IRI) error {
	ok := false
	switch t {
	case model.XSDDate:
		_, err := time.Parse("2006-01-02", v)
		ok = err == nil
	case model.XSDGYearMonth:
		_, err := time.Parse("2006-01", v)
		ok = err == nil
	case model.XSDGYear:
		ok = gYearForm.MatchString(v)
	case model.XSDGMonthDay:
		// Any year that has a 29 February will do.
		_, err := time.Parse("2006--01-02", "2024"+v)
		ok = strings.HasPrefix(v, "--") && err == nil
	case model.XSDDateTime:
		_, err := time.Parse(time.RFC3339, v)
		ok = err == nil
	case model.XSDDecimal:
		ok = decimalForm.MatchString(v)
	case model.XSDNonNegativeInteger:
		ok = integerForm.MatchString(v)
	case model.GeoWKTLiteral:
		m := wktPoint.FindStringSubmatch(v)
		if m != nil {
			long, err1 := strconv.ParseFloat(m[1], 64)
			lat, err2 := strconv.ParseFloat(m[2], 64)
			ok = err1 == nil && err2 == nil && math.Abs(long) <= 180 && math.Abs(lat) <= 90
		}
	default:
		return errors.New("datatype " + string(t) + " is not one the model writes")
	}
	if !ok {
		return errors.New(strconv.Quote(v) + " is not a valid " + string(t))
	}
	return nil
}

// TestDescribe: a node's document holds its description, its caption-stated
// facts (graph kept in N-Quads) and its point, in every format but CSV;
// the tallies stay out; a node the store does not hold has none.
func TestDescribe(t *testing.T) {
	s := open(t, "")
	defer s.Close()
	load(t, s, sample())
	ctx := context.Background()
	const jobar = model.Base + "place/capgraph/jobar"
	describe := func(iri string, f graph.Format) (string, int) {
		var b strings.Builder
		n, err := s.Describe(ctx, &b, iri, f)
		if err != nil {
			t.Fatalf("describe %s %s: %v", iri, f, err)
		}
		return b.String(), n
	}
	nq, n := describe(jobar, graph.NQuads)
	for _, want := range []string{
		"<" + jobar + "> <" + string(model.CapgraphLocatedIn) + "> <" + model.Base + "place/geonames/170654> <" + model.GraphIRI("ex-1") + "> .",
		"<" + jobar + "> <" + string(model.SchemaName) + "> \"Jobar\" <" + model.EntitiesGraph + "> .",
		"<" + jobar + "#geo> <" + string(model.GeoAsWKT) + ">",
	} {
		if !strings.Contains(nq, want) {
			t.Errorf("N-Quads lack %s:\n%s", want, nq)
		}
	}
	if strings.Contains(nq, model.TalliesGraph) || strings.Count(nq, "\n") != n {
		t.Errorf("N-Quads (%d):\n%s", n, nq)
	}
	nt, triples := describe(jobar, graph.NTriples)
	for _, f := range []graph.Format{graph.Turtle, graph.JSONLD} {
		if _, k := describe(jobar, f); k != triples {
			t.Errorf("%s: %d triples, N-Triples %d", f, k, triples)
		}
	}
	if _, err := exec.LookPath("rapper"); err == nil {
		ttl, _ := describe(jobar, graph.Turtle)
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "j.ttl"), []byte(ttl), 0o644)
		if got := lineSet(run(t, "rapper", "-q", "-i", "turtle", "-o", "ntriples", filepath.Join(dir, "j.ttl"))); !slices.Equal(got, lineSet(nt)) {
			t.Errorf("Turtle reads as\n%s\nwant\n%s", strings.Join(got, "\n"), nt)
		}
	}
	// A caption graph, a mention and a statement are typed as their
	// properties' domains type them, as in an export.
	g := model.GraphIRI("ex-1")
	for node, class := range map[string]quad.IRI{g: model.ProvEntity, g + "#m0": model.NIFString, g + "#r0": model.RDFStatement} {
		want := "<" + node + "> <" + string(model.RDFType) + "> <" + string(class) + "> ."
		if doc, _ := describe(node, graph.NTriples); !strings.Contains(doc, want) {
			t.Errorf("%s's document lacks %s:\n%s", node, want, doc)
		}
	}
	if out, n := describe(model.Base+"place/nowhere", graph.Turtle); n != 0 || out != "" {
		t.Errorf("unknown node: %d, %q", n, out)
	}
	if _, err := s.Describe(ctx, io.Discard, jobar, graph.CSV); err == nil {
		t.Error("CSV: no error")
	}
}

// TestBaseIRI exports a store under a researcher's own base: no node of
// capgraph's base is left in any format, the vocabulary stays, and the
// graph is the same but for the names.
func TestBaseIRI(t *testing.T) {
	const base = "https://archive.example.org/photos/id/"
	s, err := graph.Open(context.Background(), "", graph.Options{BaseIRI: base})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	plain := open(t, "")
	defer plain.Close()
	load(t, s, sample())
	load(t, plain, sample())
	for _, f := range graph.Formats {
		got, want := export(t, s, f), export(t, plain, f)
		if strings.Contains(got, model.Base) || !strings.Contains(got, base+"photo/ex-1") {
			t.Errorf("%s under %s:\n%.600s", f, base, got)
		}
		if f != graph.JSONLD && got != strings.ReplaceAll(want, model.Base, base) {
			t.Errorf("%s: more than the base differs", f)
		}
		if f == graph.Turtle && !strings.Contains(got, "@prefix capgraph: <"+model.Vocab+">") {
			t.Errorf("the vocabulary moved:\n%.400s", got)
		}
	}
	var b strings.Builder
	if _, err := s.Describe(context.Background(), &b, model.Base+"place/capgraph/jobar", graph.NTriples); err != nil ||
		!strings.Contains(b.String(), "<"+base+"place/capgraph/jobar> <"+string(model.SchemaName)+"> \"Jobar\" .") || strings.Contains(b.String(), model.Base) {
		t.Errorf("describe under %s: %v\n%s", base, err, b.String())
	}
}
