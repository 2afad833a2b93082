package config_test

import (
	"os"
	"path/filepath"
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
	if err := os.WriteFile(bad, []byte("workers: -2\nbatch_size: 0\nlog_level: loud\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := config.Load(bad, nil)
	for _, want := range []string{"workers: -2 is negative", "batch_size: 0 must be at least 1", `log_level: "loud"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q: every bad setting is reported at once", err, want)
		}
	}
	if _, err := config.Load(filepath.Join(dir, "missing.yaml"), nil); err == nil {
		t.Error("an explicit config file that is missing is not an error")
	}
}
