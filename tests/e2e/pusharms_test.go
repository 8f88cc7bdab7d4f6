package e2e_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/forgetools/forgetools/gateway/store/storetest"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/toolserver"
)

// pushArmsConfig: demo is the agent, under the default policy (push:
// operator); seed prepares each repository and runs its pushes
// unattended. The verbs are the approval expiry and the local forge's
// git_dir (in the data directory, whichever store backend).
const pushArmsConfig = `approval_expiry: %s
listen: 127.0.0.1:0
forges:
  - provider: local
    git_dir: %s
accounts:
  - {name: demo, agent_handle: demo-agent, owner_handle: demo-owner, scope: ["*"], sessions: [demo], token_envs: [PUSH_ARMS_TOKEN]}
  - {name: seed, agent_handle: seed-bot, owner_handle: seed-owner, scope: ["*"], sessions: [seed], policy: {push: allow, risk: {high: allow}, unreviewed_merge: allow}}
`

const pushArmsToken = "ftk_pusharms_e2e_0c1d2e3f4a5b"

// seeded is what seedRepo prepared in one repository: the pull request
// a merge arm merges and the head it was reviewed at.
type seeded struct {
	repo    string
	pr      string
	headSHA string
}

// pushArgs are the arguments of each push arm's call, given a seeded
// repository. A push arm the table gains without a row here fails the
// test, so it cannot slip past the gate untested.
var pushArgs = map[string]func(s seeded) string{
	"create_branch": func(s seeded) string { return `{"repo":"` + s.repo + `","branch":"agent-branch"}` },
	"write_file": func(s seeded) string {
		return `{"repo":"` + s.repo + `","branch":"feature","path":"notes.txt","content":"hello\n","message":"Add notes"}`
	},
	"merge_pull_request": func(s seeded) string {
		return `{"repo":"` + s.repo + `","pull_number":` + s.pr + `,"expected_head_sha":"` + s.headSHA + `"}`
	},
	"commit_files": func(s seeded) string {
		return `{"repo":"` + s.repo + `","branch":"feature","message":"Add a set","files":[` +
			`{"path":"set/a.txt","content":"a\n"},{"path":"set/b.txt","content":"b\n"}]}`
	},
}

