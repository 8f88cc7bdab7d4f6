package forges_test

import (
	"crypto/sha1"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// The agent-hands arms on github.com, as the model sees them: read the
// repository, branch, write a fix, open and merge the pull request; and
// what reached GitHub for each. The refusals that protect the repository
// (a stale sha, a moved head, the default branch) write nothing.

const helloRepo = "octocat/Hello-World"

// readme is README.md as the fake's initial commit has it.
const readme = "# Hello-World\n"

func TestGitHubRepositoryReads(t *testing.T) {
	e := start(t)
	gh := e.github
	gh.Commit(helloRepo, "main", "Add the parser", githubtest.File{Path: "src/parse.go", Content: "package parse\n"},
		githubtest.File{Path: "vendor/lib", Submodule: "https://github.com/octocat/lib.git"})
	blob := readSHA(t, gh, "main", "README.md")

	// Open pull request #2 is not an open issue, though GitHub counts it.
	want(t, "get repo", e.ok("forge_get_repo", `{`+hello+`}`), readPreamble+`# repository
repo: octocat/Hello-World
default_branch: main
visibility: public
permission: write
open_issues: 1
url: https://github.com/octocat/Hello-World`)
	wantSent(t, "get repo", sent(t, gh, 0),
		"GET /repos/octocat/Hello-World author",
		"GET /repos/octocat/Hello-World/pulls?per_page=1&state=open author")

	got := e.ok("forge_list_dir", `{`+hello+`}`)
	for _, entry := range []string{"README.md\n>>>NONCE\ntype: file\nsize: 14\nsha: " + blob, "src\n>>>NONCE\ntype: dir", "vendor\n>>>NONCE\ntype: dir"} {
		if !strings.Contains(got, entry) {
			t.Errorf("root listing lacks %q:\n%s", entry, got)
		}
	}
	want(t, "list a subdirectory", entriesOf(e.ok("forge_list_dir", `{`+hello+`,"path":"vendor","ref":"main"}`)), "lib submodule")

	want(t, "read file", e.ok("forge_read_file", `{`+hello+`,"path":"README.md"}`), readmeOnMain(readme))
	// The root listing names main from its own answer (each entry's url
	// says ?ref=main): no read of the repository first.
	wantSent(t, "reads", sent(t, gh, 2),
		"GET /repos/octocat/Hello-World/contents/ author",
		"GET /repos/octocat/Hello-World/contents/vendor?ref=main author",
		"GET /repos/octocat/Hello-World author",
		"GET /repos/octocat/Hello-World/contents/README.md?ref=main author")

	want(t, "read a directory", e.fails("forge_read_file", `{`+hello+`,"path":"src","ref":"main"}`),
		"forge_read_file failed: invalid_argument: src in octocat/Hello-World at main is a directory (1 entries); list it with forge_list_dir")
	want(t, "read a missing file", e.fails("forge_read_file", `{`+hello+`,"path":"nope.md","ref":"main"}`),
		"forge_read_file failed: not_found: read nope.md in octocat/Hello-World: GitHub answered 404 Not Found (it does not exist, or the credential cannot see it)")
	want(t, "read at an unknown ref", e.fails("forge_read_file", `{`+hello+`,"path":"README.md","ref":"gone"}`),
		"forge_read_file failed: not_found: read README.md in octocat/Hello-World: GitHub answered 404 Not Found: No commit found for the ref gone (it does not exist, or the credential cannot see it)")
	// The gateway refuses it for every forge, before GitHub's provider
	// (which refuses it too) is reached.
	want(t, "a path with ..", e.fails("forge_read_file", `{`+hello+`,"path":"src/../../etc/passwd"}`),
		`forge_read_file failed: invalid_argument: read_file.path: path "src/../../etc/passwd" is one git refuses: its component ".." is . or .., which git never stores`)
}

// readmeOnMain is what forge_read_file shows of README.md on main when it
// holds content.
func readmeOnMain(content string) string {
	return readPreamble + `# file_content
repo: octocat/Hello-World
<<<path-NONCE
README.md
<<<ref-NONCE
main
>>>NONCE
sha: ` + gitBlob(content) + `
size: ` + fmt.Sprint(len(content)) + `
<<<content-NONCE
` + content + `>>>NONCE
url: https://github.com/octocat/Hello-World/blob/main/README.md
total_lines: ` + fmt.Sprint(lineCount(content))
}

// lineCount is how many lines text has, a last one without "\n"
// included: the total_lines the gateway reports for any forge's file.
func lineCount(text string) int {
	n := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		n++
	}
	return n
}

