package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/graph/model"
)

// writeCaptions writes n generated captions as JSON Lines.
func writeCaptions(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	places := []string{"Aleppo", "Damascus", "Homs", "Idlib", "Douma", "Raqqa"}
	for i := range n {
		fmt.Fprintf(&b, `{"id":"gen-%06d","text":"A fighter of the Free Syrian Army walks in %s, Syria, March %d, 2014. Picture %d. REUTERS/Jane Doe"}`+"\n",
			i, places[i%len(places)], 1+i%28, i)
	}
	p := filepath.Join(t.TempDir(), "captions.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBuildExportStats(t *testing.T) {
	in := writeCaptions(t, 40)
	store := filepath.Join(t.TempDir(), "g.db")
	var stdout, stderr bytes.Buffer
	for i, want := range []string{"40 added", "40 unchanged"} {
		stderr.Reset()
		if code := run(t.Context(), []string{"build", "--store", store, in}, nil, &stdout, &stderr); code != exitOK {
			t.Fatalf("build %d: exit %d: %s", i, code, stderr.String())
		}
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("build %d: %s", i, stderr.String())
		}
	}
	for _, f := range []string{"nq", "nt", "ttl", "jsonld", "csv"} {
		stdout.Reset()
		if code := run(t.Context(), []string{"export", "--store", store, "-f", f}, nil, &stdout, &stderr); code != exitOK || stdout.Len() == 0 {
			t.Errorf("export %s: exit %d: %s", f, code, stderr.String())
		}
	}
	stdout.Reset()
	if code := run(t.Context(), []string{"stats", "--store", store}, nil, &stdout, &stderr); code != exitOK || !strings.Contains(stdout.String(), "captions") {
		t.Errorf("stats: %d %s %s", code, stdout.String(), stderr.String())
	}
	stderr.Reset()
	if code := run(t.Context(), []string{"export", "--store", store, "-f", "rdfxml"}, nil, &stdout, &stderr); code != exitUsage {
		t.Errorf("bad format: exit %d: %s", code, stderr.String())
	}
}

