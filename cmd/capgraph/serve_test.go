package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"
	"time"
)

func TestServeFlags(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"bad addr", []string{"serve", "--addr", "nope"}, exitUsage, "--addr: address nope: missing port"},
		{"no args", []string{"serve", "extra"}, exitUsage, `unknown argument "extra"`},
		{"missing store", []string{"serve", "--store", filepath.Join(t.TempDir(), "none"), "--addr", "127.0.0.1:0"}, exitError, "does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(t.Context(), tt.args, strings.NewReader(""), &stdout, &stderr)
			if code != tt.code || !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr.String(), tt.code, tt.stderr)
			}
		})
	}
}

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8080": true, "localhost:80": true, "[::1]:8080": true,
		"0.0.0.0:8080": false, ":8080": false, "192.168.1.2:80": false, "example.org:80": false,
	} {
		if got := isLoopback(addr); got != want {
			t.Errorf("isLoopback(%q) = %v, want %v", addr, got, want)
		}
	}
}

// TestServeCLI builds a store, serves it through run on a free loopback
// port, asks the API, and stops the server by cancelling the context.
func TestServeCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a store")
	}
	store := filepath.Join(t.TempDir(), "store")
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), []string{"build", "-q", "--store", store, "../../examples/captions.jsonl"}, strings.NewReader(""), &stdout, &stderr); code != exitOK {
		t.Fatalf("build: %d %s", code, stderr.String())
	}
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--store", store, "--addr", "127.0.0.1:0"}, strings.NewReader(""), &stdout, pw)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	_, url, ok := strings.Cut(strings.TrimSpace(line), " on ")
	url, _, _ = strings.Cut(url, " ")
	if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("serve said %q", line)
	}
	resp, err := http.Get(url + "api/queries")
	if err != nil {
		t.Fatal(err)
	}
	var qs []struct{ Name string }
	err = json.NewDecoder(resp.Body).Decode(&qs)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || len(qs) == 0 {
		t.Fatalf("GET /api/queries: %d, %d queries, %v", resp.StatusCode, len(qs), err)
	}
	cancel()
	select {
	case code := <-done:
		if code != exitOK && code != 130 {
			t.Errorf("serve exited %d", code)
		}
	case <-time.After(10 * time.Second):
		var stacks strings.Builder
		pprof.Lookup("goroutine").WriteTo(&stacks, 1)
		t.Fatalf("serve did not stop; goroutines:\n%s", stacks.String())
	}
}