// readSHA is a file's blob sha at a ref, as forge_read_file shows it.
func readSHA(t *testing.T, gh *githubtest.Server, ref, path string) string {
	t.Helper()
	content, ok := gh.FileAt(helloRepo, ref, path)
	if !ok {
		t.Fatalf("no %s at %s", path, ref)
	}
	return gitBlob(content)
}

// entriesOf is a listing's entries as "name type" words.
func entriesOf(listing string) string {
	var out []string
	lines := strings.Split(listing, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "<<<name-") && i+3 < len(lines) {
			out = append(out, lines[i+1]+" "+strings.TrimPrefix(lines[i+3], "type: "))
		}
	}
	return strings.Join(out, ", ")
}

// The whole push flow: branch, write with the sha read, open the pull
// request, merge it with the head reviewed; every refusal on the way
// leaves the repository as it was.
func TestGitHubPushAndMerge(t *testing.T) {
	e := start(t)
	gh := e.github
	blob := readSHA(t, gh, "main", "README.md")
	mainHead := gh.Head(helloRepo, "main")

	want(t, "create branch", e.ok("forge_create_branch", `{`+hello+`,"branch":"fix-typo"}`),
		"Created branch fix-typo in octocat/Hello-World at "+mainHead)
	want(t, "branch exists", e.fails("forge_create_branch", `{`+hello+`,"branch":"fix-typo","from_ref":"main"}`),
		"forge_create_branch failed: already_exists: create branch fix-typo in octocat/Hello-World: branch fix-typo already exists in octocat/Hello-World; nothing was created: pick another name, or read it and write to it")
	want(t, "unknown from_ref", e.fails("forge_create_branch", `{`+hello+`,"branch":"other","from_ref":"v9"}`),
		`forge_create_branch failed: not_found: create branch other in octocat/Hello-World: from_ref "v9" is not a branch, tag or commit of octocat/Hello-World (GitHub: No commit found for SHA: v9); nothing was created`)
	wantSent(t, "branches", sent(t, gh, 0),
		"GET /repos/octocat/Hello-World author",
		"GET /repos/octocat/Hello-World/commits/main author",
		`POST /repos/octocat/Hello-World/git/refs author {"ref":"refs/heads/fix-typo","sha":"SHA"}`,
		"GET /repos/octocat/Hello-World/commits/main author",
		`POST /repos/octocat/Hello-World/git/refs author {"ref":"refs/heads/fix-typo","sha":"SHA"}`,
		"GET /repos/octocat/Hello-World/commits/v9 author")

	// A stale sha, and none for a file that exists: nothing is written.
	write := func(branch, sha string) string {
		return `{` + hello + `,"branch":"` + branch + `","path":"README.md","content":"# Hello, World\n","message":"Fix the title","expected_sha":"` + sha + `"}`
	}
	stale := gitBlob("# Hello-World (old)\n")
	want(t, "stale sha", e.fails("forge_write_file", write("fix-typo", stale)),
		"forge_write_file failed: failed_precondition: write README.md to fix-typo in octocat/Hello-World: README.md changed on fix-typo since you read it (GitHub: README.md does not match "+stale+"); nothing was written: read it again with forge_read_file and decide")
	want(t, "no sha", e.fails("forge_write_file", write("fix-typo", "")),
		"forge_write_file failed: failed_precondition: write README.md to fix-typo in octocat/Hello-World: README.md already exists on fix-typo and expected_sha was not given; nothing was written: read it with forge_read_file and pass its sha as expected_sha to replace it")
	// The default branch is refused before anything is sent to write.
	want(t, "default branch", e.fails("forge_write_file", write("main", blob)),
		"forge_write_file failed: permission_denied: write README.md to main in octocat/Hello-World: main is the default branch of octocat/Hello-World, and this account may not commit to it; nothing was written: create a branch (forge_create_branch), write there and open a pull request")
	if gh.Head(helloRepo, "fix-typo") != mainHead || gh.Head(helloRepo, "main") != mainHead {
		t.Fatal("a refused write moved a branch")
	}
	wantSent(t, "refused writes", sent(t, gh, 6),
		"GET /repos/octocat/Hello-World author",
		`PUT /repos/octocat/Hello-World/contents/README.md author {"message":"Fix the title","content":"IyBIZWxsbywgV29ybGQK","sha":"SHA","branch":"fix-typo"}`,
		"GET /repos/octocat/Hello-World author",
		`PUT /repos/octocat/Hello-World/contents/README.md author {"message":"Fix the title","content":"IyBIZWxsbywgV29ybGQK","branch":"fix-typo"}`,
		"GET /repos/octocat/Hello-World author")

	ack := e.ok("forge_write_file", write("fix-typo", blob))
	fixed := gh.Head(helloRepo, "fix-typo")
	want(t, "write", ack, "Committed README.md to fix-typo in octocat/Hello-World: "+fixed)
	if c, _ := gh.FileAt(helloRepo, "fix-typo", "README.md"); c != "# Hello, World\n" || fixed == mainHead {
		t.Errorf("fix-typo has %q at %s", c, fixed)
	}
	// A new file needs no sha.
	e.ok("forge_write_file", `{`+hello+`,"branch":"fix-typo","path":"docs/typos.md","content":"none left\n","message":"Note it"}`)
	head := gh.Head(helloRepo, "fix-typo")

	want(t, "open the pull request", e.ok("forge_create_pull_request", `{`+hello+`,"title":"Fix the title","head_ref":"fix-typo"}`),
		"Opened PR #3 in octocat/Hello-World: https://github.com/octocat/Hello-World/pull/3")
	got := e.ok("forge_get_pull_request", `{`+hello+`,"pull_number":3}`)
	if !strings.Contains(got, "\nhead_sha: "+head+"\nmergeable: true\n") {
		t.Errorf("pull request read:\n%s", got)
	}
	listed := e.ok("forge_list_pull_requests", `{`+hello+`,"limit":5}`)
	if strings.Count(listed, "# pull_requests[") != 2 || !strings.Contains(listed, "number: 3\n") ||
		!strings.Contains(listed, "head_sha: "+head+"\n") || strings.Contains(listed, "mergeable") {
		t.Errorf("list of open pull requests:\n%s", listed)
	}

	// Someone pushes after the agent reviewed: the merge is refused.
	mark := len(gh.Requests())
	moved := gh.Commit(helloRepo, "fix-typo", "Sneak in a change", githubtest.File{Path: "evil.sh", Content: "rm -rf /\n"})
	want(t, "moved head", e.fails("forge_merge_pull_request", `{`+hello+`,"pull_number":3,"method":"squash","expected_head_sha":"`+head+`"}`),
		"forge_merge_pull_request failed: failed_precondition: merge pull request octocat/Hello-World#3: its head moved since you reviewed "+head[:12]+
			" (GitHub: Head branch was modified. Review and try the merge again.); nothing was merged: read it again with forge_get_pull_request, review the new head and decide")
	if gh.Head(helloRepo, "main") != mainHead {
		t.Fatal("a refused merge moved main")
	}
	ack = e.ok("forge_merge_pull_request", `{`+hello+`,"pull_number":3,"method":"squash","expected_head_sha":"`+moved+`"}`)
	merged := gh.Head(helloRepo, "main")
	want(t, "merge", ack, "Merged PR #3 in octocat/Hello-World (squash): "+merged)
	want(t, "read back on main", e.ok("forge_read_file", `{`+hello+`,"path":"README.md","ref":"main"}`), readmeOnMain("# Hello, World\n"))
	want(t, "merge again", e.fails("forge_merge_pull_request", `{`+hello+`,"pull_number":3,"expected_head_sha":"`+moved+`"}`),
		"forge_merge_pull_request failed: failed_precondition: merge pull request octocat/Hello-World#3: GitHub cannot merge it: Pull Request is not mergeable; nothing was merged")
	got = e.ok("forge_list_pull_requests", `{`+hello+`,"state":"closed","head":"fix-typo"}`)
	if !strings.Contains(got, "number: 3\nstate: merged\n") || !strings.Contains(got, "merged: true") {
		t.Errorf("closed pull requests from fix-typo:\n%s", got)
	}
	wantSent(t, "merges", sent(t, gh, mark),
		`PUT /repos/octocat/Hello-World/pulls/3/merge author {"merge_method":"squash","sha":"SHA"}`,
		`PUT /repos/octocat/Hello-World/pulls/3/merge author {"merge_method":"squash","sha":"SHA"}`,
		"GET /repos/octocat/Hello-World/contents/README.md?ref=main author",
		`PUT /repos/octocat/Hello-World/pulls/3/merge author {"merge_method":"merge","sha":"SHA"}`,
		"GET /repos/octocat/Hello-World/pulls?direction=desc&head=octocat%3Afix-typo&per_page=30&sort=created&state=closed author")

	// A pull request GitHub cannot merge says why, in GitHub's words.
	gh.AddBranch(helloRepo, "conflicted")
	gh.AddPull(helloRepo, githubtest.Pull{Title: "Conflicts", Head: "conflicted", Conflicts: true})
	want(t, "conflicts", e.fails("forge_merge_pull_request", `{`+hello+`,"pull_number":4,"expected_head_sha":"`+gh.Head(helloRepo, "conflicted")+`"}`),
		"forge_merge_pull_request failed: failed_precondition: merge pull request octocat/Hello-World#4: GitHub cannot merge it: Pull Request is not mergeable; nothing was merged")
	gh.Configure(helloRepo, githubtest.Settings{MergeMethods: []string{"squash"}})
	gh.AddPull(helloRepo, githubtest.Pull{Title: "Fine", Head: "new-topic"})
	want(t, "disallowed method", e.fails("forge_merge_pull_request", `{`+hello+`,"pull_number":5,"expected_head_sha":"`+gh.Head(helloRepo, "new-topic")+`"}`),
		"forge_merge_pull_request failed: failed_precondition: merge pull request octocat/Hello-World#5: GitHub cannot merge it: Merge commits are not allowed on this repository.; nothing was merged")
	want(t, "short sha", e.fails("forge_merge_pull_request", `{`+hello+`,"pull_number":5,"expected_head_sha":"`+head[:7]+`"}`),
		`forge_merge_pull_request failed: invalid_argument: expected_head_sha "`+head[:7]+`" is not a full sha: GitHub needs all 40 hex digits, as the read returned them`)
}

