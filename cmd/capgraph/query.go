package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/capgraph/capgraph/extract/gazetteer"
	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/graph/model"
	"github.com/capgraph/capgraph/queries"
	"github.com/capgraph/capgraph/queries/rows"
)

// queryOptions are the flags of the query subcommands.
type queryOptions struct {
	Action  string   // "list", "show", "run" or "exec"
	Name    string   // run, show
	File    string   // exec: "" or "-" means stdin
	Params  []string // run: key=value
	Format  string   // table, json, jsonl, csv or md
	Output  string   // a file, "" for stdout
	Limit   int
	Timeout time.Duration
}

// tableRowCap caps the rows of the table and md outputs, which hold every
// row to align the columns, when --limit is not given; the streamed
// formats (json, jsonl, csv) have no cap.
var tableRowCap = 10000 // a variable for tests

var queryOutputs = []string{"table", "json", "jsonl", "csv", "md"}

func newQueryCmd(a *app, runF func(context.Context, *queryOptions) error) *cobra.Command {
	opts := &queryOptions{}
	do := func(cmd *cobra.Command) error {
		if !slices.Contains(queryOutputs, opts.Format) {
			return &usageError{fmt.Errorf("--format: %q is not one of %s", opts.Format, strings.Join(queryOutputs, ", "))}
		}
		if opts.Limit < 0 {
			return &usageError{fmt.Errorf("--limit: %d is not a number of rows (0 or more)", opts.Limit)}
		}
		if opts.Timeout < 0 {
			return &usageError{fmt.Errorf("--timeout: %v is not a duration (0 for none, or more)", opts.Timeout)}
		}
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return a.runQuery(cmd.Context(), opts)
	}
	cmd := &cobra.Command{
		Use:   "query <command>",
		Short: "Run saved research queries against the graph store",
		Long: `Query lists, shows and runs saved queries: Gizmo programs embedded in
capgraph, plus your own NAME.gizmo files from the queries_dir setting
(--queries-dir, CAPGRAPH_QUERIES_DIR), which override built-ins of the same
name. Each saved query has a SPARQL twin (capgraph query show --sparql) for
other triple stores, to run over capgraph export, and each built-in an SQL
twin (capgraph query show --sql) that runs in its place on a PostgreSQL
store, where PostgreSQL does the joins; a user's NAME.gizmo can have one in
sql/NAME.sql beside it.

Parameters are passed as -p name=value and reach the query as data (a
frozen params object decoded by JSON.parse), never as program text.`,
		Example: `  $ capgraph query list
  $ capgraph query run photos-in-place -p place=Idlib
  $ capgraph query run photos-between -p from=2018-01-01 -p to=2018-03-31 -f csv -o q1.csv
  $ capgraph query show entity
  $ capgraph query show photos-in-place --sparql -p place=Idlib
  $ echo 'g.V("Idlib").In("<https://schema.org/name>").All()' | capgraph query exec`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.PersistentFlags().String("queries-dir", "", "also load saved queries from `dir` (setting queries_dir)")

	list := &cobra.Command{
		Use:   "list",
		Short: "List saved queries with their parameters",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Action = "list"
			opts.Format = "table"
			return do(c)
		},
	}
	var sparql, sql bool
	show := &cobra.Command{
		Use:   "show [flags] <name>",
		Short: "Print a saved query's documentation and text",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Action, opts.Name, opts.Format = "show", args[0], "table"
			switch {
			case sparql && sql:
				return &usageError{errors.New("--sparql and --sql: give one")}
			case sparql:
				opts.Action = "show-sparql"
			case sql && len(opts.Params) > 0:
				return &usageError{errors.New("-p binds the SPARQL version's parameters; the SQL version binds them as node hashes, which it does not print")}
			case sql:
				opts.Action = "show-sql"
			case len(opts.Params) > 0:
				return &usageError{errors.New("-p binds the SPARQL version's parameters: give --sparql too")}
			}
			return do(c)
		},
	}
	show.Flags().BoolVar(&sparql, "sparql", false, "print the SPARQL version instead")
	show.Flags().BoolVar(&sql, "sql", false, "print the SQL version, which runs instead on a PostgreSQL store")
	show.Flags().StringArrayVarP(&opts.Params, "param", "p", nil, "with --sparql: bind parameter `name=value` as query run does (repeatable)")
	run := &cobra.Command{
		Use:   "run [flags] <name>",
		Short: "Run a saved query",
		Example: `  $ capgraph query run groups-in-place -p place=Idlib
  $ capgraph query run entity -p name=Haresta -f json`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Action, opts.Name = "run", args[0]
			return do(c)
		},
	}
	run.Flags().StringArrayVarP(&opts.Params, "param", "p", nil, "query parameter as `name=value` (repeatable)")
	exec := &cobra.Command{
		Use:   "exec [flags] [<file>]",
		Short: "Run an ad-hoc Gizmo query from a file or stdin",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Action = "exec"
			if len(args) == 1 {
				opts.File = args[0]
			}
			return do(c)
		},
	}
	for _, c := range []*cobra.Command{run, exec} {
		c.Flags().StringVarP(&opts.Format, "format", "f", "table", "output `format`: table, json, jsonl, csv or md")
		c.Flags().StringVarP(&opts.Output, "output", "o", "", "write to `file` instead of stdout")
		c.Flags().IntVar(&opts.Limit, "limit", 0, "stop after `n` rows (default: no limit for json, jsonl and csv, 10000 for table and md)")
		c.Flags().DurationVar(&opts.Timeout, "timeout", time.Minute, "stop a query that runs longer than `duration` (0: never)")
	}
	cmd.AddCommand(list, show, run, exec)
	return cmd
}

