package local_test

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/testkit"
	"github.com/forgetools/forgetools/providers/local"
)

// Where the sandbox cannot be made, CI refuses and records no run: it
// never falls back to running unconfined.
func TestCISandboxFailsClosed(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no bwrap, no prlimit
	f, _ := newForge(t, sqliteDatabase(t), local.Options{CI: local.CI{Command: "touch /tmp/ran"}})
	ctx := context.Background()
	_, err := f.TriggerCi(ctx, alice, &gatewayv1.TriggerCIRequest{Repo: "acme/app", Workflow: "ci", Ref: "main"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "refuses to run CI", "bwrap is not installed", "ci_sandbox: none")
	runs, err := f.ListCiRuns(ctx, alice, &gatewayv1.ListCIRunsRequest{Repo: "acme/app"})
	if err != nil || len(runs.GetRuns()) != 0 {
		t.Fatalf("a refused run was recorded: %v, %v", runs, err)
	}
}

// ci_sandbox: none runs the command as the gateway's user, saying so in
// the log at every run.
func TestCISandboxNoneWarnsEveryRun(t *testing.T) {
	var logs bytes.Buffer
	f, _ := newForge(t, sqliteDatabase(t), local.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil)),
		CI: local.CI{Command: "id -u; false", Sandbox: local.SandboxNone}})
	for range 2 {
		run := trigger(t, f, "main", "x")
		if got := run.GetJobs()[0].GetLogTail(); strings.TrimSpace(got) != strings.TrimSpace(uidOf(t)) {
			t.Errorf("an unsandboxed run ran as %q, want the gateway's uid %s", got, uidOf(t))
		}
	}
	if n := strings.Count(logs.String(), "CI runs unsandboxed (ci_sandbox: none)"); n != 2 {
		t.Errorf("%d warnings for 2 unsandboxed runs:\n%s", n, logs.String())
	}
}

func uidOf(t *testing.T) string {
	out, err := exec.Command("id", "-u").Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestCISandboxSettingsChecked(t *testing.T) {
	for _, ci := range []local.CI{{Command: "true", Sandbox: "docker"}, {Command: "true", UID: -1}} {
		if _, err := local.New(context.Background(), sqliteDatabase(t).open(t), local.Options{GitDir: t.TempDir(), CI: ci}); err == nil {
			t.Errorf("CI settings %+v accepted", ci)
		}
	}
}

// sandboxProbe reports what a run can see and do, one line each.
const sandboxProbe = `
echo "uid=$(id -u) gid=$(id -g)"
for p in /proc/[0-9]*; do echo "pid ${p#/proc/}"; done
touch /work/mine && echo "checkout writable"
touch /tmp/mine && echo "tmp writable"
touch /usr/mine 2>/dev/null && echo "usr WRITABLE"
test -e "$GITDIR" && echo "git dir VISIBLE"
test -e /etc/shadow && echo "shadow VISIBLE"
test -e /etc/ssl/private && echo "TLS keys VISIBLE"
test -e /etc/ssl/certs/ca-certificates.crt || echo "CA bundle MISSING"
ls /
(exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null && echo "network OPEN"
echo "limits cpu=$(ulimit -t) as=$(ulimit -v) procs=$(ulimit -u) fsize=$(ulimit -f)"
(exec 3<>/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && echo "listener OPEN"
false
`

// A sandboxed run is nobody (the gateway here is root or not), sees only
// its own processes, writes only its checkout and /tmp, and sees none of
// the gateway's files.
func TestCISandboxConfines(t *testing.T) {
	testkit.RequireSandbox(t)
	d := sqliteDatabase(t)
	t.Setenv("GITDIR", d.gitDir)
	t.Setenv("PORT", listen(t))
	ci := local.CI{Command: "exec /bin/bash -c '" + strings.ReplaceAll(sandboxProbe, "'", `'\''`) + "'", Env: []string{"GITDIR", "PORT"}}
	f, _ := newForge(t, d, local.Options{CI: ci})
	log := trigger(t, f, "main", "x").GetJobs()[0].GetLogTail()
	for _, want := range []string{"uid=65534 gid=65534\n", "checkout writable\n", "tmp writable\n",
		// bash's ulimit -v and -f count KiB; the timeout is 10m.
		"limits cpu=600 as=4194304 procs=512 fsize=1048576\n"} {
		if !strings.Contains(log, want) {
			t.Errorf("the run's log lacks %q:\n%s", want, log)
		}
	}
	for _, bad := range []string{"WRITABLE", "VISIBLE", "OPEN", "MISSING", "\nrun\n", "\nroot\n", "\nhome\n", "\nopt\n"} {
		if strings.Contains(log, bad) {
			t.Errorf("the run's log shows %q:\n%s", bad, log)
		}
	}
	if n := strings.Count(log, "pid "); n > 4 {
		t.Errorf("the run sees %d processes, more than its own:\n%s", n, log)
	}
}

// listen opens a loopback listener for the test and returns its port.
func listen(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// ci_network: true shares the host's network with a sandboxed run.
func TestCISandboxNetworkWhenAsked(t *testing.T) {
	testkit.RequireSandbox(t)
	t.Setenv("PORT", listen(t))
	f, _ := newForge(t, sqliteDatabase(t), local.Options{CI: local.CI{Network: true, Env: []string{"PORT"},
		Command: `bash -c 'exec 3<>/dev/tcp/127.0.0.1/$PORT' && echo "listener OPEN"; false`}})
	if log := trigger(t, f, "main", "x").GetJobs()[0].GetLogTail(); !strings.Contains(log, "listener OPEN\n") {
		t.Fatalf("with ci_network the run cannot reach a loopback listener:\n%s", log)
	}
}
