// Package giteareal_test holds the Gitea provider to a real Gitea server
// (internal/giteareal: the pinned release scripts/test builds), exactly as
// a model sees it: `forgetools serve --config` serves a configuration
// whose Gitea forge points at the server, every tool call is a
// `forgetools call` subprocess, and each result is checked against what
// Gitea's own API then holds. tests/forges drives the same arms against
// the fake (providers/gitea/giteatest); what only a real server does
// (which labels a filter drops, what a non-writer's create keeps, where it
// answers 500) is asserted here.
package giteareal_test

import (
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/forgetools/forgetools/internal/giteareal"
	"github.com/forgetools/forgetools/internal/testkit"
)

// binary is the forgetools command built once for the suite.
var binary string

func TestMain(m *testing.M) {
	code := testkit.Run(m, &binary)
	giteareal.StopShared()
	if n := tally.scenarios(); n > 0 {
		line := fmt.Sprintf("real Gitea %s: %d arms, %d scenarios ran against it\n", giteareal.Version, tally.arms(), n)
		fmt.Print(line)
		// go test shows a passing package's output only under -v: the
		// line also goes to a file scripts/test prints after the run.
		if f := os.Getenv("FORGETOOLS_GITEA_SUMMARY"); f != "" {
			os.WriteFile(f, []byte(line), 0o644)
		}
	}
	os.Exit(code)
}

// tally counts what ran against the real server: the distinct tools
// called and the scenarios (tests) that called one.
var tally = &counter{tools: map[string]bool{}, tests: map[string]bool{}}

type counter struct {
	mu           sync.Mutex
	tools, tests map[string]bool
}

func (c *counter) add(test, tool string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tools[tool], c.tests[test] = true, true
}

func (c *counter) arms() int      { c.mu.Lock(); defer c.mu.Unlock(); return len(c.tools) }
func (c *counter) scenarios() int { c.mu.Lock(); defer c.mu.Unlock(); return len(c.tests) }

// The account every call acts as, and its one session.
const (
	account = "release-bot"
	session = "bot-1"
	// stamped is the attribution header the gateway writes above every
	// body the account posts.
	stamped = "> forgetools agent `release-bot` on behalf of `alice`, session `bot-1`\n\n"
)

// people are the server's users, made once: bot owns the repositories
// and is the author credential, reviewer is a collaborator with write
// access (the reviewer credential), outsider can read the public
// repositories and nothing more.
type people struct{ bot, reviewer, outsider giteareal.User }

var (
	usersOnce sync.Once
	users     people
	usersErr  error
)

func server(t *testing.T) (*giteareal.Server, people) {
	t.Helper()
	g := giteareal.Shared(t)
	usersOnce.Do(func() {
		for _, u := range []struct {
			name string
			dst  *giteareal.User
		}{{"forgetools-bot", &users.bot}, {"forgetools-reviewer", &users.reviewer}, {"outsider", &users.outsider}} {
			if *u.dst, usersErr = g.CreateUser(u.name, false); usersErr != nil {
				return
			}
		}
	})
	if usersErr != nil {
		t.Fatalf("creating Gitea users: %v", usersErr)
	}
	return g, users
}

// env is one running gateway in front of the real Gitea, and the
// repository of the test.
type env struct {
	t      *testing.T
	g      *giteareal.Server
	u      people
	repo   string // forgetools-bot/NAME, made for the test
	at     string // the tool arguments addressing repo
	dir    string
	socket string
	serve  *testkit.Server
	seen   []string
}

// start makes the test's repository (with a README, a Go file, a
// workflow and the labels bug and docs, the reviewer a collaborator)
// and serves a gateway whose author credential is author's token.
func start(t *testing.T, author func(people) giteareal.User) *env {
	t.Helper()
	g, u := server(t)
	name := strings.ToLower(regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(t.Name(), "-"))
	name = strings.Trim(name, "-")
	if len(name) > 60 {
		name = name[:60]
	}
	e := &env{t: t, g: g, u: u, repo: u.bot.Name + "/" + name}
	e.at = `"repo":"` + e.repo + `"`
	e.mustAPI(u.bot.Token, "POST", "/user/repos", map[string]any{"name": name, "auto_init": true, "default_branch": "main", "readme": "Default"}, nil)
	for path, content := range map[string]string{
		"src/gadget.go":           "package gadget\n\nfunc Squeak() string {\n\treturn \"squeak\"\n}\n",
		".gitea/workflows/ci.yml": "on:\n  workflow_dispatch:\n    inputs:\n      level:\n        type: string\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n",
	} {
		e.mustAPI(u.bot.Token, "POST", "/repos/"+e.repo+"/contents/"+path, map[string]any{"content": b64(content), "branch": "main", "message": "add " + path}, nil)
	}
	for _, l := range []string{"bug", "docs"} {
		e.mustAPI(u.bot.Token, "POST", "/repos/"+e.repo+"/labels", map[string]any{"name": l, "color": "#ee0701"}, nil)
	}
	e.mustAPI(u.bot.Token, "PUT", "/repos/"+e.repo+"/collaborators/"+u.reviewer.Name, map[string]any{"permission": "write"}, nil)
	e.serveAs(author)
	return e
}

// withRepo is a second gateway on e's repository, whose author
// credential is author's token.
func withRepo(t *testing.T, e *env, author func(people) giteareal.User) *env {
	t.Helper()
	o := &env{t: t, g: e.g, u: e.u, repo: e.repo, at: e.at}
	o.serveAs(author)
	return o
}

