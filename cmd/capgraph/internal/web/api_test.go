package web

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/capgraph/capgraph/queries"
)

const (
	jobar = "https://capgraph.org/id/place/jobar"
	fsa   = "https://capgraph.org/id/group/free-syrian-army"
)

// do sends one request to h and returns the status and body.
func do(t *testing.T, h http.Handler, method, target, body string) (int, http.Header, []byte) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, r)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Header(), rec.Body.Bytes()
}

func TestAPIStatus(t *testing.T) {
	srv := newFixtureServer(t, Options{MaxBodyBytes: 1024})
	big := `{"entity":"` + strings.Repeat("x", 2000) + `"}`
	tests := []struct {
		name, method, target, body string
		code                       int
		want                       string // substring of the body
	}{
		{"list queries", "GET", "/api/queries", "", 200, `"name":"captions-of"`},
		{"describe query", "GET", "/api/queries/captions-of", "", 200, `"params":[{"name":"entity"`},
		{"describe unknown query", "GET", "/api/queries/nope", "", 404, `"error":"no saved query \"nope\""`},
		{"run query", "POST", "/api/queries/captions-of", `{"entity":"` + fsa + `"}`, 200, `"anchor":"Free Syrian Army"`},
		{"run query without params", "POST", "/api/queries/photos", ``, 200, `"id":"ex-001"`},
		{"run unknown query", "POST", "/api/queries/nope", `{}`, 404, `"error":`},
		{"missing parameter", "POST", "/api/queries/captions-of", `{}`, 400, `required parameter missing`},
		{"unknown parameter", "POST", "/api/queries/captions-of", `{"entity":"` + fsa + `","x":"1"}`, 400, `no such parameter`},
		{"bad parameter value", "POST", "/api/queries/captions-of", `{"entity":"a\"b"}`, 400, `bad value`},
		{"parameter not a string", "POST", "/api/queries/captions-of", `{"entity":{"a":1}}`, 400, `want a string`},
		{"body not JSON", "POST", "/api/queries/captions-of", `entity=x`, 400, `want a JSON object`},
		{"body a JSON array", "POST", "/api/queries/captions-of", `["x"]`, 400, `want a JSON object`},
		{"oversized body", "POST", "/api/queries/captions-of", big, 413, `larger than 1024 bytes`},
		{"bad result format", "POST", "/api/queries/photos?format=xml", ``, 400, `not json or csv`},
		{"run by GET", "GET", "/api/queries/captions-of/run?entity=" + url.QueryEscape(fsa), "", 200, `"rows":[{`},
		{"repeated GET parameter", "GET", "/api/queries/captions-of/run?entity=a&entity=b", "", 400, `given 2 times`},
		{"search", "GET", "/api/search?q=Jobar", "", 200, `"iri":"` + jobar + `"`},
		{"search transliteration", "GET", "/api/search?q=Jawbar", "", 200, `"iri":"` + jobar + `"`},
		{"search alias", "GET", "/api/search?q=FSA", "", 200, `"iri":"` + fsa + `"`},
		{"search lower case prefix", "GET", "/api/search?q=free%20syr", "", 200, `"iri":"` + fsa + `"`},
		{"search nothing", "GET", "/api/search?q=zzzzqqq", "", 200, `"hits":[]`},
		{"search without q", "GET", "/api/search", "", 400, `missing parameter q`},
		{"search q too long", "GET", "/api/search?q=" + strings.Repeat("a", 201), "", 400, `longer than`},
		{"entity", "GET", "/api/entity?iri=" + url.QueryEscape(jobar), "", 200, `"label":"Jobar"`},
		{"entity in angle brackets", "GET", "/api/entity?iri=" + url.QueryEscape("<"+jobar+">"), "", 200, `"label":"Jobar"`},
		{"unknown entity", "GET", "/api/entity?iri=" + url.QueryEscape("https://capgraph.org/id/place/nowhere"), "", 404, `no node`},
		{"entity without iri", "GET", "/api/entity", "", 400, `missing parameter iri`},
		{"entity bad iri", "GET", "/api/entity?iri=not%20an%20iri", "", 400, `is not an IRI`},
		{"export bad format", "GET", "/api/export?format=xml", "", 400, `format \"xml\" is not one of`},
		{"stats", "GET", "/api/stats", "", 200, `"Captions":28`},
		{"places", "GET", "/api/places", "", 200, `"iri":"` + jobar + `"`},
		{"timeline", "GET", "/api/timeline", "", 200, `{"date":"2014-03-03","count":1}`},
		{"unknown endpoint", "GET", "/api/nope", "", 404, `"error":"no such endpoint`},
		{"unknown endpoint, POST", "POST", "/api/nope", "{}", 404, `"error":"no such endpoint`},
		{"wrong method", "DELETE", "/api/queries/photos", "", 405, `not allowed on /api/queries/photos; use GET, HEAD, POST`},
		{"wrong method, export", "POST", "/api/export", "{}", 405, `use GET, HEAD`},
		{"wrong method, cayley", "DELETE", "/cayley/api/v2/query", "", 405, `use GET, HEAD, POST`},
		{"body not UTF-8", "POST", "/api/queries/captions-of", "{\"entity\":\"\xff\xfe\"}", 400, `not valid UTF-8`},
		{"bad escape in query string", "GET", "/api/search?q=%", "", 400, `invalid URL escape`},
		{"page", "GET", "/", "", 200, `<script src="/app.js">`},
		{"page route", "GET", "/entity/anything", "", 200, `<script src="/app.js">`},
		{"script", "GET", "/app.js", "", 200, `function mapView`},
		{"map data", "GET", "/world.json", "", 200, `"name":"Syria"`},
		{"post to page", "POST", "/", "x", 405, `not allowed`},
		{"cayley query", "POST", "/cayley/api/v2/query?lang=gizmo", `g.V("<` + jobar + `>").Out("<https://schema.org/name>").All()`, 200, `"id":"Jobar"`},
		{"cayley bad query", "POST", "/cayley/api/v2/query?lang=gizmo", `g.V(`, 400, `"error"`},
		{"cayley write blocked", "POST", "/cayley/api/v2/write", `<a> <b> <c> .`, 403, `read-only`},
		{"cayley delete blocked", "POST", "/cayley/api/v2/delete", `<a> <b> <c> .`, 403, `read-only`},
		{"cayley node delete blocked", "POST", "/cayley/api/v2/node/delete", `<a>`, 403, `read-only`},
		{"cayley ui not served", "GET", "/cayley/", "", 404, `UI is not served`},
		{"cayley ui script not served", "GET", "/cayley/static/js/main.84d3ab8c.chunk.js", "", 404, `UI is not served`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, hdr, body := do(t, srv, tt.method, tt.target, tt.body)
			if code != tt.code || !strings.Contains(string(body), tt.want) {
				t.Errorf("%s %s: got %d %.300s; want %d and %q", tt.method, tt.target, code, body, tt.code, tt.want)
			}
			if code == http.StatusMethodNotAllowed && hdr.Get("Allow") == "" {
				t.Errorf("405 without Allow")
			}
			if strings.HasPrefix(tt.target, "/api/") && !strings.HasPrefix(hdr.Get("Content-Type"), "application/json") {
				t.Errorf("Content-Type %q, want JSON", hdr.Get("Content-Type"))
			}
			if code >= 400 && strings.HasPrefix(tt.target, "/api/") {
				var e struct{ Error string }
				if err := json.Unmarshal(body, &e); err != nil || e.Error == "" {
					t.Errorf("error body %q is not {\"error\": ...}", body)
				}
			}
		})
	}
}

