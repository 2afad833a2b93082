// Package web serves a capgraph store over HTTP: a read-only JSON API
// (saved queries, search, entity neighbourhoods, export), a browser page
// embedded in the binary that works offline, and, when asked for,
// Cayley's own query API under /cayley/.
//
// The server has no authentication: it is meant for loopback, where the
// threat is a web page in the user's own browser (see guard.go).
package web

import (
	"bufio"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/capgraph/capgraph/cmd/capgraph/internal/web/internal/photoindex"
	"github.com/capgraph/capgraph/extract/gazetteer"
	"github.com/capgraph/capgraph/graph"
)

//go:embed static
var staticFiles embed.FS

// A Query is a saved query the server offers: its Bind turns parameter
// values into a program in Lang.
type Query struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Lang        string   `json:"lang"`
	Params      []Param  `json:"params"`
	Columns     []string `json:"columns"` // keys of each result row, in order; may be nil
	// Bind returns the program for the given parameter values, or an
	// error when one is missing, unknown or malformed.
	Bind func(params map[string]string) (string, error) `json:"-"`
	// BindSQL, when not nil, returns the query's SQL twin and its
	// arguments, which run instead of the program on a PostgreSQL store
	// (graph.Store.QuerySQL).
	BindSQL func(params map[string]string) (string, []any, error) `json:"-"`
}

// A Param is one parameter of a [Query].
type Param struct {
	Name        string `json:"name"`
	Type        string `json:"type"` // "string", "int" or "date"; "" means string
	Description string `json:"description"`
	Default     string `json:"default,omitempty"`
	Example     string `json:"example,omitempty"`
	Required    bool   `json:"required"`
}

// Options configure a [Server]. The zero value is ready to use.
type Options struct {
	Queries []Query      // saved queries offered under /api/queries
	Logger  *slog.Logger // nil means no logs
	// MaxInFlight caps the requests served at once; more get 503. 0 means 64.
	MaxInFlight int
	// MaxHeavy caps the requests at once that run queries (saved
	// queries, entity views, Cayley's API), within MaxInFlight; more get
	// 503. 0 means a quarter of MaxInFlight.
	MaxHeavy int
	// MaxSearches caps the searches at once; more wait up to a second,
	// then get 503. 0 means half the CPUs, and at least 1: a search costs
	// up to tens of milliseconds of CPU, and searches must leave CPU for
	// the page and the other routes.
	MaxSearches int
	// MaxExports caps the exports streaming at once; more get 503. 0
	// means 2.
	MaxExports int
	// ExportStall cuts an export whose client has taken no bytes for this
	// long; 0 means 30 seconds.
	ExportStall time.Duration
	// Hosts are the host names, besides loopback ones, that requests may
	// name in their Host header; others get 421.
	Hosts []string
	// Cayley mounts Cayley's v2 query API under /cayley/api/v2/. It runs
	// any Gizmo program, each in a process that QueryProcess starts,
	// within Timeout, ResultLimit and MaxQueryMemory.
	Cayley bool
	// QueryProcess returns the command that answers one request of
	// Cayley's API: a process that opens the store read-only and calls
	// [ServeQuery] with lim. It is required with Cayley.
	QueryProcess func(ctx context.Context, lim QueryLimits) *exec.Cmd
	// MaxQueryMemory stops a Cayley query (503) when its process has
	// allocated this much; 0 means 1 GiB.
	MaxQueryMemory uint64
	// MaxQueries caps the Cayley queries running at once, each a process
	// of up to MaxQueryMemory; more wait, then get 503. 0 means 2.
	MaxQueries int
	// Timeout bounds each request's work; 0 means 15 seconds.
	Timeout time.Duration
	// ExportTimeout bounds an export download; 0 means 30 minutes.
	ExportTimeout time.Duration
	// BodyTimeout bounds the reading of a request body (408 after, and
	// the connection closes); 0 means 5 seconds.
	BodyTimeout time.Duration
	// MaxBodyBytes caps a request body; 0 means 64 KiB.
	MaxBodyBytes int64
	// ResultLimit caps the rows of a saved query; 0 means 10000.
	ResultLimit int
	// PhotoIndexFile is where BuildPhotoIndex keeps the photo index
	// between starts, for a store with a [graph.Store.Version]; "" keeps
	// none.
	PhotoIndexFile string
}

