package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/forgetools/forgetools/providers/github/githubtest"
)

const quickToken = "ghp_e2eQuickStartToken5Rt8Yu2Io4Pa6Sd"

// quickGitHub is a GitHub fake holding octocat/Hello-World with one issue,
// answering the quick-start token.
func quickGitHub(t *testing.T) *githubtest.Server {
	gh := githubtest.NewChecked(t, githubtest.Options{})
	t.Cleanup(gh.Close)
	gh.AddToken(quickToken, "quick-bot")
	gh.AddRepo("octocat/Hello-World", "main")
	gh.AddRepo("octocat/Spoon-Knife", "main")
	gh.AddIssue("octocat/Hello-World", githubtest.Issue{Title: "Found a bug", Body: "It crashes."})
	return gh
}

// TestGitHubQuickStart: a token in the environment and --repo are the
// whole setup for call, mcp and serve; the scope is the repos given.
func TestGitHubQuickStart(t *testing.T) {
	t.Parallel()
	gh := quickGitHub(t)
	e := newEnv(t, "GITHUB_TOKEN="+quickToken)
	flags := []string{"--github", "--github-api-url", gh.APIURL(), "--repo", "octocat/Hello-World"}

	rec := e.call("forge_get_issue", `{"repo":"octocat/Hello-World","issue_number":1}`, flags...).record(t)
	if !strings.Contains(rec, "\nFound a bug\n") {
		t.Errorf("quick-start read:\n%s", rec)
	}
	e.call("forge_get_issue", `{"repo":"octocat/Spoon-Knife","issue_number":1}`, flags...).
		want(t, 1, `forge_get_issue failed: permission_denied: repository "octocat/Spoon-Knife" is outside the scope of account "agent"`)
	// A glob covers both; the created issue carries the quick-start handles.
	glob := []string{"--github", "--github-api-url", gh.APIURL(), "--repo", "octocat/*", "--owner-handle", "alice"}
	e.call("forge_create_issue", `{"repo":"octocat/Spoon-Knife","title":"From the quick start"}`, glob...).
		want(t, 0, `Created issue #1 in octocat/Spoon-Knife: .*/octocat/Spoon-Knife/issues/1`)
	rec = e.call("forge_get_issue", `{"repo":"octocat/Spoon-Knife","issue_number":1}`, glob...).record(t)
	if !strings.Contains(rec, "agent=forgetools-agent owner=alice session=agent\n") {
		t.Errorf("attribution of a quick-start create:\n%s", rec)
	}

	// --github-host serves an Enterprise host (its API under /api/v3).
	ghe := githubtest.NewChecked(t, githubtest.Options{Host: "ghe.example.com", PathPrefix: "/api/v3"})
	t.Cleanup(ghe.Close)
	ghe.AddToken(quickToken, "quick-bot")
	ghe.AddRepo("acme/widgets", "trunk")
	ghe.AddIssue("acme/widgets", githubtest.Issue{Title: "Widget jams"})
	gheFlags := []string{"--github", "--github-host", "ghe.example.com", "--github-api-url", ghe.APIURL(), "--repo", "acme/*"}
	// The session (the data directory's "agent") read github.com
	// repositories this configuration cannot ask about any more: unknown
	// counts as private, so a public write waits for an operator.
	e.call("forge_create_issue", `{"repo":"acme/widgets","title":"On Enterprise"}`, gheFlags...).
		want(t, 1, `forge_create_issue failed: pending_approval: approval ap-[a-z0-9]+: this call waits for an operator and has not reached the forge: this session read github/github\.com octocat/Hello-World \(unknown, read with forge_get_issue\).* \(flow: private to public\)\. Call again with the same arguments.*`)
	// A fresh agent (its own data directory) has read nothing.
	e2 := newEnv(t, "GITHUB_TOKEN="+quickToken)
	e2.call("forge_create_issue", `{"repo":"acme/widgets","title":"On Enterprise"}`, gheFlags...).
		want(t, 0, `Created issue #2 in acme/widgets: https://ghe\.example\.com/acme/widgets/issues/2`)
	if audit := e2.run("audit", "--format", "json"); !strings.Contains(audit.stdout, `"host": "ghe.example.com"`) {
		t.Errorf("the Enterprise create is not audited on its host:\n%s", audit.stdout)
	}

	cs := e.mcpSession(flags...)
	wantCall(t, cs, "forge_get_issue", `{"repo":"octocat/Hello-World","issue_number":2}`, true,
		`forge_get_issue failed: not_found: .*`)

	// serve makes the session's socket in the data directory.
	srv := e.serve(1, flags...)
	sock := filepath.Join(e.dataDir(), "sockets", "agent.sock")
	if len(srv.Sockets) != 1 || srv.Sockets[0] != "unix://"+sock {
		t.Fatalf("serve --github listens on %v, want unix://%s", srv.Sockets, sock)
	}
	e.call("forge_get_issue", `{"repo":"octocat/Hello-World","issue_number":1}`, "--gateway", srv.Sockets[0]).record(t)
	if code := srv.Stop(syscall.SIGTERM); code != 0 {
		t.Errorf("serve exited %d", code)
	}
}

