package graph

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/kv"
	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/graph/model"
)

// Tallies are counts that Load keeps as it writes, so that questions
// about the whole store ("which people are photographed most", "how many
// photos did each agency distribute") read one quad per entity instead of
// every photo. They live in [TalliesGraph], which export leaves out: they
// are derived from the caption graphs, and any triple store can count those
// itself.
//
// An entity's capgraph:photoCount is the number of quads of caption graphs
// that link a photo to it by one of tallied. The model writes at most one
// such link from a photo to an entity (an entity named by a relation is
// not also mentioned), so it is the number of photos that show it, are
// about it, mention it or were distributed by it. An entity no photo links
// to has no tally.
//
// Load counts what each batch adds and deletes, and rewrites the tallies
// it changes in the same transaction as the caption graphs (talliesOf); a
// bulk load counts everything and writes the tallies at its end. A store
// written before tallies existed is counted whole by the next Load
// (ensureTallies), which [TalliesGraph]'s marker quad records.

// What stats reports is kept too, as capgraph:quadCount: the number of
// quads outside the tallies graph (on TalliesGraph itself), of quads of
// each predicate (on the predicate's node) and of rdf:type quads of each
// class (on the class's node), so that stats reads a few dozen quads
// instead of every one of a store's (statKeys). A load writes them once,
// when it ends (quadCounts).

// An agency's photographers are kept as credits, one node per agency and
// photographer with a photo credited to both (schema:creator and
// schema:sourceOrganization of one photo): <agency>#by/<photographer's
// path>, with capgraph:agency, capgraph:photographer and, as its
// photoCount, the number of such photos. A credit is deleted with its last
// photo, so an agency's photographers are the credits that point at it.

var (
	// The two graphs that are not a caption's, as Cayley values.
	talliesGraph     = quad.IRI(model.TalliesGraph)
	containmentGraph = quad.IRI(model.ContainmentGraph)
	entitiesGraph    = quad.IRI(model.EntitiesGraph)
	// talliesMarker says that the store's tallies are complete.
	talliesMarker = quad.Quad{Subject: talliesGraph, Predicate: model.RDFType, Object: model.CapgraphTallies, Label: talliesGraph}
)

// tallied are the predicates whose links from photos photoCount counts.
var tallied = map[quad.Value]bool{
	model.SchemaAbout: true, model.SchemaMentions: true, model.SchemaContentLocation: true, model.SchemaSourceOrg: true,
}

// inTallies returns a test of whether a quad of the store is a tally:
// export and Stats pass over every quad and leave the tallies out.
func (s *Store) inTallies() (func(refs.Ref) (bool, error), error) {
	tallies, err := s.qs.ValueOf(talliesGraph)
	if err != nil || tallies == nil {
		return func(refs.Ref) (bool, error) { return false, nil }, err
	}
	key := tallies.Key()
	return func(q refs.Ref) (bool, error) {
		l, err := s.qs.QuadDirection(q, quad.Label)
		return l != nil && l.Key() == key, err
	}, nil
}

// tallyLink returns the entity whose count q changes, or nil.
func tallyLink(q quad.Quad) quad.Value {
	if !tallied[q.Predicate] || q.Label == entitiesGraph || q.Label == talliesGraph {
		return nil
	}
	return q.Object
}

func tallyQuad(e quad.Value, n int) quad.Quad {
	return quad.Quad{Subject: e, Predicate: model.CapgraphPhotoCount, Object: quad.TypedString{Value: quad.String(strconv.Itoa(n)), Type: model.XSDNonNegativeInteger}, Label: talliesGraph}
}

// statKeys appends to keys the nodes whose quadCount q counts in: the
// store's, its predicate's and, for rdf:type, its class's. Tallies count
// in none.
func statKeys(q quad.Quad, keys []quad.Value) []quad.Value {
	if q.Label == talliesGraph {
		return keys
	}
	keys = append(keys, talliesGraph, q.Predicate)
	if q.Predicate == model.RDFType {
		keys = append(keys, q.Object)
	}
	return keys
}

func isQuadCount(q quad.Quad) bool { return q.Predicate == model.CapgraphQuadCount }

func countQuad(node quad.Value, n int) quad.Quad {
	q := tallyQuad(node, n)
	q.Predicate = model.CapgraphQuadCount
	return q
}

// tallyValue reads a photoCount's object.
func tallyValue(v quad.Value) (int, error) {
	ts, ok := v.(quad.TypedString)
	n, err := strconv.Atoi(string(ts.Value))
	if !ok || err != nil || n < 0 {
		return 0, fmt.Errorf("graph: bad %s value %v", model.CapgraphPhotoCount, v)
	}
	return n, nil
}

