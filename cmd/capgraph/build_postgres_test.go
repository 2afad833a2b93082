package main

import (
	"bytes"
	"database/sql"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/capgraph/capgraph/internal/pgtest"
	_ "github.com/lib/pq"
)

// exportedQuads returns the store's N-Quads, sorted, with load times
// blanked.
func exportedQuads(t *testing.T, bin, store string) []string {
	t.Helper()
	out, err := exec.Command(bin, "export", "--store", store, "-f", "nq").Output()
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	quads := slices.Collect(strings.Lines(loadTime.ReplaceAllString(string(out), `$1 ""`)))
	slices.Sort(quads)
	return quads
}

// TestBuildKilledPostgres kills a first build into an empty PostgreSQL
// store while it copies, which leaves the store empty, and reruns it: the
// store then holds, quad for quad, what a build nobody stopped writes.
func TestBuildKilledPostgres(t *testing.T) {
	bin := capgraphBinary(t)
	store := pgtest.Schema(t, "capgraph_cmd_killed")
	const n = 3000
	in := writeCaptions(t, n)
	if out, err := exec.Command(bin, "build", "--store", store, in).CombinedOutput(); err != nil {
		t.Fatalf("clean build: %v\n%s", err, out)
	}
	want := exportedQuads(t, bin, store)

	// The build's connections by name: other packages' tests may copy
	// into the same database meanwhile.
	store = pgtest.Schema(t, "capgraph_cmd_killed") + "&application_name=capgraph_killed"
	db, err := sql.Open("postgres", store)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cmd := exec.Command(bin, "build", "--store", store, in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the build copies, then kill. pg_stat_activity, since the
	// build holds the tables: a look at them would wait for its commit.
	copied := false
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline) && !copied; time.Sleep(2 * time.Millisecond) {
		if err := db.QueryRow(`SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = 'capgraph_killed' AND pid <> pg_backend_pid() AND query LIKE 'COPY%')`).Scan(&copied); err != nil {
			t.Fatal(err)
		}
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	err = cmd.Wait()
	t.Logf("killed: %v; %s", err, strings.TrimSpace(stderr.String()))
	if !copied {
		t.Fatal("the build was never seen copying")
	}
	var quads int
	if err := db.QueryRow(`SELECT count(*) FROM quads`).Scan(&quads); err != nil {
		t.Fatal(err)
	}
	if quads != 0 {
		t.Errorf("a killed first build left %d quads, want none", quads)
	}

	out, err := exec.Command(bin, "build", "--store", store, in).CombinedOutput()
	if err != nil {
		t.Fatalf("rerun: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), fmt.Sprintf("%d added", n)) {
		t.Errorf("rerun: %s", out)
	}
	if got := exportedQuads(t, bin, store); !slices.Equal(got, want) {
		onlyGot, onlyWant := diffLines(got, want)
		t.Errorf("after the rerun: %d quads, a clean build %d; only after the rerun %q, only in the clean build %q",
			len(got), len(want), onlyGot[:min(3, len(onlyGot))], onlyWant[:min(3, len(onlyWant))])
	}
}

// TestQueryOnPostgres runs saved queries with the real binary on a
// PostgreSQL store, where their SQL twins run, and on a bbolt store built
// from the same captions, where Gizmo does: the same output.
func TestQueryOnPostgres(t *testing.T) {
	bin := capgraphBinary(t)
	pg := pgtest.Schema(t, "capgraph_cmd_query")
	bolt := filepath.Join(t.TempDir(), "store")
	in := writeCaptions(t, 200)
	for _, store := range []string{pg, bolt} {
		if out, err := exec.Command(bin, "build", "-q", "--store", store, in).CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", store, err, out)
		}
	}
	for _, args := range [][]string{
		{"photographer-coverage"},
		{"agencies"},
		{"groups-in-place", "-p", "place=Syria"},
		{"photos-between", "-p", "from=2014-03-01", "-p", "to=2014-03-03", "-p", "place=Aleppo"},
		{"co-occurrence", "-p", "limit=3"},
		{"entity", "-p", "name=Free Syrian Army"},
	} {
		run := func(store string) string {
			cmd := exec.Command(bin, append(append([]string{"query", "run"}, args...), "--store", store, "-f", "csv")...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v on %s: %v\n%s", args, store, err, stderr.String())
			}
			return string(out)
		}
		got, want := run(pg), run(bolt)
		if got != want {
			t.Errorf("%v: PostgreSQL:\n%s\nbbolt:\n%s", args, got, want)
		}
		if strings.Count(want, "\n") < 2 {
			t.Errorf("%v: no rows:\n%s", args, want)
		}
	}
}

// TestTwoBuildersPostgres starts two builds at once into one empty
// PostgreSQL store, each with half of the captions, and compares the
// store with one a single build of them all made: the same quads, and the
// same nodes with the same reference counts (no node twice, none lost),
// load times aside.
func TestTwoBuildersPostgres(t *testing.T) {
	bin := capgraphBinary(t)
	dir := t.TempDir()
	all := genCaptions(t, bin, dir, "all.jsonl", 600, 5)
	lines := strings.SplitAfter(readFile(t, all), "\n")
	lines = lines[:len(lines)-1]
	halves := []string{
		writeFile(t, dir, "first.jsonl", strings.Join(lines[:len(lines)/2], "")),
		writeFile(t, dir, "second.jsonl", strings.Join(lines[len(lines)/2:], "")),
	}

	one := pgtest.Schema(t, "capgraph_cmd_one_builder")
	start := time.Now()
	if out, err := exec.Command(bin, "build", "-q", "--store", one, all).CombinedOutput(); err != nil {
		t.Fatalf("one builder: %v\n%s", err, out)
	}
	t.Logf("one builder: %v", time.Since(start).Round(time.Millisecond))

	two := pgtest.Schema(t, "capgraph_cmd_two_builders")
	start = time.Now()
	cmds := make([]*exec.Cmd, 2)
	outs := make([]*bytes.Buffer, 2)
	for i, in := range halves {
		outs[i] = new(bytes.Buffer)
		cmds[i] = exec.Command(bin, "build", "-q", "--store", two, in)
		cmds[i].Stdout, cmds[i].Stderr = outs[i], outs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("builder of %s: %v\n%s", filepath.Base(halves[i]), err, outs[i])
		}
	}
	t.Logf("two builders at once: %v", time.Since(start).Round(time.Millisecond))

	if got, want := exportedQuads(t, bin, two), exportedQuads(t, bin, one); !slices.Equal(got, want) {
		onlyGot, onlyWant := diffLines(got, want)
		t.Errorf("two builders: %d quads, one builder %d; only with two %q, only with one %q",
			len(got), len(want), onlyGot[:min(3, len(onlyGot))], onlyWant[:min(3, len(onlyWant))])
	}
	nodes := func(addr string) []string {
		db, err := sql.Open("postgres", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		// Load times (prov:generatedAtTime, xsd:dateTime) differ from build
		// to build, as exportedQuads blanks them.
		rows, err := db.Query(`SELECT encode(hash, 'hex') || ' ' || refs FROM nodes
			WHERE datatype IS DISTINCT FROM 'http://www.w3.org/2001/XMLSchema#dateTime' ORDER BY hash`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		return out
	}
	if got, want := nodes(two), nodes(one); !slices.Equal(got, want) {
		onlyGot, onlyWant := diffLines(got, want)
		t.Errorf("two builders: %d nodes, one builder %d; only with two %q, only with one %q",
			len(got), len(want), onlyGot[:min(3, len(onlyGot))], onlyWant[:min(3, len(onlyWant))])
	}
}
