package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenCLI(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "c.jsonl")
	tests := []cliCase{
		{"jsonl", []string{"gen", "--captions", "5", "--seed", "1"}, "", exitOK, `{"id":"syn-000000000","text":"`, "", 5},
		{"text", []string{"gen", "--captions", "5", "--seed", "1", "-f", "text"}, "", exitOK, "", "", 5},
		{"csv", []string{"gen", "-n", "5", "--format", "csv"}, "", exitOK, "id,text\n", "", -1},
		{"none", []string{"gen", "--captions", "0"}, "", exitOK, "", "", 0},
		{"to file", []string{"gen", "--captions", "3", "-o", out}, "", exitOK, "", "wrote 3 captions to " + out, 0},
		{"negative", []string{"gen", "--captions", "-1"}, "", exitUsage, "", "--captions: -1 is negative", 0},
		{"bad format", []string{"gen", "-f", "xml"}, "", exitUsage, "", `--format: "xml" is not one of jsonl, text, csv`, 0},
		{"bad seed", []string{"gen", "--seed", "x"}, "", exitUsage, "", `invalid argument "x"`, 0},
		{"no args", []string{"gen", "extra"}, "", exitUsage, "", `unknown command "extra"`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.check)
	}
	if data, err := os.ReadFile(out); err != nil || strings.Count(string(data), "\n") != 3 {
		t.Errorf("%s: %d lines (%v), want 3", out, strings.Count(string(data), "\n"), err)
	}
}

func TestGenFlags(t *testing.T) {
	var got *genOptions
	cmd := newGenCmd(&app{}, func(_ context.Context, o *genOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--captions", "100000", "--seed", "18446744073709551615", "-f", "csv", "-o", "x.csv"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	want := genOptions{Captions: 100000, Seed: 1<<64 - 1, Format: "csv", Output: "x.csv"}
	if *got != want {
		t.Errorf("options %+v, want %+v", *got, want)
	}
}

// gen runs capgraph gen and returns its stdout.
func gen(t *testing.T, args ...string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), append([]string{"gen"}, args...), strings.NewReader(""), &stdout, &stderr); code != exitOK {
		t.Fatalf("gen %v: exit %d: %s", args, code, stderr.String())
	}
	return stdout.Bytes()
}

func TestGenDeterministic(t *testing.T) {
	a, b := gen(t, "--captions", "200", "--seed", "3"), gen(t, "--captions", "200", "--seed", "3")
	if !bytes.Equal(a, b) {
		t.Fatal("same seed, different output")
	}
	if c := gen(t, "--captions", "200", "--seed", "4"); bytes.Equal(a, c) {
		t.Fatal("seeds 3 and 4 give the same output")
	}
	// A smaller run is a prefix of a larger one.
	if small := gen(t, "--captions", "50", "--seed", "3"); !bytes.HasPrefix(a, small) {
		t.Fatal("50 captions are not the first 50 of 200")
	}
}

// TestGenFormatsAgree checks that the three formats carry the same captions
// and that extract reads each of them back.
func TestGenFormatsAgree(t *testing.T) {
	const n = 300
	jsonl := gen(t, "--captions", "300", "--seed", "9")
	text := gen(t, "--captions", "300", "--seed", "9", "-f", "text")
	csvOut := gen(t, "--captions", "300", "--seed", "9", "-f", "csv")

	var ids, texts []string
	dec := json.NewDecoder(bytes.NewReader(jsonl))
	for dec.More() {
		var r struct {
			ID        string `json:"id"`
			Text      string `json:"text"`
			Synthetic bool   `json:"synthetic"`
		}
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		if !r.Synthetic {
			t.Fatalf("%s: synthetic is not true", r.ID)
		}
		ids, texts = append(ids, r.ID), append(texts, r.Text)
	}
	lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	rows, err := csv.NewReader(bytes.NewReader(csvOut)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != n || len(lines) != n || len(rows) != n+1 {
		t.Fatalf("%d jsonl, %d text, %d csv rows; want %d", len(ids), len(lines), len(rows)-1, n)
	}
	for i := range n {
		if rows[i+1][0] != ids[i] || rows[i+1][1] != texts[i] {
			t.Fatalf("csv row %d differs from jsonl: %q", i+1, rows[i+1])
		}
		if want := strings.ReplaceAll(texts[i], "\n", " "); lines[i] != want {
			t.Fatalf("text line %d = %q, want %q", i+1, lines[i], want)
		}
	}

	dir := t.TempDir()
	for name, data := range map[string][]byte{"c.jsonl": jsonl, "c.txt": text, "c.csv": csvOut} {
		p := writeFile(t, dir, name, string(data))
		var stdout, stderr bytes.Buffer
		if code := run(t.Context(), []string{"extract", p}, strings.NewReader(""), &stdout, &stderr); code != exitOK {
			t.Fatalf("extract %s: exit %d: %s", name, code, stderr.String())
		}
		if got := strings.Count(stdout.String(), "\n"); got != n {
			t.Errorf("extract %s: %d extractions, want %d", name, got, n)
		}
	}
}
