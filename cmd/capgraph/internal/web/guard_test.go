package web

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// request sends one request with the given headers to h.
func request(h http.Handler, method, target, body string, header map[string]string) *httptest.ResponseRecorder {
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, r)
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestHostAllowed(t *testing.T) {
	tests := []struct {
		host string
		want bool
	}{
		{"localhost", true},
		{"localhost:8080", true},
		{"LOCALHOST.:8080", true},
		{"127.0.0.1:8080", true},
		{"127.1.2.3", true},
		{"[::1]:8080", true},
		{"archive.lan:8080", true}, // in extra
		{"evil.example", false},
		{"evil.example:8080", false},
		{"127.0.0.1.evil.example", false},
		{"10.0.0.1:8080", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := hostAllowed(tt.host, []string{"archive.lan"}); got != tt.want {
			t.Errorf("hostAllowed(%q) = %v, want %v", tt.host, got, tt.want)
		}
	}
}

// TestGuard holds the server to what a page in the user's browser may not
// do: name another host (DNS rebinding), post from another origin, send a
// body a page may send anywhere, or frame the server's pages.
func TestGuard(t *testing.T) {
	srv := newFixtureServer(t, Options{})
	json := map[string]string{"Content-Type": "application/json"}
	with := func(kv ...string) map[string]string {
		m := map[string]string{"Content-Type": "application/json"}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name, method, target, body string
		header                     map[string]string
		code                       int
	}{
		{"rebound host", "GET", "/api/stats", "", map[string]string{"Host": "evil.example"}, http.StatusMisdirectedRequest},
		{"rebound host, page", "GET", "/", "", map[string]string{"Host": "evil.example:8080"}, http.StatusMisdirectedRequest},
		{"rebound host, export", "GET", "/api/export?format=nq", "", map[string]string{"Host": "evil.example"}, http.StatusMisdirectedRequest},
		{"loopback host", "GET", "/api/stats", "", map[string]string{"Host": "localhost:8080"}, http.StatusOK},
		{"allowed host", "GET", "/api/stats", "", nil, http.StatusOK},
		{"cross-origin post", "POST", "/api/queries/photos", "{}", with("Origin", "http://evil.example"), http.StatusForbidden},
		{"cross-origin cayley", "POST", "/cayley/api/v2/query?lang=gizmo", "g.V().All()", with("Origin", "http://evil.example"), http.StatusForbidden},
		{"cross-site fetch", "POST", "/api/queries/photos", "{}", with("Sec-Fetch-Site", "cross-site"), http.StatusForbidden},
		{"same-site fetch, other port", "POST", "/api/queries/photos", "{}", with("Sec-Fetch-Site", "same-site"), http.StatusForbidden},
		{"same-origin post", "POST", "/api/queries/photos", "{}", with("Origin", "http://example.com", "Sec-Fetch-Site", "same-origin"), http.StatusOK},
		{"post without browser headers", "POST", "/api/queries/photos", "{}", json, http.StatusOK},
		{"text body", "POST", "/api/queries/photos", "{}", map[string]string{"Content-Type": "text/plain;charset=UTF-8"}, http.StatusUnsupportedMediaType},
		{"form body", "POST", "/api/queries/photos", "a=b", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, http.StatusUnsupportedMediaType},
		{"multipart body", "POST", "/api/queries/photos", "x", map[string]string{"Content-Type": "multipart/form-data; boundary=x"}, http.StatusUnsupportedMediaType},
		{"cross-site export link", "GET", "/api/export?format=nq", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"cross-site image of a query", "GET", "/api/queries/photos/run", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"cross-origin GET of cayley", "GET", "/cayley/api/v2/query?lang=gizmo&qu=g.V().All()", "", map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden},
		{"cross-site entity", "GET", "/api/entity?iri=" + jobar, "", map[string]string{"Sec-Fetch-Site": "same-site"}, http.StatusForbidden},
		{"cross-site light route", "GET", "/api/search?q=Jobar", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusOK},
		{"typed address of an export", "GET", "/api/export?format=nt", "", map[string]string{"Sec-Fetch-Site": "none"}, http.StatusOK},
		{"same-origin query run", "GET", "/api/queries/photos/run", "", map[string]string{"Sec-Fetch-Site": "same-origin"}, http.StatusOK},
		{"oversized cayley body", "POST", "/cayley/api/v2/query?lang=gizmo", strings.Repeat(" ", 70<<10) + "g.V().All()", json, http.StatusRequestEntityTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := request(srv, tt.method, tt.target, tt.body, tt.header)
			if rec.Code != tt.code {
				t.Errorf("%s %s: %d %.200s, want %d", tt.method, tt.target, rec.Code, rec.Body, tt.code)
			}
			if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || rec.Header().Get("X-Frame-Options") != "DENY" {
				t.Errorf("%s %s: CSP %q, X-Frame-Options %q: may be framed", tt.method, tt.target, csp, rec.Header().Get("X-Frame-Options"))
			}
		})
	}
}