// A Server serves one store. It is an [http.Handler].
type Server struct {
	store    *graph.Store
	opts     Options
	log      *slog.Logger
	queries  map[string]Query
	gaz      *gazetteer.Index
	index    atomic.Pointer[index]
	photos   atomic.Pointer[photoindex.Index]
	counted  atomic.Pointer[countedPlaces] // every place with its photos, once both indexes are built
	sem      chan struct{}                 // a slot per request in flight
	heavy    *class
	searches *class
	exports  *class
	cayley   *class // a slot per query process
	handler  http.Handler
}

// New returns a server for s. Search matches exact names, and the home
// page is empty, until [Server.BuildIndex] has run.
func New(s *graph.Store, opts Options) (*Server, error) {
	if opts.MaxInFlight <= 0 {
		opts.MaxInFlight = 64
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 15 * time.Second
	}
	if opts.ExportTimeout <= 0 {
		opts.ExportTimeout = 30 * time.Minute
	}
	if opts.MaxHeavy <= 0 || opts.MaxHeavy > opts.MaxInFlight {
		opts.MaxHeavy = max(1, opts.MaxInFlight/4)
	}
	if opts.MaxSearches <= 0 {
		opts.MaxSearches = max(1, runtime.GOMAXPROCS(0)/2)
	}
	if opts.MaxExports <= 0 {
		opts.MaxExports = 2
	}
	if opts.ExportStall <= 0 {
		opts.ExportStall = 30 * time.Second
	}
	if opts.MaxQueryMemory == 0 {
		opts.MaxQueryMemory = 1 << 30
	}
	if opts.MaxQueries <= 0 {
		opts.MaxQueries = 2
	}
	if opts.Cayley && opts.QueryProcess == nil {
		return nil, errors.New("web: Cayley's API needs a QueryProcess to run its queries in")
	}
	if opts.BodyTimeout <= 0 {
		opts.BodyTimeout = 5 * time.Second
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = 64 << 10
	}
	if opts.ResultLimit <= 0 {
		opts.ResultLimit = 10000
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// A heavy request or an export waits up to half its time limit, so
	// that a burst queues rather than fails and a request that waited
	// still has time to run.
	heavyWait := min(max(opts.Timeout/2, time.Second), 10*time.Second)
	srv := &Server{store: s, opts: opts, log: log, queries: map[string]Query{},
		sem:      make(chan struct{}, opts.MaxInFlight),
		heavy:    newClass(opts.MaxHeavy, heavyWait),
		searches: newClass(opts.MaxSearches, time.Second),
		exports:  newClass(opts.MaxExports, heavyWait),
		cayley:   newClass(opts.MaxQueries, heavyWait),
	}
	for _, q := range opts.Queries {
		for _, p := range q.Params {
			if slices.Contains(resultParams, p.Name) {
				return nil, fmt.Errorf("web: saved query %s: parameter %q is reserved for shaping results (%s)", q.Name, p.Name, strings.Join(resultParams, ", "))
			}
		}
		if q.Params == nil {
			q.Params = []Param{}
		}
		if q.Lang == "" {
			q.Lang = "gizmo"
		}
		srv.queries[q.Name] = q
	}
	gd, err := gazetteer.Load()
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	srv.gaz = gd.Index()
	static, err := fs.Sub(staticFiles, "static")
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/queries", srv.listQueries)
	mux.HandleFunc("GET /api/queries/{name}", srv.getQuery)
	mux.HandleFunc("POST /api/queries/{name}", srv.runQuery)
	mux.HandleFunc("GET /api/queries/{name}/run", srv.runQuery)
	mux.HandleFunc("GET /api/search", srv.search)
	mux.HandleFunc("GET /api/entity", srv.entity)
	mux.HandleFunc("GET /api/export", srv.export)
	mux.HandleFunc("GET /api/stats", srv.stats)
	mux.HandleFunc("GET /api/places", srv.places)
	mux.HandleFunc("GET /api/timeline", srv.timeline)
	mux.HandleFunc("GET /api/summary", srv.summary)
	mux.HandleFunc("GET /api/photos", srv.photoList)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) { noRoute(w, r, mux, "/api/") })
	mux.HandleFunc("GET /id/", srv.linkedData)
	if opts.Cayley {
		srv.mountCayley(mux)
	} else {
		mux.HandleFunc("/cayley/", func(w http.ResponseWriter, r *http.Request) {
			writeError(w, http.StatusNotFound, "Cayley's query API is off; start capgraph serve with --cayley")
		})
	}
	mux.Handle("/", getOnly(staticHandler(static)))
	srv.handler = srv.limit(mux)
	return srv, nil
}

