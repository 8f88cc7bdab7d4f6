package forges_test

import (
	"bytes"
	"context"
	"os/exec"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/forgetools/forgetools/gateway/store/storetest"
	"github.com/forgetools/forgetools/internal/testkit"
)

// kill ends the gateway with SIGKILL, as a crash would: no shutdown, no
// claim released, the socket file left behind.
func (e *env) kill() {
	e.t.Helper()
	if code := e.serve.Stop(syscall.SIGKILL); code != -1 {
		e.t.Fatalf("serve exited %d on SIGKILL, want death by the signal", code)
	}
	e.serve = nil
}

// waitFor polls cond until it holds; the bound only detects a hang.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(testkit.Timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A crash inside a slow create: GitHub has filed the issue but not yet
// answered when the gateway is killed -9. What the first attempt did is
// unknown to the store (its claim is pending, its lease still running), so
// a retry with the same key, on the restarted gateway, waits for the lease
// to expire (30 s), takes the claim over, and finds the issue the first
// attempt filed by the marker its body ends with: exactly one issue, and
// the retry reports it. Later retries replay it from the store.
func TestCrashInsideASlowCreate(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		t.Parallel() // each waits out a lease
		crashInsideASlowCreate(t, start(t, func(s *settings) { s.store = dsn }))
	})
}

func crashInsideASlowCreate(t *testing.T, e *env) {
	const route = "POST /repos/octocat/Hello-World/issues"
	e.github.Delay(route, nil) // file the issue, then never answer
	before := e.github.Issues("octocat/Hello-World")
	create := `{` + hello + `,"title":"Survives a crash","body":"Filed once."}`

	ctx, cancel := context.WithTimeout(context.Background(), testkit.Timeout)
	defer cancel()
	first := exec.CommandContext(ctx, binary, "call", "forge_create_issue", create, "--gateway", "unix://"+e.socket, "--id", "crash-1")
	var out bytes.Buffer
	first.Stdout, first.Stderr = &out, &out
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "GitHub to file the issue", func() bool { return e.github.Issues("octocat/Hello-World") == before+1 })
	e.kill()
	err := first.Wait()
	e.seen = append(e.seen, out.String())
	if err == nil || !regexp.MustCompile(`^forge_create_issue failed: `).MatchString(out.String()) {
		t.Fatalf("the call cut off by the crash: %v\n%s", err, out.String())
	}

	e.run(authorToken) // the same store: the claim is still pending
	got := e.ok("forge_create_issue", create, "crash-1")
	m := regexp.MustCompile(`^Created issue #(\d+) in octocat/Hello-World: https://github.com/octocat/Hello-World/issues/(\d+)$`).FindStringSubmatch(got)
	if m == nil || m[1] != m[2] {
		t.Fatalf("the retry after the crash: %s", got)
	}
	if n := e.github.Issues("octocat/Hello-World"); n != before+1 {
		t.Fatalf("GitHub holds %d issues, want %d: the create ran twice", n, before+1)
	}
	want(t, "a later retry", e.ok("forge_create_issue", create, "crash-1"),
		"Issue #"+m[1]+" in octocat/Hello-World already created by an earlier attempt")
	if !regexp.MustCompile(`took over an expired create reservation`).MatchString(e.logs()) ||
		!regexp.MustCompile(`resumed create found its earlier attempt's artifact`).MatchString(e.logs()) {
		t.Errorf("the gateway did not log the takeover and the find:\n%s", e.logs())
	}
	if n := len(e.github.Pending()); n != 0 {
		t.Errorf("%d injections unused", n)
	}
}