func TestEntityMentionsAreCodePoints(t *testing.T) {
	srv := newFixtureServer(t, Options{})
	for _, iri := range []string{jobar, fsa} {
		code, _, body := do(t, srv, "GET", "/api/entity?iri="+url.QueryEscape(iri), "")
		if code != 200 {
			t.Fatalf("%s: %d %s", iri, code, body)
		}
		var e Entity
		if err := json.Unmarshal(body, &e); err != nil {
			t.Fatal(err)
		}
		if len(e.Captions) == 0 || len(e.Facts) == 0 || len(e.Nodes) < 2 || len(e.Links) == 0 {
			t.Fatalf("%s: thin view: %d captions, %d facts, %d nodes, %d links", iri, len(e.Captions), len(e.Facts), len(e.Nodes), len(e.Links))
		}
		spans := 0
		for _, c := range e.Captions {
			runes := []rune(c.Text)
			for _, m := range c.Mentions {
				if got := string(runes[m.Start:m.End]); got != m.Anchor {
					t.Errorf("%s: caption %s [%d,%d) is %q, anchor %q", iri, c.ID, m.Start, m.End, got, m.Anchor)
				}
				spans++
			}
		}
		if spans == 0 {
			t.Errorf("%s: no mention spans", iri)
		}
	}
}

