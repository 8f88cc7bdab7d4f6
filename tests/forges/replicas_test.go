package forges_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
	"github.com/forgetools/forgetools/internal/testkit"
)

// replica serves the test's configuration a second time, on its own
// socket directory, sharing the store and the forges: a second gateway
// replica. It returns the replica and its session's socket.
func (e *env) replica() (*testkit.Server, string) {
	e.t.Helper()
	cfg, err := os.ReadFile(e.config)
	if err != nil {
		e.t.Fatal(err)
	}
	dir := filepath.Join(e.dir, "s2")
	cfg = bytes.Replace(cfg, []byte("socket_dir: "+filepath.Join(e.dir, "s")+"\n"), []byte("socket_dir: "+dir+"\n"), 1)
	path := filepath.Join(e.dir, "replica.yaml")
	if err := os.WriteFile(path, cfg, 0o600); err != nil {
		e.t.Fatal(err)
	}
	cmd := exec.Command(binary, "serve", "--config", path, "--log-level", "info")
	cmd.Env = credentialEnv(authorToken)
	srv := testkit.Serve(e.t, cmd, 1)
	e.served = append(e.served, srv)
	return srv, filepath.Join(dir, session+".sock")
}

// burstCall is one `forgetools call` of the burst, run to its end.
type burstCall struct {
	socket string
	out    string
	failed bool
}

func (e *env) callOn(socket, tool, args, id string) burstCall {
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "call", tool, args, "--gateway", "unix://"+socket, "--id", id)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return burstCall{socket: socket, out: out.String(), failed: err != nil}
}

// Two gateway replicas on one PostgreSQL, in front of one GitHub: 50
// identical creates (one tool call id) split between them, and the replica
// holding the create killed -9 in the middle of the burst, with GitHub
// having filed the issue and not yet answered. The killed replica is
// restarted and every call it dropped is retried, on it. Exactly one issue
// is filed; every call ends naming it (the one that took the dead claim
// over reports it created, the rest replay it); and a retry on either
// replica afterwards replays it.
func TestTwoReplicasOnePostgres(t *testing.T) {
	dsn := storetest.Postgres(t)
	e := start(t, func(s *settings) { s.store = dsn })
	replicaB, socketB := e.replica()
	socketA := e.socket
	const route = "POST /repos/octocat/Hello-World/issues"
	const burst = 50
	create := `{` + hello + `,"title":"Filed once by two replicas","body":"Burst."}`
	before := e.github.Issues("octocat/Hello-World")
	e.github.Delay(route, nil) // the first create lands, and its answer never comes

	results := make([]burstCall, burst)
	var wg sync.WaitGroup
	wg.Go(func() { results[0] = e.callOn(socketA, "forge_create_issue", create, "burst-1") })
	waitFor(t, "replica A's create to reach GitHub", func() bool { return e.github.Issues("octocat/Hello-World") == before+1 })
	for i := 1; i < burst; i++ {
		socket := socketA
		if i%2 == 1 {
			socket = socketB
		}
		wg.Go(func() { results[i] = e.callOn(socket, "forge_create_issue", create, "burst-1") })
	}
	e.kill() // replica A, mid-burst, holding the claim
	e.run(authorToken)
	wg.Wait()

	retried := 0
	for i, r := range results {
		for r.failed && r.socket == socketA {
			// A call replica A dropped: the model retries it, on A.
			retried++
			r = e.callOn(socketA, "forge_create_issue", create, "burst-1")
		}
		results[i] = r
	}
	created := regexp.MustCompile(`^Created issue #(\d+) in octocat/Hello-World: \S+\n$`)
	replayed := regexp.MustCompile(`^Issue #(\d+) in octocat/Hello-World already created by an earlier attempt\n$`)
	numbers := map[string]int{}
	acks := 0
	for i, r := range results {
		e.seen = append(e.seen, r.out)
		if m := created.FindStringSubmatch(r.out); m != nil {
			acks++
			numbers[m[1]]++
		} else if m := replayed.FindStringSubmatch(r.out); m != nil {
			numbers[m[1]]++
		} else {
			t.Errorf("call %d on %s: %s", i, filepath.Base(filepath.Dir(r.socket)), r.out)
		}
	}
	t.Logf("%d calls, %d dropped by the kill and retried, %d reported the create, issues filed: %d",
		burst, retried, acks, e.github.Issues("octocat/Hello-World")-before)
	if n := e.github.Issues("octocat/Hello-World"); n != before+1 {
		t.Fatalf("GitHub holds %d new issues, want exactly 1", n-before)
	}
	if len(numbers) != 1 || acks > 1 {
		t.Fatalf("the calls named issues %v (%d create acks), want one issue and at most one create ack", numbers, acks)
	}
	for _, socket := range []string{socketA, socketB} {
		r := e.callOn(socket, "forge_create_issue", create, "burst-1")
		e.seen = append(e.seen, r.out)
		if !replayed.MatchString(r.out) {
			t.Errorf("a retry after the burst on %s: %s", filepath.Base(filepath.Dir(socket)), r.out)
		}
	}
	if !strings.Contains(e.logs(), "took over an expired create reservation") {
		t.Errorf("no replica took the dead claim over:\n%s", e.logs())
	}
	replicaB.Stop(os.Interrupt)
}
