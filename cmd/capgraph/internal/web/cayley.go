package web

import (
	"bytes"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/capgraph/capgraph/graph"
)

// mountCayley serves Cayley's v2 query API and its UI under /cayley/, read
// only: the write and delete endpoints answer 403.
func mountCayley(mux *http.ServeMux, s *graph.Store, opts Options) error {
	api := http.StripPrefix("/cayley", s.CayleyAPI(opts.Timeout, opts.ResultLimit))
	mux.Handle("GET /cayley/api/v2/query", api)
	mux.Handle("POST /cayley/api/v2/query", api)
	mux.Handle("GET /cayley/api/v2/formats", api)
	mux.HandleFunc("/cayley/api/", func(w http.ResponseWriter, r *http.Request) {
		switch path.Base(r.URL.Path) {
		case "write", "delete":
			writeError(w, http.StatusForbidden, "capgraph serve is read-only; use capgraph build to change the graph")
		default:
			writeError(w, http.StatusNotFound, "no such endpoint: "+r.Method+" "+r.URL.Path)
		}
	})
	web, err := graph.CayleyUI()
	if err != nil {
		return err
	}
	mux.Handle("/cayley/", getOnly(http.StripPrefix("/cayley", cayleyUI(web))))
	mux.Handle("GET /cayley", http.RedirectHandler("/cayley/", http.StatusMovedPermanently))
	return nil
}

// cayleyUI serves Cayley's prebuilt UI, which expects to sit at the root of
// a server on localhost:64210: its HTML and scripts are rewritten to load
// from /cayley/ and to query this server's /cayley/api/v2/.
func cayleyUI(web fs.FS) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name == "" {
			name = "index.html"
		}
		if name == "service-worker.js" { // it would cache capgraph's own pages
			writeError(w, http.StatusNotFound, "no service worker")
			return
		}
		data, err := fs.ReadFile(web, name)
		if err != nil {
			name, data = "index.html", nil
			if data, err = fs.ReadFile(web, name); err != nil {
				writeError(w, http.StatusNotFound, "not found")
				return
			}
		}
		switch path.Ext(name) {
		case ".html":
			data = bytes.ReplaceAll(data, []byte(`href="/`), []byte(`href="/cayley/`))
			data = bytes.ReplaceAll(data, []byte(`src="/`), []byte(`src="/cayley/`))
			data = bytes.ReplaceAll(data, []byte(`.p="/"`), []byte(`.p="/cayley/"`))
		case ".js":
			data = bytes.ReplaceAll(data, []byte(`"http://localhost:64210"`), []byte(`location.origin+"/cayley"`))
		}
		ct := mime.TypeByExtension(path.Ext(name))
		if ct == "" {
			ct = http.DetectContentType(data)
		}
		w.Header().Set("Content-Type", ct)
		w.Write(data)
	})
}