// A credit is an agency and a photographer.
type credit struct{ agency, photographer quad.Value }

func (c credit) node() quad.IRI {
	a, _ := c.agency.(quad.IRI)
	p, _ := c.photographer.(quad.IRI)
	return quad.IRI(string(a) + "#by/" + strings.TrimPrefix(string(p), model.Base))
}

// credits adds n to the count of each credit that quads (one caption's)
// give a photo.
func credits(quads []quad.Quad, n int, counts map[credit]int) {
	var agencies, photographers []quad.Value
	for _, q := range quads {
		if q.Label == entitiesGraph || q.Label == talliesGraph {
			continue
		}
		switch q.Predicate {
		case model.SchemaSourceOrg:
			agencies = append(agencies, q.Object)
		case model.SchemaCreator:
			photographers = append(photographers, q.Object)
		}
	}
	addCredits(agencies, photographers, n, counts)
}

// addCredits adds n to the count of each credit of an agency and a
// photographer of one photo.
func addCredits(agencies, photographers []quad.Value, n int, counts map[credit]int) {
	for _, a := range agencies {
		for _, p := range photographers {
			counts[credit{a, p}] += n
		}
	}
}

// talliesOf adds to b the tally changes that b's deltas make, and the
// credits' changes in b.credits.
func (s *Store) talliesOf(ctx context.Context, b *batch) error {
	change := make(map[quad.Value]int)
	var order []quad.Value // first-seen order, so that batches are reproducible
	for _, d := range b.deltas {
		e := tallyLink(d.Quad)
		if e == nil {
			continue
		}
		if _, ok := change[e]; !ok {
			order = append(order, e)
		}
		if d.Action == cgraph.Add {
			change[e]++
		} else {
			change[e]--
		}
	}
	for _, e := range order {
		if change[e] != 0 {
			if _, _, err := s.retally(ctx, b, e, model.CapgraphPhotoCount, change[e]); err != nil {
				return err
			}
		}
	}

	for _, c := range sortedCredits(b.credits) {
		if b.credits[c] == 0 {
			continue
		}
		n, stored, err := s.retally(ctx, b, c.node(), model.CapgraphPhotoCount, b.credits[c])
		if err != nil {
			return err
		}
		switch links := creditLinks(c); {
		case n > 0 && !stored:
			b.add(links[0])
			b.add(links[1])
		case n == 0 && stored:
			b.del(links[0])
			b.del(links[1])
		}
	}
	return nil
}

// quadCounts are what a load changes of the counts that stats reads
// (statKeys). They are kept in memory and written once, when the load
// ends (writeQuadCounts): rewritten at every batch, each count would leave
// a dead quad per batch in its node's entry of Cayley's kv indexes, which
// every later read of the count walks. The first batch that changes the
// store takes the count of all quads away, so that a store whose load
// stopped before writeQuadCounts has none: Stats counts every quad
// instead, and the next load counts them anew (ensureTallies).
type quadCounts struct {
	open   bool // the count of all quads is taken away
	broken bool // a write failed part-way: the counts are not known
	total  int  // the count of all quads, as it was
	change map[quad.Value]int
	order  []quad.Value // first-seen order, so that the write is reproducible
}

// note adds to c what b changes, once b is written. The first batch that
// changes the store also deletes the count of all quads.
func (c *quadCounts) note(ctx context.Context, s *Store, b *batch) (written func(), err error) {
	if len(b.deltas) == 0 {
		return func() {}, nil
	}
	total := c.total
	if !c.open {
		old, err := s.storedTally(ctx, talliesGraph, model.CapgraphQuadCount)
		if err != nil {
			return nil, err
		}
		for _, q := range old {
			if total, err = tallyValue(q.Object); err != nil {
				return nil, err
			}
			b.del(q)
		}
	}
	change := make(map[quad.Value]int)
	var order, keys []quad.Value
	for _, d := range b.deltas {
		keys = statKeys(d.Quad, keys[:0])
		for _, k := range keys {
			if _, ok := change[k]; !ok {
				order = append(order, k)
			}
			if d.Action == cgraph.Add {
				change[k]++
			} else {
				change[k]--
			}
		}
	}
	return func() {
		c.open, c.total = true, total
		if c.change == nil {
			c.change = make(map[quad.Value]int)
		}
		for _, k := range order {
			if _, ok := c.change[k]; !ok {
				c.order = append(c.order, k)
			}
			c.change[k] += change[k]
		}
	}, nil
}

