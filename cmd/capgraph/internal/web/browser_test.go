package web

import (
	"context"
	"encoding/csv"
	"flag"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/capgraph/capgraph/queries"
)

var screenshots = flag.Bool("screenshots", os.Getenv("CAPGRAPH_SCREENSHOTS") != "", "write docs/screenshots/*.png from the browser test")

// chromium returns the browser binary for the end-to-end test, or "".
func chromium() string {
	if p := os.Getenv("CAPGRAPH_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// TestBrowser drives the page in headless Chromium: search an entity by a
// variant spelling, open it, see its graph and map, run a saved query and
// download its CSV.
func TestBrowser(t *testing.T) {
	bin := chromium()
	if bin == "" {
		t.Skip("chromium not installed (apt-get install chromium, or set CAPGRAPH_CHROMIUM)")
	}
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	srv := newFixtureServer(t, Options{Queries: append(SavedQueries(queries.Builtin(), nil), testQueries...)})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- ServeListener(sctx, ln, srv, nil, nil) }()
	t.Cleanup(func() {
		stop()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	base := "http://" + ln.Addr().String()

	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(bin),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(profileDir(t)),
		chromedp.WindowSize(1280, 900),
	)
	defer cancelAlloc()
	ctx, cancelCtx := chromedp.NewContext(actx)
	defer cancelCtx()
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	defer cancelTimeout()

	shot := func(name string) chromedp.Action {
		return chromedp.ActionFunc(func(ctx context.Context) error {
			if !*screenshots {
				return nil
			}
			var png []byte
			if err := chromedp.FullScreenshot(&png, 100).Do(ctx); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join("..", "..", "..", "..", "docs", "screenshots", name+".png"), png, 0o644)
		})
	}
	count := func(sel string, n *int) chromedp.Action {
		return chromedp.Evaluate(`document.querySelectorAll(`+jsString(sel)+`).length`, n)
	}

	// The overview: statistics, the map of all places, the timeline.
	var countries, dots, bars int
	err = chromedp.Run(ctx,
		chromedp.Navigate(base+"/#/"),
		chromedp.WaitVisible(`#world-map`),
		count(`#world-map path.country`, &countries),
		count(`#world-map circle.place`, &dots),
		count(`svg.timeline rect.bar`, &bars),
		shot("overview"),
	)
	if err != nil {
		t.Fatal("overview:", err)
	}
	if countries < 100 || dots < 10 || bars < 5 {
		t.Errorf("overview: %d countries, %d places, %d timeline bars", countries, dots, bars)
	}

	// Search by a transliteration variant, then open the hit.
	var hit string
	err = chromedp.Run(ctx,
		chromedp.SendKeys(`#q`, "Jawbar"),
		chromedp.Click(`#search-form button`),
		chromedp.WaitVisible(`#results a.hit`),
		chromedp.Text(`#results a.hit`, &hit),
		shot("search"),
		chromedp.Click(`#results a.hit`),
		chromedp.WaitVisible(`#entity-name`),
		chromedp.WaitVisible(`#graph`),
	)
	if err != nil {
		var text string
		dctx, c := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer c()
		chromedp.Run(dctx, chromedp.Evaluate(`location.href + " | " + document.getElementById("view").innerText.slice(0, 500)`, &text))
		t.Fatalf("search: %v; page: %s", err, text)
	}
	if hit != "Jobar" {
		t.Errorf("first hit for Jawbar is %q, want Jobar", hit)
	}
	// An entity with a wide neighbourhood: the Free Syrian Army.
	var name, marked string
	var nodes, edges, mapPlaces, mapCountries, marks int
	err = chromedp.Run(ctx,
		chromedp.Navigate(base+"/#/search?q=free%20syrian"),
		chromedp.WaitVisible(`#results a.hit`),
		chromedp.Click(`#results a.hit`),
		chromedp.WaitVisible(`#graph`),
		chromedp.WaitVisible(`#map`),
		chromedp.Text(`#entity-name`, &name),
		count(`#graph g.node circle`, &nodes),
		count(`#graph line`, &edges),
		count(`#map circle.place`, &mapPlaces),
		count(`#map path.country`, &mapCountries),
		count(`#captions mark`, &marks),
		chromedp.Text(`#captions mark`, &marked),
		shot("entity"),
	)
	if err != nil {
		t.Fatal("entity:", err)
	}
	if !strings.HasPrefix(name, "Free Syrian Army") || nodes < 3 || edges < 2 || mapPlaces < 1 || mapCountries < 100 || marks < 1 {
		t.Errorf("entity %q: %d graph nodes, %d edges, %d map places, %d countries, %d marks", name, nodes, edges, mapPlaces, mapCountries, marks)
	}
	if marked != "Free Syrian Army" {
		t.Errorf("highlighted mention %q, want Free Syrian Army", marked)
	}

	// The group's IRI under the server's address: a browser lands on its page.
	name = ""
	err = chromedp.Run(ctx,
		chromedp.Navigate(base+"/id/group/free-syrian-army"),
		chromedp.WaitVisible(`#entity-name`),
		chromedp.Text(`#entity-name`, &name),
	)
	if err != nil || !strings.HasPrefix(name, "Free Syrian Army") {
		t.Errorf("IRI in the browser: %v, entity %q", err, name)
	}

	// A saved query as a form, its result table and its CSV download.
	dl := t.TempDir()
	var rows int
	err = chromedp.Run(ctx,
		browser.SetDownloadBehavior(browser.SetDownloadBehaviorBehaviorAllow).WithDownloadPath(dl),
		chromedp.Navigate(base+"/#/query/captions-of?entity="+fsa),
		chromedp.WaitVisible(`form.query #run-query`),
		chromedp.Click(`#run-query`),
		chromedp.WaitVisible(`#query-table tbody tr`),
		count(`#query-table tbody tr`, &rows),
		shot("query"),
		chromedp.Click(`#query-csv`),
	)
	if err != nil {
		t.Fatal("query:", err)
	}
	if rows < 1 {
		t.Errorf("query: %d rows", rows)
	}
	csvPath := filepath.Join(dl, "captions-of.csv")
	var data []byte
	for range 100 {
		if data, err = os.ReadFile(csvPath); err == nil && len(data) > 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("download: %v", err)
	}
	recs, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
	if err != nil || len(recs) != rows+1 || recs[0][0] != "id" {
		t.Errorf("downloaded CSV: %v, %d records for %d rows: %q", err, len(recs), rows, data)
	}

	// A built-in saved query, run through its form.
	err = chromedp.Run(ctx,
		chromedp.Navigate(base+"/#/query/entity?name=Jobar"),
		chromedp.WaitVisible(`form.query #run-query`),
		chromedp.Click(`#run-query`),
		chromedp.WaitVisible(`#query-table tbody tr`),
		count(`#query-table tbody tr`, &rows),
		shot("saved-query"),
	)
	if err != nil {
		t.Fatal("saved query:", err)
	}
	if rows < 1 {
		t.Errorf("saved query entity name=Jobar: %d rows", rows)
	}
}

// profileDir returns a fresh Chromium profile directory, removed after the
// test. Chromium's helper processes can outlive the browser by a moment
// and keep writing there, so removal retries for a while and a directory
// that still won't go is logged, not failed: it is scratch, not a result.
func profileDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "capgraph-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for range 50 {
			if err = os.RemoveAll(dir); err == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("chromium profile %s not removed: %v", dir, err)
	})
	return dir
}

func jsString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