// BuildIndex reads the store once for search, the map of places, the
// timeline and the statistics. Until it returns, those endpoints answer
// from what they can read directly.
func (s *Server) BuildIndex(ctx context.Context) error {
	start := time.Now()
	ix, err := buildIndex(ctx, s.store)
	if err != nil {
		return fmt.Errorf("web: index: %w", err)
	}
	s.index.Store(ix)
	s.log.Info("indexed store", "names", len(ix.names), "places", len(ix.places), "dates", len(ix.dates), "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// BuildPhotoIndex reads the store's photos for the research endpoints
// (summary, photos, filtered export), which answer 503 until it returns.
// With Options.PhotoIndexFile it first tries the index saved there, and
// saves the index it builds.
func (s *Server) BuildPhotoIndex(ctx context.Context) error {
	start := time.Now()
	version, versioned, err := s.store.Version(ctx)
	if err != nil {
		return fmt.Errorf("web: %w", err)
	}
	file := s.opts.PhotoIndexFile
	if !versioned {
		file = ""
	}
	if file != "" {
		ix, err := readPhotoIndex(file, version)
		if err == nil {
			s.photos.Store(ix)
			s.log.Info("read the photo index", "file", file, "photos", ix.Len(), "took", time.Since(start).Round(time.Millisecond))
			return nil
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, photoindex.ErrStale) {
			s.log.Warn("photo index unreadable; building it again", "file", file, "err", err)
		}
	}
	ix, err := photoindex.Build(ctx, s.store)
	if err != nil {
		return fmt.Errorf("web: %w", err)
	}
	s.photos.Store(ix)
	s.log.Info("indexed photos", "photos", ix.Len(), "took", time.Since(start).Round(time.Millisecond))
	if file != "" {
		if err := writePhotoIndex(file, ix, version); err != nil {
			s.log.Warn("photo index not saved", "file", file, "err", err)
		}
	}
	return nil
}

func readPhotoIndex(file, version string) (*photoindex.Index, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return photoindex.Read(bufio.NewReader(f), version)
}

// staleAfter is the age at which a half-written photo index is taken to
// be a killed server's: a live one writes its file in seconds.
const staleAfter = 10 * time.Minute

// writePhotoIndex saves ix to file whole or not at all, and removes what
// killed servers left half-written beside it.
func writePhotoIndex(file string, ix *photoindex.Index, version string) error {
	if left, err := filepath.Glob(file + ".new-*"); err == nil {
		for _, name := range left {
			if fi, err := os.Stat(name); err == nil && time.Since(fi.ModTime()) > staleAfter {
				os.Remove(name)
			}
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".new-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a rename, removes nothing
	bw := bufio.NewWriter(tmp)
	err = ix.Write(bw, version)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = tmp.Chmod(0o644) // as readable as the store beside it
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// ServeHTTP implements [http.Handler].
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// A class is a kind of request with slots of its own, taken before the
// slots all requests share: a burst of one class waits in its own queue,
// and the others go on answering.
type class struct {
	slots chan struct{}
	wait  time.Duration // for a slot, before 503
}

func newClass(slots int, wait time.Duration) *class {
	return &class{slots: make(chan struct{}, slots), wait: wait}
}

// classOf returns the class of r, or nil for the requests that take only
// a shared slot: the page, statistics, the map, the timeline. A HEAD does
// no work, and has no class.
func (s *Server) classOf(r *http.Request) *class {
	switch {
	case r.Method == http.MethodHead:
		return nil
	case r.URL.Path == "/api/export":
		return s.exports
	case r.URL.Path == "/api/search":
		return s.searches
	case strings.HasPrefix(r.URL.Path, "/cayley/api/v2/query"):
		return s.cayley
	case heavyRoute(r):
		return s.heavy
	}
	return nil
}

// limit turns away what [Server.guard] refuses, caps the requests in
// flight by class and in all (503 beyond), bounds each request's time and
// body size, and turns panics into 500.
func (s *Server) limit(next http.Handler) http.Handler {
	busy := func(w http.ResponseWriter) {
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, "server busy, try again")
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.guard(w, r) {
			return
		}
		if c := s.classOf(r); c != nil {
			wait := time.NewTimer(c.wait)
			select {
			case c.slots <- struct{}{}:
				wait.Stop()
				defer func() { <-c.slots }()
			case <-wait.C:
				busy(w)
				return
			case <-r.Context().Done():
				wait.Stop()
				return
			}
		}
		select {
		case s.sem <- struct{}{}:
			defer func() { <-s.sem }()
		default:
			busy(w)
			return
		}
		timeout := s.opts.Timeout
		if r.URL.Path == "/api/export" {
			timeout = s.opts.ExportTimeout
		}
		ctx, cancel := context.WithTimeout(r.Context(), timeout)
		defer cancel()
		r = r.WithContext(ctx)
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				buf := make([]byte, 4096)
				buf = buf[:runtime.Stack(buf, false)]
				s.log.Error("panic", "path", r.URL.Path, "err", v, "stack", string(buf))
				writeError(w, http.StatusInternalServerError, "internal error")
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// noRoute answers a request that reached mux's catch-all pattern: 405
// with Allow when the path is served with other methods, else 404. A
// catch-all matches every method, so the mux never answers 405 below it.
func noRoute(w http.ResponseWriter, r *http.Request, mux *http.ServeMux, catchAll string) {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost} {
		r2 := &http.Request{Method: m, URL: r.URL, Host: r.Host}
		if _, pattern := mux.Handler(r2); pattern != catchAll {
			allow = append(allow, m)
		}
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeError(w, http.StatusMethodNotAllowed, "method "+r.Method+" not allowed on "+r.URL.Path+"; use "+strings.Join(allow, ", "))
		return
	}
	writeError(w, http.StatusNotFound, "no such endpoint: "+r.Method+" "+r.URL.Path)
}

// getOnly answers 405 to methods other than GET and HEAD.
func getOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, "method "+r.Method+" not allowed")
			return
		}
		h.ServeHTTP(w, r)
	})
}

