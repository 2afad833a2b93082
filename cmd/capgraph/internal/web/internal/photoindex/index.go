// Package photoindex is serve's index of a store's photos: when each was
// taken and which entities it is linked to, held in memory as posting
// lists, so that an entity's summary, a filtered list of photos and a
// filtered export are a pass over a few lists of integers, not a walk
// over the store.
//
// Build reads every photo once (its own quads: date and links) and every
// entity a photo links to (name and the places that hold it). Photos are
// numbered in date order, so a posting list (the photos linked to one
// entity, ascending) is in date order too, a date range is a contiguous
// run of numbers, and a page of a selection is a slice of it.
//
// A photo is linked to an entity by schema:about, schema:mentions,
// schema:contentLocation, schema:creator or schema:sourceOrganization. A
// place stands for itself and every place within it: the places that hold
// it by schema:containedInPlace or capgraph:locatedIn, up to
// model.WithinSteps steps, as the photos-in-place query and the export's
// containment graph count them.
package photoindex

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/capgraph/capgraph/extract/gazetteer"
	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/graph/model"
)

// An Entity is a node that photos link to.
type Entity struct {
	IRI   string `json:"iri"`
	Label string `json:"label"`
	Kind  string `json:"kind"` // person, place, group, org, agency, event, photographer, other
}

// A Photo is one indexed photo.
type Photo struct {
	IRI       string // the photo node
	CaptionID string
	Date      Date
}

// Index is the in-memory index of a store's photos. It is read-only once
// built and safe for concurrent use.
type Index struct {
	photos   []Photo  // in date order (Date.before), then by caption id
	linkAt   []int32  // photo i links to links[linkAt[i]:linkAt[i+1]]
	links    []int32  // entity numbers
	entities []Entity // by number
	byIRI    map[string]int32
	postings [][]int32        // photos linked to each entity, ascending
	inside   [][]int32        // places within each place (model.WithinSteps steps), itself excluded
	holders  [][]int32        // the places that hold each place, one step up
	names    []name           // every entity's name and alternate names
	classes  map[int32]string // "country" or "administrative area"
	// byCaption numbers the photos by caption id.
	byCaption map[string]int32
}

// linkPredicates are the predicates that link a photo to an entity.
var linkPredicates = map[graph.Term]bool{
	graph.IRI(string(model.SchemaAbout)):           true,
	graph.IRI(string(model.SchemaMentions)):        true,
	graph.IRI(string(model.SchemaContentLocation)): true,
	graph.IRI(string(model.SchemaCreator)):         true,
	graph.IRI(string(model.SchemaSourceOrg)):       true,
}

var (
	rdfType         = graph.IRI(string(model.RDFType))
	schemaPhoto     = graph.IRI(string(model.SchemaPhotograph))
	schemaDate      = graph.IRI(string(model.SchemaDateCreated))
	schemaName      = graph.IRI(string(model.SchemaName))
	schemaAltName   = graph.IRI(string(model.SchemaAlternateName))
	schemaIn        = graph.IRI(string(model.SchemaContainedInPlace))
	schemaCountry   = graph.IRI(string(model.SchemaCountry))
	schemaAdminArea = graph.IRI(string(model.SchemaAdministrativeArea))
	capgraphIn      = graph.IRI(string(model.CapgraphLocatedIn))
	photoIRIPrefix  = model.Base + "photo/"
)

// What Build reads of a photo and of an entity.
var (
	photoPredicates  = append(slices.Collect(maps.Keys(linkPredicates)), schemaDate)
	entityPredicates = []graph.Term{schemaName, schemaAltName, schemaIn, capgraphIn, rdfType}
)