// gitBlob is git's blob sha of content (git hash-object), which GitHub
// and the fake use.
func gitBlob(content string) string {
	return fmt.Sprintf("%x", sha1.Sum(fmt.Appendf(nil, "blob %d\x00%s", len(content), content)))
}

// Issues close, reopen and change; a pull request is not an issue here.
func TestGitHubIssueUpdates(t *testing.T) {
	e := start(t)
	gh := e.github
	milestone := gh.AddMilestone(helloRepo, "v1.0")
	want(t, "close", e.ok("forge_update_issue", `{`+hello+`,"issue_number":1,"state":"closed","state_reason":"not_planned","labels":["wontfix"]}`),
		"Updated issue #1 in octocat/Hello-World: https://github.com/octocat/Hello-World/issues/1")
	got := e.ok("forge_get_issue", `{`+hello+`,"issue_number":1}`)
	for _, line := range []string{"state: closed\n", "labels: wontfix\n", "closed_at: TIME\n", "state_reason: not_planned"} {
		if !strings.Contains(got, line) {
			t.Errorf("closed issue lacks %q:\n%s", line, got)
		}
	}
	e.ok("forge_update_issue", `{`+hello+`,"issue_number":1,"state":"open","title":"Found a bug, again","body":"Still crashes."}`)
	got = e.ok("forge_get_issue", `{`+hello+`,"issue_number":1}`)
	if !strings.Contains(got, "state: open\n") || !strings.Contains(got, "Found a bug, again") || !strings.Contains(got, "state_reason: reopened") ||
		!strings.Contains(got, claim) || strings.Contains(got, "closed_at") {
		t.Errorf("reopened issue:\n%s", got)
	}
	want(t, "a pull request", e.fails("forge_update_issue", `{`+hello+`,"issue_number":2,"state":"closed"}`),
		"forge_update_issue failed: not_found: #2 in octocat/Hello-World is a pull request, not an issue; forge_update_issue changes issues only, and nothing was changed")
	want(t, "nothing to change", e.fails("forge_update_issue", `{`+hello+`,"issue_number":1}`),
		"forge_update_issue failed: invalid_argument: give at least one field to change")
	wantSent(t, "updates", sent(t, gh, 0),
		"GET /repos/octocat/Hello-World/issues/1 author",
		`PATCH /repos/octocat/Hello-World/issues/1 author {"labels":["wontfix"],"state":"closed","state_reason":"not_planned"}`,
		"GET /repos/octocat/Hello-World/issues/1 author",
		"GET /repos/octocat/Hello-World/issues/1/comments?per_page=30 author",
		"GET /repos/octocat/Hello-World/issues/1 author",
		`PATCH /repos/octocat/Hello-World/issues/1 author {"title":"Found a bug, again","body":"`+jsonText(stamped)+`Still crashes.","state":"open"}`,
		"GET /repos/octocat/Hello-World/issues/1 author",
		"GET /repos/octocat/Hello-World/issues/1/comments?per_page=30 author",
		"GET /repos/octocat/Hello-World/issues/2 author")

	want(t, "create with assignees", e.ok("forge_create_issue", fmt.Sprintf(`{%s,"title":"Track it","assignees":["hubot"],"milestone":%d}`, hello, milestone)),
		"Created issue #3 in octocat/Hello-World: https://github.com/octocat/Hello-World/issues/3")
	got = e.ok("forge_list_issues", `{`+hello+`,"assignee":"hubot","since":"2020-01-01T00:00:00Z"}`)
	if strings.Count(got, "# issues[") != 1 || !strings.Contains(got, "assignees: hubot\nmilestone: v1.0\n") {
		t.Errorf("issues assigned to hubot:\n%s", got)
	}
	want(t, "unknown milestone", e.fails("forge_create_issue", `{`+hello+`,"title":"x","milestone":9}`),
		"forge_create_issue failed: invalid_argument: create issue in octocat/Hello-World: GitHub answered 422 Unprocessable Entity: Validation Failed: Issue.milestone (invalid)")
}