// loadQueries loads the built-in saved queries and those of the
// queries_dir setting. A file there that does not parse is left out with
// a warning, so that one mistake does not take every query away; broken
// holds the errors by query name.
func (a *app) loadQueries() (qs []queries.Query, broken map[string]error, err error) {
	qs, err = queries.Load(a.cfg.QueriesDir)
	if be, ok := errors.AsType[*queries.BrokenError](err); ok {
		fmt.Fprintf(a.stderr, "capgraph: warning: %v\n", err)
		return qs, be.Files, nil
	}
	if err != nil {
		return nil, nil, &usageError{fmt.Errorf("queries_dir: %w", err)}
	}
	return qs, nil, nil
}

func (a *app) runQuery(ctx context.Context, opts *queryOptions) (err error) {
	var qs []queries.Query
	var broken map[string]error
	if opts.Action != "exec" {
		if qs, broken, err = a.loadQueries(); err != nil {
			return err
		}
	}
	dst, finish, err := a.createOutput(opts.Output)
	if err != nil {
		return err
	}
	defer finishOutput(finish, &err)
	out := bufio.NewWriter(dst)
	defer func() {
		if ferr := out.Flush(); err == nil {
			err = ferr
		}
	}()
	if opts.Action == "list" {
		return listQueries(out, qs)
	}
	if opts.Action == "exec" {
		text, err := a.readQuery(opts.File)
		if err != nil {
			return err
		}
		return a.execQuery(ctx, out, gizmo(text), nil, opts)
	}
	q, ok := queries.Lookup(qs, opts.Name)
	if !ok {
		if err := broken[opts.Name]; err != nil {
			return fmt.Errorf("saved query %s is left out: %s: %w", opts.Name, filepath.Join(a.cfg.QueriesDir, opts.Name+".gizmo"), err)
		}
		return &usageError{fmt.Errorf("%w %q; run 'capgraph query list'", queries.ErrUnknown, opts.Name)}
	}
	if opts.Action == "show" {
		return showQuery(out, q)
	}
	if opts.Action == "show-sql" {
		if q.SQL == "" {
			return fmt.Errorf("query %s has no SQL version: on a PostgreSQL store it runs as Gizmo", q.Name)
		}
		_, err := io.WriteString(out, q.SQL)
		return err
	}
	if opts.Action == "show-sparql" && len(opts.Params) == 0 {
		if q.SPARQL == "" {
			return fmt.Errorf("query %s has no SPARQL version", q.Name)
		}
		_, err := io.WriteString(out, q.SPARQL)
		return err
	}
	values := make(map[string]string, len(opts.Params))
	for _, kv := range opts.Params {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return &usageError{fmt.Errorf("-p %q: want name=value", kv)}
		}
		if _, dup := values[k]; dup {
			return &usageError{fmt.Errorf("-p %s: given twice", k)}
		}
		values[k] = v
	}
	variants, err := resolveVariants(q, values)
	if err != nil {
		return err
	}
	bind := q.BindVariants
	if opts.Action == "show-sparql" {
		bind = q.BindSPARQL
	}
	prog, err := bind(values, variants)
	if err != nil {
		if _, ok := errors.AsType[*queries.ParamError](err); ok {
			return &usageError{fmt.Errorf("%w (see 'capgraph query show %s')", err, q.Name)}
		}
		return err
	}
	if opts.Action == "show-sparql" {
		_, err := io.WriteString(out, prog)
		return err
	}
	run := gizmo(prog)
	if q.SQL != "" {
		// On a PostgreSQL store the twin runs instead: PostgreSQL does its
		// joins, where Gizmo would walk them a node at a time.
		text, args, err := q.BindSQL(values, variants)
		if err != nil {
			return err
		}
		run = func(ctx context.Context, s *graph.Store, limit int) iter.Seq2[any, error] {
			if s.SQL() {
				return s.QuerySQL(ctx, text, args, limit)
			}
			return s.Query(ctx, "gizmo", prog, limit)
		}
	}
	return a.execQuery(ctx, out, run, q.Columns, opts)
}