// serveAs writes a configuration for the repository's owner scope and
// serves it, author's token the author credential.
func (e *env) serveAs(author func(people) giteareal.User) {
	t, g, u := e.t, e.g, e.u
	dir, err := os.MkdirTemp("", "ftg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	e.dir = dir
	e.socket = filepath.Join(dir, "s", session+".sock")
	config := fmt.Sprintf(`store: %s
socket_dir: %s
events:
  poll_interval: 1h
forges:
  - provider: gitea
    default: true
    host: %s
    api_url: %sapi/v1/
    token_env: FT_REAL_GITEA_TOKEN
    reviewer_token_env: FT_REAL_GITEA_REVIEWER_TOKEN
    timeout: 60s
accounts:
  - name: %s
    agent_handle: release-bot
    owner_handle: alice
    scope: [%s/*]
    sessions: [%s]
    # The forge is under test, not the gate: pushes run unattended, and
    # the issues the bot itself filed do not hold them.
    policy: {push: allow, risk: {high: allow}}
    flow: {untrusted_content: false}
`, filepath.Join(dir, "forgetools.db"), filepath.Join(dir, "s"), g.Host, g.URL, account, u.bot.Name, session)
	cfg := filepath.Join(dir, "forgetools.yaml")
	if err := os.WriteFile(cfg, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "serve", "--config", cfg, "--log-level", "info")
	cmd.Env = append(os.Environ(), "FT_REAL_GITEA_TOKEN="+author(u).Token, "FT_REAL_GITEA_REVIEWER_TOKEN="+u.reviewer.Token)
	e.serve = testkit.Serve(t, cmd, 1)
	t.Cleanup(func() {
		if code := e.serve.Stop(syscall.SIGINT); code != 0 {
			t.Errorf("forgetools serve exited %d; its log:\n%s", code, e.serve.Stderr.String())
		}
		all := strings.Join(e.seen, "\n") + e.serve.Stderr.String()
		for _, s := range []string{u.bot.Token, u.reviewer.Token, u.outsider.Token} {
			if leak := testkit.Leak(s, all); leak != "" {
				t.Errorf("a Gitea token appears in a tool result or the gateway log (as %q)", leak)
			}
		}
	})
}

func asBot(p people) giteareal.User      { return p.bot }
func asOutsider(p people) giteareal.User { return p.outsider }

// call runs one tool call as the model would: the text it reads and
// whether the call failed.
func (e *env) call(tool, args string) (string, bool) {
	e.t.Helper()
	tally.add(e.t.Name(), tool)
	text, stderr, failed := testkit.Call(e.t, binary, e.socket, tool, "{"+e.at+args+"}")
	e.seen = append(e.seen, text, stderr)
	return text, failed
}

// ok runs a call that must succeed; args continue the JSON object after
// the repository (",\"title\":...").
func (e *env) ok(tool, args string) string {
	e.t.Helper()
	text, failed := e.call(tool, args)
	if failed {
		e.t.Fatalf("%s %s failed:\n%s", tool, args, text)
	}
	return text
}

// fails runs a call that must fail; one that succeeds fails the test
// and the test goes on, so each later item is still checked.
func (e *env) fails(tool, args string) string {
	e.t.Helper()
	text, failed := e.call(tool, args)
	if !failed {
		e.t.Errorf("%s %s succeeded, want a failure:\n%s", tool, args, text)
	}
	return text
}

// api asks Gitea itself, as token.
func (e *env) api(token, method, path string, in, out any) error {
	return e.g.API(token, method, path, in, out)
}

func (e *env) mustAPI(token, method, path string, in, out any) {
	e.t.Helper()
	if err := e.api(token, method, path, in, out); err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
}

// get reads path below the test's repository as the bot.
func (e *env) get(path string, out any) {
	e.t.Helper()
	e.mustAPI(e.u.bot.Token, "GET", "/repos/"+e.repo+path, nil, out)
}

var field = testkit.Field

func want(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s:\n got: %s\nwant: %s", what, got, want)
	}
}

func wantPrefix(t *testing.T, what, got, prefix string) {
	t.Helper()
	if !strings.HasPrefix(got, prefix) {
		t.Errorf("%s:\n got: %s\nwant a text starting: %s", what, got, prefix)
	}
}

// issue is the part of Gitea's issue JSON the checks read.
type issue struct {
	Number    int64                    `json:"number"`
	Title     string                   `json:"title"`
	Body      string                   `json:"body"`
	State     string                   `json:"state"`
	Labels    []struct{ Name string }  `json:"labels"`
	Assignees []struct{ Login string } `json:"assignees"`
	Milestone *struct{ ID int64 }      `json:"milestone"`
}

func (i issue) labels() []string {
	var out []string
	for _, l := range i.Labels {
		out = append(out, l.Name)
	}
	slices.Sort(out)
	return out
}

// issues is every issue (not pull request) of the repository, as Gitea
// holds them.
func (e *env) issues() []issue {
	e.t.Helper()
	var out []issue
	e.get("/issues?state=all&type=issues&limit=50", &out)
	return out
}

// addIssue opens an issue through Gitea's API as token, with labels by name.
func (e *env) addIssue(token, title string, labels ...string) int64 {
	e.t.Helper()
	var ids []int64
	if len(labels) > 0 {
		var all []struct {
			ID   int64
			Name string
		}
		e.get("/labels", &all)
		for _, l := range all {
			if slices.Contains(labels, l.Name) {
				ids = append(ids, l.ID)
			}
		}
	}
	var i issue
	e.mustAPI(token, "POST", "/repos/"+e.repo+"/issues", map[string]any{"title": title, "labels": ids}, &i)
	return i.Number
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func base64Decode(s string) (string, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	return string(b), err
}
