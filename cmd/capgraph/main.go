// Command capgraph turns news-photo captions into a knowledge graph: it
// extracts typed entities and relations, loads them into a Cayley graph
// store, runs saved queries and exports RDF.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

// Exit codes. They are part of the interface: never renumber them.
const (
	exitOK          = 0
	exitError       = 1
	exitUsage       = 2
	exitPartial     = 3 // --keep-going skipped bad input
	exitInterrupted = 130
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one capgraph command line and returns its exit code. A
// panic on its goroutine, a bug, exits 1 with the stack, not Go's 2,
// which is the code of a usage error here.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "capgraph: internal error (please report it): %v\n%s", v, debug.Stack())
			code = exitError
		}
	}()
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr}
	root := newRootCmd(a)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if a.stopProfile != nil {
		a.stopProfile()
	}
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errPartial):
		fmt.Fprintf(stderr, "capgraph: %v\n", err)
		return exitPartial
	case ctx.Err() != nil && errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "capgraph: interrupted")
		return exitInterrupted
	}
	if _, ok := errors.AsType[*usageError](err); ok {
		fmt.Fprintf(stderr, "capgraph: %v\nRun 'capgraph --help' for usage.\n", err)
		return exitUsage
	}
	fmt.Fprintf(stderr, "capgraph: %v\n", err)
	return exitError
}

// errPartial marks a command that finished but skipped bad input.
var errPartial = errors.New("partial")

// partialError reports skipped input; it wraps errPartial.
type partialError struct{ msg string }

func (e *partialError) Error() string { return e.msg }
func (e *partialError) Unwrap() error { return errPartial }

// usageError marks a mistake in the command line itself.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }
