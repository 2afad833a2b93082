package web

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path"
	"strings"
	"time"

	"github.com/capgraph/capgraph/graph"
)

// Cayley's API runs any Gizmo program a request sends, and a program can
// do what no handler can stop: crash the process from a goroutine Cayley
// starts (Out({}) panics in Gizmo's value conversion), or allocate gigabytes
// in one builtin call ("x".repeat(3e9)), which no watchdog inside the
// process can interrupt. So each request is answered by a process of its
// own, which the operating system bounds:
//
//   - the server writes the request to the process's stdin, and reads an
//     HTTP response from its stdout (ServeQuery is the process's side);
//   - the process limits its own data memory and CPU time (rlimits) before
//     it reads the request, so an allocation past the limit ends it, and
//     the server answers 503;
//   - the server kills it at the request's deadline (504), and a crash is
//     a 500 that names the panic; the server itself runs no Gizmo it was
//     sent.
//
// A process opens the store read-only beside the server, as any number of
// readers may. Starting one costs tens of milliseconds, which an ad hoc
// query can spare; the saved queries, whose programs are fixed, run in the
// server.

// QueryLimits bound the process that answers one request of Cayley's API.
type QueryLimits struct {
	Timeout time.Duration // the request's time left
	Results int           // results at most
	Memory  uint64        // bytes of data memory the process may add
}

// cpuLimit is the CPU time a query process may use: its time and two
// seconds, so that it answers 504 itself before it is killed.
func cpuLimit(lim QueryLimits) time.Duration {
	return lim.Timeout.Truncate(time.Second) + 2*time.Second
}

// errMemory is the answer to a query that passed its memory limit.
var errMemory = errors.New("query stopped: it passed its memory limit")

// maxQueryOutput caps the response a query process may send back.
const maxQueryOutput = 64 << 20

// mountCayley serves Cayley's v2 query API under /cayley/, read only: the
// write and delete endpoints answer 403. Cayley's own UI is not served: it
// loads its editor from a CDN, which neither works offline nor passes the
// page's content security policy.
func (s *Server) mountCayley(mux *http.ServeMux) {
	api := http.HandlerFunc(s.cayleyQuery)
	mux.Handle("HEAD /cayley/api/v2/query", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8") // and no query runs
	}))
	mux.Handle("GET /cayley/api/v2/query", api)
	mux.Handle("POST /cayley/api/v2/query", api)
	mux.Handle("GET /cayley/api/v2/formats", api)
	mux.HandleFunc("/cayley/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "Cayley's UI is not served (it loads its editor from a CDN); POST Gizmo to /cayley/api/v2/query?lang=gizmo")
	})
	mux.HandleFunc("/cayley/api/", func(w http.ResponseWriter, r *http.Request) {
		switch path.Base(r.URL.Path) {
		case "write", "delete":
			writeError(w, http.StatusForbidden, "capgraph serve is read-only; use capgraph build to change the graph")
		default:
			noRoute(w, r, mux, "/cayley/api/")
		}
	})
}

// cayleyQuery answers a request of Cayley's API through a query process.
func (s *Server) cayleyQuery(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	lim := QueryLimits{Timeout: s.opts.Timeout, Results: s.opts.ResultLimit, Memory: s.opts.MaxQueryMemory}
	if d, ok := ctx.Deadline(); ok {
		// The process answers 504 itself a little before it is killed.
		lim.Timeout = max(time.Until(d)-time.Second/4, time.Millisecond)
	}
	var in bytes.Buffer
	if err := r.Write(&in); err != nil {
		s.fail(w, r, err)
		return
	}
	cmd := s.opts.QueryProcess(ctx, lim)
	out := &cappedBuffer{max: maxQueryOutput}
	stderr := &cappedBuffer{max: 16 << 10}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = &in, out, stderr
	cmd.WaitDelay = time.Second
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start).Round(time.Millisecond)
	switch {
	case ctx.Err() != nil:
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			writeError(w, http.StatusGatewayTimeout, "query ran out of time")
		}
		return // else the client is gone
	case out.over:
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("query stopped: its answer passed %d MiB", maxQueryOutput>>20))
		return
	case err != nil:
		code, msg := processFailure(err, stderr.String(), lim)
		first, _, _ := strings.Cut(stderr.String(), "\n\n") // the error, without the stacks
		s.log.Warn("query process failed", "err", err, "took", took, "answer", msg, "stderr", first)
		writeError(w, code, msg)
		return
	}
	res, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(out.Bytes())), r)
	if err != nil {
		s.log.Error("query process answered garbage", "err", err, "stderr", stderr.String())
		writeError(w, http.StatusInternalServerError, "query process answered garbage")
		return
	}
	defer res.Body.Close()
	for _, k := range []string{"Content-Type", "Content-Disposition"} {
		if v := res.Header.Get(k); v != "" {
			w.Header().Set(k, v)
		}
	}
	w.WriteHeader(res.StatusCode)
	io.Copy(w, res.Body)
}

