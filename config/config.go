// Package config reads capgraph's settings once, from defaults, a config
// file, CAPGRAPH_* environment variables and command-line flags, in that
// order of precedence (flags win). It is the only package that imports
// viper; the rest of capgraph receives plain values.
package config

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// Config holds every setting. The zero value is not useful: use [Load] or
// [Default].
type Config struct {
	// Store names the graph store: a directory path for the embedded bbolt
	// store, or a postgres:// or postgresql:// URL for Cayley's SQL backend.
	Store string `mapstructure:"store"`
	// Workers is the number of extraction goroutines; 0 means GOMAXPROCS.
	Workers int `mapstructure:"workers"`
	// BatchSize is the number of quads written per store transaction.
	BatchSize int `mapstructure:"batch_size"`
	// NoSync skips fsync on each commit of the embedded store during a
	// build, syncing once at the end: a build runs about 1.4x faster on a
	// large store, and a machine crash during it may corrupt the store
	// (a killed process does not). For first builds from inputs at hand.
	NoSync bool `mapstructure:"no_sync"`
	// MemoryLimit is a soft limit on the Go heap during a build, in GOMEMLIMIT's
	// syntax ("512MiB", "2GiB", or bytes); "0" sets none. Below it the garbage
	// collector runs less often, which makes a build faster; at it, the
	// collector works harder rather than grow past it. See [ParseSize].
	MemoryLimit string `mapstructure:"memory_limit"`
	// QueriesDir is a directory of user saved queries that add to and
	// override the built-in ones; "" means built-ins only.
	QueriesDir string `mapstructure:"queries_dir"`
	// BaseIRI is the base under which export and serve write the nodes
	// capgraph mints (photos, caption graphs, entities): an absolute http
	// or https IRI ending in "/"; "" keeps https://capgraph.org/id/.
	BaseIRI string `mapstructure:"base_iri"`
	// LogLevel is one of debug, info, warn, error.
	LogLevel string `mapstructure:"log_level"`
	// Quiet turns off progress bars and summaries on stderr.
	Quiet bool `mapstructure:"quiet"`
	// File is the config file that was read, "" when none.
	File string `mapstructure:"-"`
}

// Default returns the settings used when nothing else is given.
func Default() Config {
	return Config{
		Store:       "capgraph.db",
		Workers:     0,
		BatchSize:   5000,
		MemoryLimit: "512MiB",
		LogLevel:    "warn",
	}
}

// EnvPrefix is the prefix of environment variables that set options:
// CAPGRAPH_STORE, CAPGRAPH_WORKERS, CAPGRAPH_BATCH_SIZE, ...
const EnvPrefix = "CAPGRAPH"

// Load layers defaults, the config file, the environment and the flags in
// flags that have a setting of the same name (dashes for underscores:
// --batch-size sets batch_size). file is an explicit config file; when it is
// "", capgraph.{yaml,toml,json} is looked for in the current directory and
// in $XDG_CONFIG_HOME/capgraph (~/.config/capgraph), and a missing one is
// not an error. Every invalid setting is reported at once.
func Load(file string, flags *pflag.FlagSet) (Config, error) {
	v := viper.New()
	defaults := Default().settings()
	for key, value := range defaults {
		v.SetDefault(key, value)
	}

	v.SetEnvPrefix(EnvPrefix)
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	v.AutomaticEnv()

	if file != "" {
		v.SetConfigFile(file)
	} else {
		v.SetConfigName("capgraph")
		v.AddConfigPath(".")
		v.AddConfigPath("$XDG_CONFIG_HOME/capgraph")
		v.AddConfigPath("$HOME/.config/capgraph")
	}
	if err := v.ReadInConfig(); err != nil {
		if _, notFound := errors.AsType[viper.ConfigFileNotFoundError](err); !notFound || file != "" {
			return Config{}, fmt.Errorf("config: %w", err)
		}
	}
	if used := v.ConfigFileUsed(); used != "" {
		if err := checkFile(used, defaults); err != nil {
			return Config{}, err
		}
	}

	if flags != nil {
		var bindErr error
		flags.VisitAll(func(f *pflag.Flag) {
			key := strings.ReplaceAll(f.Name, "-", "_")
			if _, ok := defaults[key]; ok {
				bindErr = errors.Join(bindErr, v.BindPFlag(key, f))
			}
		})
		if bindErr != nil {
			return Config{}, fmt.Errorf("config: %w", bindErr)
		}
	}

	var c Config
	if err := v.Unmarshal(&c); err != nil {
		return Config{}, fmt.Errorf("config: %s environment or flags: %w", EnvPrefix+"_*", err)
	}
	c.File = v.ConfigFileUsed()
	return c, c.Validate()
}

