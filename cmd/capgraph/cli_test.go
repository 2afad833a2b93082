package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/graph"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// writeFile writes content to name in dir and returns its path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExtractCLI(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.jsonl", `{"id":"a","text":"A man walks in Aleppo, Syria, May 3, 2016. REUTERS/Jane Doe"}`+"\n")
	badJSON := writeFile(t, dir, "bad.jsonl", `{"id":"a","text":"One in Homs."}`+"\n"+`{"id":"b","text":`+"\n"+`{"id":"c","text":"Three in Hama."}`+"\n")
	badUTF8 := writeFile(t, dir, "utf8.txt", "fine caption\nbad \xff caption\n")
	nul := writeFile(t, dir, "nul.txt", "caption with \x00 byte\n")
	huge := writeFile(t, dir, "huge.txt", "ok\n"+strings.Repeat("a", 10<<20)+"\nok again\n")
	empty := writeFile(t, dir, "empty.txt", "")
	noText := writeFile(t, dir, "notext.csv", "id,caption\n1,hello\n")
	csvOK := writeFile(t, dir, "ok.csv", "key,body\nk1,\"A boy in Idlib, Syria.\"\n")
	unknownExt := writeFile(t, dir, "captions.log", "A man in Homs.\n")
	notGold := writeFile(t, dir, "plain.jsonl", `{"id":"a","text":"A man in Homs."}`+"\n")
	binary := writeFile(t, dir, "photo.jsonl", "\x89PNG\r\n\x1a\n\x00\x00")
	sameTwice := writeFile(t, dir, "twice.txt", "A man in Homs.\nA man in Homs.\n")

	tests := []cliCase{
		{"jsonl file", []string{"extract", good}, "", exitOK, `"type":"PLACE"`, "", 1},
		{"stdin text", []string{"extract"}, "A man in Homs.\n\nAnother in Hama.\n", exitOK, `"id":"` + extract.TextID("Another in Hama.") + `"`, "", 2},
		{"malformed json names file and line", []string{"extract", badJSON}, "", exitError, `"id":"a"`, "bad.jsonl:2: invalid JSON", 1},
		{"keep going skips and counts", []string{"extract", "-k", badJSON}, "", exitPartial, `"id":"c"`, "skipped 1 bad records", 2},
		{"invalid utf8", []string{"extract", badUTF8}, "", exitError, "", "utf8.txt:2: invalid UTF-8", 1},
		{"nul byte", []string{"extract", nul}, "", exitError, "", "nul.txt:1: NUL byte in text", 0},
		{"10 MB line", []string{"extract", "--keep-going", huge}, "", exitPartial, `"id":`, "huge.txt:2: caption longer than", 2},
		{"empty file", []string{"extract", empty}, "", exitOK, "", "", 0},
		{"csv without text column", []string{"extract", noText}, "", exitError, "", `notext.csv:1: field "text": no such column`, 0},
		{"csv columns by flag", []string{"extract", "--id-column", "key", "--text-column", "body", csvOK}, "", exitOK, `"id":"k1"`, "", 1},
		{"missing file", []string{"extract", filepath.Join(dir, "nope.txt")}, "", exitError, "", "no such file or directory", 0},
		{"unknown extension is said", []string{"extract", unknownExt}, "", exitOK, `"type":"PLACE"`, "captions.log: read as plain text", 1},
		{"the same line twice", []string{"extract", sameTwice}, "", exitError, "", "twice.txt:2: field \"id\": repeated id: the same caption as line 1", 1},
		{"bad input format", []string{"extract", "--input-format", "xml"}, "", exitUsage, "", `--input-format: "xml" is not one of`, 0},
		{"unknown flag", []string{"extract", "--nope"}, "", exitUsage, "", "unknown flag: --nope", 0},
		{"unknown command", []string{"frobnicate"}, "", exitUsage, "", `unknown command "frobnicate"`, 0},
		{"extra argument", []string{"stats", "extra"}, "", exitUsage, "", `unknown command "extra" for "capgraph stats"`, 0},
		{"unknown subcommand", []string{"query", "frobnicate"}, "", exitUsage, "", `unknown command "frobnicate" for "capgraph query"`, 0},
		{"missing argument", []string{"query", "run"}, "", exitUsage, "", "accepts 1 arg(s), received 0", 0},
		{"eval needs gold", []string{"eval"}, "", exitUsage, "", "--gold is required", 0},
		{"eval bad format", []string{"eval", "--gold", good, "-f", "xml"}, "", exitUsage, "", `--format: "xml"`, 0},
		{"eval without annotations", []string{"eval", "--gold", notGold}, "", exitError, "", "plain.jsonl: no caption has gold entities or relations", 0},
		{"eval of a binary file", []string{"eval", "--gold", binary}, "", exitError, "", "photo.jsonl:1: not text", 0},
		{"bad config value", []string{"extract", "--log-level", "loud"}, "", exitUsage, "", "log_level", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.check)
	}
}

