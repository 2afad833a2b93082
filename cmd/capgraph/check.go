package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
)

// errCheckFailed reports a store that check found damaged; the problems
// are already printed.
var errCheckFailed = errors.New("the store has problems")

func newCheckCmd(a *app, runF func(context.Context) error) *cobra.Command {
	return &cobra.Command{
		Use:   "check [flags]",
		Short: "Verify that the graph store is sound",
		Long: `Check reads the store named by --store and verifies it: bbolt's page
structure (every page reachable or free, none twice, keys in order) and
capgraph's metadata, or on PostgreSQL, whose server checks its own pages,
that every node's reference count is the number of quads that name it and
no node is left that none names; then, on both, that its statistics can
be read and that the tallies (the photo counts that agencies, people and
the other count queries read) agree with a count of the caption graphs; a
build killed part-way leaves them incomplete until the next build counts
them anew. It only reads, under the shared lock, so it may run beside
serve. It prints what is wrong and exits 1, or one line and exits 0. A
store file cut short is refused before it is read.`,
		Example: `  $ capgraph check --store graph.db
  $ capgraph check --store 'postgres://capgraph@localhost/archive'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context())
			}
			return a.runCheck(cmd.Context())
		},
	}
}

func (a *app) runCheck(ctx context.Context) error {
	s, err := a.openExisting(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	r, err := s.Check(ctx)
	if err != nil {
		return err
	}
	if len(r.Problems) > 0 {
		fmt.Fprintf(a.stdout, "store %s is damaged:\n", s.Addr())
		for _, p := range r.Problems {
			fmt.Fprintf(a.stdout, "  %s\n", p)
		}
		return errCheckFailed
	}
	fmt.Fprintf(a.stdout, "store %s is sound: %d captions, %d quads\n", s.Addr(), r.Captions, r.Quads)
	return nil
}
