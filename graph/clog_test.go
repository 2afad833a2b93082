package graph

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/cayleygraph/cayley/clog"
)

func TestCayleyLogGoesToSlog(t *testing.T) {
	var buf bytes.Buffer
	old := slog.Default()
	t.Cleanup(func() { slog.SetDefault(old) })

	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelWarn})))
	clog.Errorf("Cannot create %s table", "nodes")
	if buf.Len() != 0 {
		t.Errorf("at warn level Cayley's message was logged: %q", buf.String())
	}

	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	clog.Errorf("Cannot create %s table", "nodes")
	if got := buf.String(); !strings.Contains(got, "Cannot create nodes table") || !strings.Contains(got, "component=cayley") {
		t.Errorf("at debug level: %q", got)
	}
}
