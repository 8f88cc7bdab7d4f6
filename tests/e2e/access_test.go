package e2e_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// accessConfig adds, to alice, a bearer token for TCP and, beside her,
// bob, whose empty scope denies every repository.
const accessConfig = `
listen: 127.0.0.1:0
forges:
  - provider: local
    base_url: http://forge.test/f
accounts:
  - name: alice
    agent_handle: alice-bot
    owner_handle: alice
    scope: ["demo/*"]
    sessions: [alice-1, alice-2]
    token_envs: [ALICE_GATEWAY_TOKEN]
    # Pushes run unattended here: the approval gate has its own tests.
    policy: {push: allow, risk: {high: allow}, unreviewed_merge: allow}
  - name: bob
    agent_handle: bob-bot
    owner_handle: bob
    scope: []
    sessions: [bob-1]
`

const aliceGatewayToken = "ftk_alice_e2e_6b1f0c9d8e7a"

// TestIdentityAndScope: the socket or token a call arrives with is the
// account; scope is enforced per account; an unconfigured session has no
// socket and a wrong token is refused.
func TestIdentityAndScope(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "ALICE_GATEWAY_TOKEN="+aliceGatewayToken, "WRONG_GATEWAY_TOKEN=ftk_mallory_000000000000")
	dir := socketDir(t)
	srv := e.serve(4, "--config", writeConfig(t, accessConfig), "--store", storetest.SQLite(t), "--socket-dir", dir)
	alice := []string{"--gateway", srv.Sockets[0]}
	bob := []string{"--gateway", srv.Sockets[2]}

	// One socket per configured session, owner-only, in an owner-only
	// directory; nothing else.
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range entries {
		names = append(names, de.Name())
		fi, err := os.Lstat(filepath.Join(dir, de.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode()&os.ModeSocket == 0 || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want a socket with mode 0600", de.Name(), fi.Mode())
		}
	}
	if want := []string{"alice-1.sock", "alice-2.sock", "bob-1.sock"}; !slices.Equal(names, want) {
		t.Errorf("socket directory holds %v, want %v", names, want)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("socket directory mode: %v, %v; want 0700", fi.Mode(), err)
	}

	// Out of scope: refused in-band, naming the repository and account.
	e.call("forge_create_issue", `{"repo":"other/app","title":"Escape"}`, alice...).
		want(t, 1, `forge_create_issue failed: permission_denied: repository "other/app" is outside the scope of account "alice"`)
	e.call("forge_get_issue", `{"repo":"demo/app","issue_number":1}`, bob...).
		want(t, 1, `forge_get_issue failed: permission_denied: repository "demo/app" is outside the scope of account "bob"`)

	// A session nobody configured has no socket to call through.
	mallory := "unix://" + filepath.Join(dir, "mallory.sock")
	e.call("forge_get_issue", `{"repo":"demo/app","issue_number":1}`, "--gateway", mallory).
		want(t, 1, `forge_get_issue failed: unavailable: dial unix /.*/mallory\.sock: connect: no such file or directory`)

	// TCP: the right token acts as alice (session = the account name); a
	// wrong or missing token is refused before anything runs.
	tcp := []string{"--gateway", srv.TCP, "--token-env", "ALICE_GATEWAY_TOKEN"}
	e.call("forge_create_issue", `{"repo":"demo/app","title":"Over TCP"}`, tcp...).
		want(t, 0, `Created issue #1 in demo/app: http://forge\.test/f/demo/app/issues/1`)
	const refused = `forge_create_issue failed: unauthenticated: a valid bearer token is required \(Authorization: Bearer <token>\)`
	e.call("forge_create_issue", `{"repo":"demo/app","title":"Wrong token"}`, "--gateway", srv.TCP, "--token-env", "WRONG_GATEWAY_TOKEN").
		want(t, 1, refused)
	e.call("forge_create_issue", `{"repo":"demo/app","title":"No token"}`, "--gateway", srv.TCP).
		want(t, 1, refused)
	list := e.call("forge_list_issues", `{"repo":"demo/app","state":"all"}`, tcp...).record(t)
	if !strings.Contains(list, "issues: 1\n") || !strings.Contains(list, "agent=alice-bot owner=alice session=alice\n") {
		t.Errorf("after refused TCP calls, want only alice's one issue, attributed to session alice; got\n%s", list)
	}
	if !strings.Contains(srv.Stderr.String(), "rejected a TCP call without a valid bearer token") {
		t.Errorf("serve logged no rejected TCP call:\n%s", srv.Stderr.String())
	}
}

// TestInProcessCallsShareTheStore: `forgetools call` with no --gateway runs
// the gateway in-process on the embedded default, and a second process on
// the same store reads back what the first created; the same --id replays.
func TestInProcessCallsShareTheStore(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, dsn string) {
		t.Parallel()
		e := newEnv(t)
		const issue = `{"repo":"demo/app","title":"Written by the first process","labels":["bug"]}`
		e.call("forge_create_issue", issue, "--store", dsn, "--id", "first").
			want(t, 0, `Created issue #1 in demo/app: http://localhost/forge/demo/app/issues/1`)
		e.call("forge_create_issue", issue, "--store", dsn, "--id", "first").
			want(t, 0, `Issue #1 in demo/app already created by an earlier attempt`)
		wantText(t, e.call("forge_get_issue", `{"repo":"demo/app","issue_number":1}`, "--store", dsn).record(t), header+
			"# issue\nrepo: demo/app\nnumber: 1\nstate: open\nurl: http://localhost/forge/demo/app/issues/1\nlabels: bug\nauthor: demo\n"+
			"claim (unverified): agent=demo-agent owner=demo-owner session=demo\n"+
			"<<<title-NONCE\nWritten by the first process\n>>>NONCE\ncreated_at: TIME\nupdated_at: TIME\ncomments: none\n")
	})
}

// TestDefaultStoreIsInTheDataDir: with neither --config nor --store, calls
// share a SQLite file in FORGETOOLS_DATA_DIR.
func TestDefaultStoreIsInTheDataDir(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.call("forge_create_issue", `{"repo":"demo/app","title":"Zero setup"}`).
		want(t, 0, `Created issue #1 in demo/app: http://localhost/forge/demo/app/issues/1`)
	if !strings.Contains(e.call("forge_get_issue", `{"repo":"demo/app","issue_number":1}`).record(t), "\nZero setup\n") {
		t.Error("the second call did not read back the first call's issue")
	}
	if _, err := os.Stat(filepath.Join(e.dataDir(), "forgetools.db")); err != nil {
		t.Errorf("default store: %v", err)
	}
}
