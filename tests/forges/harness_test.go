// Package forges_test runs the gateway end to end against real-wire fakes
// of GitHub, GitLab, Gitea, Forgejo and Linear, exactly as a model sees
// it: the forgetools binary serves a configuration whose forges point
// api_url at githubtest, gitlabtest, giteatest and lineartest servers, and every tool call is a `forgetools call --gateway
// unix://...` subprocess whose output is the text the model reads. The
// fakes record every request, so each test also asserts what reached the
// forge: paths, bodies, and which credential signed them.
package forges_test

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/forgetools/forgetools/internal/testkit"
	"github.com/forgetools/forgetools/providers/gitea/giteatest"
	"github.com/forgetools/forgetools/providers/github/githubtest"
	"github.com/forgetools/forgetools/providers/gitlab/gitlabtest"
	"github.com/forgetools/forgetools/providers/linear/lineartest"
)

// Credentials the gateway is configured with. No tool result and no log
// line may ever contain one, or a piece of one (checked when each test
// ends). They are random, as real ones are: the gateway redacts any piece
// of a credential eight bytes long, so a made-up one spelling words would
// take those words out of every result.
const (
	authorToken   = "ghp_Q7vK2mX9pL4wR8tZ3nB6yH1cF5dJ0sA2gE7u"
	reviewerToken = "ghp_W3kP8xN1qV6zT4bM9rL2yC7hG5fD0sJ3aE8o"
	gheToken      = "ghp_H5tR1wQ8zK3mV6pX9nB2cL7yF4dJ0gS5aE1i"
	linearKey     = "lin_api_P9xZ4qT1wK7mR3vB8nL6cY2hF5dJ0gS4aE9u"
	giteaToken    = "gitea_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL"
	giteaReviewer = "gitea_8dKLzdocJ2isAjIhKtJ0RlgLKOmxgJTeKd"
	forgejoToken  = "forgejo_NnFRIBXuDL7DxtpYlSXpfKtHF4vUCsMe"
	gitlabToken   = "glpat-hGAkWvj7FAc9QeWJKY40uvSwMFLZDe1f8r"
	gitlabReview  = "glpat-ESQedUStPKR0CsTy4Qwb8DwkNhFdnXsiVp"
)

var secrets = []string{authorToken, reviewerToken, gheToken, linearKey, giteaToken, giteaReviewer, forgejoToken, gitlabToken, gitlabReview, webhookSecret}

// The account every call acts as, and its one session.
const (
	account = "release-bot"
	session = "bot-1"
)

// stamped is the attribution header the gateway writes above every body
// the account posts.
const stamped = "> forgetools agent `release-bot` on behalf of `alice`, session `bot-1`\n\n"

// binary is the forgetools command built once for the whole suite.
var binary string

func TestMain(m *testing.M) { testkit.Main(m, &binary, githubtest.ReportChecked) }

// env is one running gateway and the fakes behind it: github.com (the
// default forge), a GitHub Enterprise host, GitLab, Gitea, Forgejo,
// Linear, and the local forge.
type env struct {
	t       *testing.T
	github  *githubtest.Server // github.com: octocat/Hello-World
	ghe     *githubtest.Server // ghe.example.com under /api/v3: acme/widgets
	linear  *lineartest.Server // team ENG
	gitlab  *gitlabtest.Server // gitlab.example.com: platform/infra/deploy (a subgroup's project)
	gitea   *giteatest.Server  // gitea.example.com: acme/gadgets
	forgejo *giteatest.Server  // codeberg.example.com below /git: acme/gadgets
	// Linear ids: team ENG, its label Backend, the workspace label Bug.
	engTeam, backendLabel, bugLabel string
	dir                             string
	socket                          string
	config                          string
	serve                           *testkit.Server   // the running gateway, nil once stopped
	listeners                       int               // how many listeners serve announces
	served                          []*testkit.Server // every gateway the test ran, for their logs
	seen                            []string          // every tool result, for the credential check
}

// setting edits the configuration template's values before it is written.
type setting func(*settings)