// staticHandler serves the embedded page; unknown paths get index.html
// so that the page's own routes survive a reload.
func staticHandler(static fs.FS) http.Handler {
	files := http.FileServerFS(static)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		if r.URL.Path != "/" {
			if _, err := fs.Stat(static, r.URL.Path[1:]); err != nil {
				r2 := r.Clone(r.Context())
				r2.URL.Path = "/"
				files.ServeHTTP(w, r2)
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}

// Serve listens on addr and serves h until ctx is done, then shuts down,
// giving requests in flight five seconds to finish. ready, when not nil,
// receives the bound address once the listener is open.
func Serve(ctx context.Context, addr string, h http.Handler, log *slog.Logger, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return ServeListener(ctx, ln, h, log, ready)
}

// ServeListener is [Serve] on an open listener, which it closes. It returns
// only once every handler has returned, so that the caller may close the
// store: requests still running after the five seconds are cancelled.
func ServeListener(ctx context.Context, ln net.Listener, h http.Handler, log *slog.Logger, ready func(net.Addr)) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	base, cancelRequests := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelRequests()
	var handlers sync.WaitGroup
	hs := &http.Server{
		BaseContext: func(net.Listener) context.Context { return base },
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			handlers.Add(1)
			defer handlers.Done()
			h.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      60 * time.Second, // exports lift it per request
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	if ready != nil {
		ready(ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	err := hs.Shutdown(sctx)
	if err != nil {
		hs.Close() // no new requests from here on
		cancelRequests()
	}
	handlers.Wait()
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}
