package testkit_test

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/forgetools/forgetools/internal/testkit"
)

// fakeServeEnv, when set, makes this test binary stand in for `forgetools
// serve`: it prints "listening on" each of the space-separated targets,
// waits for SIGTERM and exits 3.
const fakeServeEnv = "TESTKIT_FAKE_SERVE"

func TestMain(m *testing.M) {
	if targets := os.Getenv(fakeServeEnv); targets != "" {
		fakeServe(strings.Fields(targets))
	}
	os.Exit(m.Run())
}

func fakeServe(targets []string) {
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	fmt.Println("opening the store")
	for _, t := range targets {
		fmt.Println("listening on " + t)
	}
	fmt.Fprintln(os.Stderr, "level=INFO msg=serving")
	<-term
	fmt.Fprintln(os.Stderr, "level=INFO msg=stopped")
	os.Exit(3)
}

func fakeServeCmd(targets ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), fakeServeEnv+"="+strings.Join(targets, " "))
	return cmd
}

func TestServeWaitsForTheListeners(t *testing.T) {
	cases := []struct {
		name      string
		targets   []string
		listeners int
		sockets   []string
		tcp       string
	}{
		{"sockets and tcp", []string{"unix:///s/a.sock", "unix:///s/b.sock", "http://127.0.0.1:7443"}, 3,
			[]string{"unix:///s/a.sock", "unix:///s/b.sock"}, "http://127.0.0.1:7443"},
		{"only the first listeners count", []string{"unix:///s/a.sock", "http://127.0.0.1:7443"}, 1,
			[]string{"unix:///s/a.sock"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := testkit.Serve(t, fakeServeCmd(c.targets...), c.listeners)
			if !slices.Equal(srv.Sockets, c.sockets) || srv.TCP != c.tcp {
				t.Errorf("sockets %q, tcp %q; want %q, %q", srv.Sockets, srv.TCP, c.sockets, c.tcp)
			}
			if code := srv.Stop(syscall.SIGTERM); code != 3 {
				t.Errorf("Stop = %d, want the fake's exit code 3", code)
			}
			wantOut := "opening the store\n"
			for _, target := range c.targets {
				wantOut += "listening on " + target + "\n"
			}
			if got := srv.Stdout.String(); got != wantOut {
				t.Errorf("stdout:\n%s\nwant:\n%s", got, wantOut)
			}
			if got, want := srv.Stderr.String(), "level=INFO msg=serving\nlevel=INFO msg=stopped\n"; got != want {
				t.Errorf("stderr:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestStopBySignalIsMinusOne(t *testing.T) {
	srv := testkit.Serve(t, fakeServeCmd("unix:///s/a.sock"), 1)
	if code := srv.Stop(os.Kill); code != -1 {
		t.Errorf("Stop(os.Kill) = %d, want -1", code)
	}
	if code := srv.Stop(os.Kill); code != -1 {
		t.Errorf("a second Stop = %d, want -1 again", code)
	}
}

func TestBufferConcurrentWrites(t *testing.T) {
	var b testkit.Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				b.Write([]byte("line\n"))
				_ = b.String()
			}
		})
	}
	wg.Wait()
	if got, want := b.String(), strings.Repeat("line\n", 800); got != want {
		t.Errorf("got %d bytes, want %d", len(got), len(want))
	}
}

// TestLeakFindsEveryEcho keeps the scanner honest: it finds each echo of a
// credential, and nothing in text that does not hold one.
func TestLeakFindsEveryEcho(t *testing.T) {
	const secret = "ghp_X2aQ7Lm9Vb4Nc8Rt1Zy6WkP3dF5hJ0sG4eU7"
	for name, echo := range testkit.Echoes(secret) {
		if testkit.Leak(secret, "text "+echo+" text") == "" {
			t.Errorf("Leak missed the %s echo %q", name, echo)
		}
	}
	other := "ghp_R6cW3Hd5Kf0Pj8Sg2Wq7Ex1mV9bN4tL2yA5o"
	for name, echo := range testkit.Echoes(other) {
		if piece := testkit.Leak(secret, "[REDACTED] "+echo); piece != "" {
			t.Errorf("Leak found %q of the secret in the %s echo of another", piece, name)
		}
	}
}