// Build reads the photos of s and the entities they link to. It reads with
// up to GOMAXPROCS goroutines.
func Build(ctx context.Context, s *graph.Store) (*Index, error) {
	var iris []string
	for q, err := range s.Quads(ctx, graph.Object, schemaPhoto) {
		if err != nil {
			return nil, fmt.Errorf("photoindex: %w", err)
		}
		if q.Predicate == rdfType && q.Subject.IsIRI() && strings.HasPrefix(q.Subject.Value, photoIRIPrefix) {
			iris = append(iris, q.Subject.Value)
		}
	}
	read := make([]readPhoto, len(iris))
	err := parallel(ctx, len(iris), func(i int) error {
		p, err := readOne(ctx, s, iris[i])
		read[i] = p
		return err
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(read, func(a, b readPhoto) int {
		return cmp.Or(a.Date.compare(b.Date), strings.Compare(a.CaptionID, b.CaptionID))
	})

	ix := &Index{byIRI: map[string]int32{}, linkAt: make([]int32, 1, len(read)+1), byCaption: make(map[string]int32, len(read))}
	for _, p := range read {
		ix.byCaption[p.CaptionID] = int32(len(ix.photos))
		ix.photos = append(ix.photos, p.Photo)
		for _, e := range p.links {
			n, ok := ix.byIRI[e]
			if !ok {
				n = ix.add(e)
			}
			if !slices.Contains(ix.links[ix.linkAt[len(ix.linkAt)-1]:], n) {
				ix.links = append(ix.links, n)
			}
		}
		ix.linkAt = append(ix.linkAt, int32(len(ix.links)))
	}
	ix.postings = make([][]int32, len(ix.entities))
	for i := range ix.photos {
		for _, e := range ix.linksOf(int32(i)) {
			ix.postings[e] = append(ix.postings[e], int32(i))
		}
	}
	if err := ix.describe(ctx, s); err != nil {
		return nil, err
	}
	return ix, nil
}

// add numbers a new entity.
func (ix *Index) add(iri string) int32 {
	n := int32(len(ix.entities))
	ix.entities = append(ix.entities, Entity{IRI: iri, Label: lastSegment(iri), Kind: Kind(iri)})
	ix.byIRI[iri] = n
	return n
}

type readPhoto struct {
	Photo
	links []string
}

// readOne reads a photo's date and links.
func readOne(ctx context.Context, s *graph.Store, iri string) (readPhoto, error) {
	p := readPhoto{Photo: Photo{IRI: iri, CaptionID: captionID(iri)}}
	for q, err := range s.Out(ctx, graph.IRI(iri), photoPredicates...) {
		if err != nil {
			return p, fmt.Errorf("photoindex: photo %s: %w", iri, err)
		}
		switch {
		case q.Predicate == schemaDate && q.Object.Kind == graph.LiteralTerm:
			p.Date = ParseDate(q.Object.Value)
		case linkPredicates[q.Predicate] && q.Object.IsIRI():
			p.links = append(p.links, q.Object.Value)
		}
	}
	return p, nil
}

// describe reads the name of every entity and the places that hold each
// place, numbering the holders no photo links to, and fills ix.inside.
func (ix *Index) describe(ctx context.Context, s *graph.Store) error {
	up := map[int32][]int32{}
	ix.classes = map[int32]string{}
	for from := 0; from < len(ix.entities); {
		to := len(ix.entities)
		type desc struct {
			name     string
			altNames []string
			holders  []string // schema:containedInPlace first, then capgraph:locatedIn
			stated   []string // capgraph:locatedIn
			class    string   // "country" or "administrative area", for a search hit's context
		}
		got := make([]desc, to-from)
		err := parallel(ctx, to-from, func(i int) error {
			e := ix.entities[from+i]
			d := &got[i]
			for q, err := range s.Out(ctx, graph.IRI(e.IRI), entityPredicates...) {
				if err != nil {
					return fmt.Errorf("photoindex: entity %s: %w", e.IRI, err)
				}
				switch {
				case q.Predicate == schemaName && d.name == "":
					d.name = q.Object.Value
				case q.Predicate == schemaAltName && !slices.Contains(d.altNames, q.Object.Value):
					d.altNames = append(d.altNames, q.Object.Value)
				case q.Predicate == schemaIn && q.Object.IsIRI() && !slices.Contains(d.holders, q.Object.Value):
					d.holders = append(d.holders, q.Object.Value)
				case q.Predicate == capgraphIn && q.Object.IsIRI() && !slices.Contains(d.stated, q.Object.Value):
					d.stated = append(d.stated, q.Object.Value)
				case q.Predicate == rdfType && q.Object == schemaCountry:
					d.class = "country"
				case q.Predicate == rdfType && q.Object == schemaAdminArea && d.class == "":
					d.class = "administrative area"
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		for i, d := range got {
			if d.class != "" {
				ix.classes[int32(from+i)] = d.class
			}
			d.holders = append(d.holders, d.stated...)
			n := int32(from + i)
			if d.name != "" {
				ix.entities[n].Label = d.name
			}
			for _, v := range append([]string{ix.entities[n].Label}, d.altNames...) {
				ix.names = append(ix.names, name{value: v, fold: gazetteer.Fold(v), key: gazetteer.Key(v), entity: n})
			}
			for _, h := range d.holders {
				hn, ok := ix.byIRI[h]
				if !ok {
					hn = ix.add(h)
					ix.postings = append(ix.postings, nil)
				}
				if hn != n && !slices.Contains(up[n], hn) {
					up[n] = append(up[n], hn)
				}
			}
		}
		from = to
	}
	ix.inside = make([][]int32, len(ix.entities))
	ix.holders = make([][]int32, len(ix.entities))
	for place, hs := range up {
		ix.holders[place] = hs
	}
	for place, holders := range up {
		seen := map[int32]bool{place: true}
		frontier := holders
		for range model.WithinSteps {
			var next []int32
			for _, h := range frontier {
				if !seen[h] {
					seen[h] = true
					ix.inside[h] = append(ix.inside[h], place)
					next = append(next, up[h]...)
				}
			}
			frontier = next
		}
	}
	for _, in := range ix.inside {
		slices.Sort(in)
	}
	return nil
}

// parallel calls f for 0..n-1 on up to GOMAXPROCS goroutines and returns
// the first error.
func parallel(ctx context.Context, n int, f func(int) error) error {
	workers := min(runtime.GOMAXPROCS(0), n)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				if ctx.Err() != nil {
					return
				}
				if err := f(i); err != nil {
					cancel(err)
					return
				}
			}
		})
	}
	wg.Wait()
	return context.Cause(ctx)
}

// Len is the number of photos.
func (ix *Index) Len() int { return len(ix.photos) }

// Photo returns photo number i.
func (ix *Index) Photo(i int32) Photo { return ix.photos[i] }

// PhotoOf returns the number of the photo of the caption with that id.
func (ix *Index) PhotoOf(captionID string) (int32, bool) {
	i, ok := ix.byCaption[captionID]
	return i, ok
}

// Lookup returns the entity with that IRI.
func (ix *Index) Lookup(iri string) (Entity, bool) {
	n, ok := ix.byIRI[iri]
	if !ok {
		return Entity{}, false
	}
	return ix.entities[n], true
}

// PhotoCount is the number of photos linked to the entity, or, for a
// place, to it or a place within it.
func (ix *Index) PhotoCount(iri string) int {
	n, ok := ix.byIRI[iri]
	if !ok {
		return 0
	}
	return len(ix.linkedTo(n))
}

func (ix *Index) linksOf(i int32) []int32 { return ix.links[ix.linkAt[i]:ix.linkAt[i+1]] }

// Kind is the kind of entity an IRI of the model names, from its path.
func Kind(iri string) string {
	rest, ok := strings.CutPrefix(iri, model.Base)
	if !ok {
		return "other"
	}
	kind, _, _ := strings.Cut(rest, "/")
	switch kind {
	case "person", "place", "group", "org", "agency", "event", "photographer", "photo", "controller":
		return kind
	}
	return "other"
}

// captionID is the caption id a photo IRI encodes.
func captionID(photo string) string {
	id := strings.TrimPrefix(photo, photoIRIPrefix)
	if u, err := url.PathUnescape(id); err == nil {
		return u
	}
	return id
}

func lastSegment(iri string) string {
	if i := strings.LastIndexAny(iri, "/#"); i >= 0 && i < len(iri)-1 {
		iri = iri[i+1:]
	}
	if u, err := url.PathUnescape(iri); err == nil {
		return u
	}
	return iri
}

// Links returns the entities photo i is linked to.
func (ix *Index) Links(i int32) []Entity {
	out := make([]Entity, 0, ix.linkAt[i+1]-ix.linkAt[i])
	for _, e := range ix.linksOf(i) {
		out = append(out, ix.entities[e])
	}
	return out
}

// Inside returns the IRIs of the places within a place, itself excluded.
func (ix *Index) Inside(iri string) []string {
	n, ok := ix.byIRI[iri]
	if !ok {
		return nil
	}
	out := make([]string, 0, len(ix.inside[n]))
	for _, p := range ix.inside[n] {
		out = append(out, ix.entities[p].IRI)
	}
	return out
}