// A runner runs a query on an open store, yielding up to limit results.
type runner func(ctx context.Context, s *graph.Store, limit int) iter.Seq2[any, error]

// gizmo runs a Gizmo program.
func gizmo(prog string) runner {
	return func(ctx context.Context, s *graph.Store, limit int) iter.Seq2[any, error] {
		return s.Query(ctx, "gizmo", prog, limit)
	}
}

func (a *app) readQuery(file string) (string, error) {
	var r io.Reader = a.stdin
	if file != "" && file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return "", err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(string(b)) == "" {
		return "", &usageError{errors.New("query exec: the query is empty")}
	}
	return string(b), nil
}

// resolveVariants asks the gazetteer for other spellings of each value that
// names a place, group or entity, so that Haresta finds Harasta.
func resolveVariants(q queries.Query, values map[string]string) (map[string][]string, error) {
	var ix *gazetteer.Index
	out := make(map[string][]string)
	for _, p := range q.Params {
		v := strings.TrimSpace(values[p.Name])
		if p.Resolve == "" || v == "" || strings.HasPrefix(strings.TrimPrefix(v, "<"), model.Base) {
			continue
		}
		if ix == nil {
			d, err := gazetteer.Load()
			if err != nil {
				return nil, err
			}
			ix = d.Index()
		}
		if p.Resolve == "place" || p.Resolve == "entity" {
			if pl, _ := ix.Resolve(v); pl != nil {
				out[p.Name] = append(out[p.Name], pl.Name, model.EntityIRI(pl.ID))
			}
		}
		if p.Resolve == "group" || p.Resolve == "entity" {
			if g := ix.Group(v); g != nil {
				out[p.Name] = append(out[p.Name], g.Name, model.EntityIRI(g.ID))
				out[p.Name] = append(out[p.Name], g.Aliases...)
			}
		}
		if p.Resolve == "entity" {
			if t := ix.Term(v); t != nil {
				out[p.Name] = append(out[p.Name], t.Name, model.EntityIRI(t.ID))
			}
		}
	}
	return out, nil
}

// openExisting opens the store for a command that only reads it: a path
// that holds no store is an error, not a new empty store (a mistyped
// --store would otherwise export or serve nothing and exit 0), and the
// store is opened read-only under a shared lock, so that serve, query,
// export and stats run side by side, and on a read-only file system.
func (a *app) openExisting(ctx context.Context) (*graph.Store, error) {
	addr := a.cfg.Store
	if !strings.Contains(addr, "://") {
		if _, err := os.Stat(addr); err != nil {
			return nil, fmt.Errorf("store %s does not exist: build it first with 'capgraph build --store %s FILE'", addr, addr)
		}
	}
	return graph.Open(ctx, addr, graph.Options{Logger: a.log, ReadOnly: true, BaseIRI: a.cfg.BaseIRI})
}

// errEmptyStore reports a store with no captions in it.
var errEmptyStore = errors.New("is empty: no captions have been built into it (run 'capgraph build --store DIR FILE')")

func (a *app) openForQuery(ctx context.Context) (*graph.Store, error) {
	s, err := a.openExisting(ctx)
	if err != nil {
		return nil, err
	}
	some, err := s.HasPhotos(ctx)
	if err != nil {
		s.Close()
		return nil, err
	}
	if some {
		return s, nil
	}
	s.Close()
	return nil, fmt.Errorf("store %s %w", s.Addr(), errEmptyStore)
}

func (a *app) execQuery(ctx context.Context, out io.Writer, run runner, cols []string, opts *queryOptions) (err error) {
	s, err := a.openForQuery(ctx)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := s.Close(); err == nil {
			err = cerr
		}
	}()
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	limit, capped := opts.Limit, false
	if limit == 0 && (opts.Format == "table" || opts.Format == "md") {
		limit, capped = tableRowCap+1, true // one more, to know whether the cap cut the rows
	}
	w := newRowWriter(out, opts.Format, cols)
	for r, err := range rows.All(run(ctx, s, limit), limit) {
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) || ctx.Err() == context.DeadlineExceeded {
				return fmt.Errorf("query ran longer than --timeout %v", opts.Timeout)
			}
			return err
		}
		if capped && w.n == tableRowCap {
			fmt.Fprintf(a.stderr, "capgraph: showing the first %d rows; use --limit N, or -f csv or jsonl for all of them\n", tableRowCap)
			break
		}
		m, ok := r.(map[string]any)
		if !ok {
			m = map[string]any{"value": r}
		}
		if err := w.row(m); err != nil {
			return err
		}
	}
	return w.close()
}