func TestCayleyOffByDefault(t *testing.T) {
	srv, err := New(openFixture(t), Options{Hosts: []string{"example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"/cayley/api/v2/query?lang=gizmo", "/cayley/"} {
		rec := request(srv, "POST", target, "g.V().All()", nil)
		if target == "/cayley/" {
			rec = request(srv, "GET", target, "", nil)
		}
		if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "--cayley") {
			t.Errorf("%s: %d %s, want 404 naming --cayley", target, rec.Code, rec.Body)
		}
	}
}

// TestCayleyTimeout runs a Gizmo program that never ends: the server
// answers 504 when the request's time is up, not 400 as for a bad query.
func TestCayleyTimeout(t *testing.T) {
	srv := newFixtureServer(t, Options{Timeout: 300 * time.Millisecond})
	start := time.Now()
	rec := request(srv, "POST", "/cayley/api/v2/query?lang=gizmo", "for (;;) {}", nil)
	if rec.Code != http.StatusGatewayTimeout || !strings.Contains(rec.Body.String(), "out of time") {
		t.Errorf("endless query: %d %s, want 504", rec.Code, rec.Body)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("endless query answered after %v", d)
	}
}

// TestHeadDoesNoWork: a HEAD of a route that runs a query or streams the
// graph gets its headers at once, with the heavy slots all taken, and no
// body.
func TestHeadDoesNoWork(t *testing.T) {
	addr := serveFixture(t, newFixtureServer(t, Options{MaxInFlight: 8, MaxHeavy: 1, Timeout: 3 * time.Second}))
	before := rss(t)
	var wg sync.WaitGroup
	wg.Go(func() { http.Post("http://"+addr+"/api/queries/spin", "application/json", nil) })
	time.Sleep(300 * time.Millisecond)
	client := &http.Client{Timeout: 10 * time.Second}
	for _, tt := range []struct{ target, typ string }{
		{"/api/export?format=ttl", "text/turtle"},
		{"/api/queries/photos/run", "application/json"},
		{"/api/queries/photos/run?format=csv", "text/csv"},
		{"/api/entity?iri=" + jobar, "application/json"},
		{"/cayley/api/v2/query?lang=gizmo&qu=" + url.QueryEscape("for (;;) {}"), "application/json"},
	} {
		start := time.Now()
		res, err := client.Head("http://" + addr + tt.target)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), tt.typ) {
			t.Errorf("HEAD %s: %d, %q; want 200, %s", tt.target, res.StatusCode, res.Header.Get("Content-Type"), tt.typ)
		}
		if d := time.Since(start); d > 500*time.Millisecond {
			t.Errorf("HEAD %s took %v with the heavy slot taken", tt.target, d)
		}
	}
	// What an <img> or a link on another site sends.
	for _, target := range []string{"/api/export?format=nq", "/api/queries/photos/run", "/cayley/api/v2/query?lang=gizmo&qu=" + url.QueryEscape("g.V().All()")} {
		req, _ := http.NewRequest("GET", "http://"+addr+target, nil)
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("cross-site GET %s: %d, want 403", target, res.StatusCode)
		}
	}
	wg.Wait() // the heavy slot is free again
	stillServing(t, addr, before, true)
}

// TestStalledBodies: clients that send part of a body and then nothing get
// 408 when the body time is up, and their connections are closed.
func TestStalledBodies(t *testing.T) {
	srv := newFixtureServer(t, Options{BodyTimeout: 300 * time.Millisecond})
	addr := serveFixture(t, srv)
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range 20 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		fmt.Fprintf(c, "POST /api/queries/photos HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{", addr)
	}
	before := rss(t)
	for i, c := range conns {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		got, err := io.ReadAll(c) // returns when the server closes
		if err != nil {
			t.Fatalf("connection %d: %v after %q: still open", i, err, got)
		}
		if !strings.HasPrefix(string(got), "HTTP/1.1 408 ") {
			t.Errorf("connection %d: got %.100q, want 408", i, got)
		}
	}
	stillServing(t, addr, before, true)
}