func TestExtractKeepsInputOrder(t *testing.T) {
	var in strings.Builder
	var lines []string
	for i := range 300 {
		// Lengths vary, so that workers finish out of order.
		line := "A man number " + strconv.Itoa(i) + strings.Repeat(" x", i%7) + " walks in Aleppo, Syria."
		lines = append(lines, line)
		in.WriteString(line + "\n")
	}
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), []string{"extract", "-w", "4"}, strings.NewReader(in.String()), &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	dec := json.NewDecoder(&stdout)
	for i, want := range lines {
		var x struct{ ID, Text string }
		if err := dec.Decode(&x); err != nil {
			t.Fatal(err)
		}
		if x.Text != want || x.ID != extract.TextID(want) {
			t.Fatalf("caption %d is %q (id %q), want %q", i+1, x.Text, x.ID, want)
		}
	}
}

// A cliCase is one run of the command line and what it must print.
type cliCase struct {
	name   string
	args   []string
	stdin  string
	code   int
	stdout string // wanted substring
	stderr string // wanted substring
	lines  int    // wanted stdout lines, -1 to skip
}

func (tt cliCase) check(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
	if code != tt.code {
		t.Errorf("exit code %d, want %d; stderr:\n%s", code, tt.code, stderr.String())
	}
	if !strings.Contains(stdout.String(), tt.stdout) {
		t.Errorf("stdout lacks %q:\n%.800s", tt.stdout, stdout.String())
	}
	if !strings.Contains(stderr.String(), tt.stderr) {
		t.Errorf("stderr lacks %q:\n%s", tt.stderr, stderr.String())
	}
	if tt.lines >= 0 {
		if n := strings.Count(stdout.String(), "\n"); n != tt.lines {
			t.Errorf("stdout has %d lines, want %d", n, tt.lines)
		}
	}
}

func TestVersionAndEmptyRelations(t *testing.T) {
	for _, tt := range []cliCase{
		{name: "version", args: []string{"--version"}, stdout: "extractor capgraph-extract/", lines: 3},
		{name: "no relations is an empty list", args: []string{"extract"}, stdin: "Nothing to see here\n", stdout: `"relations":[]`, lines: 1},
	} {
		t.Run(tt.name, tt.check)
	}
}

// TestReadingCommandsNeverCreate: a mistyped --store on a command that
// only reads is an error that leaves nothing behind, and an existing
// output file is left as it was.
func TestReadingCommandsNeverCreate(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "mistyped.db")
	out := writeFile(t, dir, "graph.nq", "keep me\n")
	for _, args := range [][]string{
		{"export", "--store", missing, "-o", out},
		{"export", "--store", missing, "-f", "csv"},
		{"stats", "--store", missing},
		{"query", "run", "aliases", "--store", missing},
	} {
		t.Run(strings.Join(args[:2], " "), func(t *testing.T) {
			cliCase{args: args, code: exitError, stderr: "does not exist", lines: -1}.check(t)
			if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%v created %s (%v)", args, missing, err)
			}
		})
	}
	if b, _ := os.ReadFile(out); string(b) != "keep me\n" {
		t.Errorf("the output file was changed to %q", b)
	}
}

// TestCreateOutput: the named file changes only when the run succeeds, and
// no temporary file is left either way.
func TestCreateOutput(t *testing.T) {
	dir := t.TempDir()
	name := writeFile(t, dir, "out.csv", "old\n")
	a := &app{}
	for _, ok := range []bool{false, true} {
		w, finish, err := a.createOutput(name)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(w, "new %v\n", ok)
		if err := finish(ok); err != nil {
			t.Fatal(err)
		}
		want := "old\n"
		if ok {
			want = "new true\n"
		}
		if b, _ := os.ReadFile(name); string(b) != want {
			t.Errorf("finish(%v): file holds %q, want %q", ok, b, want)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			t.Errorf("finish(%v): %d files in the directory, want 1", ok, len(ents))
		}
	}
}

