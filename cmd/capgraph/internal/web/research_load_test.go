package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/capgraph/capgraph/cmd/capgraph/internal/web/internal/photoindex"
)

// TestResearchUnderLoad sends clients that each, without pause, search,
// open an entity's summary or list photos under a filter, and reports the
// latencies of each route. It fails on a 5xx other than the 503s of the
// caps, and on an answer slower than the server's time limit. Entities
// are drawn from the photos the server lists, so common and rare ones
// come in the proportions the store holds them.
//
// CAPGRAPH_LOAD_ADDR sends the clients to a running capgraph serve
// instead, CAPGRAPH_LOAD_CLIENTS sets their number (4), and
// CAPGRAPH_LOAD_PID names the server's process, whose memory and open
// files are then sampled: they must not grow over the run. BENCHMARKS.md
// has the commands.
func TestResearchUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	// Alone (the suite's run), a short one: it checks answers, not speed,
	// and must leave the CPUs to the packages tested beside it.
	seconds, _ := strconv.Atoi(os.Getenv("CAPGRAPH_LOAD_SECONDS"))
	run := time.Duration(max(seconds, 2)) * time.Second
	clients, _ := strconv.Atoi(os.Getenv("CAPGRAPH_LOAD_CLIENTS"))
	clients = cmpOr(clients, 4)
	addr := os.Getenv("CAPGRAPH_LOAD_ADDR")
	if addr == "" {
		srv, err := New(openSynthetic(t, false), Options{Queries: testQueries})
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.BuildIndex(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := srv.BuildPhotoIndex(context.Background()); err != nil {
			t.Fatal(err)
		}
		addr = serveFixture(t, srv)
	}
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	defer client.CloseIdleConnections()
	fetch := func(path string, v any) (int, error) {
		res, err := client.Get("http://" + addr + path)
		if err != nil {
			return 0, err
		}
		defer res.Body.Close()
		if v != nil && res.StatusCode == http.StatusOK {
			return res.StatusCode, json.NewDecoder(res.Body).Decode(v)
		}
		_, err = io.Copy(io.Discard, res.Body)
		return res.StatusCode, err
	}

	// The pool: every entity of 500 photos spread over the store.
	var first PhotoList
	for deadline := time.Now().Add(5 * time.Minute); ; time.Sleep(time.Second) {
		code, err := fetch("/api/photos?limit=1", &first)
		if err != nil {
			t.Fatal(err)
		}
		if code == http.StatusOK {
			break
		}
		if code != http.StatusServiceUnavailable || time.Now().After(deadline) {
			t.Fatalf("/api/photos: %d", code)
		}
	}
	var pool []photoindex.Entity
	for k := range 5 {
		var list PhotoList
		off := k * first.Total / 5
		if _, err := fetch(fmt.Sprintf("/api/photos?limit=100&offset=%d", off), &list); err != nil {
			t.Fatal(err)
		}
		for _, c := range list.Items {
			pool = append(pool, c.Entities...)
		}
	}
	byKind := map[string][]photoindex.Entity{}
	for _, e := range pool {
		byKind[e.Kind] = append(byKind[e.Kind], e)
	}
	if len(pool) == 0 || len(byKind["place"]) == 0 {
		t.Fatalf("no entities to ask for among %d photos", first.Total)
	}
	t.Logf("%d photos; %d entity draws", first.Total, len(pool))

	var mu sync.Mutex
	took := map[string][]time.Duration{}
	codes := map[string]map[int]int{}
	ctx, cancel := context.WithTimeout(context.Background(), run)
	defer cancel()
	sample := sampler(t, os.Getenv("CAPGRAPH_LOAD_PID"), ctx)
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(c), 7))
			for ctx.Err() == nil {
				e := pool[rng.IntN(len(pool))]
				var route, path string
				switch n := rng.IntN(10); {
				case n < 4:
					words := strings.Fields(e.Label)
					route, path = "search", "/api/search?q="+url.QueryEscape(words[rng.IntN(len(words))])
				case n < 8:
					route, path = "summary", "/api/summary?iri="+url.QueryEscape(e.IRI)
				default:
					places := byKind["place"]
					q := url.Values{"place": {places[rng.IntN(len(places))].IRI}}
					if groups := byKind["group"]; len(groups) > 0 && rng.IntN(2) == 0 {
						q.Set("group", groups[rng.IntN(len(groups))].IRI)
					}
					if y := 2011 + rng.IntN(10); rng.IntN(2) == 0 {
						q.Set("from", strconv.Itoa(y))
						q.Set("to", strconv.Itoa(y+1+rng.IntN(3)))
					}
					route, path = "filtered list", "/api/photos?"+q.Encode()
				}
				start := time.Now()
				code, err := fetch(path, nil)
				d := time.Since(start)
				if err != nil {
					if ctx.Err() == nil {
						t.Errorf("%s: %v", path, err)
					}
					continue
				}
				mu.Lock()
				took[route] = append(took[route], d)
				if codes[route] == nil {
					codes[route] = map[int]int{}
				}
				codes[route][code]++
				mu.Unlock()
				if code >= 500 && code != http.StatusServiceUnavailable || code == http.StatusGatewayTimeout {
					t.Errorf("%s: %d after %v", path, code, d)
				}
				if d > 15*time.Second {
					t.Errorf("%s: %v, past the server's time limit", path, d)
				}
			}
		})
	}
	wg.Wait()
	cancel()
	sample()
	for _, route := range slices.Sorted(func(yield func(string) bool) {
		for r := range took {
			if !yield(r) {
				return
			}
		}
	}) {
		ds := took[route]
		slices.Sort(ds)
		pct := func(p float64) time.Duration { return ds[min(len(ds)-1, int(p*float64(len(ds))))] }
		t.Logf("%s: %d requests (%v), p50 %v, p99 %v, max %v", route, len(ds), codes[route],
			pct(0.5).Round(100*time.Microsecond), pct(0.99).Round(100*time.Microsecond), ds[len(ds)-1].Round(100*time.Microsecond))
	}
}