// TestGitHubQuickStartRefusals: no --repo is refused with the reason, a
// missing token names its variable, and --github cannot mix with --config.
func TestGitHubQuickStartRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, cmd := range []string{"serve", "mcp", "call"} {
		args := []string{cmd, "--github"}
		if cmd == "call" {
			args = []string{cmd, "forge_get_issue", `{}`, "--github"}
		}
		r := e.run(args...)
		if r.code != 2 || !strings.Contains(r.stderr, "--github needs at least one --repo owner/name (or a glob such as owner/*): the agent may touch only the repositories you name") {
			t.Errorf("%s --github without --repo: %v", cmd, r)
		}
	}
	if r := e.run("mcp", "--github", "--repo", "a/b"); r.code != 1 || !strings.Contains(r.stderr, "environment variable GITHUB_TOKEN is not set") {
		t.Errorf("no token: %v", r)
	}
	if r := e.run("mcp", "--repo", "a/b"); r.code != 2 || !strings.Contains(r.stderr, "add --github") {
		t.Errorf("--repo without --github: %v", r)
	}
	if r := e.run("mcp", "--github", "--repo", "a/b", "--config", writeConfig(t, aliceConfig)); r.code != 2 || !strings.Contains(r.stderr, "not both") {
		t.Errorf("--github with --config: %v", r)
	}
	if left, _ := os.ReadDir(e.dataDir()); len(left) != 0 {
		t.Errorf("refused starts left %v", names(left))
	}
}

// TestFlagsFromEnvironment: every main flag has a FORGETOOLS_* variable,
// listed in --help; the command line wins over it.
func TestFlagsFromEnvironment(t *testing.T) {
	t.Parallel()
	gh := quickGitHub(t)
	e := newEnv(t, "GITHUB_TOKEN="+quickToken, "FORGETOOLS_GITHUB=true",
		"FORGETOOLS_GITHUB_API_URL="+gh.APIURL(), "FORGETOOLS_REPO=octocat/Hello-World,octocat/Spoon-Knife",
		"FORGETOOLS_READ_ONLY=1")
	e.call("forge_get_issue", `{"repo":"octocat/Spoon-Knife","issue_number":7}`).
		want(t, 1, `forge_get_issue failed: not_found: .*`)
	if r := e.call("forge_create_issue", `{"repo":"octocat/Hello-World","title":"x"}`); r.code != 2 || !strings.Contains(r.stderr, readOnlySentence) {
		t.Errorf("FORGETOOLS_READ_ONLY=1 did not apply: %v", r)
	}
	e.call("forge_create_issue", `{"repo":"octocat/Hello-World","title":"x"}`, "--read-only=false").
		want(t, 0, `Created issue #2 in octocat/Hello-World: .*`)

	bad := newEnv(t, "FORGETOOLS_READ_ONLY=maybe")
	if r := bad.run("call", "forge_get_issue", `{}`); r.code != 2 || !strings.Contains(r.stderr, `FORGETOOLS_READ_ONLY="maybe" is not a valid bool for --read-only`) {
		t.Errorf("a bad variable: %v", r)
	}
	if r := bad.run("mcp", "--log-level", "debug", "--help"); !strings.Contains(r.stdout, "[$FORGETOOLS_LOG_LEVEL]") {
		t.Errorf("--help does not list the variable:\n%s", r.stdout)
	}

	// Every flag of every command is listed with its variable, except the
	// per-invocation ones (a breaking-change check is asked for on the
	// command line, never by a stray variable).
	perInvocation := map[string]bool{"help": true, "version": true, "id": true, "format": true,
		"breaking-against": true, "declared": true, "snapshots": true}
	for _, cmd := range []string{"serve", "mcp", "call", "tools", "demo"} {
		help := e.run(cmd, "--help").stdout
		_, flagsPart, ok := strings.Cut(help, "\nFlags:\n")
		if !ok {
			t.Fatalf("%s --help has no Flags section:\n%s", cmd, help)
		}
		flagsPart, _, _ = strings.Cut(flagsPart, "\n\n")
		for _, line := range strings.Split(flagsPart, "\n") {
			f := strings.Fields(line)
			name := ""
			for _, w := range f {
				if strings.HasPrefix(w, "--") {
					name = strings.TrimPrefix(strings.TrimSuffix(w, ","), "--")
					break
				}
			}
			if name == "" || perInvocation[name] {
				continue
			}
			want := "[$FORGETOOLS_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_")) + "]"
			if !strings.Contains(line, want) {
				t.Errorf("%s --help: --%s does not name %s:\n%s", cmd, name, want, line)
			}
		}
	}
}