// TestCreateOutputSpecialFiles: a symlink given as output keeps pointing at
// its target, which gets the output; a named pipe stays a pipe, and the
// output goes through it; a directory is an error.
func TestCreateOutputSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	a := &app{}
	write := func(name, text string) error {
		w, finish, err := a.createOutput(name)
		if err != nil {
			return err
		}
		fmt.Fprint(w, text)
		return finish(true)
	}

	target := writeFile(t, dir, "target.csv", "old\n")
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := write(link, "new\n"); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v, %v", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new\n" {
		t.Errorf("the symlink's target holds %q, want the output", b)
	}

	pipe := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	read := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(pipe)
		read <- string(b)
	}()
	if err := write(pipe, "through\n"); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-read:
		if got != "through\n" {
			t.Errorf("the pipe's reader got %q", got)
		}
	case <-time.After(10 * time.Second):
		t.Error("nothing came through the pipe")
	}
	if fi, err := os.Lstat(pipe); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the named pipe was replaced: %v, %v", fi.Mode(), err)
	}

	if err := write(dir, "x"); err == nil {
		t.Error("a directory as output: no error")
	}
}

// TestInterruptedFirstBuild: a first build stopped before its end keeps
// nothing, and says so rather than "built N captions ... 0 added".
func TestInterruptedFirstBuild(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	go func() {
		fmt.Fprintln(pw, "A man walks in Aleppo, Syria.")
		time.Sleep(300 * time.Millisecond) // the build has started reading
		cancel()
		time.Sleep(100 * time.Millisecond)
		pw.Close()
	}()
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{"build", "-q=false", "--store", filepath.Join(dir, "g.db"), "-"}, pr, &stdout, &stderr)
	if code != exitInterrupted || !strings.Contains(stderr.String(), "nothing was kept") || strings.Contains(stderr.String(), "built ") {
		t.Errorf("exit %d, stderr %q: want %d and a message that nothing was kept", code, stderr.String(), exitInterrupted)
	}
}

// TestReadersSideBySide: while one reader holds the store (as serve does),
// export, stats and query run beside it, and a build is kept out with a
// message that says why.
func TestReadersSideBySide(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "g.db")
	in := writeFile(t, dir, "c.txt", "A man walks in Aleppo, Syria, May 3, 2014. REUTERS/Jane Doe\n")
	cliCase{args: []string{"build", "-q", "--store", store, in}, lines: -1}.check(t)
	reader, err := graph.Open(t.Context(), store, graph.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	for _, tt := range []cliCase{
		{name: "export", args: []string{"export", "--store", store, "-f", "csv"}, stdout: "Aleppo", lines: -1},
		{name: "export under a base", args: []string{"export", "--store", store, "-f", "nt", "--base-iri", "https://archive.example.org/id/"}, stdout: "<https://archive.example.org/id/photo/", lines: -1},
		{name: "export under a bad base", args: []string{"export", "--store", store, "--base-iri", "archive/id/"}, code: exitUsage, stderr: "base_iri", lines: -1},
		{name: "stats", args: []string{"stats", "--store", store}, stdout: "captions    1", lines: -1},
		{name: "query", args: []string{"query", "run", "photos-in-place", "-p", "place=Aleppo", "--store", store, "-f", "csv"}, lines: -1},
		{name: "build", args: []string{"build", "-q", "--store", store, in}, code: exitError, stderr: "store in use", lines: -1},
	} {
		t.Run(tt.name, tt.check)
	}
}

