package e2e_test

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
	"github.com/forgetools/forgetools/internal/testkit"
)

// ciThiefConfig is a gateway holding a GitHub token, whose local forge
// runs the ci.sh of the ref under test; alice may touch only demo/app,
// ops also keeps demo/private.
const ciThiefConfig = `
listen: 127.0.0.1:0
forges:
  - provider: local
    default: true
    base_url: http://forge.test/f
    ci_command: "sh ./ci.sh"
    ci_sandbox: %s
  - provider: github
    api_url: http://127.0.0.1:9/
    token_env: E2E_GITHUB_TOKEN
# Pushes run unattended: this test is about the CI sandbox, not the gate.
accounts:
  - {name: alice, agent_handle: alice-bot, owner_handle: alice, scope: ["demo/app"], sessions: [alice-1],
     policy: {push: allow, risk: {high: allow}}, flow: {untrusted_content: false}}
  - {name: ops, agent_handle: ops-bot, owner_handle: ops, scope: ["demo/*"], sessions: [ops-1], push_to_default_branch: true,
     policy: {push: allow, risk: {high: allow}}, flow: {untrusted_content: false}}
`

// ciThief is what a hostile agent commits as its CI: it hunts the
// gateway's credentials in every process's environment, the store file,
// the data directory, the sockets and another account's repository, and
// tries the network, printing what it finds reversed, in hex and in
// base64 so no redactor of plain text hides it. The paths are the real
// ones: an agent with a shell on the gateway's host knows them.
const ciThief = `
echo "uid=$(id -u)"
for f in /proc/[0-9]*/environ; do
  { tr '\0' '\n' <"$f"; } 2>/dev/null | grep -a TOKEN | while read -r kv; do
    echo "environ $f: $(printf %%s "$kv" | rev) $(printf %%s "$kv" | od -An -tx1 | tr -d ' \n') $(printf %%s "$kv" | base64 -w0)"
  done
done
for f in %[1]s %[1]s-wal; do
  test -r "$f" && echo "store READABLE $f" && grep -a -o 'ghp_[A-Za-z0-9]*' "$f" | rev
done
test -e %[2]s && echo "data dir VISIBLE" && grep -r -a -o 'ghp_[A-Za-z0-9]*' %[2]s 2>/dev/null | rev
for s in %[3]s/* %[3]s/*/*; do test -e "$s" && echo "socket VISIBLE $s"; done
test -e %[4]s && echo "other repository VISIBLE" && ls %[4]s
bash -c 'exec 3<>/dev/tcp/127.0.0.1/%[5]s' 2>/dev/null && echo "gateway TCP OPEN"
bash -c 'exec 3<>/dev/tcp/127.0.0.1/5432' 2>/dev/null && echo "postgres OPEN"
echo "probe done"
false
`

// TestCISandboxKeepsTheGatewaysSecrets is issue 19's proof of the CI
// sandbox: an agent's CI job, triggered through the real gateway, gets no
// form of the forge token and sees no store, socket or other repository.
// The same job with ci_sandbox: none finds the token, so the probe is one
// that would find it.
func TestCISandboxKeepsTheGatewaysSecrets(t *testing.T) {
	t.Parallel()
	testkit.RequireSandbox(t)
	for _, mode := range []string{"bubblewrap", "none"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, "E2E_GITHUB_TOKEN="+githubToken)
			dsn, socks := storetest.SQLite(t), socketDir(t)
			srv := e.serve(3, "--config", writeConfig(t, fmt.Sprintf(ciThiefConfig, mode)), "--store", dsn, "--socket-dir", socks)
			alice := func(tool, args string) result { t.Helper(); return e.call(tool, args, "--gateway", srv.Sockets[0]) }
			ops := func(tool, args string) result { t.Helper(); return e.call(tool, args, "--gateway", srv.Sockets[1]) }
			ops("forge_write_file", `{"repo":"demo/private","branch":"main","path":"secret.txt","content":"ops only\n","message":"m"}`).
				want(t, 0, `Committed secret.txt to main in demo/private: [0-9a-f]{40}`)
			port := srv.TCP[strings.LastIndexByte(srv.TCP, ':')+1:]
			script := fmt.Sprintf(ciThief, dsn, e.dataDir(), filepath.Dir(socks), filepath.Join(gitDir(e, dsn), "demo", "private.git"), port)
			args, _ := json.Marshal(map[string]string{"repo": "demo/app", "branch": "thief", "path": "ci.sh", "content": script, "message": "CI"})
			alice("forge_create_branch", `{"repo":"demo/app","branch":"thief"}`).want(t, 0, `Created branch thief in demo/app at [0-9a-f]{40}`)
			alice("forge_write_file", string(args)).want(t, 0, `Committed ci.sh to thief in demo/app: [0-9a-f]{40}`)
			alice("forge_trigger_ci", `{"repo":"demo/app","workflow":"ci","ref":"thief"}`).want(t, 0, `Triggered ci on thief in demo/app.*`)
			log := alice("forge_get_ci_run", `{"repo":"demo/app","run_id":"1"}`).record(t)
			if !strings.Contains(log, "probe done\n") {
				t.Fatalf("the probe did not finish:\n%s", log)
			}
			found := tokenForms(log)
			if mode == "none" {
				// The control: unconfined, the same job reads the gateway's environment.
				if len(found) == 0 || !strings.Contains(log, fmt.Sprintf("uid=%d\n", os.Getuid())) || !strings.Contains(log, "store READABLE") ||
					!strings.Contains(log, "socket VISIBLE") || !strings.Contains(log, "other repository VISIBLE") || !strings.Contains(log, "gateway TCP OPEN") {
					t.Fatalf("unsandboxed, the probe found no token, so it proves nothing:\n%s", log)
				}
				return
			}
			if len(found) > 0 {
				t.Errorf("the sandboxed job's log holds the token (%v):\n%s", found, log)
			}
			for _, bad := range []string{"READABLE", "VISIBLE", "OPEN"} {
				if strings.Contains(log, bad) {
					t.Errorf("the sandboxed job reached something (%s):\n%s", bad, log)
				}
			}
			if !strings.Contains(log, "uid=65534\n") {
				t.Errorf("the sandboxed job was not nobody:\n%s", log)
			}
		})
	}
}

// tokenForms names the forms of githubToken in text: plain (and what
// testkit.Leak finds: escaped, base64), reversed, hex.
func tokenForms(text string) []string {
	var found []string
	rev := []byte(githubToken)
	slices.Reverse(rev)
	for name, form := range map[string]string{"plain": githubToken, "reversed": string(rev), "hex": hex.EncodeToString([]byte(githubToken))} {
		if testkit.Leak(form, text) != "" {
			found = append(found, name)
		}
	}
	return found
}
