package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"os"
	"runtime/debug"
	"slices"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/capgraph/capgraph/config"
	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/graph"
)

type buildOptions struct {
	inputOptions
}

func newBuildCmd(a *app, runF func(context.Context, *buildOptions) error) *cobra.Command {
	opts := &buildOptions{}
	cmd := &cobra.Command{
		Use:   "build [flags] [<file> ...]",
		Short: "Extract captions and load them into the graph store",
		Long: `Build extracts entities and relations from captions and loads them into the
graph store named by --store, one named graph per caption. Building again is
incremental: unchanged captions are skipped, a caption whose text or
extraction changed replaces its old facts, new captions are added.

Input is read as by 'capgraph extract'; an id that two input files give is
an error, as one given twice in one file is. Input that cannot be read at
all (a missing file, a directory, binary data) is an error before the store
is opened. Progress is shown on stderr when it is a terminal; a one-line
summary follows unless --quiet is set. Batches of whole captions are
committed one at a time, so an interrupted build leaves a store that holds
only whole captions, and rerunning it completes it; a build stopped by bad
input says how many captions it kept.

The first build into an empty store is a bulk load: into bbolt it writes
the whole store in key order into a new file beside it, which takes the
empty store's place when the build ends; into PostgreSQL it copies the
rows in one transaction and builds the indexes after them, holding the
tables until it commits. It is several times faster (forty times on
PostgreSQL), and an interrupted first build leaves the store empty.

Builds of one PostgreSQL store write in turn. A build that finds another
writing extracts its input and hands it over to that build, which writes it
after its own (in its bulk load, if it is one), then waits and reports its
captions: several builds started at once take about as long as one build of
all their input. Interrupted while it waits, it takes its captions back.`,
		Example: `  $ capgraph build captions.jsonl
  $ capgraph build --store postgres://capgraph@localhost/capgraph archive.csv
  $ CAPGRAPH_STORE=/data/graph.db capgraph build day1.jsonl day2.jsonl`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Files = args
			if err := opts.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return a.runBuild(cmd.Context(), opts)
		},
	}
	opts.addFlags(cmd)
	addWorkersFlag(cmd)
	cmd.Flags().Bool("no-sync", false, "skip fsync per transaction and sync once at the end: faster on large stores, but a machine crash mid-build may corrupt the store (setting no_sync)")
	cmd.Flags().String("memory-limit", config.Default().MemoryLimit, "soft `limit` on the heap while building (e.g. 1GiB; 0 for none): below it garbage is collected less often (setting memory_limit)")
	cmd.Flags().Int("batch-size", config.Default().BatchSize, "quads written per store `transaction` (whole captions); larger is faster and uses more memory")
	return cmd
}

// isTerminal reports whether f, a reader or a writer, is a terminal.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(int(file.Fd()))
}

// countLines estimates the captions in the input files for the progress
// bar's ETA; -1 when any input is stdin or unreadable.
func countLines(files []string) int64 {
	if len(files) == 0 {
		return -1
	}
	var n int64
	buf := make([]byte, 1<<20)
	for _, name := range files {
		if name == "-" {
			return -1 // standard input cannot be read twice
		}
		f, err := os.Open(name)
		if err != nil {
			return -1
		}
		for {
			k, err := f.Read(buf)
			n += int64(bytes.Count(buf[:k], []byte{'\n'}))
			if err != nil {
				break
			}
		}
		f.Close()
	}
	return n
}

// progressEvery is how often build logs its progress when stderr is not a
// terminal.
var progressEvery = 30 * time.Second

// gcPercentUnderLimit is the garbage collector's GOGC while a memory limit
// bounds the heap: it lets the heap grow to five times the live data before
// a collection instead of twice, which takes about a fifth off the loader's
// CPU time (BENCHMARKS.md, "Write path: packed pages and a memory budget"); the limit keeps the
// peak where the user set it.
const gcPercentUnderLimit = 400

// budgetMemory sets the Go runtime's soft memory limit and, under it, a
// lazier collector. GOMEMLIMIT and GOGC in the environment win, as the
// runtime documents them to.
func budgetMemory(limit int64) {
	if limit <= 0 {
		return
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(limit)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercentUnderLimit)
	}
}

