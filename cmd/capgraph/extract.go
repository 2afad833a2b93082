package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/capgraph/capgraph/extract"
)

// inputOptions are the flags every command that reads captions shares.
type inputOptions struct {
	Files      []string
	Format     string
	IDColumn   string
	TextColumn string
	KeepGoing  bool
}

func (o *inputOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.Format, "input-format", "", "input `format`: text, jsonl or csv (default: by file extension, text for stdin)")
	f.StringVar(&o.IDColumn, "id-column", "id", "CSV `column` holding the caption id")
	f.StringVar(&o.TextColumn, "text-column", "text", "CSV `column` holding the caption text")
	f.BoolVarP(&o.KeepGoing, "keep-going", "k", false, "skip bad input records, count them, and exit with status 3")
}

func (o *inputOptions) validate() error {
	switch extract.Format(o.Format) {
	case extract.FormatAuto, extract.FormatText, extract.FormatJSONL, extract.FormatCSV:
		return nil
	}
	return &usageError{fmt.Errorf("--input-format: %q is not one of text, jsonl, csv", o.Format)}
}

// captions returns the captions of every input file in turn ("-" or no
// file at all means standard input). Open errors are yielded and end the
// sequence. An id that two inputs give is a repeated id, as one that one
// input gives twice is.
func (a *app) captions(o *inputOptions) iter.Seq2[extract.Caption, error] {
	files := o.Files
	if len(files) == 0 {
		files = []string{"-"}
	}
	// one yields the captions of one input and closes it; it reports
	// whether the caller wants more.
	one := func(name string, ids *extract.IDSet, yield func(extract.Caption, error) bool) bool {
		var r io.Reader = a.stdin
		if name == "-" && isTerminal(a.stdin) && !a.cfg.Quiet {
			// Someone typed the command without a file: say what it waits for.
			fmt.Fprintln(a.stderr, "capgraph: reading captions from standard input, one per line; Ctrl-D ends")
		}
		if name != "-" {
			f, err := os.Open(name)
			if err != nil {
				yield(extract.Caption{}, err)
				return false
			}
			defer f.Close()
			r = f
		}
		format := extract.Format(o.Format)
		if format == extract.FormatAuto && name == "-" {
			format = extract.FormatText
		}
		if format == extract.FormatAuto && !knownExtension(name) && !a.cfg.Quiet {
			fmt.Fprintf(a.stderr, "capgraph: %s: read as plain text, one caption per line (.jsonl, .json, .ndjson and .csv are read as such; --input-format chooses)\n", name)
		}
		rd := extract.NewReader(r, extract.ReaderOptions{Name: name, Format: format, IDColumn: o.IDColumn, TextColumn: o.TextColumn, IDs: ids})
		for c, err := range rd.All() {
			if !yield(c, err) {
				return false
			}
		}
		return true
	}
	return func(yield func(extract.Caption, error) bool) {
		ids := extract.NewIDSet()
		for _, name := range files {
			if !one(name, ids, yield) {
				return
			}
		}
	}
}

// knownExtension reports whether name's extension says its format:
// plain text for .txt and .text, or one that extract.FormatFor knows.
func knownExtension(name string) bool {
	switch ext := strings.ToLower(filepath.Ext(name)); ext {
	case ".txt", ".text":
		return true
	default:
		return extract.FormatFor(name) != extract.FormatText
	}
}

// skipBad drops parse errors from a sequence when keepGoing is set, logging
// each and counting them in *skipped; other errors pass through.
func (a *app) skipBad(seq iter.Seq2[extract.Caption, error], keepGoing bool, skipped *int) iter.Seq2[extract.Caption, error] {
	return func(yield func(extract.Caption, error) bool) {
		for c, err := range seq {
			if err != nil {
				if pe, ok := errors.AsType[*extract.ParseError](err); ok && keepGoing {
					*skipped += max(1, pe.Records)
					if pe.Records > 1 {
						fmt.Fprintf(a.stderr, "capgraph: skipped %d records: %v\n", pe.Records, err)
					} else {
						fmt.Fprintf(a.stderr, "capgraph: skipped %v\n", err)
					}
					continue
				}
			}
			if !yield(c, err) {
				return
			}
		}
	}
}

type extractOptions struct {
	inputOptions
	Pretty bool
	Output string // a file, "" for stdout
}