func TestExportFormats(t *testing.T) {
	srv := newFixtureServer(t, Options{})
	for _, f := range []string{"nq", "nt", "ttl", "jsonld", "csv"} {
		code, hdr, body := do(t, srv, "GET", "/api/export?format="+f, "")
		if code != 200 || len(body) < 1000 {
			t.Errorf("%s: %d, %d bytes", f, code, len(body))
		}
		if cd := hdr.Get("Content-Disposition"); !strings.Contains(cd, "capgraph."+f) {
			t.Errorf("%s: Content-Disposition %q", f, cd)
		}
		if f == "jsonld" && !json.Valid(body) {
			t.Errorf("jsonld export is not JSON")
		}
	}
}

func TestQueryCSV(t *testing.T) {
	srv := newFixtureServer(t, Options{})
	code, hdr, body := do(t, srv, "GET", "/api/queries/captions-of/run?format=csv&entity="+url.QueryEscape(fsa), "")
	if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "text/csv") {
		t.Fatalf("%d %s %s", code, hdr.Get("Content-Type"), body)
	}
	recs, err := csv.NewReader(strings.NewReader(string(body))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < 2 || strings.Join(recs[0], ",") != "id,anchor,mention" {
		t.Fatalf("csv: %q", recs)
	}
	if recs[1][0] != "Free Syrian Army" || !strings.HasPrefix(recs[1][2], "https://capgraph.org/id/graph/") { // IRIs lose their angle brackets
		t.Errorf("first row %q", recs[1])
	}
}

// TestSavedQueries runs every built-in saved query through the API with
// its example values.
func TestSavedQueries(t *testing.T) {
	qs := queries.Builtin()
	srv := newFixtureServer(t, Options{Queries: SavedQueries(qs, nil)})
	for _, q := range qs {
		params := map[string]string{}
		for _, p := range q.Params {
			if p.Required {
				params[p.Name] = p.Example
			}
		}
		body, _ := json.Marshal(params)
		code, _, out := do(t, srv, "POST", "/api/queries/"+q.Name, string(body))
		if code != 200 {
			t.Errorf("%s %s: %d %.300s", q.Name, body, code, out)
		}
	}
	code, _, out := do(t, srv, "POST", "/api/queries/"+qs[0].Name, `{"no_such_param":"1"}`)
	if code != 400 {
		t.Errorf("unknown parameter: %d %s", code, out)
	}
}

func TestTimeout(t *testing.T) {
	srv := newFixtureServer(t, Options{Timeout: time.Nanosecond})
	code, _, body := do(t, srv, "GET", "/api/entity?iri="+url.QueryEscape(jobar), "")
	if code != http.StatusGatewayTimeout {
		t.Errorf("got %d %s, want 504", code, body)
	}
}

func TestSaturated(t *testing.T) {
	s := &Server{opts: Options{Timeout: time.Second, MaxBodyBytes: 1, Hosts: []string{"example.com"}}, sem: make(chan struct{}, 1)}
	release, entered := make(chan struct{}), make(chan struct{})
	h := s.limit(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
	}))
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/api/stats", nil))
	}()
	<-entered
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/stats", nil))
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), `"error"`) {
		t.Errorf("saturated: %d %q", rec.Code, rec.Body)
	}
	close(release)
	<-done
}

