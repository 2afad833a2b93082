//go:build !linux

package web

import (
	"os/exec"
	"runtime/debug"
)

// limitProcess bounds this process's memory by lim where it can: off
// Linux, only through the Go runtime's soft limit, and the server's kill
// at the request's deadline bounds its time.
func limitProcess(lim QueryLimits) error {
	if lim.Memory > 0 {
		debug.SetMemoryLimit(int64(lim.Memory))
	}
	return nil
}

// killedBy names the signal that ended the process: "" off Linux, where
// the server reads only its exit status.
func killedBy(ee *exec.ExitError) string { return "" }

// peakMemory returns the most memory the process held at once: 0 off
// Linux, where the runtime's message alone tells.
func peakMemory(ee *exec.ExitError) uint64 { return 0 }
