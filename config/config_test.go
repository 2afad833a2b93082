package config_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/capgraph/capgraph/config"
)

func TestLoadPrecedence(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "capgraph.yaml")
	if err := os.WriteFile(file, []byte("store: from-file.db\nworkers: 3\nbatch_size: 500\nno_sync: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		env     map[string]string
		flags   []string
		store   string
		workers int
		batch   int
		noSync  bool
	}{
		{"file", nil, nil, "from-file.db", 3, 500, true},
		{"env over file", map[string]string{"CAPGRAPH_STORE": "from-env.db", "CAPGRAPH_BATCH_SIZE": "700", "CAPGRAPH_NO_SYNC": "false"}, nil, "from-env.db", 3, 700, false},
		{"flag over env", map[string]string{"CAPGRAPH_STORE": "from-env.db"}, []string{"--store", "from-flag.db"}, "from-flag.db", 3, 500, true},
		{"flag set to zero still wins", nil, []string{"--workers=0", "--no-sync=false"}, "from-file.db", 0, 500, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
			fs.String("store", "capgraph.db", "")
			fs.Int("workers", 0, "")
			fs.Int("batch-size", 20000, "")
			fs.Bool("no-sync", false, "")
			if err := fs.Parse(tt.flags); err != nil {
				t.Fatal(err)
			}
			c, err := config.Load(file, fs)
			if err != nil {
				t.Fatal(err)
			}
			if c.Store != tt.store || c.Workers != tt.workers || c.BatchSize != tt.batch || c.NoSync != tt.noSync {
				t.Errorf("got store %q workers %d batch %d no_sync %v, want %q %d %d %v", c.Store, c.Workers, c.BatchSize, c.NoSync, tt.store, tt.workers, tt.batch, tt.noSync)
			}
			if c.File != file {
				t.Errorf("File = %q, want %q", c.File, file)
			}
		})
	}
}

func TestLoadDefaultsWithoutFile(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	c, err := config.Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c != config.Default() {
		t.Errorf("Load with nothing set = %+v, want the defaults %+v", c, config.Default())
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("workers: -2\nbatch_size: 0\nlog_level: loud\nmemory_limit: lots\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := config.Load(bad, nil)
	for _, want := range []string{"workers: -2 is negative", "batch_size: 0 must be at least 1", `log_level: "loud"`, `memory_limit: "lots" is not a size`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q: every bad setting is reported at once", err, want)
		}
	}
	if _, err := config.Load(filepath.Join(dir, "missing.yaml"), nil); err == nil {
		t.Error("an explicit config file that is missing is not an error")
	}
}

// TestLoadUnknownAndMistyped wants a typo in the config file named, with
// the setting it probably meant, and a value of the wrong type named with
// its file, instead of being ignored or blamed on nothing.
func TestLoadUnknownAndMistyped(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ body, want string }{
		{"stroe: x.db\n", `unknown setting "stroe" (did you mean "store"?)`},
		{"batchsize: 10\nzzz: 1\n", `unknown setting "batchsize" (did you mean "batch_size"?)`},
		{"workers: many\n", "workers"},
	}
	for i, tt := range tests {
		path := filepath.Join(dir, fmt.Sprintf("c%d.yaml", i))
		if err := os.WriteFile(path, []byte(tt.body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := config.Load(path, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%q: error %v, want one naming %s and %q", tt.body, err, path, tt.want)
		}
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in      string
		want    int64
		wantErr bool
	}{
		{"0", 0, false},
		{"1000000", 1000000, false},
		{"768MiB", 768 << 20, false},
		{"2GiB", 2 << 30, false},
		{" 1 GiB ", 1 << 30, false},
		{"512KiB", 512 << 10, false},
		{"1TiB", 1 << 40, false},
		{"1500MB", 1500e6, false},
		{"2GB", 2e9, false},
		{"64B", 64, false},
		{"", 0, true},
		{"MiB", 0, true},
		{"-1GiB", 0, true},
		{"1.5GiB", 0, true},
		{"1 gib", 0, true},
		{"9999999TiB", 0, true},
	}
	for _, tt := range tests {
		got, err := config.ParseSize(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestMemoryLimitBytes(t *testing.T) {
	if got := config.Default().MemoryLimitBytes(); got != 512<<20 {
		t.Errorf("default memory limit %d bytes, want 512MiB", got)
	}
	c := config.Default()
	c.MemoryLimit = "0"
	if got := c.MemoryLimitBytes(); got != 0 {
		t.Errorf("memory_limit 0 gives %d bytes, want none", got)
	}
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"768MiB", "2GiB", "1000", "0", "1.5GB", "-3KiB", "9223372036854775807B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := config.ParseSize(s)
		if err != nil {
			if n != 0 {
				t.Errorf("ParseSize(%q) = %d with error %v", s, n, err)
			}
			return
		}
		if n < 0 {
			t.Errorf("ParseSize(%q) = %d, negative", s, n)
		}
		if back, err := config.ParseSize(strconv.FormatInt(n, 10) + "B"); err != nil || back != n {
			t.Errorf("ParseSize(%q) = %d, but %dB parses as %d, %v", s, n, n, back, err)
		}
	})
}

func TestBaseIRI(t *testing.T) {
	for _, tt := range []struct {
		iri  string
		want string // substring of the error; "" for none
	}{
		{"", ""},
		{"https://archive.example.org/photos/id/", ""},
		{"http://127.0.0.1:8080/id/", ""},
		{"https://archive.example.org/id", "does not end in /"},
		{"ftp://archive.example.org/id/", "not an absolute http or https IRI"},
		{"/id/", "not an absolute http or https IRI"},
		{"https://archive.example.org/a b/", "may not"},
		{"https://archive.example.org/id/?x=/", "may not"},
		{"https://archive.example.org/id#/", "may not"},
	} {
		c := config.Default()
		c.BaseIRI = tt.iri
		err := c.Validate()
		if (tt.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("base_iri %q: %v, want %q", tt.iri, err, tt.want)
		}
	}
}
