package main

import (
	"bufio"
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/capgraph/capgraph/graph"
)

type exportOptions struct {
	Format string
	Output string
}

func newExportCmd(a *app, runF func(context.Context, *exportOptions) error) *cobra.Command {
	opts := &exportOptions{}
	cmd := &cobra.Command{
		Use:   "export [flags]",
		Short: "Write the graph as RDF or as a CSV events view",
		Long: `Export streams the whole graph store to stdout or to a file.

Formats:
  nq      N-Quads, one named graph per caption (its provenance) and
          one shared graph of entity descriptions
  nt      N-Triples, the caption graphs flattened
  ttl     Turtle with prefixes, flattened
  jsonld  JSON-LD with an embedded context, one named graph per caption
          and the entities graph
  csv     one row per photo and depicted place: date, precision, place,
          admin1, admin2, country, latitude, longitude, armed groups,
          people, photographer, agency, caption id

The flattened formats repeat a triple that several captions state; entity
descriptions appear once.`,
		Example: `  $ capgraph export > graph.nq
  $ capgraph export -f ttl -o graph.ttl
  $ capgraph export -f csv | head`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := graph.ParseFormat(opts.Format); err != nil {
				return &usageError{fmt.Errorf("--format: %q is not one of nq, nt, ttl, jsonld, csv", opts.Format)}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return a.runExport(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Format, "format", "f", "nq", "output `format`: nq, nt, ttl, jsonld or csv")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "write to `file` instead of stdout")
	cmd.Flags().String("base-iri", "", "write capgraph's nodes under `iri` (ending in /) instead of https://capgraph.org/id/ (setting base_iri)")
	return cmd
}

func (a *app) runExport(ctx context.Context, opts *exportOptions) (err error) {
	format, _ := graph.ParseFormat(opts.Format)
	s, err := a.openExisting(ctx)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := s.Close(); err == nil {
			err = cerr
		}
	}()
	w, closeOut, err := a.createOutput(opts.Output)
	if err != nil {
		return err
	}
	defer finishOutput(closeOut, &err)
	bw := bufio.NewWriter(w)
	n, err := s.Export(ctx, bw, format)
	if err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if !a.cfg.Quiet && opts.Output != "" {
		unit := "quads"
		if format == graph.CSV {
			unit = "rows"
		}
		fmt.Fprintf(a.stderr, "exported %d %s to %s\n", n, unit, opts.Output)
	}
	return nil
}
