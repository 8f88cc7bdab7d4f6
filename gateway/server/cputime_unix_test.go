//go:build unix

package server_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used, user and system, on
// every thread (so the garbage collector's and the store's share is
// counted too).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
