package web

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"syscall"
)

// limitProcess bounds this process by lim: its data memory to what it
// uses now plus lim.Memory (RLIMIT_DATA: an allocation past it fails, and
// the Go runtime ends the process), and its CPU time (RLIMIT_CPU: the
// kernel kills it). The limit counts from what is mapped now because the
// race detector maps terabytes of shadow memory at start.
func limitProcess(lim QueryLimits) error {
	if lim.Memory > 0 {
		used, err := dataSize()
		if err != nil {
			return err
		}
		l := &syscall.Rlimit{Cur: used + lim.Memory, Max: used + lim.Memory}
		if err := syscall.Setrlimit(syscall.RLIMIT_DATA, l); err != nil {
			return fmt.Errorf("limit memory: %w", err)
		}
		debug.SetMemoryLimit(int64(lim.Memory)) // collect hard before the wall
	}
	if lim.Timeout > 0 {
		// Go ignores SIGXCPU at the soft limit; the hard limit kills.
		secs := uint64(cpuLimit(lim).Seconds())
		if err := syscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: secs, Max: secs}); err != nil {
			return fmt.Errorf("limit CPU time: %w", err)
		}
	}
	return nil
}

// dataSize reads VmData, the memory RLIMIT_DATA counts, from
// /proc/self/status.
func dataSize() (uint64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmData:")); ok {
			kb, err := strconv.ParseUint(string(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte(" kB"))), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("VmData %q: %w", rest, err)
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("no VmData in /proc/self/status")
}

// killedBy names the signal that ended the process, or "".
func killedBy(ee *exec.ExitError) string {
	if ee == nil {
		return ""
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}

// peakMemory returns the most memory the process held at once, or 0 when
// that cannot be told. Linux records, at exec, the resident size of the
// memory the process had before: Go starts a process from a copy that
// shares the parent's memory, so a child's ru_maxrss is at least the
// parent's size then. A peak no larger than the parent's own peak may be
// the parent's, and is not taken for the child's.
func peakMemory(ee *exec.ExitError) uint64 {
	ru, ok := ee.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	var self syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &self); err != nil || ru.Maxrss <= self.Maxrss {
		return 0
	}
	return uint64(ru.Maxrss) << 10 // KiB on Linux
}
