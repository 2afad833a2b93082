package graph

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/cayleygraph/cayley/clog"
)

func init() {
	// Cayley logs through a package-wide logger that writes to stderr by
	// default, for example "ERROR: Cannot create nodes table" each time
	// a PostgreSQL store that already exists is opened. Every failure that
	// matters also comes back as an error, so its messages go to
	// slog.Default at debug level.
	clog.SetLogger(cayleyLog{})
}

// cayleyLog is Cayley's clog.Logger on log/slog.
type cayleyLog struct{}

func (cayleyLog) log(format string, args []any) {
	if l := slog.Default(); l.Enabled(context.Background(), slog.LevelDebug) {
		l.Debug(fmt.Sprintf(format, args...), "component", "cayley")
	}
}

func (c cayleyLog) Infof(format string, args ...any)    { c.log(format, args) }
func (c cayleyLog) Warningf(format string, args ...any) { c.log(format, args) }
func (c cayleyLog) Errorf(format string, args ...any)   { c.log(format, args) }

// Fatalf panics rather than exit: a library does not end its caller's
// process, and the store's guards turn the panic into an error.
func (cayleyLog) Fatalf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	slog.Default().Error(msg, "component", "cayley")
	panic("cayley: " + msg)
}

func (cayleyLog) V(int) bool { return false }
func (cayleyLog) SetV(int)   {}