// TestOneFlagConvention: every command takes -o/--output as a file and
// -f/--format as a format, and --store wherever it is given.
func TestOneFlagConvention(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "g.db")
	in := writeFile(t, dir, "c.txt", "A man walks in Aleppo, Syria, May 3, 2014. REUTERS/Jane Doe\n")
	gold := writeFile(t, dir, "g.jsonl", `{"id":"a","text":"A man walks in Aleppo, Syria.","entities":[{"text":"Aleppo","type":"PLACE"}],"relations":[]}`+"\n")
	cliCase{args: []string{"build", "-q", "--store", store, in}, lines: -1}.check(t)
	for _, tt := range []struct {
		args []string
		file string
		want string
	}{
		{[]string{"extract", "--store", store, "-o", filepath.Join(dir, "x.jsonl"), in}, "x.jsonl", `"Aleppo"`},
		{[]string{"eval", "--gold", gold, "-f", "json", "-o", filepath.Join(dir, "e.json")}, "e.json", `"entities"`},
		{[]string{"query", "run", "photos-in-place", "-p", "place=Aleppo", "--store", store, "-f", "csv", "-o", filepath.Join(dir, "q.csv")}, "q.csv", "Aleppo"},
		{[]string{"export", "--store", store, "-f", "csv", "-o", filepath.Join(dir, "ex.csv")}, "ex.csv", "Aleppo"},
	} {
		t.Run(tt.args[0], func(t *testing.T) {
			cliCase{args: tt.args, lines: 0}.check(t)
			if b, err := os.ReadFile(filepath.Join(dir, tt.file)); err != nil || !strings.Contains(string(b), tt.want) {
				t.Errorf("%s: %q (%v), want it to hold %q", tt.file, b, err, tt.want)
			}
		})
	}
}

// TestREADMEFlags: every flag the README names is one that some command
// takes, so the README stays true as flags change; stats takes -f as the
// others do.
func TestREADMEFlags(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{"help": true, "version": true}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, fs := range []*pflag.FlagSet{c.Flags(), c.PersistentFlags()} {
			fs.VisitAll(func(f *pflag.Flag) { known[f.Name] = true })
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(&app{}))
	named := regexp.MustCompile(`(?:^|[\s(\[`+"`"+`])--([a-z][a-z0-9-]+)`).FindAllStringSubmatch(string(b), -1)
	if len(named) < 10 {
		t.Fatalf("found %d flags in README.md: the pattern is wrong", len(named))
	}
	for _, m := range named {
		if !known[m[1]] {
			t.Errorf("README.md names --%s, which no capgraph command takes", m[1])
		}
	}
	cliCase{args: []string{"stats", "-f", "yaml"}, code: exitUsage, stderr: `--format: "yaml" is not text or json`, lines: -1}.check(t)
}

// TestCheck: check says a built store is sound, and lists what is wrong
// with one whose pages were overwritten, exiting 1; a store cut short is
// refused with a sentence, not a trace.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "g.db")
	in := writeFile(t, dir, "c.txt", "A man walks in Aleppo, Syria, May 3, 2014. REUTERS/Jane Doe\nA boy runs in Homs, Syria, May 4, 2014.\n")
	cliCase{args: []string{"build", "-q", "--store", store, in}, lines: -1}.check(t)
	cliCase{args: []string{"check", "--store", store}, stdout: "is sound: 2 captions", lines: 1}.check(t)
	file := filepath.Join(store, "indexes.bolt")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i := 2 * 4096; i < len(b) && i < 6*4096; i++ {
		b[i] = 0xA5
	}
	os.WriteFile(file, b, 0o644)
	cliCase{args: []string{"check", "--store", store}, code: exitError, stdout: "is damaged", lines: -1}.check(t)
	os.WriteFile(file, b[:len(b)/2], 0o644)
	for _, args := range [][]string{{"check"}, {"stats"}, {"export", "-f", "csv"}} {
		cliCase{args: append(args, "--store", store), code: exitError, stderr: "damaged or not a capgraph store", lines: -1}.check(t)
	}
}

func TestPlural(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{{0, "0 captions"}, {1, "1 caption"}, {2, "2 captions"}} {
		if got := plural(tt.n, "caption"); got != tt.want {
			t.Errorf("plural(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

// TestBuildNotesUnreadScripts: a build says how many captions were written
// in a script capgraph does not read, rather than leaving them empty
// without a word.
func TestBuildNotesUnreadScripts(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "ar.jsonl", `{"id":"a1","text":"مقاتل من الجيش السوري الحر في حلب، سوريا، 3 مايو 2014"}`+"\n"+
		`{"id":"a2","text":"A fighter walks in Aleppo, Syria, May 3, 2014. REUTERS/Jane Doe"}`+"\n")
	cliCase{args: []string{"build", "--store", filepath.Join(dir, "g"), in}, code: exitOK,
		stderr: "note: 1 caption written mostly in Arabic, which capgraph does not read", lines: -1}.check(t)
}