// Actions as the model drives it: runs, a failed run's jobs with the
// failed job's log tail (downloaded from the log host without the
// credential), a dispatch, re-runs, and GitHub's refusals.
func TestGitHubCI(t *testing.T) {
	e := start(t)
	gh := e.github
	gh.AddWorkflow(helloRepo, githubtest.Workflow{Path: ".github/workflows/ci.yml", Name: "CI", Dispatch: true, Inputs: []string{"level"}})
	gh.AddWorkflow(helloRepo, githubtest.Workflow{Path: ".github/workflows/nightly.yml", Name: "Nightly"})
	failed := gh.AddRun(helloRepo, githubtest.Run{Workflow: "ci.yml", Conclusion: "failure", Jobs: []githubtest.Job{
		{Name: "lint", Conclusion: "success", Log: "lint ok\n"},
		{Name: "test", Conclusion: "failure", Log: githubtest.Fixture("job_log.txt")},
	}})
	running := gh.AddRun(helloRepo, githubtest.Run{Workflow: "ci.yml", Branch: "new-topic", Status: "in_progress", Jobs: []githubtest.Job{{Name: "test"}}})
	main := gh.Head(helloRepo, "main")
	runURL := func(id int64) string {
		return fmt.Sprintf("https://github.com/octocat/Hello-World/actions/runs/%d", id)
	}

	run := `repo: octocat/Hello-World
run_id: ` + fmt.Sprint(failed) + `
<<<name-NONCE
CI
<<<ref-NONCE
main
>>>NONCE
head_sha: ` + main + `
status: completed
conclusion: failure
url: ` + runURL(failed) + `
created_at: TIME`
	want(t, "list failed runs", e.ok("forge_list_ci_runs", `{`+hello+`,"ref":"main","status":"failure"}`),
		readPreamble+"# ci_run_list\nruns: 1\n# runs[0]\n"+run)

	// The failed job's tail is the end of its log without the runner's
	// timestamps and colour codes (the provider's tests pin it exactly).
	job := failed + 2 // the run, then its jobs: one id sequence
	got, tail, _ := strings.Cut(e.ok("forge_get_ci_run", fmt.Sprintf(`{%s,"run_id":"%d"}`, hello, failed)), "<<<log_tail-NONCE\n")
	want(t, "get the failed run", got, readPreamble+"# ci_run\n"+run+`
jobs: 2
# jobs[0]
job_id: `+fmt.Sprint(job-1)+`
<<<name-NONCE
lint
>>>NONCE
status: completed
conclusion: success
url: `+fmt.Sprintf("%s/job/%d", runURL(failed), job-1)+`
# jobs[1]
job_id: `+fmt.Sprint(job)+`
<<<name-NONCE
test
>>>NONCE
status: completed
conclusion: failure
url: `+fmt.Sprintf("%s/job/%d", runURL(failed), job)+"\n")
	if !strings.HasPrefix(tail, "##[group]Run go test ./...\n") || strings.ContainsAny(tail, "\x1b\ufeff") || strings.Contains(tail, "2026-11-29T") ||
		!strings.HasSuffix(tail, "FAIL\texample.com/hello/parse\t0.004s\n##[error]Process completed with exit code 1.\n>>>NONCE") {
		t.Errorf("log tail:\n%s", tail)
	}
	wantSent(t, "CI reads", sent(t, gh, 0),
		"GET /repos/octocat/Hello-World/actions/runs?branch=main&per_page=30&status=failure author",
		fmt.Sprintf("GET /repos/octocat/Hello-World/actions/runs/%d author", failed),
		fmt.Sprintf("GET /repos/octocat/Hello-World/actions/runs/%d/jobs?filter=latest&per_page=100 author", failed),
		fmt.Sprintf("GET /repos/octocat/Hello-World/actions/jobs/%d/logs author", job),
		fmt.Sprintf("GET logstore /actions-results/job-logs/%d.txt none", job))
	if r := gh.Requests()[4]; !strings.HasPrefix(r.Host, "localhost:") || r.Header.Get("Range") != "bytes=-65536" {
		t.Errorf("log download went to %s with Range %q", r.Host, r.Header.Get("Range"))
	}

	// GitHub's redirect to a host that is not its log host is not followed.
	gh.Inject(fmt.Sprintf("GET /repos/octocat/Hello-World/actions/jobs/%d/logs", job),
		githubtest.Response{Status: 302, Header: http.Header{"Location": {"https://collector.example.com/steal?job=1"}}})
	got = e.ok("forge_get_ci_run", fmt.Sprintf(`{%s,"run_id":"%d"}`, hello, failed))
	if !strings.Contains(got, "<<<log_tail-NONCE\n(log not available: job "+fmt.Sprint(job)+" log: refused to follow a redirect to https://collector.example.com: this forge is pinned to "+
		strings.TrimSuffix(gh.URL, "/")+" and GitHub's log download hosts)\n>>>NONCE") {
		t.Errorf("refused log redirect:\n%s", got)
	}
	if n := len(gh.Requests()); n != 8 {
		t.Errorf("%d requests, want 8: the refused download never left", n)
	}

	want(t, "trigger", e.ok("forge_trigger_ci", `{`+hello+`,"workflow":".github/workflows/ci.yml","ref":"main","inputs":[{"name":"level","value":"2"}]}`),
		"Triggered ci.yml on main in octocat/Hello-World")
	got = e.ok("forge_list_ci_runs", `{`+hello+`,"status":"queued"}`)
	if !strings.Contains(got, "runs: 1\n") || !strings.Contains(got, "status: queued\n") || !strings.Contains(got, "head_sha: "+main+"\n") {
		t.Errorf("queued runs after the dispatch:\n%s", got)
	}
	want(t, "no dispatch trigger", e.fails("forge_trigger_ci", `{`+hello+`,"workflow":"nightly.yml","ref":"main"}`),
		"forge_trigger_ci failed: invalid_argument: trigger workflow nightly.yml on main in octocat/Hello-World: GitHub refused to start it: Workflow does not have 'workflow_dispatch' trigger; only a workflow that declares on: workflow_dispatch can be triggered; nothing was started")
	want(t, "missing workflow", e.fails("forge_trigger_ci", `{`+hello+`,"workflow":"deploy.yml","ref":"main"}`),
		"forge_trigger_ci failed: not_found: trigger workflow deploy.yml on main in octocat/Hello-World: GitHub has no workflow deploy.yml in octocat/Hello-World (404); give the file name of a workflow under .github/workflows (e.g. ci.yml) or its numeric id; nothing was started")
	want(t, "unknown input", e.fails("forge_trigger_ci", `{`+hello+`,"workflow":"ci.yml","ref":"main","inputs":[{"name":"colour","value":"red"}]}`),
		`forge_trigger_ci failed: invalid_argument: trigger workflow ci.yml on main in octocat/Hello-World: GitHub refused to start it: Unexpected inputs provided: ["colour"]; nothing was started`)
	want(t, "unknown ref", e.fails("forge_trigger_ci", `{`+hello+`,"workflow":"ci.yml","ref":"gone"}`),
		"forge_trigger_ci failed: invalid_argument: trigger workflow ci.yml on gone in octocat/Hello-World: GitHub refused to start it: No ref found for: gone; nothing was started")

	want(t, "re-run failed jobs", e.ok("forge_rerun_ci", fmt.Sprintf(`{%s,"run_id":"%d","failed_only":true}`, hello, failed)),
		fmt.Sprintf("Re-running run %d in octocat/Hello-World: %s", failed, runURL(failed)))
	got = e.ok("forge_get_ci_run", fmt.Sprintf(`{%s,"run_id":"%d"}`, hello, failed))
	if !strings.Contains(got, "status: queued\n") || strings.Contains(got, "log_tail") || !strings.Contains(got, "lint\n>>>NONCE\nstatus: completed\nconclusion: success") {
		t.Errorf("after re-running the failed jobs:\n%s", got)
	}
	want(t, "re-run while running", e.fails("forge_rerun_ci", fmt.Sprintf(`{%s,"run_id":"%d"}`, hello, running)),
		fmt.Sprintf("forge_rerun_ci failed: failed_precondition: re-run CI run %d in octocat/Hello-World: GitHub answered 403: This workflow is already running; wait for it to finish (forge_get_ci_run), then re-run", running))
	want(t, "not a run id", e.fails("forge_get_ci_run", `{`+hello+`,"run_id":"abc"}`),
		`forge_get_ci_run failed: invalid_argument: run_id "abc" is not a GitHub Actions run id (a number, as forge_list_ci_runs shows)`)
	want(t, "no such run", e.fails("forge_get_ci_run", `{`+hello+`,"run_id":"99999"}`),
		"forge_get_ci_run failed: not_found: get CI run 99999 in octocat/Hello-World: GitHub answered 404 Not Found (it does not exist, or the credential cannot see it)")
}

