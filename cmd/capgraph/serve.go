package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/capgraph/capgraph/cmd/capgraph/internal/web"
)

type serveOptions struct {
	Addr   string
	Hosts  []string // --allow-host
	Cayley bool
}

func newServeCmd(a *app, runF func(context.Context, *serveOptions) error) *cobra.Command {
	opts := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve [flags]",
		Short: "Browse the graph in a web browser and serve a read-only HTTP API",
		Long: `Serve opens the graph store named by --store and serves, until interrupted:

  /                   a web page: search, entity pages with the captions that
                      support each fact, a graph of the neighbourhood, a map,
                      a timeline, the saved queries as forms, export links
  /api/queries        the saved queries; POST /api/queries/<name> runs one
                      with a JSON object of parameters
  /api/search?q=      entities by name, alias or spelling variant
  /api/summary?iri=   what an entity's photos show: related entities by
                      photos shared, a timeline by month, captions paged
  /api/photos         the photos a filter keeps, paged
  /api/entity?iri=    an entity's facts, captions, mentions and neighbours
  /api/export?format= the graph as nq, nt, ttl, jsonld or csv, or with a
                      filter the captions it keeps
  Filters: from, to, place, group, person, photographer, agency (docs/api.md).
  /cayley/api/v2/     Cayley's v2 query API, read-only, with --cayley only

The page works offline: its scripts, styles and map outlines are built in.
The server listens on the loopback interface unless --addr says otherwise;
it has no authentication, so bind it elsewhere only on a trusted network.

Other web pages in your browser can reach a server on loopback too, so it
answers only requests that name it (Host: a loopback name, the --addr host
or an --allow-host; others get 421), takes POST requests, and GETs that
run a query or export, only from its own page, an address typed in the
browser, or clients that are no browser (403), and refuses bodies sent as
text or forms (415; send application/json). Bodies must arrive within 5
seconds (408, and the connection closes) and hold at most 64 KiB (413). A
HEAD gets the headers alone; nothing runs for it.

At most 64 requests run at once. Some kinds have slots of their own besides,
so that a crowd of one kind leaves the others answering: 16 for saved
queries and entity views, 2 for Cayley queries, 2 for exports, and half the
CPUs for searches. A request waits for one of its kind's slots (searches a
second, the others half their time limit), then gets 503 with Retry-After.
Each request has 15 seconds (504 after), and a query at most 10,000 rows.
An export has 30 minutes, and is cut when its client takes nothing for 30
seconds.

With --cayley, each Cayley query runs in a process of its own (this binary's
serve-query command, opening the store read-only), which may allocate 1 GiB
and use its time limit of CPU, and is killed at its deadline: a program that
passes its memory gets 503, and one that crashes Cayley 500, and the server
goes on.`,
		Example: `  $ capgraph serve --store graph.db
  $ capgraph serve --addr 127.0.0.1:9000
  $ curl -s 'localhost:8080/api/search?q=Haresta' | jq '.hits[0].iri'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return &usageError{fmt.Errorf("unknown argument %q: serve takes no arguments", args[0])}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, _, err := net.SplitHostPort(opts.Addr); err != nil {
				return &usageError{fmt.Errorf("--addr: %w", err)}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return a.runServe(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Addr, "addr", "127.0.0.1:8080", "listen on `host:port`")
	cmd.Flags().StringSliceVar(&opts.Hosts, "allow-host", nil, "also answer requests for `name` (repeatable; loopback names and the --addr host always)")
	cmd.Flags().BoolVar(&opts.Cayley, "cayley", false, "serve Cayley's v2 query API under /cayley/ (runs any Gizmo program)")
	cmd.Flags().String("base-iri", "", "write capgraph's nodes under `iri` (ending in /) in the documents /id/... answers (setting base_iri)")
	return cmd
}

// isLoopback reports whether addr's host is a loopback address or name.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (a *app) runServe(ctx context.Context, opts *serveOptions) (err error) {
	qs, _, err := a.loadQueries()
	if err != nil {
		return err
	}
	s, err := a.openExisting(ctx)
	if err != nil {
		return err
	}
	// The store closes only after the index goroutine has returned: bbolt
	// deadlocks when it is closed under a reader that is still opening
	// transactions.
	indexed := make(chan struct{})
	defer func() {
		<-indexed
		if cerr := s.Close(); err == nil {
			err = cerr
		}
	}()
	hosts := opts.Hosts
	if host, _, _ := net.SplitHostPort(opts.Addr); host != "" {
		if ip := net.ParseIP(host); ip == nil || !ip.IsUnspecified() {
			hosts = append(hosts, host) // a wildcard address names no host
		}
	}
	wopts := web.Options{Queries: web.SavedQueries(qs, resolveVariants), Logger: a.log, Hosts: hosts, Cayley: opts.Cayley}
	if _, versioned, _ := s.Version(ctx); versioned {
		// Kept beside the store it was read from; Version tells a stale one.
		wopts.PhotoIndexFile = filepath.Join(s.Addr(), "photoindex.cache")
	}
	if opts.Cayley {
		if wopts.QueryProcess, err = a.queryProcess(s.Addr()); err != nil {
			close(indexed)
			return err
		}
	}
	srv, err := web.New(s, wopts)
	if err != nil {
		close(indexed)
		return err
	}
	if !isLoopback(opts.Addr) {
		fmt.Fprintf(a.stderr, "capgraph: warning: serving on %s, not only on loopback: anyone who can reach it can read the whole graph\n", opts.Addr)
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop() // runs first: ends the index build if the server failed
	go func() {
		defer close(indexed)
		var wg sync.WaitGroup
		wg.Go(func() {
			if err := srv.BuildIndex(ctx); err != nil && ctx.Err() == nil {
				a.log.Error("index failed; search is limited to exact names", "err", err)
			}
		})
		wg.Go(func() {
			if err := srv.BuildPhotoIndex(ctx); err != nil && ctx.Err() == nil {
				a.log.Error("photo index failed; summaries, photo lists and filtered exports are unavailable", "err", err)
			}
		})
		wg.Wait()
	}()
	err = web.Serve(ctx, opts.Addr, srv, a.log, func(addr net.Addr) {
		if !a.cfg.Quiet {
			fmt.Fprintf(a.stderr, "serving %s on http://%s/ (Ctrl-C to stop)\n", s.Addr(), addr)
		}
	})
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// queryProcess returns how serve starts the process that answers one
// request of Cayley's API: this binary's hidden serve-query command, with
// the store named in its environment (a PostgreSQL URL may hold a
// password, which arguments would show to every user of the machine).
func (a *app) queryProcess(store string) (func(context.Context, web.QueryLimits) *exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("serve --cayley: %w", err)
	}
	return func(ctx context.Context, lim web.QueryLimits) *exec.Cmd {
		args := []string{"serve-query", "--timeout", lim.Timeout.String(),
			"--results", strconv.Itoa(lim.Results), "--memory", strconv.FormatUint(lim.Memory, 10)}
		if a.configFile != "" {
			args = append(args, "--config", a.configFile)
		}
		cmd := exec.CommandContext(ctx, exe, args...)
		cmd.Env = append(os.Environ(), "CAPGRAPH_STORE="+store, "CAPGRAPH_LOG_LEVEL=error")
		return cmd
	}, nil
}

func newServeQueryCmd(a *app) *cobra.Command {
	var lim web.QueryLimits
	cmd := &cobra.Command{
		Use:    "serve-query",
		Short:  "Answer one request of Cayley's query API read from stdin (serve --cayley runs it)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) (err error) {
			s, err := a.openExisting(cmd.Context())
			if err != nil {
				return err
			}
			defer func() {
				if cerr := s.Close(); err == nil {
					err = cerr
				}
			}()
			return web.ServeQuery(s, a.stdin, a.stdout, lim)
		},
	}
	cmd.Flags().DurationVar(&lim.Timeout, "timeout", 15*time.Second, "answer within `duration`")
	cmd.Flags().IntVar(&lim.Results, "results", 10000, "at most `n` results")
	cmd.Flags().Uint64Var(&lim.Memory, "memory", 1<<30, "allocate at most `bytes` more")
	return cmd
}