// serveFixture serves srv on a loopback listener for the life of the test.
func serveFixture(t *testing.T, srv http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- ServeListener(ctx, ln, srv, nil, nil) }()
	t.Cleanup(func() {
		cancel()
		<-served
	})
	return ln.Addr().String()
}

// TestSlowBodies sends more trickling request bodies than the server has
// slots: the page's light routes still answer, at once.
func TestSlowBodies(t *testing.T) {
	srv := newFixtureServer(t, Options{MaxInFlight: 4})
	addr := serveFixture(t, srv)
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range 12 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		fmt.Fprintf(c, "POST /api/queries/photos HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{", addr)
	}
	time.Sleep(200 * time.Millisecond) // the handlers have started reading
	client := &http.Client{Timeout: 2 * time.Second}
	for _, path := range []string{"/api/stats", "/api/search?q=Jobar", "/"} {
		res, err := client.Get("http://" + addr + path)
		if err != nil {
			t.Fatalf("%s while bodies trickle: %v", path, err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s while bodies trickle: %d, want 200", path, res.StatusCode)
		}
	}
}

// TestHeavySlots fills the heavy routes' slots with queries that run until
// their time is up: another heavy request gets 503 after waiting half its
// time, while light routes answer at once.
func TestHeavySlots(t *testing.T) {
	srv := newFixtureServer(t, Options{MaxInFlight: 8, MaxHeavy: 2, Timeout: 4 * time.Second})
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() { request(srv, "POST", "/api/queries/spin", "", nil) })
	}
	defer wg.Wait()
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	if rec := request(srv, "GET", "/api/stats", "", nil); rec.Code != http.StatusOK || time.Since(start) > time.Second {
		t.Errorf("light route with the heavy slots full: %d after %v, want 200 at once", rec.Code, time.Since(start))
	}
	rec := request(srv, "GET", "/api/queries/photos/run", "", nil)
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
		t.Errorf("third heavy request: %d %s, want 503 with Retry-After", rec.Code, rec.Body)
	}
}

// TestCayleyMemoryLimit runs Gizmo programs that allocate past the query
// memory in one builtin call or in a loop: each ends its own process, with
// 503, long before its time is up, while an ordinary query under the same
// limit answers and the server's own memory does not grow.
func TestCayleyMemoryLimit(t *testing.T) {
	addr := serveFixture(t, newFixtureServer(t, Options{Timeout: 30 * time.Second, MaxQueryMemory: 256 << 20}))
	query := func(prog string) (int, string) {
		return get(t, addr, "/cayley/api/v2/query?lang=gizmo&qu="+url.QueryEscape(prog))
	}
	if code, body := query("g.V().All()"); code != http.StatusOK {
		t.Fatalf("ordinary query under the limit: %d %.200s", code, body)
	}
	before := rss(t)
	for _, prog := range []string{
		`"x".repeat(3e9)`,
		`var s = "x"; for (var i = 0; i < 31; i++) s = s + s; g.Emit(s.length)`,
		`var a = []; for (;;) { a.push('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' + a.length) }`,
	} {
		for range 3 { // repeated, as an attacker would
			start := time.Now()
			if code, body := query(prog); code != http.StatusServiceUnavailable || !strings.Contains(body, "memory limit") {
				t.Errorf("%s: %d %s, want 503 naming the memory limit", prog, code, body)
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("%s stopped after %v", prog, d)
			}
		}
	}
	stillServing(t, addr, before, true)
}

// TestCayleyCrash sends the programs that panic in goroutines Cayley
// starts, out of reach of any handler: the query's process ends, the
// server answers 500 naming the panic, and goes on answering.
func TestCayleyCrash(t *testing.T) {
	addr := serveFixture(t, newFixtureServer(t, Options{}))
	before := rss(t)
	for _, prog := range []string{"g.V().Out({}).All()", "g.V().Out(1,2,3,4).All()", "g.V().Both({}).All()", `g.V().Out("x",{}).All()`} {
		code, body := get(t, addr, "/cayley/api/v2/query?lang=gizmo&qu="+url.QueryEscape(prog))
		if code != http.StatusInternalServerError || !strings.Contains(body, "crashed its process: panic") {
			t.Errorf("%s: %d %s, want 500 naming the panic", prog, code, body)
		}
	}
	if code, body := get(t, addr, "/cayley/api/v2/query?lang=gizmo&qu="+url.QueryEscape(`g.V("<`+jobar+`>").Out("<https://schema.org/name>").All()`)); code != http.StatusOK || !strings.Contains(body, `"id":"Jobar"`) {
		t.Errorf("query after the crashes: %d %s", code, body)
	}
	stillServing(t, addr, before, true)
}

