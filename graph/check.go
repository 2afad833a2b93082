package graph

import (
	"context"
	"fmt"
	"path/filepath"

	bolt "go.etcd.io/bbolt"

	"github.com/capgraph/capgraph/graph/internal/boltkv"
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

// Check verifies the embedded store: bbolt's own page check (every page
// reachable or free, none twice, keys in order), capgraph's metadata, that
// every quad can be read, and that the tallies agree with a count of
// the caption graphs. It reads only. On PostgreSQL and in
// memory it returns an error: their servers check themselves.
func (s *Store) Check(ctx context.Context) (r CheckReport, err error) {
	db := s.bolt.DB()
	if db == nil {
		return r, fmt.Errorf("graph: check %s: only the embedded store can be checked", s.addr)
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