// bulkLoaded starts c with the counts of what a bulk load wrote into an
// empty store. They are written as any load's are, when it ends: a load
// that goes on through Cayley (a caption given twice) writes what Cayley
// alone would have.
func (c *quadCounts) bulkLoaded(counts map[quad.Value]int) {
	c.open, c.total = true, 0
	c.change = maps.Clone(counts)
	c.order = slices.SortedFunc(maps.Keys(counts), func(a, b quad.Value) int { return strings.Compare(a.String(), b.String()) })
}

// writeQuadCounts writes the counts that c changed and the count of all
// quads, in transactions of their own (batch.transactions).
func (s *Store) writeQuadCounts(ctx context.Context, c *quadCounts) error {
	if !c.open || c.broken {
		return nil
	}
	b := batch{deleted: make(map[quad.Quad]bool), credits: make(map[credit]int)}
	for _, k := range c.order {
		if k != talliesGraph && c.change[k] != 0 {
			if _, _, err := s.retally(ctx, &b, k, model.CapgraphQuadCount, c.change[k]); err != nil {
				return err
			}
		}
	}
	if total := c.total + c.change[talliesGraph]; total > 0 {
		b.add(countQuad(talliesGraph, total))
	}
	for _, part := range b.transactions() {
		err := s.apply(ctx, part)
		if err != nil {
			return err
		}
	}
	*c = quadCounts{}
	return nil
}

// retally adds to b what moves node's count by pred (photoCount or
// quadCount) by change: the stored count's deletion and, unless the count
// falls to 0, the new one. It returns the new count and whether one was
// stored.
func (s *Store) retally(ctx context.Context, b *batch, node quad.Value, pred quad.IRI, change int) (n int, stored bool, err error) {
	old, err := s.storedTally(ctx, node, pred)
	if err != nil {
		return 0, false, err
	}
	n = change
	for _, q := range old {
		c, err := tallyValue(q.Object)
		if err != nil {
			return 0, false, err
		}
		n += c
		b.del(q)
	}
	if n < 0 {
		return 0, false, fmt.Errorf("graph: %v would count %d by %v: the tallies are not the store's", node, n, pred)
	}
	if n > 0 {
		q := tallyQuad(node, n)
		q.Predicate = pred
		b.add(q)
	}
	return n, len(old) > 0, nil
}

func creditLinks(c credit) [2]quad.Quad {
	node := c.node()
	return [2]quad.Quad{
		{Subject: node, Predicate: model.CapgraphAgency, Object: c.agency, Label: talliesGraph},
		{Subject: node, Predicate: model.CapgraphPhotographer, Object: c.photographer, Label: talliesGraph},
	}
}

func sortedCredits(m map[credit]int) []credit {
	out := make([]credit, 0, len(m))
	for c := range m {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b credit) int { return strings.Compare(string(a.node()), string(b.node())) })
	return out
}

// storedTally returns node e's count quads by pred: one, or none.
func (s *Store) storedTally(ctx context.Context, e quad.Value, pred quad.IRI) ([]quad.Quad, error) {
	kqs, ok := s.qs.(*kv.QuadStore)
	if !ok {
		qs, err := s.labelledQuads(ctx, e, talliesGraph)
		var out []quad.Quad
		for _, q := range qs {
			if q.Predicate == pred {
				out = append(out, q)
			}
		}
		return out, err
	}
	ref, err := kqs.ValueOf(e)
	if err != nil || ref == nil {
		return nil, err
	}
	pref, err := kqs.ValueOf(pred)
	if err != nil || pref == nil {
		return nil, err
	}
	scan := kv.IndexScan{Index: subjectPredicate, Values: []uint64{uint64(ref.(kv.Int64Value)), uint64(pref.(kv.Int64Value))}}
	return s.appendQuads(ctx, nil, scan.BuildIterator(kqs), talliesGraph)
}

