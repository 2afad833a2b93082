package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"

	"github.com/spf13/cobra"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/extract/eval"
)

type evalOptions struct {
	Gold   string
	Pred   string
	Format string // table or json
	Output string // a file, "" for stdout
	Diff   bool
	By     string // "" or "country"
}

func newEvalCmd(a *app, runF func(context.Context, *evalOptions) error) *cobra.Command {
	opts := &evalOptions{}
	cmd := &cobra.Command{
		Use:   "eval --gold <file> [<predictions>]",
		Short: "Score extractions against hand-annotated captions",
		Long: `Eval compares predicted entities and relations with a gold JSON Lines file
({"id","text","entities":[{"text","type"}],"relations":[{"subj","rel","obj"}]})
and prints precision, recall and F1, overall and per type.

Predictions are the output of 'capgraph extract'. Without a predictions file,
eval extracts the gold captions itself. Matching follows the scoring rules of
the annotation guidelines: entities on (type, normalised text) per caption,
relations on (rel, subj, obj), the subject of member_of ignored.`,
		Example: `  $ capgraph eval --gold gold.jsonl
  $ capgraph extract gold.jsonl > pred.jsonl && capgraph eval --gold gold.jsonl pred.jsonl
  $ capgraph eval --gold gold.jsonl --diff | less
  $ capgraph eval --gold gold.jsonl --by country`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Pred = args[0]
			}
			if opts.Gold == "" {
				return &usageError{fmt.Errorf("--gold is required")}
			}
			switch opts.Format {
			case "table", "json":
			default:
				return &usageError{fmt.Errorf("--format: %q is not one of table, json", opts.Format)}
			}
			if opts.By != "" && opts.By != "country" {
				return &usageError{fmt.Errorf("--by: %q is not country", opts.By)}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return a.runEval(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Gold, "gold", "", "gold annotations, JSON Lines `file`")
	cmd.Flags().StringVarP(&opts.Format, "format", "f", "table", "output `format`: table or json")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "write to `file` instead of stdout")
	cmd.Flags().BoolVar(&opts.Diff, "diff", false, "also list, per caption, what was missed and what was spurious")
	cmd.Flags().StringVar(&opts.By, "by", "", "also score the captions of each `country` apart (the country of the place each photo is placed in)")
	addWorkersFlag(cmd)
	return cmd
}

func readDocs(name string) ([]eval.Doc, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return eval.ReadDocs(f, name)
}

func (a *app) runEval(ctx context.Context, opts *evalOptions) (err error) {
	w, finish, err := a.createOutput(opts.Output)
	if err != nil {
		return err
	}
	defer finishOutput(finish, &err)
	gold, err := readDocs(opts.Gold)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(gold, func(d eval.Doc) bool { return len(d.Entities)+len(d.Relations) > 0 }) {
		// Scoring against nothing prints zeros that look like a result.
		return fmt.Errorf("%s: no caption has gold entities or relations: nothing to score against", opts.Gold)
	}
	var pred []eval.Doc
	if opts.Pred != "" {
		if pred, err = readDocs(opts.Pred); err != nil {
			return err
		}
	} else {
		x, err := extract.New()
		if err != nil {
			return err
		}
		captions := func(yield func(extract.Caption, error) bool) {
			for _, g := range gold {
				if !yield(extract.Caption{ID: g.ID, Text: g.Text}, nil) {
					return
				}
			}
		}
		workers := a.cfg.EffectiveWorkers()
		for ex, err := range x.ExtractAll(ctx, captions, workers) {
			if err != nil {
				return err
			}
			pred = append(pred, eval.FromExtraction(ex))
		}
	}
	report := eval.Score(gold, pred)
	if opts.Format == "json" {
		out := struct {
			eval.Report
			Diff      []eval.Mismatch `json:"diff,omitempty"`
			ByCountry []eval.Group    `json:"by_country,omitempty"`
		}{Report: report}
		if opts.Diff {
			out.Diff = eval.Diff(gold, pred)
		}
		if opts.By == "country" {
			out.ByCountry = eval.ByCountry(gold, pred)
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	if err := report.WriteTable(w); err != nil {
		return err
	}
	if opts.By == "country" {
		fmt.Fprintln(w)
		if err := eval.WriteGroups(w, eval.ByCountry(gold, pred)); err != nil {
			return err
		}
	}
	if opts.Diff {
		fmt.Fprintln(w)
		return eval.WriteDiff(w, eval.Diff(gold, pred))
	}
	return nil
}
