package main

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/capgraph/capgraph/queries"
)

// TestSameGraphWhateverHappens is the differential test of what a store
// holds: the same captions built at once, in two halves, in reverse order,
// killed with SIGKILL at random points and rerun, on a disk that fills and
// then frees, and by two builders at once on halves. Every store must pass
// check, export the same N-Quads (sorted; the load time aside) and answer
// every saved query with the same rows as the store built at once.
//
// It runs the real binary. CAPGRAPH_TEST_FAULTS=captions:kills sets the
// size (2000 captions and 20 kill points unless set) and
// CAPGRAPH_TEST_SEED the random kill points, which the log records.
func TestSameGraphWhateverHappens(t *testing.T) {
	bin := capgraphBinary(t)
	n, kills := 2000, 20
	if v := os.Getenv("CAPGRAPH_TEST_FAULTS"); v != "" {
		a, b, _ := strings.Cut(v, ":")
		var err1, err2 error
		n, err1 = strconv.Atoi(a)
		kills, err2 = strconv.Atoi(b)
		if err1 != nil || err2 != nil {
			t.Fatalf("CAPGRAPH_TEST_FAULTS=%q: want captions:kills", v)
		}
	}
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv("CAPGRAPH_TEST_SEED"); v != "" {
		seed, _ = strconv.ParseUint(v, 10, 64)
	}
	t.Logf("%d captions, %d kill points, CAPGRAPH_TEST_SEED=%d", n, kills, seed)
	rng := rand.New(rand.NewPCG(seed, 0))

	dir := t.TempDir()
	// captions, and others under the same ids: a build of the others
	// replaces every caption, the hardest work a build does.
	captions := genCaptions(t, bin, dir, "captions.jsonl", n, 7)
	others := genCaptions(t, bin, dir, "others.jsonl", n, 8)
	lines := strings.SplitAfter(readFile(t, captions), "\n")
	lines = lines[:len(lines)-1]
	half := len(lines) / 2
	firstHalf := writeFile(t, dir, "first.jsonl", strings.Join(lines[:half], ""))
	secondHalf := writeFile(t, dir, "second.jsonl", strings.Join(lines[half:], ""))
	reversed := slices.Clone(lines)
	slices.Reverse(reversed)
	backwards := writeFile(t, dir, "reversed.jsonl", strings.Join(reversed, ""))
	start := writeFile(t, dir, "start.jsonl", strings.Join(lines[:min(300, half)], ""))

	atOnce := filepath.Join(dir, "at-once.db")
	mustBuild(t, bin, atOnce, captions)
	want := fingerprintStore(t, bin, atOnce)

	same := func(t *testing.T, store string) {
		t.Helper()
		got := fingerprintStore(t, bin, store)
		if !slices.Equal(got.quads, want.quads) {
			extra, missing := diffLines(got.quads, want.quads)
			t.Errorf("%d quads, at once %d; only here %q; only at once %q",
				len(got.quads), len(want.quads), extra[:min(5, len(extra))], missing[:min(5, len(missing))])
		}
		for _, q := range slices.Sorted(maps.Keys(want.rows)) {
			if got.rows[q] != want.rows[q] {
				t.Errorf("query %s answers\n%.600s\nat once\n%.600s", q, got.rows[q], want.rows[q])
			}
		}
	}

	t.Run("two halves", func(t *testing.T) {
		store := filepath.Join(t.TempDir(), "g.db")
		mustBuild(t, bin, store, firstHalf)
		mustBuild(t, bin, store, secondHalf)
		same(t, store)
	})
	t.Run("reversed", func(t *testing.T) {
		store := filepath.Join(t.TempDir(), "g.db")
		mustBuild(t, bin, store, backwards)
		same(t, store)
	})
	t.Run("killed", func(t *testing.T) {
		// The first kill stops the first build, a bulk load; the others
		// stop builds that add and replace captions in batches, turn about
		// between the two sets, each at a random moment of its first 3 s.
		store := filepath.Join(t.TempDir(), "g.db")
		killed := 0
		if killBuild(t, bin, store, time.Duration(rng.Int64N(int64(time.Second))), captions) {
			killed++
		}
		mustBuild(t, bin, store, start)
		inputs := []string{others, captions}
		for round := 0; killed < kills && round < 4*kills; round++ {
			at := 100*time.Millisecond + time.Duration(rng.Int64N(int64(3*time.Second)))
			if killBuild(t, bin, store, at, inputs[round%2], "--batch-size", strconv.Itoa(200+rng.IntN(4000))) {
				killed++
			}
		}
		t.Logf("%d builds killed while they ran", killed)
		if killed < kills {
			t.Errorf("only %d builds of %d were still running when killed", killed, kills)
		}
		mustBuild(t, bin, store, captions)
		same(t, store)
	})
	t.Run("disk full", func(t *testing.T) {
		mnt := t.TempDir()
		if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, fmt.Sprintf("size=%dm", 256+n/16)); err != nil {
			t.Skipf("no file system of its own to fill (mounting a tmpfs needs root): %v", err)
		}
		t.Cleanup(func() { _ = syscall.Unmount(mnt, syscall.MNT_DETACH) })
		store := filepath.Join(mnt, "g.db")
		filler := filepath.Join(mnt, "filler")
		// A first build on a full disk, then a build that replaces and
		// adds on one that fills part way through; each fails and says
		// so, and the store keeps whole captions: check finds at most
		// the tallies that the next build counts anew.
		fill(t, filler, 4<<20)
		mustFail(t, bin, store, captions, "no space left on device")
		checkStopped(t, bin, store)
		free(t, filler)
		mustBuild(t, bin, store, start)
		fill(t, filler, 12<<20)
		mustFail(t, bin, store, others, "no space left on device")
		checkStopped(t, bin, store)
		mustFail(t, bin, store, captions, "no space left on device")
		checkStopped(t, bin, store)
		free(t, filler)
		mustBuild(t, bin, store, captions)
		same(t, store)
	})
	t.Run("two builders", func(t *testing.T) {
		// A build takes the store alone, from the moment it creates it: the
		// other says the store is in use and stores nothing, and its rerun
		// completes the store.
		for i := range 3 {
			store := filepath.Join(t.TempDir(), "g.db")
			halves := []string{firstHalf, secondHalf}
			if i%2 == 1 {
				halves[0], halves[1] = halves[1], halves[0]
			}
			cmds := make([]*exec.Cmd, 2)
			outs := make([]*bytes.Buffer, 2)
			for j, in := range halves {
				outs[j] = new(bytes.Buffer)
				cmds[j] = exec.Command(bin, "build", "--store", store, in)
				cmds[j].Stdout, cmds[j].Stderr = outs[j], outs[j]
			}
			for j, c := range cmds {
				if j == 1 && i == 2 {
					time.Sleep(300 * time.Millisecond) // the second while the first writes
				}
				if err := c.Start(); err != nil {
					t.Fatal(err)
				}
			}
			var refused []string
			for j, c := range cmds {
				err := c.Wait()
				switch {
				case err == nil:
				case strings.Contains(outs[j].String(), "store in use"):
					t.Logf("run %d: the builder of %s was refused: %s", i, filepath.Base(halves[j]), strings.TrimSpace(outs[j].String()))
					refused = append(refused, halves[j])
				default:
					t.Fatalf("run %d: the builder of %s: %v\n%s", i, filepath.Base(halves[j]), err, outs[j])
				}
			}
			for _, in := range refused {
				mustBuild(t, bin, store, in)
			}
			same(t, store)
		}
	})
}