func listQueries(w io.Writer, qs []queries.Query) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, q := range qs {
		src := ""
		if !q.Builtin {
			src = " (yours)"
		}
		fmt.Fprintf(tw, "%s\t%s%s\n", q.Name, q.Description, src)
		for _, p := range q.Params {
			fmt.Fprintf(tw, "\t  -p %s=%s\n", p.Name, paramSummary(p))
		}
	}
	return tw.Flush()
}

func paramSummary(p queries.Param) string {
	s := strings.ToUpper(p.Type)
	switch {
	case p.Required:
		s += " (required)"
	case p.Default != "":
		s += " (default " + p.Default + ")"
	default:
		s += " (optional)"
	}
	if p.Example != "" {
		s += ", e.g. " + p.Example
	}
	if p.Description != "" {
		s += ": " + p.Description
	}
	return s
}

func showQuery(w io.Writer, q queries.Query) error {
	fmt.Fprintf(w, "%s: %s\n\n", q.Name, q.Description)
	if q.Doc != "" {
		fmt.Fprintf(w, "%s\n\n", q.Doc)
	}
	if len(q.Params) > 0 {
		fmt.Fprintln(w, "Parameters:")
		for _, p := range q.Params {
			fmt.Fprintf(w, "  -p %s=%s\n", p.Name, paramSummary(p))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Columns: %s\n\n", strings.Join(q.Columns, ", "))
	_, err := io.WriteString(w, q.Text)
	return err
}

// rowWriter writes result rows in one of the output formats. Table and
// Markdown buffer the rows to size columns; the others stream.
type rowWriter struct {
	w      io.Writer
	format string
	cols   []string
	fixed  bool // cols came from the query header
	rows   [][]string
	n      int
	csv    *csv.Writer
}

func newRowWriter(w io.Writer, format string, cols []string) *rowWriter {
	rw := &rowWriter{w: w, format: format, cols: cols, fixed: len(cols) > 0}
	if format == "csv" {
		rw.csv = csv.NewWriter(w)
	}
	return rw
}

func (rw *rowWriter) row(m map[string]any) error {
	if !rw.fixed && rw.n == 0 {
		for k := range m {
			rw.cols = append(rw.cols, k)
		}
		slices.Sort(rw.cols)
	}
	first := rw.n == 0
	rw.n++
	switch rw.format {
	case "json", "jsonl":
		b := orderedJSON(rw.cols, m)
		switch {
		case rw.format == "jsonl":
			b = append(b, '\n')
		case first:
			b = append([]byte("[\n  "), b...)
		default:
			b = append([]byte(",\n  "), b...)
		}
		_, err := rw.w.Write(b)
		return err
	case "csv":
		if first {
			if err := rw.csv.Write(rw.cols); err != nil {
				return err
			}
		}
		return rw.csv.Write(cells(rw.cols, m))
	}
	rw.rows = append(rw.rows, cells(rw.cols, m))
	return nil
}

func (rw *rowWriter) close() error {
	switch rw.format {
	case "json":
		s := "\n]\n"
		if rw.n == 0 {
			s = "[]\n"
		}
		_, err := io.WriteString(rw.w, s)
		return err
	case "jsonl":
		return nil
	case "csv":
		if rw.n == 0 && len(rw.cols) > 0 {
			rw.csv.Write(rw.cols)
		}
		rw.csv.Flush()
		return rw.csv.Error()
	case "md":
		esc := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ") }
		fmt.Fprintf(rw.w, "| %s |\n|", strings.Join(rw.cols, " | "))
		for range rw.cols {
			io.WriteString(rw.w, "---|")
		}
		io.WriteString(rw.w, "\n")
		for _, r := range rw.rows {
			for i := range r {
				r[i] = esc(r[i])
			}
			fmt.Fprintf(rw.w, "| %s |\n", strings.Join(r, " | "))
		}
		return nil
	}
	tw := tabwriter.NewWriter(rw.w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, strings.ToUpper(strings.Join(rw.cols, "\t")))
	for _, r := range rw.rows {
		for i := range r {
			r[i] = strings.NewReplacer("\t", " ", "\n", " ").Replace(r[i])
		}
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if rw.n == 0 {
		_, err := io.WriteString(rw.w, "(no rows)\n")
		return err
	}
	return nil
}

func orderedJSON(cols []string, m map[string]any) []byte {
	b := []byte{'{'}
	for i, c := range cols {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(c)
		v, err := json.Marshal(m[c])
		if err != nil {
			v = []byte("null")
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}')
}

func cells(cols []string, m map[string]any) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = rows.Cell(m[c])
	}
	return out
}
