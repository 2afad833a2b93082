package graph

import (
	"context"
	"fmt"

	"github.com/cayleygraph/quad"
)

// Stats describes what a store holds.
type Stats struct {
	Captions int   // caption graphs
	Quads    int64 // all quads, as the backend counts them
	// Entities counts distinct entity nodes by class, keyed by the names
	// in [EntityClasses].
	Entities map[string]int
	// Relations counts facts (quads, summed over caption graphs) by
	// predicate, keyed by the names in [RelationPredicates].
	Relations map[string]int
	Mentions  int // NIF mentions
}

// EntityClasses names the classes [Store.Stats] counts, in report order.
var EntityClasses = []string{"Photograph", "Person", "Place", "ArmedGroup", "Organization", "NewsMediaOrganization", "Event"}

var classIRI = map[string]quad.IRI{
	"Photograph": schemaPhotograph, "Person": schemaPerson, "Place": schemaPlace,
	"ArmedGroup": cgArmedGroup, "Organization": schemaOrganization,
	"NewsMediaOrganization": schemaNewsMedia, "Event": schemaEvent,
}

// RelationPredicates names the predicates [Store.Stats] counts, in report
// order, as prefixed names.
var RelationPredicates = []string{
	"schema:creator", "schema:sourceOrganization", "schema:dateCreated", "schema:contentLocation",
	"schema:about", "schema:mentions", "capgraph:locatedIn", "schema:containedInPlace",
	"schema:memberOf", "capgraph:memberOf", "schema:alternateName", "capgraph:aliasOf",
	"capgraph:controlledBy", "schema:location",
}

func expand(prefixed string) quad.IRI {
	for _, p := range prefixes {
		if len(prefixed) > len(p.Prefix) && prefixed[:len(p.Prefix)+1] == p.Prefix+":" {
			return quad.IRI(p.IRI + prefixed[len(p.Prefix)+1:])
		}
	}
	return quad.IRI(prefixed)
}

// Stats counts captions, entities by class and facts by relation.
// Organization counts include armed groups.
func (s *Store) Stats(ctx context.Context) (Stats, error) {
	st := Stats{Entities: make(map[string]int), Relations: make(map[string]int)}
	cs, err := s.qs.Stats(ctx, false)
	if err != nil {
		return st, fmt.Errorf("graph: stats %s: %w", s.addr, err)
	}
	st.Quads = cs.Quads.Value
	count := func(d quad.Direction, v quad.Value, distinctSubjects bool) (int, error) {
		ref, err := s.qs.ValueOf(v)
		if err != nil || ref == nil {
			return 0, err
		}
		n := 0
		seen := make(map[any]struct{})
		sc := s.qs.QuadIterator(d, ref).Iterate()
		defer sc.Close()
		for sc.Next(ctx) {
			if !distinctSubjects {
				n++
				continue
			}
			subj, err := s.qs.QuadDirection(sc.Result(), quad.Subject)
			if err != nil {
				return 0, err
			}
			if _, ok := seen[subj.Key()]; !ok {
				seen[subj.Key()] = struct{}{}
				n++
			}
		}
		return n, sc.Err()
	}
	if st.Captions, err = count(quad.Predicate, cgContentHash, false); err != nil {
		return st, fmt.Errorf("graph: stats %s: %w", s.addr, err)
	}
	if st.Mentions, err = count(quad.Predicate, nifBeginIndex, false); err != nil {
		return st, fmt.Errorf("graph: stats %s: %w", s.addr, err)
	}
	for _, c := range EntityClasses {
		if st.Entities[c], err = count(quad.Object, classIRI[c], true); err != nil {
			return st, fmt.Errorf("graph: stats %s: %w", s.addr, err)
		}
	}
	for _, p := range RelationPredicates {
		if st.Relations[p], err = count(quad.Predicate, expand(p), false); err != nil {
			return st, fmt.Errorf("graph: stats %s: %w", s.addr, err)
		}
	}
	return st, ctx.Err()
}
