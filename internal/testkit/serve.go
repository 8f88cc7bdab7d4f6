package testkit

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Timeout bounds how long serve may take to listen and to stop. It detects
// a hang; it is not a performance assertion.
const Timeout = 60 * time.Second

// Server is a running `forgetools serve`.
type Server struct {
	Sockets []string // the unix:// targets it listens on, in the order printed
	TCP     string   // the http:// target, if it listens on TCP
	// Stdout and Stderr are what serve has written so far.
	Stdout, Stderr Buffer

	t      testing.TB
	cmd    *exec.Cmd
	exited chan struct{} // closed once the process is reaped and code set
	code   int
}

// Serve starts cmd, a `forgetools serve` command, and returns once serve
// has printed "listening on <target>" for listeners (at least one)
// targets. It fails t if serve exits first or does not listen within
// Timeout. Serve sets cmd's Stdout and Stderr; a serve still running when
// t ends is killed.
func Serve(t testing.TB, cmd *exec.Cmd, listeners int) *Server {
	t.Helper()
	s := &Server{t: t, cmd: cmd, exited: make(chan struct{})}
	cmd.Stderr = &s.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{})
	go s.read(out, listeners, ready)
	t.Cleanup(func() {
		select {
		case <-s.exited:
		default:
			s.Stop(os.Kill)
		}
	})
	select {
	case <-ready:
	case <-s.exited:
		t.Fatalf("forgetools serve exited %d before listening\nstdout:\n%s\nstderr:\n%s", s.code, s.Stdout.String(), s.Stderr.String())
	case <-time.After(Timeout):
		cmd.Process.Kill()
		t.Fatalf("forgetools serve did not listen within %s\nstderr:\n%s", Timeout, s.Stderr.String())
	}
	return s
}

// read copies serve's stdout a line at a time, records the first listeners
// targets (closing ready when it has them all), and reaps the process.
func (s *Server) read(out io.Reader, listeners int, ready chan<- struct{}) {
	sc := bufio.NewScanner(out)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		s.Stdout.Write([]byte(line + "\n"))
		target, ok := strings.CutPrefix(line, "listening on ")
		if !ok || n == listeners {
			continue // the test reads the targets once ready is closed
		}
		if strings.HasPrefix(target, "unix://") {
			s.Sockets = append(s.Sockets, target)
		} else {
			s.TCP = target
		}
		if n++; n == listeners {
			close(ready)
		}
	}
	io.Copy(io.Discard, out) // past a line too long to scan, so serve never blocks
	s.code = -1              // ended by a signal
	if err := s.cmd.Wait(); err == nil {
		s.code = 0
	} else if exit := (*exec.ExitError)(nil); errors.As(err, &exit) && exit.Exited() {
		s.code = exit.ExitCode()
	}
	close(s.exited)
}

// Pid is serve's process id, for a test that measures the process (its
// peak memory in /proc/<pid>/status, say).
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// Stop sends sig to serve and returns its exit code once it has exited: -1
// when a signal ended it rather than its own exit.
func (s *Server) Stop(sig os.Signal) int {
	s.t.Helper()
	s.cmd.Process.Signal(sig)
	select {
	case <-s.exited:
	case <-time.After(Timeout):
		s.cmd.Process.Kill()
		<-s.exited
		s.t.Fatalf("forgetools serve did not stop on %v\nstderr:\n%s", sig, s.Stderr.String())
	}
	return s.code
}
