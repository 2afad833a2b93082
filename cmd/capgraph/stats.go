package main

import (
	"context"
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/capgraph/capgraph/graph"
)

type statsOptions struct{ Format string }

func newStatsCmd(a *app, runF func(context.Context, *statsOptions) error) *cobra.Command {
	opts := &statsOptions{}
	cmd := &cobra.Command{
		Use:   "stats [flags]",
		Short: "Count captions, entities by type and facts by relation",
		Long: `Stats counts what the graph store holds: caption graphs, quads, mentions,
distinct entities by class (Organization includes armed groups) and facts
by relation (summed over captions).

It reads the counts that build keeps, so it answers at once whatever the
store's size. A store whose last build was killed before it ended keeps
none: stats then counts every quad (minutes at a million captions), and
the next build counts them anew.`,
		Example: `  $ capgraph stats
  $ capgraph stats -f json | jq .entities`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if json, _ := cmd.Flags().GetBool("json"); json {
				opts.Format = "json"
			}
			if opts.Format != "text" && opts.Format != "json" {
				return &usageError{fmt.Errorf("--format: %q is not text or json", opts.Format)}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return a.runStats(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Format, "format", "f", "text", "output `format`: text or json")
	cmd.Flags().Bool("json", false, "same as --format json")
	_ = cmd.Flags().MarkHidden("json") // the name it had before -f, as export and query have

	return cmd
}

func (a *app) runStats(ctx context.Context, opts *statsOptions) error {
	s, err := a.openExisting(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	st, err := s.Stats(ctx)
	if err != nil {
		return err
	}
	if opts.Format == "json" {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{
			"captions": st.Captions, "quads": st.Quads, "mentions": st.Mentions,
			"entities": st.Entities, "relations": st.Relations,
		})
	}
	w := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "captions\t%d\t\n", st.Captions)
	fmt.Fprintf(w, "quads\t%d\t\n", st.Quads)
	fmt.Fprintf(w, "mentions\t%d\t\n", st.Mentions)
	fmt.Fprintln(w, "\t\t")
	fmt.Fprintln(w, "entities\t\t")
	for _, c := range graph.EntityClasses {
		fmt.Fprintf(w, "%s\t%d\t\n", c, st.Entities[c])
	}
	fmt.Fprintln(w, "\t\t")
	fmt.Fprintln(w, "relations\t\t")
	for _, p := range graph.RelationPredicates {
		fmt.Fprintf(w, "%s\t%d\t\n", p, st.Relations[p])
	}
	return w.Flush()
}
