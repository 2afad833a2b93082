package graph

import (
	"context"
	"fmt"
	"slices"

	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/graph/internal/boltkv"
	"github.com/capgraph/capgraph/graph/model"
)

// Stats describes what a store holds.
type Stats struct {
	Captions int   // caption graphs
	Quads    int64 // all quads but the tallies (tally.go), as export writes them before the containment graph it derives
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
	"Photograph": model.SchemaPhotograph, "Person": model.SchemaPerson, "Place": model.SchemaPlace,
	"ArmedGroup": model.CapgraphArmedGroup, "Organization": model.SchemaOrganization,
	"NewsMediaOrganization": model.SchemaNewsMedia, "Event": model.SchemaEvent,
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
	for _, p := range model.Prefixes {
		if len(prefixed) > len(p.Prefix) && prefixed[:len(p.Prefix)+1] == p.Prefix+":" {
			return quad.IRI(p.IRI + prefixed[len(p.Prefix)+1:])
		}
	}
	return quad.IRI(prefixed)
}

// Stats counts captions, entities by class and facts by relation.
// Organization counts include armed groups. It reads the counts that
// every load keeps (tally.go): a few dozen quads, whatever the store's
// size. A store without them (its last build was killed before it
// ended, or it was written before they were kept) is counted whole, as
// Check does.
func (s *Store) Stats(ctx context.Context) (_ Stats, err error) {
	defer s.noDamage(&err, "stats")
	defer s.bolt.KV().PageFault(&err, boltkv.Guard()) // a damaged or vanished page ends the read with ErrDamaged
	st, kept, err := s.keptStats(ctx)
	if err != nil {
		return st, fmt.Errorf("graph: stats %s: %w", s.addr, err)
	}
	if kept {
		return st, nil
	}
	s.log.Debug("stats: the store keeps no counts; counting every quad")
	return s.countStats(ctx)
}

// keptStats reads the counts of stats from the tallies graph. It reports
// false when the store keeps none: the tallies' marker or the count of all
// quads is missing.
func (s *Store) keptStats(ctx context.Context) (Stats, bool, error) {
	st := Stats{Entities: make(map[string]int), Relations: make(map[string]int)}
	// The marker, and the count of all quads: the two quads of the
	// tallies graph's own node.
	marked, err := s.labelledQuads(ctx, talliesGraph, talliesGraph)
	if err != nil || !slices.Contains(marked, talliesMarker) {
		return st, false, err
	}
	total, ok := 0, false
	for _, q := range marked {
		if q.Predicate == model.CapgraphQuadCount {
			if total, err = tallyValue(q.Object); err != nil {
				return st, false, err
			}
			ok = true
		}
	}
	if !ok {
		return st, false, nil
	}
	count := func(node quad.Value) (int, error) {
		qs, err := s.storedTally(ctx, node, model.CapgraphQuadCount)
		if err != nil || len(qs) == 0 {
			return 0, err
		}
		return tallyValue(qs[0].Object)
	}
	st.Quads = int64(total)
	for _, c := range EntityClasses {
		if st.Entities[c], err = count(classIRI[c]); err != nil {
			return st, false, err
		}
	}
	if st.Captions, err = count(model.CapgraphContentHash); err != nil {
		return st, false, err
	}
	if st.Mentions, err = count(model.NIFAnchorOf); err != nil {
		return st, false, err
	}
	for _, p := range RelationPredicates {
		if st.Relations[p], err = count(expand(p)); err != nil {
			return st, false, err
		}
	}
	return st, true, nil
}

// countStats is Stats from every quad of the store. Cayley indexes quads
// by subject and by object, not by predicate: entities are counted from
// the object index of their class, and the facts of every predicate in
// one pass over the quads.
func (s *Store) countStats(ctx context.Context) (_ Stats, err error) {
	defer s.noDamage(&err, "stats")
	defer s.bolt.KV().PageFault(&err, boltkv.Guard())
	st := Stats{Entities: make(map[string]int), Relations: make(map[string]int)}
	fail := func(err error) (Stats, error) { return st, fmt.Errorf("graph: stats %s: %w", s.addr, err) }
	for _, c := range EntityClasses {
		if st.Entities[c], err = s.countTyped(ctx, classIRI[c]); err != nil {
			return fail(err)
		}
	}
	// One pass: count quads by predicate node, and all quads. The pass
	// counts them exactly; Cayley's own count on PostgreSQL is the
	// planner's estimate, stale after a large load.
	byPred := make(map[any]int)
	isTally, err := s.inTallies()
	if err != nil {
		return fail(err)
	}
	it := s.qs.QuadsAllIterator().Iterate()
	defer it.Close()
	for it.Next(ctx) {
		if tally, err := isTally(it.Result()); err != nil {
			return fail(err)
		} else if tally {
			continue
		}
		if st.Quads++; st.Quads%(16*releaseEvery) == 0 {
			if err := ctx.Err(); err != nil {
				return fail(err)
			}
			// As in export: the pass maps the whole store otherwise (14.6
			// GB of RSS at 10^6 captions).
			s.releaseMapped()
		}
		p, err := s.qs.QuadDirection(it.Result(), quad.Predicate)
		if err != nil {
			return fail(err)
		}
		if p != nil {
			byPred[p.Key()]++
		}
	}
	if err := it.Err(); err != nil {
		return fail(err)
	}
	count := func(p quad.IRI) (int, error) {
		ref, err := s.qs.ValueOf(p)
		if err != nil || ref == nil {
			return 0, err
		}
		return byPred[ref.Key()], nil
	}
	if st.Captions, err = count(model.CapgraphContentHash); err != nil {
		return fail(err)
	}
	if st.Mentions, err = count(model.NIFAnchorOf); err != nil {
		return fail(err)
	}
	for _, p := range RelationPredicates {
		if st.Relations[p], err = count(expand(p)); err != nil {
			return fail(err)
		}
	}
	return st, ctx.Err()
}

// countTyped counts the distinct subjects of rdf:type class, from the
// object index.
func (s *Store) countTyped(ctx context.Context, class quad.IRI) (int, error) {
	ref, err := s.qs.ValueOf(class)
	if err != nil || ref == nil {
		return 0, err
	}
	typ, err := s.qs.ValueOf(model.RDFType)
	if err != nil || typ == nil {
		return 0, err
	}
	seen := make(map[any]struct{})
	sc := s.qs.QuadIterator(quad.Object, ref).Iterate()
	defer sc.Close()
	for sc.Next(ctx) {
		p, err := s.qs.QuadDirection(sc.Result(), quad.Predicate)
		if err != nil {
			return 0, err
		}
		if p == nil || p.Key() != typ.Key() {
			continue
		}
		subj, err := s.qs.QuadDirection(sc.Result(), quad.Subject)
		if err != nil {
			return 0, err
		}
		seen[subj.Key()] = struct{}{}
	}
	return len(seen), sc.Err()
}