// genCaptions writes n captions that capgraph gen makes from seed.
func genCaptions(t *testing.T, bin, dir, name string, n int, seed int) string {
	t.Helper()
	out, err := exec.Command(bin, "gen", "--captions", strconv.Itoa(n), "--seed", strconv.Itoa(seed)).Output()
	if err != nil {
		t.Fatalf("gen: %v", err)
	}
	return writeFile(t, dir, name, string(out))
}

func mustBuild(t *testing.T, bin, store string, args ...string) {
	t.Helper()
	if out, err := exec.Command(bin, append([]string{"build", "--store", store}, args...)...).CombinedOutput(); err != nil {
		t.Fatalf("build %s: %v\n%s", filepath.Base(args[len(args)-1]), err, out)
	}
}

// mustFail runs a build that must fail with an error that says why.
func mustFail(t *testing.T, bin, store, in, why string) {
	t.Helper()
	out, err := exec.Command(bin, "build", "--store", store, in).CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitError || !strings.Contains(string(out), why) {
		t.Fatalf("build %s: %v, want exit %d saying %q:\n%s", filepath.Base(in), err, exitError, why, out)
	}
	t.Logf("build %s: %s", filepath.Base(in), strings.TrimSpace(string(out)))
}

// killBuild starts a build and kills it with SIGKILL after d. It reports
// whether the build was still running then.
func killBuild(t *testing.T, bin, store string, d time.Duration, in string, flags ...string) bool {
	t.Helper()
	cmd := exec.Command(bin, append(append([]string{"build", "--store", store}, flags...), in)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("build %s: %v\n%s", filepath.Base(in), err, out.String())
		}
		return false
	case <-time.After(d):
	}
	_ = cmd.Process.Kill()
	err := <-done
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signaled() {
		return true
	}
	if err != nil {
		t.Fatalf("build %s: %v\n%s", filepath.Base(in), err, out.String())
	}
	return false // it ended as the kill came
}