// ensureTallies counts the store's tallies anew when they lack their
// marker: a store written before tallies were kept, or one whose build
// stopped between the two transactions of a batch (see
// batch.transactions). The tallies it finds are replaced, in the same
// transaction as the counts are written. A store that has the marker costs
// one read.
func (s *Store) ensureTallies(ctx context.Context) error {
	marked, err := s.labelledQuads(ctx, talliesGraph, talliesGraph)
	if err != nil || slices.Contains(marked, talliesMarker) && slices.ContainsFunc(marked, isQuadCount) {
		return err // the marker, and the count of all quads
	}
	c, err := s.countAll(ctx)
	if err != nil {
		return err
	}
	// Only what differs: a quad deleted and added in one transaction is
	// gone after it in Cayley's kv stores. The deletions go first, in a
	// transaction of their own: tallies share their count literals, and
	// a count that one tally loses and another gains would be written
	// without its node (see batch.transactions). The marker comes last,
	// so a build stopped between the two counts again.
	kept := make(map[quad.Quad]bool, len(c.kept))
	for _, q := range c.kept {
		kept[q] = true
	}
	var dels, adds []cgraph.Delta
	for _, q := range tallyQuads(c.counts, c.credits, c.stats) {
		if kept[q] {
			delete(kept, q)
		} else {
			adds = append(adds, cgraph.Delta{Quad: q, Action: cgraph.Add})
		}
	}
	for _, q := range c.kept {
		if kept[q] {
			dels = append(dels, cgraph.Delta{Quad: q, Action: cgraph.Delete})
		}
	}
	for _, deltas := range [][]cgraph.Delta{dels, adds} {
		if len(deltas) == 0 {
			continue
		}
		err = s.apply(ctx, deltas)
		if err != nil {
			return err
		}
	}
	return nil
}

// tallyProblems compares the tallies the store keeps with a count of its
// caption graphs, and says what differs, up to maxProblems lines.
func (s *Store) tallyProblems(ctx context.Context) ([]string, error) {
	marked, err := s.labelledQuads(ctx, talliesGraph, talliesGraph)
	if err != nil {
		return nil, err
	}
	c, err := s.countAll(ctx)
	if err != nil {
		return nil, err
	}
	counted := tallyQuads(c.counts, c.credits, c.stats)
	counted = counted[:len(counted)-1] // the marker
	if !slices.Contains(marked, talliesMarker) {
		if len(c.kept) == 0 && len(counted) == 0 {
			return nil, nil // an empty store
		}
		return []string{"the tallies are incomplete: a build stopped part-way through a batch; the next build counts them anew"}, nil
	}
	if !slices.ContainsFunc(marked, isQuadCount) {
		// The counts of stats are not kept (a store written before they
		// were, or a load that stopped before it wrote them): Stats
		// counts every quad, and the next load counts them anew.
		counted = slices.DeleteFunc(counted, isQuadCount)
		c.kept = slices.DeleteFunc(c.kept, isQuadCount)
	}
	kept := make(map[quad.Quad]bool, len(c.kept))
	for _, q := range c.kept {
		kept[q] = true
	}
	var problems []string
	report := func(format string, q quad.Quad) {
		if len(problems) < maxProblems {
			problems = append(problems, fmt.Sprintf(format, q.Subject, q.Predicate, q.Object))
		} else if len(problems) == maxProblems {
			problems = append(problems, "(more tally problems left out)")
		}
	}
	for _, q := range counted {
		if !kept[q] {
			report("tally %v %v %v is counted from the caption graphs but not kept", q)
		}
		delete(kept, q)
	}
	for _, q := range c.kept {
		if kept[q] {
			report("tally %v %v %v is kept but not counted from the caption graphs", q)
		}
	}
	return problems, nil
}

// tallyQuads returns the quads of counts and credits, in a fixed order,
// and the marker.
func tallyQuads(counts map[quad.Value]int, creds map[credit]int, stats map[quad.Value]int) []quad.Quad {
	out := make([]quad.Quad, 0, len(counts)+3*len(creds)+len(stats)+1)
	for e, n := range counts {
		if n > 0 {
			out = append(out, tallyQuad(e, n))
		}
	}
	for k, n := range stats {
		if n > 0 {
			out = append(out, countQuad(k, n))
		}
	}
	for c, n := range creds {
		if n > 0 {
			links := creditLinks(c)
			out = append(out, tallyQuad(c.node(), n), links[0], links[1])
		}
	}
	sortQuads(out)
	return append(out, talliesMarker)
}

// A tallyCount is what countAll found: the counts the caption graphs
// give, and the tallies the store keeps.
type tallyCount struct {
	counts  map[quad.Value]int
	credits map[credit]int
	stats   map[quad.Value]int // by statKeys
	kept    []quad.Quad        // the quads of TalliesGraph but its marker
}

