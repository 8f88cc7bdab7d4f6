// Package testkit is what the suites that run the real forgetools binary
// share: building it once per test binary, running `forgetools serve` as a
// subprocess until it listens, and a buffer a subprocess can write while a
// test reads it. Only tests import it.
package testkit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Main builds cmd/forgetools into a temporary directory, sets *bin to its
// path, runs the tests and exits with their code once the directory is
// removed. Call it from TestMain: every test of the package then runs the
// same binary, built once. Each of after runs once the tests have (to
// print a figure they gathered).
func Main(m *testing.M, bin *string, after ...func()) {
	code := Run(m, bin)
	for _, f := range after {
		f()
	}
	os.Exit(code)
}

// Run is Main without the exit: it returns the tests' exit code, so a
// TestMain can stop what the tests shared (a server) before exiting.
func Run(m *testing.M, bin *string) int {
	dir, err := os.MkdirTemp("", "forgetools-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "testkit:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	*bin = filepath.Join(dir, "forgetools")
	build := exec.Command("go", "build", "-o", *bin, "github.com/forgetools/forgetools/cmd/forgetools")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "testkit: building forgetools:", err)
		return 1
	}
	return m.Run()
}

// Buffer is a bytes.Buffer that a subprocess's output copier (or a logger)
// may write while the test reads it.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Call runs one tool call as a model would, `forgetools call TOOL ARGS
// --gateway unix://SOCKET` with bin, and returns what it printed (the text
// the model reads, without the last newline), what it wrote to stderr and
// whether the call failed (exit 1). Any other outcome fails t.
func Call(t testing.TB, bin, socket, tool, args string, extra ...string) (text, stderr string, failed bool) {
	t.Helper()
	argv := append([]string{"call", tool, args, "--gateway", "unix://" + socket}, extra...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, argv...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	failed = errors.As(err, &exit) && exit.ExitCode() == 1
	if err != nil && !failed {
		t.Fatalf("forgetools %s: %v\nstdout: %s\nstderr: %s", strings.Join(argv, " "), err, &out, &errb)
	}
	return strings.TrimSuffix(out.String(), "\n"), errb.String(), failed
}

// Field is the value of a "name: value" line of a read; it fails t when
// there is none.
func Field(t testing.TB, read, name string) string {
	t.Helper()
	for _, line := range strings.Split(read, "\n") {
		if v, ok := strings.CutPrefix(line, name+": "); ok {
			return v
		}
	}
	t.Fatalf("no %s line in:\n%s", name, read)
	return ""
}