// checkSound runs check, which must find the store sound.
func checkSound(t *testing.T, bin, store string) {
	t.Helper()
	if out, err := exec.Command(bin, "check", "--store", store).CombinedOutput(); err != nil {
		t.Errorf("check: %v\n%s", err, out)
	}
}

// checkStopped runs check on a store whose build stopped part-way: it may
// find the tallies incomplete, and nothing else.
func checkStopped(t *testing.T, bin, store string) {
	t.Helper()
	out, err := exec.Command(bin, "check", "--store", store).CombinedOutput()
	if err == nil {
		return
	}
	problems := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(problems) != 3 || !strings.Contains(problems[1], "the tallies are incomplete") {
		t.Errorf("check after a stopped build: %v\n%s", err, out)
	}
}

// fill writes a file that leaves about free bytes free on its file system.
func fill(t *testing.T, path string, free int64) {
	t.Helper()
	var st syscall.Statfs_t
	if err := syscall.Statfs(filepath.Dir(path), &st); err != nil {
		t.Fatal(err)
	}
	size := int64(st.Bavail)*st.Bsize - free
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Fallocate(int(f.Fd()), 0, 0, size); err != nil {
		t.Fatalf("fill %d bytes: %v", size, err)
	}
}

func free(t *testing.T, path string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
}

// A fingerprint is what a store says: its N-Quads, sorted, and every
// saved query's rows.
type fingerprint struct {
	quads []string
	rows  map[string]string // by query
}

// loadTime is the time a caption was loaded at, which differs between
// stores that hold the same captions.
var loadTime = regexp.MustCompile(`(<http://www.w3.org/ns/prov#generatedAtTime>) "[^"]*"`)

// queryValues are the parameter values the saved queries are run with:
// names the generated captions hold, and every row.
var queryValues = map[string]string{
	"name": "Hezbollah", "group": "Hezbollah", "place": "Aleppo", "photographer": "",
	"from": "2014-01-01", "to": "2023-12-31", "limit": "0",
	"subject": "Aleppo", "relation": "located_in", "object": "Syria",
}

func fingerprintStore(t *testing.T, bin, store string) fingerprint {
	t.Helper()
	checkSound(t, bin, store)
	out, err := exec.Command(bin, "export", "--store", store, "-f", "nq").Output()
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	fp := fingerprint{rows: map[string]string{}}
	for l := range strings.Lines(loadTime.ReplaceAllString(string(out), `$1 ""`)) {
		fp.quads = append(fp.quads, l)
	}
	slices.Sort(fp.quads)
	for _, q := range queries.Builtin() {
		args := []string{"query", "run", q.Name, "--store", store, "-f", "csv"}
		for _, p := range q.Params {
			v, ok := queryValues[p.Name]
			if !ok {
				t.Fatalf("query %s: no value for its parameter %s", q.Name, p.Name)
			}
			args = append(args, "-p", p.Name+"="+v)
		}
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("query %s: %v\n%s", q.Name, err, out)
		}
		// Rows as a set: rows of equal rank may come in any order.
		rows := strings.SplitAfter(string(out), "\n")
		slices.Sort(rows)
		fp.rows[q.Name] = strings.Join(rows, "")
	}
	return fp
}

// diffLines returns the lines of sorted a not in sorted b, and of b not in a.
func diffLines(a, b []string) (onlyA, onlyB []string) {
	for _, l := range a {
		if _, ok := slices.BinarySearch(b, l); !ok {
			onlyA = append(onlyA, l)
		}
	}
	for _, l := range b {
		if _, ok := slices.BinarySearch(a, l); !ok {
			onlyB = append(onlyB, l)
		}
	}
	return onlyA, onlyB
}
