package e2e_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
	"github.com/forgetools/forgetools/internal/testkit"
)

// TestCredentialNeverInAReadResult: a forge answering a read with content
// that quotes the credential (a pasted token, a hostile or misconfigured
// API) must not hand it to the model.
func TestCredentialNeverInAReadResult(t *testing.T) {
	t.Parallel()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		auth := r.Header.Get("Authorization")
		switch r.URL.Path {
		case "/repos/acme/app/issues/2":
			fmt.Fprintf(w, `{"number":2,"title":"t","body":"the bot sent %s","state":"open","html_url":"https://github.com/acme/app/issues/2","user":{"login":"x"},"labels":[],"comments":0}`, auth)
		case "/repos/acme/app/issues/2/comments":
			fmt.Fprint(w, `[]`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer api.Close()
	e := newEnv(t, "E2E_GITHUB_TOKEN="+githubToken)
	cfg := writeConfig(t, "forges:\n  - {provider: github, api_url: "+api.URL+"/, token_env: E2E_GITHUB_TOKEN}\n"+
		"accounts:\n  - {name: carol, agent_handle: carol-bot, owner_handle: carol, scope: [\"*\"], sessions: [carol-1]}\n")
	r := e.call("forge_get_issue", `{"repo":"acme/app","issue_number":2}`, "--config", cfg, "--store", storetest.SQLite(t))
	if testkit.Leak(githubToken, r.stdout) != "" || r.code != 0 {
		t.Fatalf("the GitHub token reached the model:\n%s", r.stdout)
	}
}