func cmpOr(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}

// sampler samples the resident memory and open files of process pid
// every 10 s until ctx is done; the returned func waits for the last
// sample, logs them, and fails the test when the last minute's peak is
// well above the first minute's. pid "" samples nothing.
func sampler(t *testing.T, pid string, ctx context.Context) func() {
	if pid == "" {
		return func() {}
	}
	type point struct {
		at       time.Duration
		rssKB    int
		openFile int
	}
	var points []point
	done := make(chan struct{})
	start := time.Now()
	read := func() point {
		p := point{at: time.Since(start).Round(time.Second)}
		if b, err := os.ReadFile("/proc/" + pid + "/status"); err == nil {
			for line := range strings.Lines(string(b)) {
				if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
					p.rssKB, _ = strconv.Atoi(strings.Fields(v)[0])
				}
			}
		}
		if fds, err := os.ReadDir("/proc/" + pid + "/fd"); err == nil {
			p.openFile = len(fds)
		}
		return p
	}
	go func() {
		defer close(done)
		tick := time.NewTicker(10 * time.Second)
		defer tick.Stop()
		for {
			points = append(points, read())
			select {
			case <-ctx.Done():
				points = append(points, read())
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		<-done
		peak := func(from, to time.Duration) (rss, files int) {
			for _, p := range points {
				if p.at >= from && p.at <= to {
					rss, files = max(rss, p.rssKB), max(files, p.openFile)
				}
			}
			return
		}
		for _, p := range points {
			t.Logf("at %v: %d MB resident, %d open files", p.at, p.rssKB>>10, p.openFile)
		}
		end := points[len(points)-1].at
		if end < 2*time.Minute {
			return
		}
		rss0, files0 := peak(0, time.Minute)
		rss1, files1 := peak(end-time.Minute, end)
		if rss1 > rss0+rss0/4+64<<10 || files1 > files0+32 {
			t.Errorf("server grew: first minute %d MB and %d files at most, last minute %d MB and %d files", rss0>>10, files0, rss1>>10, files1)
		}
	}
}