func (a *app) runBuild(ctx context.Context, opts *buildOptions) error {
	start := time.Now()
	budgetMemory(a.cfg.MemoryLimitBytes())
	x, err := extract.New()
	if err != nil {
		return err
	}
	workers := a.cfg.EffectiveWorkers()
	lastLog := start
	var bar *progressbar.ProgressBar
	if !a.cfg.Quiet && isTerminal(a.stderr) {
		bar = progressbar.NewOptions64(countLines(opts.Files),
			progressbar.OptionSetWriter(a.stderr),
			progressbar.OptionSetDescription("building"),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("captions"),
			progressbar.OptionThrottle(250*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	skipped := 0
	captions, stop, err := firstRead(a.skipBad(a.captions(&opts.inputOptions), opts.KeepGoing, &skipped))
	defer stop()
	if err != nil {
		return err // before the store is opened: a build that reads nothing creates nothing
	}
	s, err := graph.Open(ctx, a.cfg.Store, graph.Options{
		BatchSize: a.cfg.BatchSize,
		NoSync:    a.cfg.NoSync,
		Logger:    a.log,
	})
	if err != nil {
		if errors.Is(err, context.Canceled) && !a.cfg.Quiet {
			fmt.Fprintln(a.stderr, "build interrupted before it began: nothing was kept; run the build again")
		}
		return err
	}
	notes := map[string]int{} // captions by what the extractor could not read
	st, err := s.Load(ctx, countNotes(x.ExtractAll(ctx, captions, workers), notes), graph.LoadOptions{
		ExtractorVersion: extract.Version,
		Progress: func(st graph.LoadStats) {
			if bar != nil {
				bar.Describe(fmt.Sprintf("%d quads", st.Quads))
				_ = bar.Set64(int64(st.Captions))
				return
			}
			// Without a terminal, progress goes to the log (--log-level
			// info) at most every progressEvery, for batch jobs.
			if now := time.Now(); now.Sub(lastLog) >= progressEvery {
				lastLog = now
				el := now.Sub(start)
				a.log.Info("building", "captions", st.Captions, "quads", st.Quads,
					"elapsed_s", int(el.Seconds()), "captions_per_s", int(float64(st.Captions)/el.Seconds()))
			}
		},
	})
	if bar != nil {
		_ = bar.Finish()
	}
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	switch {
	case a.cfg.Quiet:
	case errors.Is(err, context.Canceled) && st.Added+st.Replaced == 0:
		// A first build writes the store whole at its end (a bulk load),
		// so an interrupted one keeps nothing; a later one keeps whole batches.
		fmt.Fprintf(a.stderr, "build interrupted after reading %d captions: nothing was kept in %s; run the build again\n",
			st.Captions, s.Addr())
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(a.stderr, "build interrupted: kept %d added and %d replaced captions in %s, of %d read; run the build again to finish\n",
			st.Added, st.Replaced, s.Addr(), st.Captions)
	case err != nil && st.Added+st.Replaced > 0:
		fmt.Fprintf(a.stderr, "build stopped by an error: kept %d added and %d replaced captions in %s, of %d read; a rerun finds them unchanged\n",
			st.Added, st.Replaced, s.Addr(), st.Captions)
	case err != nil:
		// Nothing kept: the error says why.
	default:
		fmt.Fprintf(a.stderr, "built %s into %s: %d added, %d replaced, %d unchanged, %d skipped; %d quads written in %.1fs\n",
			plural(st.Captions, "caption"), s.Addr(), st.Added, st.Replaced, st.Unchanged, skipped, st.Quads, time.Since(start).Seconds())
		if st.Handed > 0 {
			fmt.Fprintf(a.stderr, "note: another build of the store was writing to it, so this one handed it %s to write\n", plural(st.Handed, "caption"))
		}
		if st.Took > 0 {
			fmt.Fprintf(a.stderr, "note: wrote %s that other builds of the store handed over (counted in theirs)\n", plural(st.Took, "more caption"))
		}
		for _, note := range slices.Sorted(maps.Keys(notes)) {
			fmt.Fprintf(a.stderr, "note: %s %s (capgraph extract shows which)\n", plural(notes[note], "caption"), note)
		}
	}
	if err != nil {
		return err
	}
	if skipped > 0 {
		return &partialError{fmt.Sprintf("skipped %d bad input records", skipped)}
	}
	return nil
}

// firstRead reads the first caption of captions, so that input that
// cannot be read at all (a missing file, a directory, binary data, a bad
// first record) is an error before anything is created. It returns the
// whole sequence, that caption included, and a stop to call when done
// with it.
func firstRead(captions iter.Seq2[extract.Caption, error]) (iter.Seq2[extract.Caption, error], func(), error) {
	next, stop := iter.Pull2(captions)
	first, err, ok := next()
	if ok && err != nil {
		return nil, stop, err
	}
	return func(yield func(extract.Caption, error) bool) {
		if !ok || !yield(first, nil) {
			return
		}
		for {
			c, err, ok := next()
			if !ok || !yield(c, err) {
				return
			}
		}
	}, stop, nil
}

// plural writes n and noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// countNotes passes xs on, counting in notes the captions by each note the
// extractor gave them.
func countNotes(xs iter.Seq2[extract.Extraction, error], notes map[string]int) iter.Seq2[extract.Extraction, error] {
	return func(yield func(extract.Extraction, error) bool) {
		for x, err := range xs {
			for _, n := range x.Notes {
				notes[n]++
			}
			if !yield(x, err) {
				return
			}
		}
	}
}
