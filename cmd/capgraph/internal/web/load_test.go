package web

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/capgraph/capgraph/queries"
)

func TestClassOf(t *testing.T) {
	srv := newFixtureServer(t, Options{})
	tests := []struct {
		method, target string
		want           *class
	}{
		{"GET", "/", nil},
		{"GET", "/api/stats", nil},
		{"GET", "/api/places", nil},
		{"GET", "/api/queries", nil},
		{"GET", "/api/queries/photos", nil},
		{"GET", "/api/search?q=x", srv.searches},
		{"GET", "/api/summary?iri=x", nil},
		{"GET", "/api/photos?place=x", nil},
		{"GET", "/api/export", srv.exports},
		{"GET", "/api/export?place=x", srv.exports},
		{"HEAD", "/api/export", nil},
		{"GET", "/api/entity?iri=x:y", srv.heavy},
		{"POST", "/api/queries/photos", srv.heavy},
		{"GET", "/api/queries/photos/run", srv.heavy},
		{"HEAD", "/api/queries/photos/run", nil},
		{"POST", "/cayley/api/v2/query", srv.cayley},
		{"GET", "/cayley/api/v2/query?qu=x", srv.cayley},
		{"GET", "/cayley/api/v2/formats", srv.heavy},
	}
	for _, tt := range tests {
		if got := srv.classOf(httptest.NewRequest(tt.method, tt.target, nil)); got != tt.want {
			t.Errorf("%s %s: class %p, want %p", tt.method, tt.target, got, tt.want)
		}
	}
}

