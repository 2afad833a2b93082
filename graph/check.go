package graph

import (
	"context"
	"fmt"
	"path/filepath"

	bolt "go.etcd.io/bbolt"

	"github.com/capgraph/capgraph/graph/internal/boltkv"
	"github.com/capgraph/capgraph/graph/internal/pgbulk"
)

// A CheckReport is what [Store.Check] found.
type CheckReport struct {
	Problems []string // empty when the store is sound
	Captions int      // photos the store holds
	Quads    int64    // quads, tallies left out
}

// maxProblems caps the problems a check lists: a damaged file can have
// thousands of unreachable pages, and the first ones say enough.
const maxProblems = 20

// Check verifies the store. On the embedded store: bbolt's own page check
// (every page reachable or free, none twice, keys in order), capgraph's
// metadata, that every quad can be read. On PostgreSQL, whose server
// checks its own pages: that each node's reference count is the number of
// quads that name it, that no node is left that none names, and that the
// tables derived for the saved queries are what the quads give. On both,
// that the tallies agree with a count of the caption graphs. It reads
// only. In memory it returns an error.
func (s *Store) Check(ctx context.Context) (r CheckReport, err error) {
	if s.SQL() {
		if r.Problems, err = s.nodeProblems(ctx); err != nil {
			return r, fmt.Errorf("graph: check %s: %w", s.addr, err)
		}
		db, _, err := s.sqlDB(ctx)
		if err != nil {
			return r, fmt.Errorf("graph: check %s: %w", s.addr, err)
		}
		derived, err := pgbulk.CheckDerived(ctx, db)
		if err != nil {
			return r, fmt.Errorf("graph: check %s: %w", s.addr, err)
		}
		r.Problems = append(r.Problems, derived...)
		return s.checkContent(ctx, r)
	}
	db := s.bolt.DB()
	if db == nil {
		return r, fmt.Errorf("graph: check %s: only a store on disk or in PostgreSQL can be checked", s.addr)
	}
	// bbolt's check faults on some damage that it should report: walk the
	// tree with bounds first, and hand it only a tree that holds together.
	// (By the store's file name, not db.Path(): a first build writes its
	// bulk load under another name and renames it.)
	tree, err := boltkv.CheckTree(filepath.Join(s.addr, boltkv.File))
	if err != nil {
		return r, fmt.Errorf("graph: check %s: %w", s.addr, err)
	}
	if len(tree) > 0 {
		r.Problems = tree
		return r, nil
	}
	err = db.View(func(tx *bolt.Tx) error {
		for cerr := range tx.Check() {
			if len(r.Problems) < maxProblems {
				r.Problems = append(r.Problems, cerr.Error())
			} else if len(r.Problems) == maxProblems {
				r.Problems = append(r.Problems, "(more problems left out)")
			}
		}
		meta := tx.Bucket([]byte("meta"))
		switch {
		case meta == nil:
			r.Problems = append(r.Problems, "no meta bucket: not a Cayley store")
		case meta.Get([]byte("indexes")) == nil:
			r.Problems = append(r.Problems, "meta bucket without index metadata")
		}
		return nil
	})
	if err != nil {
		return r, fmt.Errorf("graph: check %s: %w", s.addr, err)
	}
	if len(r.Problems) > 0 {
		return r, nil // reading on could fault on the damage found
	}
	return s.checkContent(ctx, r)
}

// checkContent adds to r the store's counts and what is wrong with its
// tallies.
func (s *Store) checkContent(ctx context.Context, r CheckReport) (CheckReport, error) {
	st, err := s.countStats(ctx)
	if err != nil {
		r.Problems = append(r.Problems, err.Error())
		return r, nil
	}
	r.Captions, r.Quads = st.Captions, st.Quads
	problems, err := s.tallyProblems(ctx)
	if err != nil {
		return r, fmt.Errorf("graph: check %s: %w", s.addr, err)
	}
	r.Problems = append(r.Problems, problems...)
	return r, nil
}

// nodeProblems lists a PostgreSQL store's nodes whose reference count
// (Cayley's nodes.refs, which decides when a node is deleted) is not the
// number of quad positions that name it; a count of 0 quads is a node
// left behind.
func (s *Store) nodeProblems(ctx context.Context) ([]string, error) {
	const q = `WITH uses AS (
		SELECT h, count(*) AS n FROM (
			SELECT subject_hash AS h FROM quads UNION ALL SELECT predicate_hash FROM quads
			UNION ALL SELECT object_hash FROM quads UNION ALL SELECT label_hash FROM quads WHERE label_hash IS NOT NULL) x
		GROUP BY h)
	SELECT COALESCE(nodes.value_string, nodes.value_int::text, nodes.value_float::text, nodes.value_bool::text, nodes.value_time::text, '') AS value,
		nodes.refs, COALESCE(uses.n, 0) AS quads, count(*) OVER () AS total
	FROM nodes LEFT JOIN uses ON uses.h = nodes.hash
	WHERE nodes.refs IS DISTINCT FROM uses.n
	ORDER BY nodes.hash`
	var problems []string
	for r, err := range s.QuerySQL(ctx, q, nil, maxProblems) {
		if err != nil {
			return nil, err
		}
		m := r.(map[string]any)
		if problems == nil && m["total"].(int64) > maxProblems {
			problems = append(problems, fmt.Sprintf("%d nodes have reference counts that are not the store's (the first %d follow); a rebuild into an empty store mends them", m["total"], maxProblems))
		}
		if m["quads"].(int64) == 0 {
			problems = append(problems, fmt.Sprintf("node %q is named by no quad but counts %v references", m["value"], m["refs"]))
		} else {
			problems = append(problems, fmt.Sprintf("node %q counts %v references, and %v quads name it", m["value"], m["refs"], m["quads"]))
		}
	}
	return problems, nil
}
