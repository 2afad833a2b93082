package main

import (
	"cmp"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"runtime/pprof"

	"github.com/spf13/cobra"

	"github.com/capgraph/capgraph/config"
	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/graph/model"
)

// app is shared by all commands; the root command fills cfg and log.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	cfg            config.Config
	configFile     string // --config, for the processes serve starts
	log            *slog.Logger
	// stopProfile ends the CPU profile that --cpu-profile started.
	stopProfile func()
}

const exitCodesHelp = `
Exit status:
  0    success
  1    error
  2    usage error (bad flag, argument or setting)
  3    partial: --keep-going skipped bad input
  130  interrupted`

func newRootCmd(a *app) *cobra.Command {
	var configFile, cpuProfile string
	root := &cobra.Command{
		Use:   "capgraph <command> [flags]",
		Short: "Turn news-photo captions into a knowledge graph",
		Long: `capgraph extracts people, places, armed groups, dates, photographers and
agencies from news-photo captions, loads them into a graph store with
per-caption provenance, answers saved research queries and exports RDF.

Settings come from flags, CAPGRAPH_* environment variables (CAPGRAPH_STORE,
CAPGRAPH_WORKERS, ...) and a capgraph.yaml file, in that order of precedence.
The file is the one --config names, else the first capgraph.yaml (or .toml,
.json) in the current directory, $XDG_CONFIG_HOME/capgraph/ or
~/.config/capgraph/.` + exitCodesHelp,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := config.Load(configFile, cmd.Flags())
			if err != nil {
				return &usageError{err}
			}
			a.cfg, a.configFile = cfg, configFile
			var level slog.Level
			if err := level.UnmarshalText([]byte(cfg.LogLevel)); err != nil {
				return &usageError{err}
			}
			a.log = slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: level}))
			if cpuProfile != "" {
				return a.startProfile(cpuProfile)
			}
			return nil
		},
	}
	root.Version = versionText()
	root.SetVersionTemplate("{{.Version}}")
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return &usageError{err}
	})
	pf := root.PersistentFlags()
	pf.StringVar(&configFile, "config", "", "read settings from `file` (default: capgraph.yaml in ., $XDG_CONFIG_HOME/capgraph or ~/.config/capgraph, if present)")
	def := config.Default() // one place for every default
	pf.String("log-level", def.LogLevel, "log `level`: debug, info, warn or error")
	pf.String("store", def.Store, "graph store: a bbolt `dir`ectory or a postgres:// URL (env CAPGRAPH_STORE)")
	pf.BoolP("quiet", "q", false, "no progress or summary on stderr")
	pf.StringVar(&cpuProfile, "cpu-profile", "", "write a CPU profile of the command to `file`, for 'go tool pprof'")
	_ = pf.MarkHidden("cpu-profile")

	root.AddCommand(
		newExtractCmd(a, nil),
		newEvalCmd(a, nil),
		newBuildCmd(a, nil),
		newExportCmd(a, nil),
		newStatsCmd(a, nil),
		newGenCmd(a, nil),
		newServeCmd(a, nil),
		newServeQueryCmd(a),
		newQueryCmd(a, nil),
		newCheckCmd(a, nil),
	)
	for _, c := range root.Commands() {
		c.SetFlagErrorFunc(root.FlagErrorFunc())
		usageArgs(c)
	}
	root.Args = cobra.ArbitraryArgs
	root.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return &usageError{fmt.Errorf("unknown command %q", args[0])}
		}
		return cmd.Help()
	}
	return root
}

// version names a release build; set it with
//
//	go build -ldflags "-X main.version=v1.2.0" ./cmd/capgraph
//
// Without it, the module version names a build by go install, and the
// commit a build in a checkout.
var version string

// versionText names the build and the versions of the extraction rules and
// of the graph model, which decide what a store built by it holds.
func versionText() string {
	name, rev := cmp.Or(version, "(devel)"), ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" && v != "(devel)" && version == "" {
			name = v
		}
		modified := false
		for _, st := range bi.Settings {
			switch st.Key {
			case "vcs.revision":
				rev = " " + st.Value[:min(12, len(st.Value))]
			case "vcs.modified":
				modified = st.Value == "true"
			}
		}
		if rev != "" && modified {
			rev += "+modified"
		}
	}
	return fmt.Sprintf("capgraph %s%s\nextractor %s\ngraph model %s\n", name, rev, extract.Version, model.Version)
}

// startProfile writes a CPU profile to path until stopProfile is called.
func (a *app) startProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return err
	}
	a.stopProfile = func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(a.stderr, "capgraph: cpu profile: %v\n", err)
		}
	}
	return nil
}

// usageArgs makes the argument check of c and of its subcommands report a
// usage error (exit 2), as a bad flag does: "capgraph stats extra" is a
// mistake in the command line, not a failure of the command.
func usageArgs(c *cobra.Command) {
	check := c.Args
	c.Args = func(cmd *cobra.Command, args []string) error {
		var err error
		switch {
		case check != nil:
			err = check(cmd, args)
		case cmd.HasSubCommands() && len(args) > 0:
			err = fmt.Errorf("unknown command %q for %q", args[0], cmd.CommandPath())
		}
		if err != nil {
			return &usageError{err}
		}
		return nil
	}
	for _, sub := range c.Commands() {
		usageArgs(sub)
	}
}
