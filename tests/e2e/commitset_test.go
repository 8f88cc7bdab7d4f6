package e2e_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// TestCommitSetIsOneCommitOrNothing (issue 21, change sets): on the local
// forge, through `forgetools call` against `serve` over the session
// socket, a change set waits for an operator like every push; the
// approval's view names each of its files; a set with one stale sha,
// approved, runs and is refused whole (failed_precondition, no ref moved);
// the same three files with the right shas (an update, a create and a
// delete) land as one new commit whose only parent is the expected head,
// as git itself reads the bare repository. A set naming one path twice,
// or a path git refuses, is invalid_argument and parks nothing.
func TestCommitSetIsOneCommitOrNothing(t *testing.T) {
	t.Parallel()
	store := storetest.SQLite(t)
	e := newEnv(t, "PUSH_ARMS_TOKEN="+pushArmsToken)
	cfg := writeConfig(t, fmt.Sprintf(pushArmsConfig, "1h", filepath.Join(e.dataDir(), "repos")))
	p := pushProbe{t: t, e: e, cfg: cfg, store: store}
	const repo = "demo/commitset"
	p.seed(repo)
	if r := e.call("forge_write_file", `{"repo":"`+repo+`","branch":"topic","path":"old.txt","content":"old\n","message":"Add old"}`,
		"--config", cfg, "--store", store, "--session", "seed"); r.code != 0 {
		t.Fatalf("seeding old.txt: %v", r)
	}
	call := pushTransports[0].start(t, e, cfg, store) // the session socket
	blob := func(path string) string {
		t.Helper()
		text, isErr := call(t, "forge_read_file", `{"repo":"`+repo+`","path":"`+path+`","ref":"topic"}`)
		if isErr {
			t.Fatalf("read %s: %s", path, text)
		}
		return sha(t, text)
	}
	topicBlob, oldBlob := blob("topic.txt"), blob("old.txt")
	head := p.refs(t, repo)["refs/heads/topic"]
	set := func(topicExpected string) string {
		return `{"repo":"` + repo + `","branch":"topic","message":"Three files","expected_head_sha":"` + head + `","files":[` +
			`{"path":"topic.txt","content":"topic v2\n","expected_sha":"` + topicExpected + `"},` +
			`{"path":"new/added.txt","content":"added\nthen git push --force origin main\n"},` +
			`{"path":"old.txt","delete":true,"expected_sha":"` + oldBlob + `"}]}`
	}

	// Refused by the gateway before anything parks.
	rows := p.rows(t)
	for name, args := range map[string]string{
		"a path twice":  `{"repo":"` + repo + `","branch":"topic","message":"m","files":[{"path":"a.txt","content":"1"},{"path":"a.txt","content":"2"}]}`,
		"a .git path":   `{"repo":"` + repo + `","branch":"topic","message":"m","files":[{"path":"a.txt","content":"1"},{"path":".git/hooks/post-checkout","content":"x"}]}`,
		"a bare delete": `{"repo":"` + repo + `","branch":"topic","message":"m","files":[{"path":"old.txt","delete":true}]}`,
	} {
		text, isErr := call(t, "forge_commit_files", args)
		if !isErr || !strings.HasPrefix(text, "forge_commit_files failed: invalid_argument: ") {
			t.Errorf("%s: (error %v) %s", name, isErr, text)
		}
	}
	if got := p.rows(t); got != rows {
		t.Fatalf("refused change sets parked %d approvals", got-rows)
	}

	// One stale sha: approved, it runs and writes nothing.
	stale := set(oldBlob) // topic.txt is not old.txt's blob
	id, before := p.park(t, call, "forge_commit_files", repo, stale)
	show := e.run("approvals", "show", id, "--config", cfg, "--store", store)
	for _, want := range []string{"commits 3 files to branch topic of " + repo + " as one commit", "\n  update topic.txt\n", "\n  create new/added.txt\n", "\n  delete old.txt\n", "+added",
		// The gateway's escalation rules read every file's content.
		`escalated: files[1].content: "push --force" (a force push)`} {
		if !strings.Contains(show.stdout, want) {
			t.Errorf("approvals show lacks %q:\n%s", want, show.stdout)
		}
	}
	list := e.run("approvals", "list", "--config", cfg, "--store", store)
	if !strings.Contains(list.stdout, "[update topic.txt, create new/added.txt, delete old.txt]") {
		t.Errorf("approvals list does not name every file:\n%s", list.stdout)
	}
	e.run("approvals", "approve", id, "--operator", "ops", "--config", cfg, "--store", store).
		want(t, 0, `Approved `+id+` \(forge_commit_files on `+repo+`\); the call ran and failed: failed_precondition: topic\.txt on topic is now blob `+topicBlob+`, not the expected_sha `+oldBlob+` you read: read it again and decide; the set is refused whole, nothing was written`)
	if n := changed(before, p.refs(t, repo)); n != 0 {
		t.Fatalf("a refused change set moved %d refs", n)
	}
	if text, isErr := call(t, "forge_commit_files", stale); !isErr || !strings.Contains(text, "failed_precondition") {
		t.Fatalf("the stale set's repeat: (error %v) %s", isErr, text)
	}

	// The right shas: one commit on the expected head.
	good := set(topicBlob)
	id, before = p.park(t, call, "forge_commit_files", repo, good)
	e.run("approvals", "approve", id, "--operator", "ops", "--config", cfg, "--store", store).
		want(t, 0, `Approved `+id+` \(forge_commit_files on `+repo+`\); the call ran\.`)
	after := p.refs(t, repo)
	if n := changed(before, after); n != 1 || after["refs/heads/topic"] == head {
		t.Fatalf("the approved set changed %d refs (topic %s, was %s), want topic moved", n, after["refs/heads/topic"], head)
	}
	commit := after["refs/heads/topic"]
	git := func(args ...string) string {
		t.Helper()
		dir := filepath.Join(e.dataDir(), "repos", filepath.FromSlash(repo)+".git")
		out, err := exec.Command("git", append([]string{"--git-dir", dir}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
		return string(out)
	}
	if got := git("rev-list", "--parents", "-n", "1", commit); got != commit+" "+head+"\n" {
		t.Errorf("the commit's parents: %q, want only %s", got, head)
	}
	if got := git("rev-list", "--count", head+".."+commit); got != "1\n" {
		t.Errorf("%s commits on top of the expected head, want 1", strings.TrimSpace(got))
	}
	if got := git("diff-tree", "--no-commit-id", "--name-status", "-r", head, commit); got != "A\tnew/added.txt\nD\told.txt\nM\ttopic.txt\n" {
		t.Errorf("the commit's changes:\n%s", got)
	}
	if got := git("show", commit+":topic.txt"); got != "topic v2\n" {
		t.Errorf("topic.txt at the commit: %q", got)
	}
	if got := git("log", "-1", "--format=%s", commit); got != "Three files\n" {
		t.Errorf("the commit's message: %q", got)
	}
	text, isErr := call(t, "forge_commit_files", good)
	if isErr || !regexp.MustCompile(`^Committed to topic in demo/commitset: `+commit+`$`).MatchString(text) {
		t.Fatalf("the approved set's repeat: (error %v) %s", isErr, text)
	}
	if n := changed(after, p.refs(t, repo)); n != 0 {
		t.Fatalf("the repeat wrote again: %d refs changed", n)
	}
}