type settings struct {
	store         string // the store's DSN; "" = a SQLite file beside the config
	githubTimeout string
	githubToken   string // the author token the github.com forge sends
	restTimeout   string // the GitLab, Gitea and Forgejo forges' timeout
	// without leaves these providers' forges out of the configuration.
	without []string
	// down points these providers' forges at a closed port.
	down []string
	// webhooks: serve listens on TCP too and receives github.com's
	// webhooks signed with webhookSecret.
	webhooks bool
	// policy is the account's approval policy (YAML flow); "" = unattended.
	policy string
	// flow is the account's flow rules (YAML flow); "" = the
	// untrusted-content rule off.
	flow string
}

// unattended is the policy of a test about the forges: nothing waits.
const unattended = "{push: allow, risk: {high: allow}, unreviewed_merge: allow}"

// withPolicy gives the account policy p (YAML flow), e.g. "{}" for the
// default.
func withPolicy(p string) setting { return func(s *settings) { s.policy = p } }

// withFlow gives the account the flow rules f (YAML flow).
func withFlow(f string) setting { return func(s *settings) { s.flow = f } }

// webhookSecret is github.com's webhook secret when the test uses
// webhooks; random, like the credentials above.
const webhookSecret = "whsec_jWWZKbcyMtv63K1DsaHzxeWiLdbDwhRh"

// withWebhooks has github.com send its webhooks to the gateway.
func withWebhooks(s *settings) { s.webhooks = true }

