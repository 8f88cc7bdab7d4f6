package local

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing"
)

const (
	// logTailBytes is how much of a run's output is kept: the end, where a
	// failure says why. With the dropped-output marker it stays within
	// CIJob.log_tail's render budget of 8,000 characters.
	logTailBytes = 7900
	// storeGrace bounds recording a run's end after the caller has gone.
	storeGrace = 10 * time.Second
	// killGrace is how long a timed-out command's output pipes may stay
	// open after its process group was killed.
	killGrace = 5 * time.Second
)

// baseCIEnv are the variables a CI command sees from the gateway's own
// environment besides CI.Env: enough to find tools and a home, never a
// credential.
var baseCIEnv = []string{"PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_ALL", "TZ", "TMPDIR", "TERM"}

func checkCI(ci CI) (CI, error) {
	ci, err := checkSandbox(ci)
	if err != nil {
		return ci, err
	}
	if ci.Timeout < 0 {
		return ci, fmt.Errorf("CI timeout %s is negative", ci.Timeout)
	}
	if ci.Timeout == 0 {
		ci.Timeout = DefaultCITimeout
	}
	for _, name := range ci.Env {
		if name == "" || strings.ContainsAny(name, "=\x00") {
			return ci, fmt.Errorf("CI environment variable name %q is not a name", name)
		}
	}
	return ci, nil
}

// outcome is how a command ended.
type outcome struct {
	conclusion string
	logTail    string
}

// runCommand checks ru's commit out into a temporary directory and runs
// the command there, in its own process group (killed whole on timeout),
// with a scrubbed environment plus what describes the run: in sb's
// sandbox, or as the gateway's user when sb is nil (ci_sandbox: none).
func (f *Forge) runCommand(ctx context.Context, sb *sandbox, r *repository, commit plumbing.Hash, ru *run, inputs []ciInput) outcome {
	var dir string
	var err error
	if sb != nil {
		dir, err = sb.checkoutDir()
	} else {
		dir, err = os.MkdirTemp("", "forgetools-ci-")
	}
	if err != nil {
		return outcome{"failure", "forgetools: cannot make a checkout directory: " + err.Error()}
	}
	defer os.RemoveAll(dir)
	if err := r.git.Checkout(commit, dir); err != nil {
		return outcome{"failure", "forgetools: cannot check out " + commit.String() + ": " + err.Error()}
	}
	ctx, cancel := context.WithTimeout(ctx, f.ci.Timeout)
	defer cancel()
	var cmd *exec.Cmd
	if sb != nil {
		if err := sb.own(dir); err != nil {
			return outcome{"failure", "forgetools: cannot hand the checkout to the run's user: " + err.Error()}
		}
		cmd = sb.command(ctx, dir, f.ci.Command, sandboxEnv(f.ciEnv(r.name, ru, inputs)))
	} else {
		cmd = exec.CommandContext(ctx, "/bin/sh", "-c", f.ci.Command)
		cmd.Dir = dir
		cmd.Env = f.ciEnv(r.name, ru, inputs)
		processGroup(cmd)
	}
	cmd.WaitDelay = killGrace
	tail := &tailBuffer{max: logTailBytes}
	cmd.Stdout, cmd.Stderr = tail, tail
	err = cmd.Run()
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		fmt.Fprintf(tail, "\nforgetools: the command ran longer than %s and was stopped\n", f.ci.Timeout)
		return outcome{"timed_out", tail.String()}
	case ctx.Err() != nil:
		fmt.Fprintf(tail, "\nforgetools: the run was cancelled\n")
		return outcome{"cancelled", tail.String()}
	case err != nil:
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			fmt.Fprintf(tail, "\nforgetools: %v\n", err)
		}
		return outcome{"failure", tail.String()}
	}
	return outcome{"success", tail.String()}
}

// ciEnv is the command's whole environment.
func (f *Forge) ciEnv(repo string, ru *run, inputs []ciInput) []string {
	var env []string
	for _, name := range append(baseCIEnv[:len(baseCIEnv):len(baseCIEnv)], f.ci.Env...) {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	env = append(env, "CI=true", "FORGETOOLS_CI_REPO="+repo, "FORGETOOLS_CI_REF="+ru.ref,
		"FORGETOOLS_CI_SHA="+ru.headSHA, "FORGETOOLS_CI_WORKFLOW="+ru.workflow, fmt.Sprintf("FORGETOOLS_CI_RUN_ID=%d", ru.id))
	for _, in := range inputs {
		// Input names are [A-Za-z0-9_-]; GitHub Actions spells them INPUT_<NAME>.
		env = append(env, "INPUT_"+strings.ToUpper(strings.ReplaceAll(in.Name, "-", "_"))+"="+in.Value)
	}
	return env
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu      sync.Mutex
	max     int
	buf     []byte
	dropped bool
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.dropped = true
	}
	return len(p), nil
}

// String is the tail, starting on a character boundary, with a marker when
// the start of the log was dropped.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	for len(b) > 0 && !utf8.RuneStart(b[0]) {
		b = b[1:]
	}
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	if t.dropped {
		return "…(earlier output dropped)\n" + s
	}
	return s
}
