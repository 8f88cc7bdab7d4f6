package e2e_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
	"github.com/forgetools/forgetools/internal/testkit"
)

// Fake credentials, random as real ones are: a GitHub author token, a
// reviewer token and a gateway bearer token. No piece of one may appear in
// any log line or tool result.
const (
	githubToken   = "ghp_X2aQ7Lm9Vb4Nc8Rt1Zy6WkP3dF5hJ0sG4eU7"
	reviewerToken = "ghp_R6cW3Hd5Kf0Pj8Sg2Wq7Ex1mV9bN4tL2yA5o"
	carolToken    = "ftk_carol_K8vT2Uv4Ty6AbQ9xM3pZ"
)

// hostileGitHub answers like GitHub's REST API, badly: 422 Validation
// Failed for an issue create and 401 Bad credentials for everything else,
// each quoting back the Authorization header it received. It records the
// headers so the test knows the credentials really were sent.
type hostileGitHub struct {
	mu   sync.Mutex
	auth map[string]string // "METHOD path" -> Authorization
}

func (g *hostileGitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	auth := r.Header.Get("Authorization")
	g.mu.Lock()
	g.auth[r.Method+" "+r.URL.Path] = auth
	g.mu.Unlock()
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-GitHub-Media-Type", "github.v3; format=json")
	body := map[string]any{"documentation_url": "https://docs.github.com/rest", "status": "401"}
	status := http.StatusUnauthorized
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/issues") {
		status = http.StatusUnprocessableEntity
		body["status"] = "422"
		body["message"] = "Validation Failed for request with Authorization: " + auth
		body["errors"] = []map[string]string{{"resource": "Issue", "field": "title", "code": "custom", "message": "you sent " + auth}}
	} else {
		body["message"] = "Bad credentials (" + auth + ")"
	}
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}

func (g *hostileGitHub) sent(route string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.auth[route]
}

// TestCredentialsNeverLeak runs serve at debug level with a GitHub forge
// that echoes credentials, calls it through the socket, TCP and
// in-process, and scans every log line and result for the secrets.
func TestCredentialsNeverLeak(t *testing.T) {
	t.Parallel()
	gh := &hostileGitHub{auth: map[string]string{}}
	api := httptest.NewServer(gh)
	defer api.Close()

	e := newEnv(t, "E2E_GITHUB_TOKEN="+githubToken, "E2E_GITHUB_REVIEWER_TOKEN="+reviewerToken, "E2E_CAROL_GATEWAY_TOKEN="+carolToken)
	cfg := writeConfig(t, `
listen: 127.0.0.1:0
forges:
  - provider: local
    default: true
  - provider: github
    api_url: `+api.URL+`/
    token_env: E2E_GITHUB_TOKEN
    reviewer_token_env: E2E_GITHUB_REVIEWER_TOKEN
accounts:
  - name: carol
    agent_handle: carol-bot
    owner_handle: carol
    scope: ["*"]
    sessions: [carol-1]
    token_envs: [E2E_CAROL_GATEWAY_TOKEN]
`)
	st := storetest.SQLite(t)
	srv := e.serve(2, "--config", cfg, "--store", st, "--socket-dir", socketDir(t), "--log-level", "debug")
	via := map[string][]string{
		"socket":     {"--gateway", srv.Sockets[0], "--log-level", "debug"},
		"tcp":        {"--gateway", srv.TCP, "--token-env", "E2E_CAROL_GATEWAY_TOKEN", "--log-level", "debug"},
		"in-process": {"--config", cfg, "--store", storetest.SQLite(t), "--log-level", "debug"},
	}
	var captured []result
	for name, flags := range via {
		call := func(tool, args string, code int, pattern string) {
			t.Helper()
			r := e.call(tool, args, flags...)
			captured = append(captured, r)
			r.want(t, code, pattern)
		}
		call("forge_create_issue", `{"repo":"acme/app","title":"t","forge_provider":"github"}`, 1,
			`forge_create_issue failed: invalid_argument: .*GitHub answered 422 .*\[REDACTED\].*`)
		call("forge_get_issue", `{"repo":"acme/app","issue_number":1,"forge_provider":"github"}`, 1,
			`forge_get_issue failed: unauthenticated: .*GitHub answered 401 .*\[REDACTED\].*`)
		call("forge_submit_review", `{"repo":"acme/app","pull_number":1,"verdict":"approve","forge_provider":"github"}`, 1,
			`forge_submit_review failed: unauthenticated: .*GitHub answered 401 .*\[REDACTED\].*`)
		call("forge_list_issues", `{"repo":"acme/app","forge_provider":"github"}`, 1,
			`forge_list_issues failed: unauthenticated: .*\[REDACTED\].*`)
		// The default (local) forge still works beside it.
		call("forge_create_issue", `{"repo":"acme/app","title":"local"}`, 0, `Created issue #\d+ in acme/app: .*`)
		if t.Failed() {
			t.Fatalf("calls %s failed; see above", name)
		}
	}

	// The secrets really were in play: GitHub received each of them.
	if got := gh.sent("POST /repos/acme/app/issues"); !strings.Contains(got, githubToken) {
		t.Errorf("issue create sent Authorization %q, want the author token", got)
	}
	if got := gh.sent("POST /repos/acme/app/pulls/1/reviews"); !strings.Contains(got, reviewerToken) {
		t.Errorf("review sent Authorization %q, want the reviewer token", got)
	}

	if code := srv.Stop(syscall.SIGTERM); code != 0 {
		t.Errorf("serve exited %d", code)
	}
	captured = append(captured, result{args: []string{"serve"}, stdout: srv.Stdout.String(), stderr: srv.Stderr.String()})
	if !strings.Contains(srv.Stderr.String(), "level=DEBUG") {
		t.Error("serve wrote no debug lines: the scan would prove little")
	}
	for _, r := range captured {
		for name, secret := range map[string]string{"GitHub token": githubToken, "reviewer token": reviewerToken, "gateway token": carolToken} {
			for _, out := range []string{r.stdout, r.stderr} {
				if piece := testkit.Leak(secret, out); piece != "" {
					t.Errorf("the %s leaked (as %q) in the output of forgetools %q:\n%s", name, piece, r.args, out)
				}
			}
		}
	}
}