func newExtractCmd(a *app, runF func(context.Context, *extractOptions) error) *cobra.Command {
	opts := &extractOptions{}
	cmd := &cobra.Command{
		Use:   "extract [flags] [<file> ...]",
		Short: "Extract entities and relations from captions as JSON Lines",
		Long: `Extract reads captions and writes one JSON object per caption on stdout, in
input order: the caption id and text, its entities (type, text, code-point
offsets, canonical id, confidence and type-specific fields) and relations.

Input is plain text (one caption per line), JSON Lines ({"id","text",...};
other fields are kept as "meta") or CSV with a header row, chosen by file
extension or --input-format. With no file, or "-", captions are read from
stdin as plain text.`,
		Example: `  $ capgraph extract examples/captions.jsonl
  $ echo 'A man walks in Aleppo, Syria, May 3, 2016. REUTERS/Jane Doe' | capgraph extract
  $ capgraph extract --input-format csv --text-column caption archive.csv`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Files = args
			if err := opts.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return a.runExtract(cmd.Context(), opts)
		},
	}
	opts.addFlags(cmd)
	addWorkersFlag(cmd)
	cmd.Flags().BoolVar(&opts.Pretty, "pretty", false, "indent the JSON output (one caption is then several lines)")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "write to `file` instead of stdout")
	return cmd
}

func (a *app) runExtract(ctx context.Context, opts *extractOptions) (err error) {
	x, err := extract.New()
	if err != nil {
		return err
	}
	dst, finish, err := a.createOutput(opts.Output)
	if err != nil {
		return err
	}
	defer finishOutput(finish, &err)
	workers := a.cfg.EffectiveWorkers()
	out := bufio.NewWriterSize(dst, 256<<10)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	if opts.Pretty {
		enc.SetIndent("", "  ")
	}
	skipped, n := 0, 0
	captions := a.skipBad(a.captions(&opts.inputOptions), opts.KeepGoing, &skipped)
	for ex, err := range x.ExtractAll(ctx, captions, workers) {
		if err != nil {
			out.Flush()
			return err
		}
		if err := enc.Encode(ex); err != nil {
			return err
		}
		n++
	}
	if err := out.Flush(); err != nil {
		return err
	}
	a.log.Info("extracted", "captions", n, "skipped", skipped)
	if skipped > 0 {
		return &partialError{fmt.Sprintf("extracted %d captions, skipped %d bad records", n, skipped)}
	}
	return nil
}

// createOutput returns standard output for "" or "-", else a temporary
// file beside the named one. The returned finish closes it and, when ok,
// renames it to name, so that a failed or interrupted run leaves an
// existing file as it was; it reports a failed final write or rename.
// A symlink is followed, and its target replaced; a name that is not a
// regular file (a device, a named pipe) is written to as it is, as a
// shell's > would, not replaced by a file.
func (a *app) createOutput(name string) (io.Writer, func(ok bool) error, error) {
	if name == "" || name == "-" {
		return a.stdout, func(bool) error { return nil }, nil
	}
	if target, err := filepath.EvalSymlinks(name); err == nil {
		name = target
	}
	if fi, err := os.Stat(name); err == nil && !fi.Mode().IsRegular() {
		f, err := os.OpenFile(name, os.O_WRONLY, 0)
		if err != nil {
			return nil, nil, err
		}
		return f, func(bool) error { return f.Close() }, nil
	}
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.tmp")
	if err != nil {
		return nil, nil, err
	}
	finish := func(ok bool) error {
		err := f.Chmod(0o644)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if ok && err == nil {
			if err = os.Rename(f.Name(), name); err == nil {
				return nil
			}
		}
		os.Remove(f.Name())
		return err
	}
	return f, finish, nil
}

// finishOutput is deferred after createOutput: it keeps the file when the
// command succeeded or only skipped bad records, and reports a failed
// close or rename in *err.
func finishOutput(finish func(ok bool) error, err *error) {
	_, partial := errors.AsType[*partialError](*err)
	if ferr := finish(*err == nil || partial); *err == nil {
		*err = ferr
	}
}

// addWorkersFlag adds --workers. config.Load binds it to the workers
// setting, so a.cfg.EffectiveWorkers() is the one place to read it.
func addWorkersFlag(cmd *cobra.Command) {
	cmd.Flags().IntP("workers", "w", 0, "extraction `goroutines` (default GOMAXPROCS; setting workers, env CAPGRAPH_WORKERS)")
}
