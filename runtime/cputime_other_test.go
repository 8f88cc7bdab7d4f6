//go:build !unix

package runtime_test

import "time"

// processCPU is not measured here; benchmarks then report no cpu-ns/op.
func processCPU() time.Duration { return 0 }