// start seeds the fakes, writes a configuration and serves it.
func start(t *testing.T, opts ...setting) *env {
	t.Helper()
	e := &env{t: t}
	e.github = githubtest.NewChecked(t, githubtest.Options{})
	e.ghe = githubtest.NewChecked(t, githubtest.Options{Host: "ghe.example.com", PathPrefix: "/api/v3"})
	e.linear = lineartest.New(lineartest.Options{})
	t.Cleanup(e.github.Close)
	t.Cleanup(e.ghe.Close)
	t.Cleanup(e.linear.Close)

	e.github.AddToken(authorToken, "forgetools-bot")
	e.github.AddToken(reviewerToken, "forgetools-reviewer")
	e.github.AddRepo("octocat/Hello-World", "main", "new-topic")
	// fix-crash changes src/parse.go (new lines 40-44) and deletes
	// src/old.go's lines 7-8: the lines reviews may comment on.
	e.github.AddBranch("octocat/Hello-World", "fix-crash",
		githubtest.Change{Path: "src/parse.go", Patch: "@@ -40,2 +40,5 @@ func parse(in []byte) error {\n \tif in == nil {\n+\t\treturn errEmpty\n+\t}\n+\tif len(in) == 0 {\n \t\treturn errEmpty"},
		githubtest.Change{Path: "src/old.go", Patch: "@@ -6,3 +6,1 @@\n package old\n-func legacy() {}\n-// kept for v1"})
	e.github.AddIssue("octocat/Hello-World", githubtest.Issue{Title: "Found a bug", Body: "It crashes on start.", Labels: []string{"bug"}})
	e.github.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Amazing new feature", Body: "Please pull.", Head: "new-topic"})

	e.ghe.AddToken(gheToken, "ghe-bot")
	e.ghe.AddRepo("acme/widgets", "trunk")
	e.ghe.AddIssue("acme/widgets", githubtest.Issue{Title: "Widget jams", Author: "hubot"})

	e.linear.AddKey(linearKey, lineartest.User{Name: "forgetools bot", DisplayName: "forgetools"})
	e.engTeam = e.linear.AddTeam("ENG", "Engineering")
	e.bugLabel = e.linear.AddLabel("", "Bug")
	e.backendLabel = e.linear.AddLabel("ENG", "Backend")
	e.linear.AddIssue("ENG", lineartest.Issue{Title: "Crash on save", Description: "Steps: save.", State: "started",
		Labels: []string{"Bug"}, Creator: &lineartest.User{Name: "Ada Lovelace", DisplayName: "ada"}})
	e.linear.AddIssue("ENG", lineartest.Issue{Title: "Slow export", State: "completed", Labels: []string{"Backend"}})

	e.seedREST(t)

	s := settings{githubTimeout: "10s", githubToken: authorToken, restTimeout: "10s"}
	for _, o := range opts {
		o(&s)
	}
	// t.TempDir can be too long for a Unix socket path.
	dir, err := os.MkdirTemp("", "ftf")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	e.dir = dir
	e.socket = filepath.Join(dir, "s", session+".sock")
	e.config = filepath.Join(dir, "forgetools.yaml")
	listen, webhooks := "", ""
	e.listeners = 1
	if s.webhooks {
		listen = "listen: 127.0.0.1:0\n"
		webhooks, e.listeners = "    webhook_secret_env: FT_E2E_GITHUB_WEBHOOK_SECRET\n", 2
	}
	// Subscriptions are polled hourly here: a test's assertions on the
	// requests GitHub receives must not meet a poll.
	config := fmt.Sprintf(`store: %s
socket_dir: %s
%sevents:
  poll_interval: 1h
forges:
  - provider: github
    default: true
    api_url: %s
    token_env: FT_E2E_GITHUB_TOKEN
    reviewer_token_env: FT_E2E_GITHUB_REVIEWER_TOKEN
    timeout: %s
%s
  - provider: github
    host: ghe.example.com
    api_url: %s
    token_env: FT_E2E_GHE_TOKEN
  - provider: linear
    api_url: %s
    token_env: FT_E2E_LINEAR_KEY
  - provider: local
%saccounts:
  - name: %s
    agent_handle: release-bot
    owner_handle: alice
    scope: [octocat/Hello-World, acme/*, "ghe.example.com:acme/*", "linear.app:ENG", "local:demo/app",
      "gitlab.example.com:platform/infra/*", "gitlab.example.com:acme/*", "gitea.example.com:acme/*", "codeberg.example.com:acme/*"]
    sessions: [%s]
    # These sessions test what each forge does; they read issues by other
    # people before they push, which the untrusted-content rule would hold
    # (its own tests are in gateway/server and tests/e2e).
    flow: %s
    # Pushes run unattended: these tests are about the forges (the
    # approval gate's own test here is TestGitHubPushParksUntilApproved).
    policy: %s
`, cmp.Or(s.store, filepath.Join(dir, "forgetools.db")), filepath.Join(dir, "s"), listen, e.github.APIURL(), s.githubTimeout,
		webhooks, e.ghe.APIURL(), e.linear.APIURL(), e.restForges(s), account, session, cmp.Or(s.flow, "{untrusted_content: false}"), cmp.Or(s.policy, unattended))
	if err := os.WriteFile(e.config, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	e.run(s.githubToken)
	t.Cleanup(e.checkNoCredentialLeaked)
	return e
}

// run starts `forgetools serve` on the configuration and waits until it
// listens; the test's cleanup stops it with an interrupt.
func (e *env) run(githubToken string) {
	t := e.t
	t.Helper()
	cmd := exec.Command(binary, "serve", "--config", e.config, "--log-level", "info")
	cmd.Env = credentialEnv(githubToken)
	e.serve = testkit.Serve(t, cmd, e.listeners)
	e.served = append(e.served, e.serve)
	t.Cleanup(e.stop)
	if want := "unix://" + e.socket; !slices.Equal(e.serve.Sockets, []string{want}) {
		t.Fatalf("forgetools serve listens on %q, want %s; its log:\n%s", e.serve.Sockets, want, e.logs())
	}
}

// credentialEnv is the environment a gateway of the harness runs in: the
// variables its configuration names, githubToken for github.com's author.
func credentialEnv(githubToken string) []string {
	return append(os.Environ(),
		"FT_E2E_GITHUB_TOKEN="+githubToken,
		"FT_E2E_GITHUB_REVIEWER_TOKEN="+reviewerToken,
		"FT_E2E_GHE_TOKEN="+gheToken,
		"FT_E2E_LINEAR_KEY="+linearKey,
		"FT_E2E_GITEA_TOKEN="+giteaToken,
		"FT_E2E_GITEA_REVIEWER_TOKEN="+giteaReviewer,
		"FT_E2E_FORGEJO_TOKEN="+forgejoToken,
		"FT_E2E_GITLAB_TOKEN="+gitlabToken,
		"FT_E2E_GITLAB_REVIEWER_TOKEN="+gitlabReview,
		"FT_E2E_GITHUB_WEBHOOK_SECRET="+webhookSecret,
	)
}

// stop interrupts the gateway, as Ctrl-C would, and expects a clean exit.
func (e *env) stop() {
	if e.serve == nil {
		return
	}
	srv := e.serve
	e.serve = nil
	if code := srv.Stop(syscall.SIGINT); code != 0 {
		e.t.Errorf("forgetools serve exited %d; its log:\n%s", code, e.logs())
	}
}

// logs is what every gateway of the test has logged so far.
func (e *env) logs() string {
	var b strings.Builder
	for _, srv := range e.served {
		b.WriteString(srv.Stderr.String())
	}
	return b.String()
}

// restart stops the gateway and serves the same configuration again, with
// a fresh store when forget is set (no dedup memo of earlier creates).
func (e *env) restart(forget bool) {
	e.t.Helper()
	e.stop()
	if forget {
		if err := os.Remove(filepath.Join(e.dir, "forgetools.db")); err != nil {
			e.t.Fatal(err)
		}
	}
	e.run(authorToken)
}

// call runs one tool call through the gateway as the model would and
// returns the text the model reads and whether the call failed. id, when
// given, is the tool call id (a create repeated with it is a replay).
func (e *env) call(tool, args string, id ...string) (string, bool) {
	e.t.Helper()
	argv := []string{"call", tool, args, "--gateway", "unix://" + e.socket}
	if len(id) > 0 {
		argv = append(argv, "--id", id[0])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, argv...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	failed := errors.As(err, &exit) && exit.ExitCode() == 1
	if err != nil && !failed {
		e.t.Fatalf("forgetools %s: %v\nstdout: %s\nstderr: %s", strings.Join(argv, " "), err, &stdout, &stderr)
	}
	text := strings.TrimSuffix(stdout.String(), "\n")
	e.seen = append(e.seen, text, stderr.String())
	return normalize(e.t, text), failed
}

// ok runs a call that must succeed and returns its text.
func (e *env) ok(tool, args string, id ...string) string {
	e.t.Helper()
	text, failed := e.call(tool, args, id...)
	if failed {
		e.t.Fatalf("%s %s failed:\n%s", tool, args, text)
	}
	return text
}

// fails runs a call that must fail and returns its text.
func (e *env) fails(tool, args string) string {
	e.t.Helper()
	text, failed := e.call(tool, args)
	if !failed {
		e.t.Fatalf("%s %s succeeded, want a failure:\n%s", tool, args, text)
	}
	return text
}

var (
	// fenceNonce matches a fence marker's nonce: <<<label-nonce, >>>nonce,
	// and the framing line's <<<…-nonce.
	fenceNonce = regexp.MustCompile(`(<<<(?:\w+|…)-|>>>)([0-9a-f]{8})\b`)
	// stamp is a time the fakes set from the wall clock.
	stamp = regexp.MustCompile(`\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\b`)
)

// normalize replaces a read's fence nonce with NONCE, after checking that
// one render uses one nonce throughout, and every RFC 3339 time with TIME.
func normalize(t *testing.T, text string) string {
	t.Helper()
	nonces := map[string]bool{}
	for _, m := range fenceNonce.FindAllStringSubmatch(text, -1) {
		nonces[m[2]] = true
	}
	if len(nonces) > 1 {
		t.Errorf("one render uses several fence nonces %v:\n%s", nonces, text)
	}
	return stamp.ReplaceAllString(fenceNonce.ReplaceAllString(text, "${1}NONCE"), "TIME")
}

// checkNoCredentialLeaked fails the test if a credential, or a piece of
// one eight bytes long in any case or encoding, appears in a tool result
// or in the gateway's log.
func (e *env) checkNoCredentialLeaked() {
	all := strings.Join(e.seen, "\n") + e.logs()
	for _, s := range secrets {
		if leak := testkit.Leak(s, all); leak != "" {
			e.t.Errorf("credential %s…%s appears in a tool result or the gateway log (as %q)", s[:8], s[len(s)-4:], leak)
		}
	}
}

// want fails the test unless got is exactly want.
func want(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s:\n got: %s\nwant: %s", what, got, want)
	}
}