// GitHub Enterprise Server is not asked for a dispatched run's id (the
// option is github.com's); the trigger still reports the workflow started.
func TestGitHubEnterpriseTrigger(t *testing.T) {
	e := start(t)
	e.ghe.AddWorkflow("acme/widgets", githubtest.Workflow{Path: ".github/workflows/ci.yml", Dispatch: true})
	ghe := `"forge_provider":"github","forge_host":"ghe.example.com"`
	want(t, "trigger on Enterprise", e.ok("forge_trigger_ci", `{"repo":"acme/widgets","workflow":"ci.yml","ref":"trunk",`+ghe+`}`),
		"Triggered ci.yml on trunk in acme/widgets")
	wantSent(t, "Enterprise dispatch", sent(t, e.ghe, 0), `POST /repos/acme/widgets/actions/workflows/ci.yml/dispatches ghe {"ref":"trunk"}`)
}

// GitHub's failures on the new arms come back in-band like any other.
func TestGitHubHandsFailuresInBand(t *testing.T) {
	e := start(t)
	blob := readSHA(t, e.github, "main", "README.md")
	e.github.AddBranch(helloRepo, "fix")
	for _, tc := range []struct {
		route  string
		inject githubtest.Response
		tool   string
		args   string
		want   string
	}{
		{"PUT /repos/octocat/Hello-World/pulls/2/merge",
			githubtest.Response{Status: 502, Body: githubtest.Fixture("error_502.html"), Header: http.Header{"Content-Type": {"text/html"}}},
			"forge_merge_pull_request", `{` + hello + `,"pull_number":2,"expected_head_sha":"` + blob + `"}`,
			"forge_merge_pull_request failed: unavailable: merge pull request octocat/Hello-World#2: GitHub answered 502 Bad Gateway"},
		{"GET /repos/octocat/Hello-World/contents/README.md",
			githubtest.Response{Status: 403, Body: githubtest.Fixture("error_403.json")},
			"forge_read_file", `{` + hello + `,"path":"README.md","ref":"main"}`,
			"forge_read_file failed: permission_denied: read README.md in octocat/Hello-World: GitHub answered 403 Forbidden: Resource not accessible by personal access token"},
		{"POST /repos/octocat/Hello-World/git/refs",
			githubtest.Response{Status: 401, Body: githubtest.Fixture("error_401.json")},
			"forge_create_branch", `{` + hello + `,"branch":"b","from_ref":"main"}`,
			"forge_create_branch failed: unauthenticated: create branch b in octocat/Hello-World: GitHub answered 401 Unauthorized: Bad credentials (the configured token is missing, expired or revoked)"},
	} {
		e.github.Inject(tc.route, tc.inject)
		if got := e.fails(tc.tool, tc.args); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s:\n got: %s\nwant: %s…", tc.tool, got, tc.want)
		}
	}
	if p := e.github.Pending(); len(p) != 0 {
		t.Errorf("injections never used: %v", p)
	}
	// A secondary rate limit on a write: go-github then refuses every call
	// for the wait, so this case comes last.
	e.github.Inject("PUT /repos/octocat/Hello-World/contents/README.md",
		githubtest.Response{Status: 403, Body: githubtest.Fixture("rate_limit_secondary.json"), Header: http.Header{"Retry-After": {"30"}}})
	got := e.fails("forge_write_file", `{`+hello+`,"branch":"fix","path":"README.md","content":"x","message":"m","expected_sha":"`+blob+`"}`)
	if !strings.HasPrefix(got, "forge_write_file failed: resource_exhausted: write README.md to fix in octocat/Hello-World: GitHub secondary rate limit: You have exceeded a secondary rate limit.") ||
		!strings.HasSuffix(got, "; retry after 30000ms") {
		t.Errorf("rate limited write: %s", got)
	}
}

// After a rename a write is answered with a 301: it is not replayed as a
// GET that writes nothing.
func TestGitHubWriteAfterRename(t *testing.T) {
	e := start(t)
	blob := readSHA(t, e.github, "main", "README.md")
	e.github.AddBranch(helloRepo, "fix")
	e.github.Rename(helloRepo, "octocat/Hello-Universe")
	want(t, "write after a rename", e.fails("forge_write_file", `{`+hello+`,"branch":"fix","path":"README.md","content":"x","message":"m","expected_sha":"`+blob+`"}`),
		"forge_write_file failed: failed_precondition: write README.md to fix in octocat/Hello-World: repository moved: GitHub answered PUT with 301 Moved Permanently (renamed or transferred); nothing was written, use the repository's new owner/name")
	if c, _ := e.github.FileAt("octocat/Hello-Universe", "fix", "README.md"); c != readme {
		t.Errorf("README.md on fix = %q", c)
	}
}