// countAll counts every tallied link and credit in the store, in one pass
// over its quads: Cayley keeps no index by predicate. It compares node ids,
// not values, and reads only the values of the entities it counts and of
// the tallies kept: the values of all 84 million quads of a 10^6-caption
// store would be read from pages all over the file.
func (s *Store) countAll(ctx context.Context) (tallyCount, error) {
	key := func(v quad.Value) (any, error) {
		r, err := s.qs.ValueOf(v)
		if r == nil || err != nil {
			return nil, err
		}
		return r.Key(), nil
	}
	counted := make(map[any]bool) // tallied predicates
	isTally := make(map[any]bool) // the predicates of TalliesGraph but the marker's
	for _, p := range []quad.Value{model.CapgraphPhotoCount, model.CapgraphQuadCount, model.CapgraphAgency, model.CapgraphPhotographer} {
		k, err := key(p)
		if err != nil {
			return tallyCount{}, err
		}
		if k != nil {
			isTally[k] = true
		}
	}
	for p := range tallied {
		k, err := key(p)
		if err != nil {
			return tallyCount{}, err
		}
		if k != nil {
			counted[k] = true
		}
	}
	var creatorKey, sourceKey, entitiesKey, talliesKey, typeKey any
	for _, x := range []struct {
		v   quad.Value
		key *any
	}{{model.SchemaCreator, &creatorKey}, {model.SchemaSourceOrg, &sourceKey}, {entitiesGraph, &entitiesKey}, {talliesGraph, &talliesKey}, {model.RDFType, &typeKey}} {
		k, err := key(x.v)
		if err != nil {
			return tallyCount{}, err
		}
		*x.key = k
	}
	values := make(map[any]quad.Value) // the entities met, by id
	value := func(r refs.Ref) (quad.Value, error) {
		k := r.Key()
		if v, ok := values[k]; ok {
			return v, nil
		}
		v, err := s.qs.NameOf(r)
		values[k] = v
		return v, err
	}
	type photoCredits struct{ agencies, photographers []quad.Value }
	photos := make(map[any]*photoCredits) // by the photo's id

	counts := make(map[quad.Value]int)
	stats := make(map[quad.Value]int)
	var kept []quad.Quad
	sc := s.qs.QuadsAllIterator().Iterate()
	defer sc.Close()
	for n := 1; sc.Next(ctx); n++ {
		if n%(16*releaseEvery) == 0 {
			if err := ctx.Err(); err != nil {
				return tallyCount{}, err
			}
			s.releaseMapped() // as Stats does: the pass maps the whole store otherwise
		}
		q := sc.Result()
		p, err := s.qs.QuadDirection(q, quad.Predicate)
		if err != nil || p == nil {
			return tallyCount{}, err
		}
		pk := p.Key()
		if isTally[pk] {
			tq, err := s.qs.Quad(q)
			if err != nil {
				return tallyCount{}, err
			}
			if tq.Label == talliesGraph {
				kept = append(kept, tq)
			}
			continue
		}
		// What stats reports: every quad but the tallies (their marker
		// is the one rdf:type quad in the tallies graph), by predicate
		// and, for rdf:type, by class.
		if typeKey != nil && pk == typeKey {
			l, err := s.qs.QuadDirection(q, quad.Label)
			if err != nil {
				return tallyCount{}, err
			}
			if l != nil && l.Key() == talliesKey {
				continue
			}
			o, err := s.qs.QuadDirection(q, quad.Object)
			if err != nil {
				return tallyCount{}, err
			}
			class, err := value(o)
			if err != nil {
				return tallyCount{}, err
			}
			stats[class]++
		}
		pv, err := value(p)
		if err != nil {
			return tallyCount{}, err
		}
		stats[pv]++
		stats[talliesGraph]++
		isCount, isCredit := counted[pk], creatorKey != nil && pk == creatorKey || sourceKey != nil && pk == sourceKey
		if !isCount && !isCredit {
			continue
		}
		l, err := s.qs.QuadDirection(q, quad.Label)
		if err != nil {
			return tallyCount{}, err
		}
		if l != nil && (l.Key() == entitiesKey || l.Key() == talliesKey) {
			continue
		}
		o, err := s.qs.QuadDirection(q, quad.Object)
		if err != nil {
			return tallyCount{}, err
		}
		e, err := value(o)
		if err != nil {
			return tallyCount{}, err
		}
		if isCount {
			counts[e]++
		}
		if isCredit {
			sub, err := s.qs.QuadDirection(q, quad.Subject)
			if err != nil {
				return tallyCount{}, err
			}
			c := photos[sub.Key()]
			if c == nil {
				c = new(photoCredits)
				photos[sub.Key()] = c
			}
			if pk == sourceKey {
				c.agencies = append(c.agencies, e)
			} else {
				c.photographers = append(c.photographers, e)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return tallyCount{}, err
	}
	creds := make(map[credit]int)
	for _, c := range photos {
		addCredits(c.agencies, c.photographers, 1, creds)
	}
	return tallyCount{counts: counts, credits: creds, stats: stats, kept: kept}, nil
}
