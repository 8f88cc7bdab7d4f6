package e2e_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// handsConfig is a local forge with a CI command (it passes when FIX.md
// exists) and two accounts: alice works on branches; ops may push to a
// default branch. git_dir is left out: the repositories go where the
// README says, beside a SQLite store or in the data directory.
const handsConfig = `
forges:
  - provider: local
    base_url: http://forge.test/f
    ci_command: "echo checking; test -f FIX.md"
accounts:
  - name: alice
    agent_handle: alice-bot
    owner_handle: alice
    scope: ["demo/*"]
    sessions: [alice-1]
    # Pushes run unattended here: the approval gate has its own tests.
    policy: {push: allow, risk: {high: allow}, unreviewed_merge: allow}
  - name: ops
    agent_handle: ops-bot
    owner_handle: ops
    scope: ["demo/*"]
    sessions: [ops-1]
    push_to_default_branch: true
    # Pushes run unattended here: the approval gate has its own tests.
    policy: {push: allow, risk: {high: allow}, unreviewed_merge: allow}
`

// TestAgentHandsOverSocket drives issue 9's tools on the local forge
// through `forgetools call --gateway unix://...` against `forgetools
// serve`, on each store backend: reads of a real git tree, a branch, file
// commits, the default branch guard, a pull request merged at the head
// that was reviewed, CI, issue updates; the refusals write nothing; and a
// person can clone the repository and push to it.
func TestAgentHandsOverSocket(t *testing.T) {
	t.Parallel()
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("this test needs the git command (apt-get install git): %v", err)
	}
	storetest.Run(t, func(t *testing.T, dsn string) {
		t.Parallel()
		e := newEnv(t)
		srv := e.serve(2, "--config", writeConfig(t, handsConfig), "--store", dsn, "--socket-dir", socketDir(t))
		alice := func(tool, args string) result { t.Helper(); return e.call(tool, args, "--gateway", srv.Sockets[0]) }
		ops := func(tool, args string) result { t.Helper(); return e.call(tool, args, "--gateway", srv.Sockets[1]) }

		wantText(t, alice("forge_get_repo", `{"repo":"demo/app"}`).record(t), header+"# repository\nrepo: demo/app\n"+
			"default_branch: main\nvisibility: private\npermission: write\nurl: http://forge.test/f/demo/app\n")
		readme := alice("forge_read_file", `{"repo":"demo/app","path":"README.md"}`).record(t)
		if !strings.Contains(readme, "<<<content-NONCE\n# demo/app\n") {
			t.Fatalf("a new repository's README:\n%s", readme)
		}

		// The default branch is not alice's to write; ops may.
		alice("forge_write_file", `{"repo":"demo/app","branch":"main","path":"x","content":"x","message":"m"}`).
			want(t, 1, `forge_write_file failed: permission_denied: main is the default branch of demo/app, .*`)
		ops("forge_write_file", `{"repo":"demo/app","branch":"main","path":"app.txt","content":"v1\n","message":"Add app.txt"}`).
			want(t, 0, `Committed app.txt to main in demo/app: [0-9a-f]{40}`)
		v1 := sha(t, alice("forge_read_file", `{"repo":"demo/app","path":"app.txt"}`).record(t))

		alice("forge_create_branch", `{"repo":"demo/app","branch":"fix"}`).want(t, 0, `Created branch fix in demo/app at [0-9a-f]{40}`)
		alice("forge_write_file", `{"repo":"demo/app","branch":"fix","path":"app.txt","content":"v2\n","message":"Fix app","expected_sha":"`+v1+`"}`).
			want(t, 0, `Committed app.txt to fix in demo/app: [0-9a-f]{40}`)
		reviewed := alice("forge_write_file", `{"repo":"demo/app","branch":"fix","path":"FIX.md","content":"fixed\n","message":"Say so"}`).
			want(t, 0, `Committed FIX.md to fix in demo/app: ([0-9a-f]{40})`)[1]

		// A stale expected_sha is refused and the branch stays where it was.
		alice("forge_write_file", `{"repo":"demo/app","branch":"fix","path":"app.txt","content":"v3\n","message":"Again","expected_sha":"`+v1+`"}`).
			want(t, 1, `forge_write_file failed: failed_precondition: app\.txt on fix is now blob [0-9a-f]{40}, not the expected_sha `+v1+` you read: read it again and decide`)
		if got := alice("forge_read_file", `{"repo":"demo/app","path":"app.txt","ref":"fix"}`).record(t); !strings.Contains(got, "\nv2\n") {
			t.Fatalf("after a refused write app.txt on fix reads:\n%s", got)
		}

		alice("forge_create_pull_request", `{"repo":"demo/app","title":"Fix app","head_ref":"fix"}`).
			want(t, 0, `Opened PR #1 in demo/app: http://forge\.test/f/demo/app/pull/1`)
		if pr := alice("forge_get_pull_request", `{"repo":"demo/app","pull_number":1}`).record(t); !strings.Contains(pr, "\nhead_sha: "+reviewed+"\nmergeable: true\n") {
			t.Fatalf("the pull request as reviewed:\n%s", pr)
		}

		alice("forge_trigger_ci", `{"repo":"demo/app","workflow":"ci","ref":"main"}`).want(t, 0, `Triggered ci on main in demo/app`)
		alice("forge_trigger_ci", `{"repo":"demo/app","workflow":"ci","ref":"fix"}`).want(t, 0, `Triggered ci on fix in demo/app`)
		runs := alice("forge_list_ci_runs", `{"repo":"demo/app"}`).record(t)
		if !strings.Contains(runs, "run_id: 2\n<<<name-NONCE\nci\n<<<ref-NONCE\nfix\n>>>NONCE\nhead_sha: "+reviewed+"\nstatus: completed\nconclusion: success\n") ||
			!strings.Contains(runs, "conclusion: failure\n") {
			t.Fatalf("CI runs:\n%s", runs)
		}
		if failed := alice("forge_get_ci_run", `{"repo":"demo/app","run_id":"1"}`).record(t); !strings.Contains(failed, "<<<log_tail-NONCE\nchecking\n>>>NONCE") {
			t.Fatalf("the failed run:\n%s", failed)
		}
		alice("forge_rerun_ci", `{"repo":"demo/app","run_id":"2","failed_only":true}`).
			want(t, 1, `forge_rerun_ci failed: failed_precondition: run 2 in demo/app has no failed jobs to re-run`)
		alice("forge_rerun_ci", `{"repo":"demo/app","run_id":"1"}`).
			want(t, 0, `Re-running run 1 in demo/app: http://forge\.test/f/demo/app/actions/runs/1`)

		// The head moves after the review: the merge is refused, main and
		// the pull request are as they were.
		moved := alice("forge_write_file", `{"repo":"demo/app","branch":"fix","path":"late.txt","content":"late\n","message":"Late"}`).
			want(t, 0, `Committed late.txt to fix in demo/app: ([0-9a-f]{40})`)[1]
		mainBefore := alice("forge_list_dir", `{"repo":"demo/app"}`).record(t)
		alice("forge_merge_pull_request", `{"repo":"demo/app","pull_number":1,"expected_head_sha":"`+reviewed+`"}`).
			want(t, 1, `forge_merge_pull_request failed: failed_precondition: the head of fix is now `+moved+`, not the expected_head_sha `+reviewed+`: .*`)
		if after := alice("forge_list_dir", `{"repo":"demo/app"}`).record(t); after != mainBefore {
			t.Fatalf("a refused merge changed main:\n%s\nwas\n%s", after, mainBefore)
		}
		alice("forge_list_pull_requests", `{"repo":"demo/app"}`).record(t) // still open: listed by default
		alice("forge_merge_pull_request", `{"repo":"demo/app","pull_number":1,"method":"squash","expected_head_sha":"`+moved+`"}`).
			want(t, 0, `Merged PR #1 in demo/app \(squash\): [0-9a-f]{40}`)
		if got := alice("forge_read_file", `{"repo":"demo/app","path":"app.txt","ref":"main"}`).record(t); !strings.Contains(got, "<<<content-NONCE\nv2\n") {
			t.Fatalf("app.txt on main after the merge:\n%s", got)
		}
		if list := alice("forge_list_pull_requests", `{"repo":"demo/app","state":"closed"}`).record(t); !strings.Contains(list, "state: merged\n") ||
			!strings.Contains(list, "head_sha: "+moved+"\nmerged: true\n") {
			t.Fatalf("closed pull requests:\n%s", list)
		}

		alice("forge_create_issue", `{"repo":"demo/app","title":"Track it","assignees":["alice"],"milestone":2}`).
			want(t, 0, `Created issue #2 in demo/app: http://forge\.test/f/demo/app/issues/2`)
		alice("forge_update_issue", `{"repo":"demo/app","issue_number":2,"state":"closed","state_reason":"not_planned"}`).
			want(t, 0, `Updated issue #2 in demo/app: http://forge\.test/f/demo/app/issues/2`)
		if got := alice("forge_list_issues", `{"repo":"demo/app","state":"closed","assignee":"alice"}`).record(t); !strings.Contains(got,
			"assignees: alice\nmilestone: 2\ncreated_at: TIME\nupdated_at: TIME\nclosed_at: TIME\nstate_reason: not_planned\n") {
			t.Fatalf("closed issues assigned to alice:\n%s", got)
		}

		// A person clones the repository from the git directory and pushes.
		repo := filepath.Join(gitDir(e, dsn), "demo", "app.git")
		git := func(dir string, args ...string) {
			t.Helper()
			cmd := exec.Command(gitBin, args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=Pat",
				"GIT_AUTHOR_EMAIL=pat@example.com", "GIT_COMMITTER_NAME=Pat", "GIT_COMMITTER_EMAIL=pat@example.com")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
		clone := filepath.Join(t.TempDir(), "app")
		git(t.TempDir(), "clone", "--quiet", repo, clone)
		if data, err := os.ReadFile(filepath.Join(clone, "FIX.md")); err != nil || string(data) != "fixed\n" {
			t.Fatalf("the clone's FIX.md: %q, %v", data, err)
		}
		if err := os.WriteFile(filepath.Join(clone, "app.txt"), []byte("by a person\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		git(clone, "commit", "--quiet", "-am", "A person's change")
		git(clone, "push", "--quiet", "origin", "main")
		if got := alice("forge_read_file", `{"repo":"demo/app","path":"app.txt"}`).record(t); !strings.Contains(got, "<<<content-NONCE\nby a person\n") {
			t.Fatalf("after a person's push app.txt reads:\n%s", got)
		}
	})
}

// sha is the blob sha a read_file record shows.
func sha(t *testing.T, record string) string {
	t.Helper()
	_, rest, ok := strings.Cut(record, "\nsha: ")
	if !ok || len(rest) < 40 {
		t.Fatalf("no sha in:\n%s", record)
	}
	return rest[:40]
}

// gitDir is where serve keeps the repositories without git_dir: beside a
// SQLite store, else in the data directory.
func gitDir(e *env, dsn string) string {
	if strings.HasPrefix(dsn, "postgres") {
		return filepath.Join(e.dataDir(), "repos")
	}
	return filepath.Join(filepath.Dir(dsn), "repos")
}
