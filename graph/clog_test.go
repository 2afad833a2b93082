package graph

import (
	"bytes"
	"fmt"
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

// TestCayleyFatalfPanics: Cayley's fatal log panics with its message
// instead of ending the process of whatever program uses the store.
func TestCayleyFatalfPanics(t *testing.T) {
	defer func() {
		if v := recover(); v == nil || !strings.Contains(fmt.Sprint(v), "disk on fire") {
			t.Errorf("Fatalf recovered %v, want a panic with its message", v)
		}
	}()
	cayleyLog{}.Fatalf("disk on %s", "fire")
}