// TestConcurrentClients runs 50 clients against a real loopback listener
// and checks that no request fails and no goroutine outlives the server.
// Every request has a slot, so that none rightly gets 503 on a slow
// machine: the limits have tests of their own. One client in ten exports
// (a CSV export costs a second under the race detector).
func TestConcurrentClients(t *testing.T) {
	srv := newFixtureServer(t, Options{MaxHeavy: 50, MaxSearches: 50, MaxExports: 5})
	before := runtime.NumGoroutine()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- ServeListener(ctx, ln, srv, nil, nil) }()
	base := "http://" + ln.Addr().String()

	tr := &http.Transport{MaxIdleConnsPerHost: 50}
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	paths := []struct{ method, path, body string }{
		{"GET", "/api/search?q=Jobar", ""},
		{"GET", "/api/entity?iri=" + url.QueryEscape(fsa), ""},
		{"POST", "/api/queries/captions-of", `{"entity":"` + jobar + `"}`},
		{"GET", "/api/queries", ""},
		{"GET", "/api/export?format=csv", ""},
		{"GET", "/", ""},
	}
	var wg sync.WaitGroup
	errs := make(chan error, 50*len(paths))
	for i := range 50 {
		wg.Go(func() {
			for j := range paths {
				p := paths[(i+j)%len(paths)]
				if strings.HasPrefix(p.path, "/api/export") && i%10 != 0 {
					continue
				}
				req, _ := http.NewRequest(p.method, base+p.path, strings.NewReader(p.body))
				resp, err := client.Do(req)
				if err != nil {
					errs <- err
					continue
				}
				_, err = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != 200 {
					errs <- fmt.Errorf("%s %s: %d %v", p.method, p.path, resp.StatusCode, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	cancel()
	if err := <-served; err != nil {
		t.Errorf("serve: %v", err)
	}
	tr.CloseIdleConnections()
	var after int
	for range 100 { // let connection goroutines wind down
		if after = runtime.NumGoroutine(); after <= before {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if after > before {
		buf := make([]byte, 1<<16)
		t.Errorf("goroutines: %d before, %d after\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}

// TestLinkedData dereferences entity IRIs under the server's address as
// clients and browsers ask for them.
func TestLinkedData(t *testing.T) {
	srv := newFixtureServer(t, Options{})
	const chrome = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
	for _, tt := range []struct {
		name, method, path, accept string
		code                       int
		typ, want                  string // Content-Type prefix; substring of the body or of Location
	}{
		{"turtle", "GET", "/id/place/jobar", "text/turtle", 200, "text/turtle", `<` + jobar + `>`},
		{"turtle by q", "GET", "/id/place/jobar", "application/ld+json;q=0.5, text/turtle", 200, "text/turtle", `schema:name "Jobar"`},
		{"json-ld", "GET", "/id/place/jobar", "application/ld+json", 200, "application/ld+json", `"@id":"` + jobar + `"`},
		{"n-triples", "GET", "/id/place/jobar", "application/n-triples", 200, "application/n-triples", `<` + jobar + `> <https://schema.org/name> "Jobar" .`},
		{"n-quads", "GET", "/id/place/jobar", "application/n-quads", 200, "application/n-quads", `"Jobar" <https://capgraph.org/id/entities> .`},
		{"anything", "GET", "/id/place/jobar", "*/*", 200, "text/turtle", `@prefix`},
		{"no accept header", "GET", "/id/place/jobar", "", 200, "text/turtle", `@prefix`},
		{"browser", "GET", "/id/group/free-syrian-army", chrome, 303, "", "/#/entity?iri=" + url.QueryEscape(fsa)},
		{"unknown node", "GET", "/id/place/nowhere", "text/turtle", 404, "application/json", `no node`},
		{"unknown node in a browser", "GET", "/id/place/nowhere", chrome, 303, "", "/#/entity?iri="},
		{"unacceptable", "GET", "/id/place/jobar", "image/png", 406, "application/json", `text/turtle`},
		{"head", "HEAD", "/id/place/jobar", "text/turtle", 200, "text/turtle", ``},
		{"post", "POST", "/id/place/jobar", "text/turtle", 405, "", ``},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, tt.path, nil)
			if tt.accept != "" {
				req.Header.Set("Accept", tt.accept)
			}
			rec := httptest.NewRecorder()
			srv.handler.ServeHTTP(rec, req)
			body := rec.Body.String() + rec.Header().Get("Location")
			if rec.Code != tt.code || !strings.HasPrefix(rec.Header().Get("Content-Type"), tt.typ) || !strings.Contains(body, tt.want) {
				t.Errorf("%d %q, want %d %q with %q:\n%.400s", rec.Code, rec.Header().Get("Content-Type"), tt.code, tt.typ, tt.want, body)
			}
			if tt.code == 200 && rec.Header().Get("Vary") != "Accept" {
				t.Errorf("Vary %q", rec.Header().Get("Vary"))
			}
		})
	}
}
