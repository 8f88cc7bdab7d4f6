package e2e_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// searchConfig is a local forge with two accounts: ops, whose scope is all
// of demo/*, and alice, whose scope lists two of its three repositories.
const searchConfig = `
forges:
  - provider: local
    base_url: http://forge.test/f
accounts:
  - name: alice
    agent_handle: alice-bot
    owner_handle: alice
    scope: ["demo/app", "demo/lib"]
    sessions: [alice-1]
  - name: ops
    agent_handle: ops-bot
    owner_handle: ops
    scope: ["demo/*"]
    sessions: [ops-1]
    push_to_default_branch: true
    policy: {push: allow, risk: {high: allow}}
`

// TestSearchOverSocket is issue 21's search proof on the local forge,
// through `forgetools call` against `forgetools serve` on each store: an
// agent finds a function by code search and an issue by issue search, and
// with a scope of two repositories of three, nothing of the third ever
// appears, whether the search names no repository, names the third, or
// carries a query that names it the way a forge's qualifier would.
func TestSearchOverSocket(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for name, dsn := range map[string]string{"sqlite": storetest.SQLite(t), "postgres": storetest.Postgres(t)} {
		t.Run(name, func(t *testing.T) {
			srv := e.serve(2, "--config", writeConfig(t, searchConfig), "--store", dsn, "--socket-dir", socketDir(t))
			alice := func(tool, args string) result { t.Helper(); return e.call(tool, args, "--gateway", srv.Sockets[0]) }
			ops := func(tool, args string) result { t.Helper(); return e.call(tool, args, "--gateway", srv.Sockets[1]) }

			for _, repo := range []string{"demo/app", "demo/lib", "demo/secret"} {
				body := "package main\n\n// parseWidget reads a widget from " + repo + ".\nfunc parseWidget(s string) {}\n"
				ops("forge_write_file", `{"repo":"`+repo+`","branch":"main","path":"widget.go","content":`+jsonString(body)+`,"message":"Add parseWidget"}`).
					want(t, 0, `Committed widget.go to main in `+repo+`: .*`)
				ops("forge_create_issue", `{"repo":"`+repo+`","title":"parseWidget panics in `+repo+`","body":"Seen on empty input."}`).
					want(t, 0, `Created issue #1 in `+repo+`: .*`)
			}

			code := alice("forge_search_code", `{"query":"func parseWidget"}`).record(t)
			for _, want := range []string{"demo/app", "demo/lib", "widget.go", "func parseWidget(s string) {}", "line: 4"} {
				if !strings.Contains(code, want) {
					t.Errorf("code search does not show %q:\n%s", want, code)
				}
			}
			issues := alice("forge_search_issues", `{"query":"parseWidget panics"}`).record(t)
			for _, want := range []string{"parseWidget panics in demo/app", "parseWidget panics in demo/lib", "kind: issue", "url: http://forge.test/f/demo/app/issues/1"} {
				if !strings.Contains(issues, want) {
					t.Errorf("issue search does not show %q:\n%s", want, issues)
				}
			}
			one := alice("forge_search_code", `{"repo":"demo/lib","query":"parseWidget"}`).record(t)
			if strings.Contains(one, "demo/app") || !strings.Contains(one, "demo/lib") {
				t.Errorf("a search of demo/lib:\n%s", one)
			}

			// The third repository, however it is asked for.
			for _, args := range []string{
				`{"query":"parseWidget"}`,
				`{"query":"repo:demo/secret parseWidget"}`,
				`{"query":"secret"}`,
			} {
				for _, tool := range []string{"forge_search_code", "forge_search_issues"} {
					if out := alice(tool, args); strings.Contains(out.stdout, "demo/secret") || out.code != 0 {
						t.Errorf("%s %s shows the third repository or failed:\n%v", tool, args, out)
					}
				}
			}
			alice("forge_search_code", `{"repo":"demo/secret","query":"parseWidget"}`).
				want(t, 1, `forge_search_code failed: permission_denied: repository "demo/secret" is outside the scope of account "alice"`)
			alice("forge_search_issues", `{"repo":"demo/secret","query":"parseWidget"}`).
				want(t, 1, `forge_search_issues failed: permission_denied: repository "demo/secret" is outside the scope of account "alice"`)
			// ops' scope is a pattern: a search without a repo is refused,
			// naming what to do; with one, it runs.
			ops("forge_search_code", `{"query":"parseWidget"}`).
				want(t, 1, `forge_search_code failed: invalid_argument: your scope on .* includes the pattern demo/\*, which the gateway cannot list: name a repo to search`)
			if out := ops("forge_search_issues", `{"repo":"demo/secret","query":"parseWidget"}`).record(t); !strings.Contains(out, "parseWidget panics in demo/secret") {
				t.Errorf("ops' search of demo/secret:\n%s", out)
			}
		})
	}
}

// jsonString is s as a JSON string literal.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