// checkFile reads the config file alone and reports the settings it names
// that capgraph does not know ("stroe: x" is a typo, not a setting to
// ignore) and the values of the wrong type, naming the file.
func checkFile(path string, known map[string]any) error {
	fv := viper.New()
	fv.SetConfigFile(path)
	if err := fv.ReadInConfig(); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	var errs []error
	for _, k := range fv.AllKeys() {
		if _, ok := known[k]; ok {
			continue
		}
		msg := fmt.Sprintf("config: %s: unknown setting %q", path, k)
		if near := nearest(k, known); near != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", near)
		}
		errs = append(errs, errors.New(msg))
	}
	if errs != nil {
		return errors.Join(errs...)
	}
	var c Config
	if err := fv.Unmarshal(&c); err != nil {
		return fmt.Errorf("config: %s: %w", path, err)
	}
	return nil
}

// nearest returns the known setting closest to k by edit distance, or ""
// when none is within two edits or a third of its length.
func nearest(k string, known map[string]any) string {
	best, bestD := "", max(2, len(k)/3)+1
	for name := range known {
		if d := editDistance(k, name); d < bestD || d == bestD && name < best {
			best, bestD = name, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// settings maps each setting's name (its mapstructure tag, and its flag
// with dashes) to its value in c.
func (c Config) settings() map[string]any {
	return map[string]any{
		"store": c.Store, "workers": c.Workers, "batch_size": c.BatchSize, "no_sync": c.NoSync,
		"memory_limit": c.MemoryLimit, "queries_dir": c.QueriesDir, "log_level": c.LogLevel,
		"quiet": c.Quiet, "base_iri": c.BaseIRI,
	}
}

// Validate reports every invalid setting, joined.
func (c Config) Validate() error {
	var errs []error
	if c.Store == "" {
		errs = append(errs, errors.New("config: store: must not be empty"))
	}
	if c.Workers < 0 {
		errs = append(errs, fmt.Errorf("config: workers: %d is negative", c.Workers))
	}
	if c.BatchSize < 1 {
		errs = append(errs, fmt.Errorf("config: batch_size: %d must be at least 1", c.BatchSize))
	}
	if _, err := ParseSize(c.MemoryLimit); err != nil {
		errs = append(errs, fmt.Errorf("config: memory_limit: %w", err))
	}
	if err := checkBaseIRI(c.BaseIRI); err != nil {
		errs = append(errs, fmt.Errorf("config: base_iri: %w", err))
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		errs = append(errs, fmt.Errorf("config: log_level: %q is not one of debug, info, warn, error", c.LogLevel))
	}
	return errors.Join(errs...)
}

// checkBaseIRI accepts "" or an absolute http(s) IRI that ends in "/" and
// holds no character an N-Triples IRI may not.
func checkBaseIRI(s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return fmt.Errorf("%q is not an absolute http or https IRI", s)
	case !strings.HasSuffix(s, "/"):
		return fmt.Errorf("%q does not end in /: node paths are appended to it", s)
	case strings.ContainsAny(s, " <>\"{}|\\^`#?") || strings.ContainsFunc(s, func(r rune) bool { return r < 0x21 }):
		return fmt.Errorf("%q holds a character that an IRI may not, or a query or fragment", s)
	}
	return nil
}

// EffectiveWorkers returns Workers, or GOMAXPROCS when it is 0.
func (c Config) EffectiveWorkers() int {
	if c.Workers > 0 {
		return c.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// MemoryLimitBytes returns MemoryLimit in bytes, 0 for none. Load has
// validated it; an invalid value also gives 0.
func (c Config) MemoryLimitBytes() int64 {
	n, _ := ParseSize(c.MemoryLimit)
	return n
}

// ParseSize parses a byte count as GOMEMLIMIT writes it: a non-negative
// integer with an optional unit B, KiB, MiB, GiB or TiB. For the decimal
// units people also write, KB, MB, GB and TB are accepted too.
func ParseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		scale  int64
	}{
		{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1},
	}
	num, scale := strings.TrimSpace(s), int64(1)
	for _, u := range units {
		if n, ok := strings.CutSuffix(num, u.suffix); ok {
			num, scale = strings.TrimSpace(n), u.scale
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a size such as 512MiB, 2GiB or 1000000", s)
	}
	if n > math.MaxInt64/scale {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return n * scale, nil
}