// get sends GET path to the server at addr, as a client with no browser
// headers, and returns the status and body.
func get(t *testing.T, addr, path string) (int, string) {
	t.Helper()
	res, err := (&http.Client{Timeout: time.Minute}).Get("http://" + addr + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return res.StatusCode, string(b)
}

// stillServing asserts what every attack test ends with: the server at
// addr answers the home page and a saved query within its time limit, and
// this process, the server's, holds at most 128 MiB more than before the
// attack (rssBefore; 0 when the attackers live in this process too). The
// attacks here would take gigabytes. A damaged store fails the query:
// storeSound false asks only that it answers.
func stillServing(t *testing.T, addr string, rssBefore uint64, storeSound bool) {
	t.Helper()
	client := &http.Client{Timeout: 20 * time.Second}
	for _, c := range []struct{ method, path string }{{"GET", "/"}, {"POST", "/api/queries/photos"}} {
		req, _ := http.NewRequest(c.method, "http://"+addr+c.path, strings.NewReader("{}"))
		req.Header.Set("Content-Type", "application/json")
		start := time.Now()
		res, err := client.Do(req)
		if err != nil {
			t.Errorf("%s %s after the attack: %v", c.method, c.path, err)
			continue
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if d := time.Since(start); d > 15*time.Second {
			t.Errorf("%s %s after the attack took %v, past the time limit", c.method, c.path, d)
		}
		if res.StatusCode != http.StatusOK && (storeSound || c.path == "/") {
			t.Errorf("%s %s after the attack: %d, want 200", c.method, c.path, res.StatusCode)
		}
	}
	if after := rss(t); rssBefore > 0 && after > rssBefore+128<<20 {
		t.Errorf("server RSS grew from %d MiB to %d MiB", rssBefore>>20, after>>20)
	}
}

// rss reads this process's resident memory from /proc/self/status.
func rss(t *testing.T) uint64 {
	t.Helper()
	debug.FreeOSMemory() // what the collector holds but no longer uses is not the attack's
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status:", err)
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmRSS in /proc/self/status")
	return 0
}

func TestProcessFailure(t *testing.T) {
	lim := QueryLimits{Timeout: time.Second, Memory: 1 << 30}
	exit1 := exec.Command("sh", "-c", "exit 1").Run()
	tests := []struct {
		stderr string
		code   int
		want   string
	}{
		{"fatal error: runtime: out of memory\n\ngoroutine 1", 503, "memory limit"},
		{"==30423==ERROR: ThreadSanitizer failed to allocate 0x168000000 (6039797760) bytes at address 218008000000 (errno: 12)\n", 503, "memory limit"},
		{"panic: unsupported type: map[string]interface {}\n\ngoroutine 7", 500, "crashed its process: panic: unsupported type"},
		{"capgraph: store /x does not exist: build it first\n", 500, "query process failed: capgraph: store /x does not exist"},
		{"", 500, "query process failed: exit status 1"},
	}
	for _, tt := range tests {
		if code, msg := processFailure(exit1, tt.stderr, lim); code != tt.code || !strings.Contains(msg, tt.want) {
			t.Errorf("stderr %q: %d %q, want %d and %q", tt.stderr, code, msg, tt.code, tt.want)
		}
	}
}

// TestOutOfMemory: each way a query process reports an allocation that
// its memory limit refused, and messages that are not that.
func TestOutOfMemory(t *testing.T) {
	for _, tt := range []struct {
		stderr string
		want   bool
	}{
		{"fatal error: runtime: out of memory", true},
		{"runtime: cannot allocate memory", true},
		{"==123==ERROR: ThreadSanitizer failed to allocate 0x4000 (16384) bytes (errno: 12)", true},
		{"runtime/cgo: pthread_create failed: Resource temporarily unavailable", true},
		{"capgraph: store /x does not exist", false},
		{"panic: runtime error: index out of range [3] with length 3", false},
	} {
		if got := outOfMemory(tt.stderr); got != tt.want {
			t.Errorf("outOfMemory(%q) = %v", tt.stderr, got)
		}
	}
}