// TestBuildLogsProgress: without a terminal, build reports its progress
// in the log, so that batch jobs can follow a long build.
func TestBuildLogsProgress(t *testing.T) {
	old := progressEvery
	progressEvery = 0
	t.Cleanup(func() { progressEvery = old })
	in := writeCaptions(t, 40)
	var stdout, stderr bytes.Buffer
	args := []string{"build", "--log-level", "info", "--batch-size", "500", "--store", filepath.Join(t.TempDir(), "g.db"), in}
	if code := run(t.Context(), args, nil, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if n := strings.Count(stderr.String(), "msg=building captions="); n < 2 {
		t.Errorf("%d progress lines in %s", n, stderr.String())
	}
}

// capgraphBinary builds the capgraph binary for a test that runs it as a
// user would, in its own process; -short skips such tests.
func capgraphBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "capgraph")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestBuildKilled kills a real capgraph build mid-run with SIGINT and
// SIGKILL, then checks that the store opens, holds only whole captions,
// and that a rerun completes it.
func TestBuildKilled(t *testing.T) {
	bin := capgraphBinary(t)
	const n = 3000
	in := writeCaptions(t, n)
	// The first build of an empty store is a bulk load, written to a file
	// beside the store's; a build that adds to a store goes through Cayley
	// in batches. Kill both half way.
	first := filepath.Join(t.TempDir(), "first.jsonl")
	if err := os.WriteFile(first, []byte(strings.SplitAfter(readFile(t, in), "\n")[0]), 0o644); err != nil {
		t.Fatal(err)
	}
	// What every store must answer once the rerun has completed it: the
	// agencies' and people's photo counts of a build that nobody stopped.
	clean := filepath.Join(t.TempDir(), "clean.db")
	if out, err := exec.Command(bin, "build", "--store", clean, in).CombinedOutput(); err != nil {
		t.Fatalf("clean build: %v\n%s", err, out)
	}
	counts := func(t *testing.T, store string) string {
		t.Helper()
		var all []byte
		for _, q := range []string{"agencies", "people"} {
			out, err := exec.Command(bin, "query", "run", q, "--store", store, "-f", "csv").CombinedOutput()
			if err != nil {
				t.Fatalf("query %s: %v\n%s", q, err, out)
			}
			all = append(all, out...)
		}
		return string(all)
	}
	want := counts(t, clean)
	for _, tc := range []struct {
		sig     syscall.Signal
		args    []string
		growing string // the file that grows while the build runs
	}{
		{syscall.SIGINT, nil, "indexes.bolt.bulk"},
		{syscall.SIGKILL, nil, "indexes.bolt.bulk"},
		{syscall.SIGINT, nil, "indexes.bolt"},
		{syscall.SIGKILL, nil, "indexes.bolt"},
		{syscall.SIGKILL, []string{"--no-sync"}, "indexes.bolt"}, // the page cache outlives the process
	} {
		sig := tc.sig
		t.Run(strings.Join(append([]string{sig.String(), tc.growing}, tc.args...), " "), func(t *testing.T) {
			store := filepath.Join(t.TempDir(), "g.db")
			bulk := tc.growing != "indexes.bolt"
			if !bulk {
				if out, err := exec.Command(bin, "build", "--store", store, first).CombinedOutput(); err != nil {
					t.Fatalf("first caption: %v\n%s", err, out)
				}
			}
			cmd := exec.Command(bin, append(append([]string{"build", "--store", store, "--batch-size", "2000"}, tc.args...), in)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait until the build has written a good part, then kill.
			deadline := time.Now().Add(30 * time.Second)
			for time.Now().Before(deadline) {
				if fi, err := os.Stat(filepath.Join(store, tc.growing)); err == nil && fi.Size() > 2<<20 {
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
			_ = cmd.Process.Signal(sig)
			err := cmd.Wait()
			t.Logf("killed: %v; %s", err, strings.TrimSpace(stderr.String()))

			// A second process meanwhile would see the lock; now it is free.
			s, err := graph.Open(context.Background(), store, graph.Options{})
			if err != nil {
				t.Fatalf("reopen after %v: %v", sig, err)
			}
			partial := wholeCaptions(t, s)
			s.Close()
			t.Logf("%d of %d captions stored when killed", partial, n)
			if bulk && partial != 0 {
				t.Errorf("a killed bulk load left %d captions, want none", partial)
			}
			if !bulk && partial < 1 {
				t.Errorf("a killed build lost the caption stored before it")
			}

			out, err := exec.Command(bin, "build", "--store", store, in).CombinedOutput()
			if err != nil {
				t.Fatalf("rerun: %v\n%s", err, out)
			}
			if !strings.Contains(string(out), fmt.Sprintf("%d unchanged", partial)) {
				t.Errorf("rerun: %s", out)
			}
			s, err = graph.Open(context.Background(), store, graph.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := wholeCaptions(t, s); got != n {
				t.Errorf("after rerun: %d captions, want %d", got, n)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if entries, _ := os.ReadDir(store); len(entries) != 1 {
				t.Errorf("store directory after the rerun: %v", entries)
			}
			// The tallies too: check recounts them, and the count queries
			// that read them answer as after a build nobody stopped.
			if out, err := exec.Command(bin, "check", "--store", store).CombinedOutput(); err != nil {
				t.Errorf("check after the rerun: %v\n%s", err, out)
			}
			if got := counts(t, store); got != want {
				t.Errorf("after the rerun, agencies and people count\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wholeCaptions checks that every caption graph holds its content-hash
// marker and its photo's caption, with one of each, and counts graphs.
func wholeCaptions(t *testing.T, s *graph.Store) int {
	t.Helper()
	var buf bytes.Buffer
	if _, err := s.Export(context.Background(), &buf, graph.NQuads); err != nil {
		t.Fatal(err)
	}
	hash, caption := map[string]int{}, map[string]int{}
	sizes := map[string]int{}
	for l := range strings.Lines(buf.String()) {
		l := strings.TrimSuffix(l, " .\n")
		g := l[strings.LastIndex(l, " ")+1:]
		sizes[g]++
		switch {
		case strings.Contains(l, "ns#contentHash>"):
			hash[g]++
		case strings.Contains(l, "schema.org/caption>"):
			caption[g]++
		}
	}
	// The shared entities graph holds descriptions, no caption: it must
	// not be empty when captions are stored, and is not counted.
	entities := "<" + model.EntitiesGraph + ">"
	if len(sizes) > 0 && sizes[entities] == 0 {
		t.Errorf("captions stored without the entities graph")
	}
	delete(sizes, entities)
	delete(sizes, "<"+model.ContainmentGraph+">") // derived by the export
	for g, k := range sizes {
		if hash[g] != 1 || caption[g] != 1 || k < 20 {
			t.Errorf("graph %s is not whole: %d quads, %d markers, %d captions", g, k, hash[g], caption[g])
		}
	}
	return len(sizes)
}

func TestBuildStoreInUse(t *testing.T) {
	store := filepath.Join(t.TempDir(), "g.db")
	s, err := graph.Open(t.Context(), store, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var stdout, stderr bytes.Buffer
	start := time.Now()
	code := run(t.Context(), []string{"stats", "--store", store}, nil, &stdout, &stderr)
	if code != exitError || !strings.Contains(stderr.String(), "capgraph: graph: open "+store+": store in use by another process") {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
}

func TestBudgetMemory(t *testing.T) {
	limit, gc := debug.SetMemoryLimit(-1), debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetMemoryLimit(limit); debug.SetGCPercent(gc) })

	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("GOGC", "")
	budgetMemory(1 << 30)
	if got := debug.SetMemoryLimit(-1); got != 1<<30 {
		t.Errorf("memory limit %d, want %d", got, 1<<30)
	}
	if got := debug.SetGCPercent(100); got != gcPercentUnderLimit {
		t.Errorf("GOGC %d, want %d under a limit", got, gcPercentUnderLimit)
	}

	debug.SetMemoryLimit(math.MaxInt64)
	t.Setenv("GOMEMLIMIT", "2GiB")
	t.Setenv("GOGC", "150")
	budgetMemory(1 << 30)
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("GOMEMLIMIT set, but the limit became %d", got)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC set, but the collector's percent became %d", got)
	}

	budgetMemory(0)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("no limit, but the collector's percent became %d", got)
	}
}

// TestBuildFailures: a build whose input cannot be read at all creates no
// store and claims nothing built; one that fails part-way says what it
// kept; an id given by two input files is a repeated id.
func TestBuildFailures(t *testing.T) {
	dir := t.TempDir()
	good := writeCaptions(t, 30)
	binary := filepath.Join(dir, "photo.jsonl")
	if err := os.WriteFile(binary, bytes.Repeat([]byte{0xff, 0x00, 0x89}, 400), 0o644); err != nil {
		t.Fatal(err)
	}
	lines, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	// The first 20 captions, a broken record, the rest.
	cut := bytes.Index(lines, []byte(`{"id":"gen-000020"`))
	broken := filepath.Join(dir, "broken.jsonl")
	if err := os.WriteFile(broken, slices.Concat(lines[:cut], []byte("{\"id\": 5, \"text\": \n"), lines[cut:]), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		inputs []string
		before []string // a build into the same store first
		code   int
		stderr string
		store  bool // whether the store exists after
	}{
		{"missing file", []string{filepath.Join(dir, "nope.jsonl")}, nil, exitError, "no such file or directory", false},
		{"a directory", []string{dir}, nil, exitError, "is a directory", false},
		{"binary input", []string{binary}, nil, exitError, "not text", false},
		{"broken first build", []string{broken}, nil, exitError, "build stopped by an error: kept 20 added", true},
		{"broken later build", []string{broken}, []string{writeCaptions(t, 5)}, exitError, "build stopped by an error: kept 15 added", true},
		{"an id in two files", []string{good, good}, nil, exitError, `repeated id: "gen-000000" is the id of ` + good + ` line 1 too`, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			store := filepath.Join(t.TempDir(), "g.db")
			var stdout, stderr bytes.Buffer
			if tt.before != nil {
				if code := run(t.Context(), append([]string{"build", "--store", store}, tt.before...), nil, &stdout, &stderr); code != exitOK {
					t.Fatalf("first build: exit %d: %s", code, stderr.String())
				}
				stderr.Reset()
			}
			code := run(t.Context(), append([]string{"build", "--store", store}, tt.inputs...), nil, &stdout, &stderr)
			if code != tt.code || !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("exit %d, want %d; stderr lacks %q:\n%s", code, tt.code, tt.stderr, stderr.String())
			}
			if strings.Contains(stderr.String(), "built ") {
				t.Errorf("a failed build says it built:\n%s", stderr.String())
			}
			if _, err := os.Stat(store); (err == nil) != tt.store {
				t.Errorf("store exists: %v, want %v", err == nil, tt.store)
			}
		})
	}
}

// TestQueryInterrupted sends a real SIGINT to real query processes while
// their Gizmo reads the store, at six moments: each ends with
// "interrupted" and exit 130 in a few seconds. Closing the store used to wait on a read transaction
// that Cayley's goroutine was ending, and that ending waited on the close.
func TestQueryInterrupted(t *testing.T) {
	bin := capgraphBinary(t)
	// The hang needed a query that reads for a while: co-occurrence on
	// 2 x 10^4 generated captions hung two runs in four.
	dir := t.TempDir()
	corpus, store := filepath.Join(dir, "c.jsonl"), filepath.Join(dir, "g.db")
	if out, err := exec.Command("sh", "-c", bin+" gen --captions 20000 --seed 1 > "+corpus).CombinedOutput(); err != nil {
		t.Fatalf("gen: %v\n%s", err, out)
	}
	if out, err := exec.Command(bin, "build", "--quiet", "--store", store, corpus).CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	for i := range 6 {
		args := []string{"query", "run", "co-occurrence", "--store", store, "-f", "csv"}
		if i%2 == 1 {
			args = []string{"query", "exec", "--timeout", "0", "--store", store}
		}
		cmd := exec.Command(bin, args...)
		cmd.Stdin = strings.NewReader(`for (;;) { g.V().Out().In().Limit(500).ToArray() }`)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(800+200*i) * time.Millisecond) // opened, and reading
		cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Fatalf("%v: still running 15 s after SIGINT", args)
		}
		// co-occurrence may have finished first; the endless exec may not.
		code := cmd.ProcessState.ExitCode()
		if finished := code == exitOK && args[1] == "run"; !finished && (code != exitInterrupted || !strings.Contains(stderr.String(), "interrupted")) {
			t.Errorf("%v: exit %d (%s), want %d", args, code, stderr.String(), exitInterrupted)
		}
	}
}
