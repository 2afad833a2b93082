package web

import (
	"context"
	"errors"
	"net/http"
	"path"
	"runtime/metrics"
	"time"

	"github.com/capgraph/capgraph/graph"
)

// mountCayley serves Cayley's v2 query API under /cayley/, read only: the
// write and delete endpoints answer 403, and a query that runs out of time
// 504. Cayley's own UI is not served: it loads its editor from a CDN, which
// neither works offline nor passes the page's content security policy.
func mountCayley(mux *http.ServeMux, s *graph.Store, opts Options) {
	api := cayleyTimeout(http.StripPrefix("/cayley", s.CayleyAPI(opts.Timeout, opts.ResultLimit)), opts.MaxQueryHeap)
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

// cayleyTimeout answers 504 for a query that ran out of time, and 503 for
// one stopped for memory: Cayley's handler reports the context's error as
// a 400, like a mistyped query. A Gizmo program can build any structure,
// and Go has no per-request memory limit, so a watchdog samples the heap
// while the query runs and cancels it when the heap has grown by maxHeap
// since the query began.
func cayleyTimeout(h http.Handler, maxHeap uint64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithCancelCause(r.Context())
		defer cancel(nil)
		done := make(chan struct{})
		defer close(done)
		go watchHeap(ctx, done, cancel, maxHeap)
		h.ServeHTTP(&timeoutWriter{ResponseWriter: w, ctx: ctx}, r.WithContext(ctx))
	})
}

// errMemory is the cause of a query cancelled by the heap watchdog.
var errMemory = errors.New("query stopped: the server's heap passed its limit")

// watchHeap cancels with errMemory when the heap has grown by more than
// max since it began, until done is closed.
func watchHeap(ctx context.Context, done <-chan struct{}, cancel context.CancelCauseFunc, max uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	limit := sample[0].Value.Uint64() + max
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-ctx.Done():
			return
		case <-tick.C:
			metrics.Read(sample)
			if sample[0].Value.Uint64() > limit {
				cancel(errMemory)
				return
			}
		}
	}
}

// A timeoutWriter replaces an error response written after its context
// expired by a 504.
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
		if errors.Is(context.Cause(t.ctx), errMemory) {
			writeError(t.ResponseWriter, http.StatusServiceUnavailable, errMemory.Error())
		} else {
			writeError(t.ResponseWriter, http.StatusGatewayTimeout, "query ran out of time")
		}
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

func (t *timeoutWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }
