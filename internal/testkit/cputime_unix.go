//go:build unix

package testkit

import (
	"syscall"
	"time"
)

// ProcessCPU is the CPU time this process has used, user and system, on
// every thread (so the garbage collector's and an in-process store's share
// is counted too): what benchmarks on a shared machine compare, since wall
// time there measures the neighbours as well.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