// pushArmTools lists the push arms of the generated table (arm name to
// tool name), sorted by arm name.
func pushArmTools(t *testing.T) [][2]string {
	t.Helper()
	var arms [][2]string
	for _, a := range gatewayv1handler.ForgeTable.Arms {
		if a.Approval == toolserver.ApprovalPush {
			arms = append(arms, [2]string{a.Name, a.Tool})
		}
	}
	if len(arms) == 0 {
		t.Fatal("the generated table has no push arm")
	}
	slices.SortFunc(arms, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	for _, a := range arms {
		if pushArgs[a[0]] == nil {
			t.Fatalf("push arm %s (%s) has no arguments in pushArgs: add them so the gate is tested on it", a[0], a[1])
		}
	}
	return arms
}

// pushCaller makes one call as the demo agent and returns the text the
// model reads and whether it is an error.
type pushCaller func(t *testing.T, tool, args string) (string, bool)

// pushTransport starts one way of reaching the gateway on the env's store
// with config cfg.
type pushTransport struct {
	name  string
	start func(t *testing.T, e *env, cfg, store string) pushCaller
}

// cliCaller runs `forgetools call` with flags.
func cliCaller(e *env, flags ...string) pushCaller {
	return func(t *testing.T, tool, args string) (string, bool) {
		t.Helper()
		r := e.call(tool, args, flags...)
		if r.code != 0 && r.code != 1 {
			t.Fatalf("call exited %d: %v", r.code, r)
		}
		return strings.TrimSuffix(r.stdout, "\n"), r.code != 0
	}
}

var pushTransports = []pushTransport{
	{"socket", func(t *testing.T, e *env, cfg, store string) pushCaller {
		srv := e.serve(3, "--config", cfg, "--store", store, "--socket-dir", socketDir(t))
		for _, s := range srv.Sockets {
			if filepath.Base(s) == "demo.sock" {
				return cliCaller(e, "--gateway", s)
			}
		}
		t.Fatalf("no socket for session demo in %q", srv.Sockets)
		return nil
	}},
	{"tcp", func(t *testing.T, e *env, cfg, store string) pushCaller {
		srv := e.serve(3, "--config", cfg, "--store", store, "--socket-dir", socketDir(t))
		return cliCaller(e, "--gateway", srv.TCP, "--token-env", "PUSH_ARMS_TOKEN")
	}},
	{"mcp-stdio", func(t *testing.T, e *env, cfg, store string) pushCaller {
		cs := e.mcpClient(nil, "--config", cfg, "--store", store, "--session", "demo")
		return func(t *testing.T, tool, args string) (string, bool) { t.Helper(); return callText(t, cs, tool, args) }
	}},
	{"mcp-http", func(t *testing.T, e *env, cfg, store string) pushCaller {
		_, endpoint := e.mcpHTTP("--config", cfg, "--store", store)
		cs, err := httpSession(t, endpoint, pushArmsToken, nil)
		if err != nil {
			t.Fatal(err)
		}
		return func(t *testing.T, tool, args string) (string, bool) { t.Helper(); return callText(t, cs, tool, args) }
	}},
	{"call", func(t *testing.T, e *env, cfg, store string) pushCaller {
		return cliCaller(e, "--config", cfg, "--store", store, "--session", "demo")
	}},
}

var parkedLine = regexp.MustCompile(`^(forge_\w+) failed: pending_approval: approval (ap-[a-z2-7]+): this call waits for an operator and has not reached the forge: `)

// TestEveryPushArmOverEveryTransport: with push: operator, every push arm
// of the generated table, over a session socket, TCP with a bearer token,
// `forgetools mcp` on stdio and HTTP and `forgetools call`, parks without
// moving any ref of the local forge's bare repository; the repeat answers
// the same approval and adds no row; `forgetools approvals approve` runs
// it once (exactly one ref changes) and the repeat then reads the result
// without writing again. For the first arm per transport, a denial reaches
// the model as permission_denied with the reason, and an approval past a
// tiny approval_expiry is refused and runs nothing. On SQLite and
// PostgreSQL, each (backend, transport) with a store and forge of its own.
func TestEveryPushArmOverEveryTransport(t *testing.T) {
	t.Parallel()
	arms := pushArmTools(t)
	for _, backend := range []struct {
		name     string
		newStore func(testing.TB) string
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		t.Run(backend.name, func(t *testing.T) {
			for _, tr := range pushTransports {
				pushArmsOver(t, tr, arms, backend.newStore)
			}
		})
	}
}

// pushArmsOver runs every arm's case over one transport, on a store and
// forge of its own.
func pushArmsOver(t *testing.T, tr pushTransport, arms [][2]string, newStore func(testing.TB) string) {
	t.Run(tr.name, func(t *testing.T) {
		t.Parallel()
		store := newStore(t)
		e := newEnv(t, "PUSH_ARMS_TOKEN="+pushArmsToken)
		repos := filepath.Join(e.dataDir(), "repos")
		cfg := writeConfig(t, fmt.Sprintf(pushArmsConfig, "1h", repos))
		short := writeConfig(t, fmt.Sprintf(pushArmsConfig, "1s", repos))
		p := pushProbe{t: t, e: e, cfg: cfg, store: store}
		main, denied, expired := p.seed("demo/"+tr.name), p.seed("demo/"+tr.name+"-deny"), p.seed("demo/"+tr.name+"-late")

		call := tr.start(t, e, cfg, store)
		for _, arm := range arms {
			t.Run(arm[0], func(t *testing.T) { p.approveOnce(t, call, arm[1], main.repo, pushArgs[arm[0]](main)) })
		}
		first := arms[0]
		t.Run("deny/"+first[0], func(t *testing.T) { p.deny(t, call, first[1], denied.repo, pushArgs[first[0]](denied)) })
		t.Run("expire/"+first[0], func(t *testing.T) {
			late := tr.start(t, e, short, store)
			p.expire(t, late, first[1], expired.repo, pushArgs[first[0]](expired), short)
		})
	})
}

// pushProbe drives one transport's cases and reads the forge and the
// store behind it with git and `forgetools approvals`.
type pushProbe struct {
	t          *testing.T
	e          *env
	cfg, store string
}

var (
	openedPR  = regexp.MustCompile(`^Opened PR #(\d+) in `)
	committed = regexp.MustCompile(`^Committed topic\.txt to topic in [^:]+: ([0-9a-f]{40})\n$`)
)

// seed prepares repo as the unattended seed account, before any
// transport runs: branches feature and topic, a commit on topic and a
// pull request from topic into main.
func (p pushProbe) seed(repo string) seeded {
	t := p.t
	t.Helper()
	as := func(tool, args string) string {
		t.Helper()
		r := p.e.call(tool, args, "--config", p.cfg, "--store", p.store, "--session", "seed")
		if r.code != 0 {
			t.Fatalf("seeding %s: %v", repo, r)
		}
		return r.stdout
	}
	as("forge_create_branch", `{"repo":"`+repo+`","branch":"feature"}`)
	as("forge_create_branch", `{"repo":"`+repo+`","branch":"topic"}`)
	c := committed.FindStringSubmatch(as("forge_write_file", `{"repo":"`+repo+`","branch":"topic","path":"topic.txt","content":"topic\n","message":"Add topic"}`))
	pr := openedPR.FindStringSubmatch(as("forge_create_pull_request", `{"repo":"`+repo+`","title":"Topic","head_ref":"topic","base_ref":"main"}`))
	if c == nil || pr == nil {
		t.Fatalf("seeding %s: no commit or pull request read back", repo)
	}
	return seeded{repo: repo, pr: pr[1], headSHA: c[1]}
}

// refs reads every ref of repo's bare repository in the data directory.
func (p pushProbe) refs(t *testing.T, repo string) map[string]string {
	t.Helper()
	dir := filepath.Join(p.e.dataDir(), "repos", filepath.FromSlash(repo)+".git")
	out, err := exec.Command("git", "--git-dir", dir, "for-each-ref", "--format=%(refname) %(objectname)").CombinedOutput()
	if err != nil {
		t.Fatalf("git for-each-ref in %s: %v: %s", dir, err, out)
	}
	refs := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if name, sha, ok := strings.Cut(line, " "); ok {
			refs[name] = sha
		}
	}
	if len(refs) == 0 {
		t.Fatalf("%s has no refs", dir)
	}
	return refs
}