// processFailure maps how a query process ended to a status and message.
func processFailure(err error, stderr string, lim QueryLimits) (int, string) {
	ee, _ := errors.AsType[*exec.ExitError](err)
	if sig := killedBy(ee); sig != "" {
		if cpu := ee.UserTime() + ee.SystemTime(); cpu >= cpuLimit(lim) {
			return http.StatusServiceUnavailable, fmt.Sprintf("query stopped: it used its %v of CPU time", cpuLimit(lim))
		}
		return http.StatusServiceUnavailable, "query stopped: its process was killed (" + sig + ")"
	}
	// How a Go process dies at its memory limit varies (an allocation
	// fails, or the collector faults on the way), so the memory it held
	// tells, and the runtime's own message.
	if outOfMemory(stderr) || ee != nil && peakMemory(ee) >= lim.Memory/4*3 {
		return http.StatusServiceUnavailable, errMemory.Error()
	}
	for line := range strings.Lines(stderr) {
		if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") {
			return http.StatusInternalServerError, "the query crashed its process: " + strings.TrimSpace(line)
		}
	}
	if line, _, _ := strings.Cut(strings.TrimSpace(stderr), "\n"); line != "" {
		return http.StatusInternalServerError, "query process failed: " + line // as "capgraph: store ... does not exist"
	}
	return http.StatusInternalServerError, "query process failed: " + err.Error()
}

// outOfMemory reports whether a process's stderr says that an allocation
// failed: the Go runtime's words, strerror(ENOMEM), the race detector's
// ("ThreadSanitizer failed to allocate ... (errno: 12)"), or a thread
// whose stack could not be mapped under the address-space limit
// ("runtime/cgo: pthread_create failed: Resource temporarily unavailable").
func outOfMemory(stderr string) bool {
	for _, s := range []string{"out of memory", "cannot allocate memory", "failed to allocate", "pthread_create failed"} {
		if strings.Contains(stderr, s) {
			return true
		}
	}
	return false
}

// ServeQuery is the query process: it bounds its own memory and CPU time
// by lim, reads one request of Cayley's API from in, answers it over s, and
// writes the response to out. The caller opens s read-only.
func ServeQuery(s *graph.Store, in io.Reader, out io.Writer, lim QueryLimits) error {
	if err := limitProcess(lim); err != nil {
		return fmt.Errorf("web: query process: %w", err)
	}
	r, err := http.ReadRequest(bufio.NewReader(in))
	if err != nil {
		return fmt.Errorf("web: query process: read request: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), lim.Timeout)
	defer cancel()
	rec := &recorder{header: http.Header{}}
	h := http.StripPrefix("/cayley", s.CayleyAPI(lim.Timeout, lim.Results))
	h.ServeHTTP(&timeoutWriter{ResponseWriter: rec, ctx: ctx}, r.WithContext(ctx))
	res := &http.Response{
		StatusCode: cmp.Or(rec.code, http.StatusOK), ProtoMajor: 1, ProtoMinor: 1,
		Header: rec.header, ContentLength: int64(rec.body.Len()), Body: io.NopCloser(&rec.body),
	}
	return res.Write(out)
}

// A recorder keeps a response in memory.
type recorder struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) WriteHeader(code int) {
	if r.code == 0 {
		r.code = code
	}
}
func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}

// A timeoutWriter replaces an error response written after its context
// expired by a 504: Cayley's handler reports the context's error as a
// 400, like a mistyped query.
type timeoutWriter struct {
	http.ResponseWriter
	ctx     context.Context
	wrote   bool
	swallow bool // the wrapped handler's body is dropped
}

func (t *timeoutWriter) WriteHeader(code int) {
	if t.wrote {
		return
	}
	t.wrote = true
	if code >= 400 && t.ctx.Err() != nil {
		t.swallow = true
		writeError(t.ResponseWriter, http.StatusGatewayTimeout, "query ran out of time")
		return
	}
	t.ResponseWriter.WriteHeader(code)
}

func (t *timeoutWriter) Write(b []byte) (int, error) {
	if !t.wrote {
		t.WriteHeader(http.StatusOK)
	}
	if t.swallow {
		return len(b), nil
	}
	return t.ResponseWriter.Write(b)
}

// A cappedBuffer keeps what is written up to max bytes, and notes that more
// came.
type cappedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (c *cappedBuffer) Write(b []byte) (int, error) {
	if room := c.max - c.Len(); len(b) > room {
		c.over = true
		c.Buffer.Write(b[:max(room, 0)])
		return len(b), nil // keep the writer going; the answer is dropped
	}
	return c.Buffer.Write(b)
}