// stallExport asks addr for an export, reads a little of it, and then
// reads nothing more until done is closed; it returns the status.
// answered, when not nil, has the status as soon as it arrives.
func stallExport(addr string, done <-chan struct{}, answered func(int)) (int, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	c.(*net.TCPConn).SetReadBuffer(4 << 10)
	fmt.Fprintf(c, "GET /api/export?format=nq HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
	res, err := http.ReadResponse(bufio.NewReaderSize(c, 64), nil)
	if err != nil {
		return 0, err
	}
	if answered != nil {
		answered(res.StatusCode)
	}
	io.CopyN(io.Discard, res.Body, 64)
	<-done
	return res.StatusCode, nil
}

// TestExportStall: exports whose clients stop reading hold the export
// slots only until ExportStall has passed without progress, and never the
// slots of the other routes.
func TestExportStall(t *testing.T) {
	srv, err := New(openSynthetic(t, false), Options{Queries: testQueries, MaxExports: 1, ExportStall: 3 * time.Second, Timeout: 2 * time.Second, Hosts: []string{"example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	addr := serveFixture(t, srv)
	before := rss(t)
	client := &http.Client{Timeout: 10 * time.Second}
	get := func(path string) (int, int64) {
		res, err := client.Get("http://" + addr + path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		defer res.Body.Close()
		n, _ := io.Copy(io.Discard, res.Body)
		return res.StatusCode, n
	}

	// The stalled client holds the only export slot: a second export waits
	// half the time limit and gets 503, while the other routes answer.
	done := make(chan struct{})
	stalled := make(chan int, 1)
	go func() {
		code, err := stallExport(addr, done, nil)
		if err != nil {
			t.Error(err)
		}
		stalled <- code
	}()
	time.Sleep(200 * time.Millisecond)
	if code, n := get("/api/export?format=nq"); code != http.StatusServiceUnavailable {
		t.Errorf("second export with the slot held: %d (%d bytes), want 503", code, n)
	}
	if code, _ := get("/api/entity?iri=https://capgraph.org/id/place/geonames/170063"); code != http.StatusOK && code != http.StatusNotFound {
		t.Errorf("entity while an export stalls: %d", code)
	}
	if code, _ := get("/"); code != http.StatusOK {
		t.Errorf("page while an export stalls: %d", code)
	}

	// After the stall time the server gives up on the client: the slot is
	// free, and a client that reads gets the whole export.
	deadline := time.Now().Add(10 * time.Second)
	for {
		code, n := get("/api/export?format=nq")
		if code == http.StatusOK {
			if n < 8<<20 {
				t.Errorf("export: %d bytes, want the whole graph", n)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("export slot still held 10 s after the client stalled")
		}
	}
	close(done)
	if code := <-stalled; code != http.StatusOK {
		t.Errorf("stalled export: %d, want 200", code)
	}
	stillServing(t, addr, before, true)
}

// TestStoreShrinks cuts the store file to a third under a serving server:
// the routes that read pages past the new end answer with errors, and the
// server goes on answering.
func TestStoreShrinks(t *testing.T) {
	s := openSynthetic(t, true)
	dir := s.Addr()
	srv, err := New(s, Options{Queries: append(SavedQueries(queries.Builtin(), nil), testQueries...)})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.BuildIndex(context.Background()); err != nil {
		t.Fatal(err)
	}
	addr := serveFixture(t, srv)
	before := rss(t)
	file := filepath.Join(dir, "indexes.bolt")
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(file, st.Size()/3); err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Timeout: 20 * time.Second}
	for _, path := range []string{
		"/api/search?q=Aleppo", "/api/search?q=a", "/api/entity?iri=https://capgraph.org/id/place/geonames/170063",
		"/api/queries/people/run", "/api/queries/agencies/run", "/api/export?format=nq", "/api/export?format=csv",
	} {
		res, err := client.Get("http://" + addr + path)
		if err != nil {
			t.Logf("%s: %v", path, err)
			continue
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		t.Logf("%s: %d %.200s %v", path, res.StatusCode, body, err)
		if res.StatusCode == http.StatusOK && err == nil {
			t.Errorf("%s: 200 in full from a store cut to a third", path)
		} else if res.StatusCode < 500 && err == nil {
			t.Errorf("%s: %d, want a 5xx for a damaged store", path, res.StatusCode)
		}
	}
	stillServing(t, addr, before, false)
}

// TestServeUnderLoad attacks the server on loopback as a crowd would: 70
// clients searching without pause, 20 that start exports and stop
// reading, and 300 that send part of a body and then nothing, while one
// client loads the page. Every page load must succeed, and no answer may
// be a 5xx other than the 503s of the classes that queue (search, export).
// It logs the page's latencies. CAPGRAPH_LOAD_ADDR sends the crowd to a
// running capgraph serve instead, as BENCHMARKS.md does:
//
//	CAPGRAPH_LOAD_ADDR=127.0.0.1:8080 CAPGRAPH_LOAD_SECONDS=30 go test -run ServeUnderLoad -v ./cmd/capgraph/internal/web
func TestServeUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	seconds, _ := strconv.Atoi(os.Getenv("CAPGRAPH_LOAD_SECONDS"))
	run := time.Duration(max(seconds, 6)) * time.Second
	addr := os.Getenv("CAPGRAPH_LOAD_ADDR")
	if addr == "" {
		srv, err := New(openSynthetic(t, false), Options{Queries: testQueries})
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.BuildIndex(context.Background()); err != nil {
			t.Fatal(err)
		}
		addr = serveFixture(t, srv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), run)
	defer cancel()
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 100}}
	defer client.CloseIdleConnections()

	var mu sync.Mutex
	codes := map[string]map[int]int{} // route -> status -> count
	count := func(route string, code int) {
		mu.Lock()
		defer mu.Unlock()
		if codes[route] == nil {
			codes[route] = map[int]int{}
		}
		codes[route][code]++
	}
	get := func(route, path string) {
		res, err := client.Get("http://" + addr + path)
		if err != nil {
			if ctx.Err() == nil {
				t.Errorf("%s: %v", path, err)
			}
			return
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		count(route, res.StatusCode)
	}

	var wg sync.WaitGroup
	names := []string{"Aleppo", "a", "al", "Free Syrian", "dam", "Idlib province", "Reuters", "zzzq", "jo", "Hama"}
	for i := range 70 {
		wg.Go(func() {
			for j := i; ctx.Err() == nil; j++ {
				get("search", "/api/search?q="+url.QueryEscape(names[j%len(names)]))
			}
		})
	}
	for range 20 {
		wg.Go(func() {
			for ctx.Err() == nil {
				stallExport(addr, ctx.Done(), func(code int) {
					if ctx.Err() == nil { // not what waited past the run's end
						count("stalled export", code)
					}
				})
			}
		})
	}
	var stalled atomic.Int64
	for range 300 {
		wg.Go(func() {
			for ctx.Err() == nil {
				c, err := net.Dial("tcp", addr)
				if err != nil {
					t.Error(err)
					return
				}
				context.AfterFunc(ctx, func() { c.Close() })
				fmt.Fprintf(c, "POST /api/queries/x HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{", addr)
				if res, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
					count("stalled body", res.StatusCode)
					stalled.Add(1)
				}
				c.Close()
			}
		})
	}
	var page []time.Duration
	time.Sleep(500 * time.Millisecond) // the crowd has arrived
	for ctx.Err() == nil {
		start := time.Now()
		get("page", "/")
		page = append(page, time.Since(start))
		time.Sleep(10 * time.Millisecond)
	}
	wg.Wait()

	for route, byCode := range codes {
		for code, n := range byCode {
			switch {
			case route == "page" && code != http.StatusOK:
				t.Errorf("page: %d answers %d, want 200 every time", n, code)
			case code == http.StatusServiceUnavailable && (route == "search" || route == "stalled export"):
			case route == "stalled body" && code == http.StatusRequestTimeout:
			case code >= 500 || route != "search" && code != http.StatusOK:
				t.Errorf("%s: %d answers %d", route, n, code)
			}
		}
	}
	if codes["page"][http.StatusOK] == 0 || codes["search"][http.StatusOK] == 0 {
		t.Errorf("page or search never answered 200: %v", codes)
	}
	slices.Sort(page)
	if len(page) > 0 {
		pct := func(p float64) time.Duration { return page[min(len(page)-1, int(p*float64(len(page))))] }
		t.Logf("page: %d loads, p50 %v, p99 %v, max %v", len(page), pct(0.5), pct(0.99), page[len(page)-1])
	}
	t.Logf("answers by route and status: %v", codes)
	if os.Getenv("CAPGRAPH_LOAD_ADDR") == "" {
		stillServing(t, addr, 0, true) // the crowd's own memory is in this process
	}
}