// changed counts the refs added, moved or removed between two readings.
func changed(before, after map[string]string) int {
	n := 0
	for name, sha := range after {
		if before[name] != sha {
			n++
		}
	}
	for name := range before {
		if _, ok := after[name]; !ok {
			n++
		}
	}
	return n
}

// rows counts the approvals in the store, in every state.
func (p pushProbe) rows(t *testing.T) int {
	t.Helper()
	r := p.e.run("approvals", "list", "--state", "all", "--config", p.cfg, "--store", p.store)
	if r.code != 0 {
		t.Fatalf("approvals list: %v", r)
	}
	if strings.HasPrefix(r.stdout, "No approvals") {
		return 0
	}
	return strings.Count(r.stdout, "\n")
}

// park makes the call twice and checks both park it under one approval,
// adding one row and moving no ref; it returns the approval id and the
// refs as they were.
func (p pushProbe) park(t *testing.T, call pushCaller, tool, repo, args string) (string, map[string]string) {
	t.Helper()
	before, rows := p.refs(t, repo), p.rows(t)
	var ids []string
	for range 2 {
		text, isErr := call(t, tool, args)
		m := parkedLine.FindStringSubmatch(text)
		if !isErr || m == nil || m[1] != tool {
			t.Fatalf("%s %s: want it parked, got (error %v) %s", tool, args, isErr, text)
		}
		ids = append(ids, m[2])
		if n := changed(before, p.refs(t, repo)); n != 0 {
			t.Fatalf("%s reached the forge without a decision: %d refs changed", tool, n)
		}
	}
	if ids[0] != ids[1] {
		t.Fatalf("the repeat parked %s, want %s", ids[1], ids[0])
	}
	if got := p.rows(t); got != rows+1 {
		t.Fatalf("%d approval rows after parking twice, want %d", got, rows+1)
	}
	return ids[0], before
}

// approveOnce: parked until approved, then exactly one forge write, and
// the repeat reads the result without a second.
func (p pushProbe) approveOnce(t *testing.T, call pushCaller, tool, repo, args string) {
	t.Helper()
	id, before := p.park(t, call, tool, repo, args)
	rows := p.rows(t)
	p.e.run("approvals", "approve", id, "--operator", "ops", "--reason", "fine", "--config", p.cfg, "--store", p.store).
		want(t, 0, `Approved `+id+` \(`+tool+` on `+regexp.QuoteMeta(repo)+`\); the call ran\.`)
	after := p.refs(t, repo)
	if n := changed(before, after); n != 1 {
		t.Fatalf("the approved %s changed %d refs, want exactly 1", tool, n)
	}
	text, isErr := call(t, tool, args)
	if isErr || parkedLine.MatchString(text) {
		t.Fatalf("after approval the repeat answered (error %v) %s", isErr, text)
	}
	if n := changed(after, p.refs(t, repo)); n != 0 || p.rows(t) != rows {
		t.Fatalf("the repeat after approval wrote again (%d refs changed) or parked anew", n)
	}
}

// deny: the model reads permission_denied with the operator's reason and
// the forge never moves.
func (p pushProbe) deny(t *testing.T, call pushCaller, tool, repo, args string) {
	t.Helper()
	id, before := p.park(t, call, tool, repo, args)
	p.e.run("approvals", "deny", id, "--operator", "ops", "--reason", "not this one", "--config", p.cfg, "--store", p.store).
		want(t, 0, `Denied `+id+` \(`+tool+` on `+regexp.QuoteMeta(repo)+`\): not this one`)
	text, isErr := call(t, tool, args)
	if want := tool + " failed: permission_denied: approval " + id + ": operator ops denied this call: not this one"; !isErr || text != want {
		t.Fatalf("after the denial: (error %v) %s\nwant %s", isErr, text, want)
	}
	if n := changed(before, p.refs(t, repo)); n != 0 {
		t.Fatalf("a denied %s changed %d refs", tool, n)
	}
}

// expire: parked on a gateway with a one-second approval_expiry, the
// approval is refused once that passed, runs nothing, and the same call
// parks anew.
func (p pushProbe) expire(t *testing.T, call pushCaller, tool, repo, args, cfg string) {
	t.Helper()
	// Parked once only: a repeat after the second passed would park anew.
	before, rows := p.refs(t, repo), p.rows(t)
	text, _ := call(t, tool, args)
	m := parkedLine.FindStringSubmatch(text)
	if m == nil || p.rows(t) != rows+1 {
		t.Fatalf("want %s parked with one new row, got %s", tool, text)
	}
	id := m[2]
	time.Sleep(1100 * time.Millisecond) // past the expiry whatever the machine's speed: the check only ever passes later
	if r := p.e.run("approvals", "approve", id, "--config", cfg, "--store", p.store); r.code != 1 || !strings.Contains(r.stderr, "expired before it was decided") {
		t.Fatalf("approve after the expiry: %v", r)
	}
	if n := changed(before, p.refs(t, repo)); n != 0 {
		t.Fatalf("an expired %s changed %d refs", tool, n)
	}
	text, _ = call(t, tool, args)
	if m := parkedLine.FindStringSubmatch(text); m == nil || m[2] == id {
		t.Fatalf("the call after the expiry answered %s, want a fresh approval", text)
	}
}
