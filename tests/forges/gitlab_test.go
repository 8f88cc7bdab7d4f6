package forges_test

import (
	"strings"
	"testing"

	"github.com/forgetools/forgetools/providers/gitlab/gitlabtest"
)

// onGitLab addresses platform/infra/deploy, a project in a subgroup.
const onGitLab = `"repo":"platform/infra/deploy","forge_provider":"gitlab"`

// project is how the project goes into GitLab's paths: its full path,
// URL-encoded whole.
const project = "/projects/platform%2Finfra%2Fdeploy"

// gitlabSent is what the GitLab fake received from request from on, one
// line each (see lines); the credential travels as PRIVATE-TOKEN.
func gitlabSent(t *testing.T, s *gitlabtest.Server, from int) []string {
	t.Helper()
	var ws []wire
	for _, r := range s.Requests()[from:] {
		ws = append(ws, wire{r.Method, r.Path, r.Query, r.Header, r.Body})
	}
	return lines(t, ws, "PRIVATE-TOKEN", map[string]string{gitlabToken: "author", gitlabReview: "reviewer"})
}

// Every arm on GitLab, as the model sees it, and what reached GitLab.
func TestGitLabSession(t *testing.T) {
	e := start(t)
	g := e.gitlab

	create := `{` + onGitLab + `,"title":"Canary first","body":"Roll out to 5%.","labels":["ops"],"assignees":["ada"],"milestone":1}`
	want(t, "create issue", e.ok("forge_create_issue", create, "gl-create-1"),
		"Created issue #2 in platform/infra/deploy: https://gitlab.example.com/platform/infra/deploy/-/issues/2")
	want(t, "create replay", e.ok("forge_create_issue", create, "gl-create-1"),
		"Issue #2 in platform/infra/deploy already created by an earlier attempt")
	wantSent(t, "create issue", gitlabSent(t, g, 0),
		"GET /users?username=ada author",
		"GET "+project+"/milestones?iids%5B%5D=1 author",
		`POST `+project+`/issues author {"title":"Canary first","description":"`+jsonText(stamped)+`Roll out to 5%.","assignee_ids":[3],"milestone_id":104,"labels":"ops"}`)

	ack := e.ok("forge_comment_on_issue", `{`+onGitLab+`,"issue_number":1,"body":"Seen in prod."}`)
	if !strings.HasPrefix(ack, "Commented on issue #1 in platform/infra/deploy: https://gitlab.example.com/platform/infra/deploy/-/issues/1#note_") {
		t.Errorf("comment: %s", ack)
	}
	got := e.ok("forge_get_issue", `{`+onGitLab+`,"issue_number":2}`)
	for _, part := range []string{"labels: ops\n", "assignees: ada\n", "milestone: v1.0\n", claim} {
		if !strings.Contains(got, part) {
			t.Errorf("get issue lacks %q:\n%s", part, got)
		}
	}
	if got := e.ok("forge_list_issues", `{`+onGitLab+`,"state":"all"}`); strings.Count(got, "# issues[") != 2 {
		t.Errorf("list issues:\n%s", got)
	}
	want(t, "close", e.ok("forge_update_issue", `{`+onGitLab+`,"issue_number":1,"state":"closed"}`),
		"Updated issue #1 in platform/infra/deploy: https://gitlab.example.com/platform/infra/deploy/-/issues/1")

	// Push: a branch from any ref in one call; the files API's missing
	// commit sha is read back.
	want(t, "write to main", e.fails("forge_write_file", `{`+onGitLab+`,"branch":"main","path":"x","content":"y","message":"m"}`),
		"forge_write_file failed: permission_denied: main is the default branch of platform/infra/deploy, and this gateway does not allow pushing to it; nothing was written: create a branch (forge_create_branch), write there and open a merge request")
	want(t, "create branch", e.ok("forge_create_branch", `{`+onGitLab+`,"branch":"canary"}`),
		"Created branch canary in platform/infra/deploy at "+g.Head(deploy, "main"))
	read := e.ok("forge_read_file", `{`+onGitLab+`,"path":"charts/app/values.yaml","ref":"canary"}`)
	blob := field(t, read, "sha")
	n := len(g.Requests())
	want(t, "write file", e.ok("forge_write_file", `{`+onGitLab+`,"branch":"canary","path":"charts/app/values.yaml","content":"replicas: 1\n","message":"Canary","expected_sha":"`+blob[:10]+`"}`),
		"Committed charts/app/values.yaml to canary in platform/infra/deploy: "+g.Head(deploy, "canary"))
	wantSent(t, "write file", gitlabSent(t, g, n),
		"GET "+project+" author",
		"HEAD "+project+"/repository/files/charts%2Fapp%2Fvalues%2Eyaml?ref=canary author",
		`PUT `+project+`/repository/files/charts%2Fapp%2Fvalues%2Eyaml author {"branch":"canary","content":"replicas: 1\n","commit_message":"Canary","last_commit_id":"SHA"}`,
		"HEAD "+project+"/repository/files/charts%2Fapp%2Fvalues%2Eyaml?ref=canary author")
	if got := e.ok("forge_list_dir", `{`+onGitLab+`,"path":"charts/app","ref":"canary"}`); !strings.Contains(got, "values.yaml") {
		t.Errorf("list dir:\n%s", got)
	}
	got = e.ok("forge_get_repo", `{`+onGitLab+`}`)
	for _, part := range []string{"repo: platform/infra/deploy\n", "permission: admin\n", "visibility: private\n"} {
		if !strings.Contains(got, part) {
			t.Errorf("get repo lacks %q:\n%s", part, got)
		}
	}

	// A merge request, reviewed: an approval plus discussions.
	want(t, "open merge request", e.ok("forge_create_pull_request", `{`+onGitLab+`,"title":"Canary","head_ref":"canary"}`, "gl-mr-1"),
		"Opened PR #1 in platform/infra/deploy: https://gitlab.example.com/platform/infra/deploy/-/merge_requests/1")
	ack = e.ok("forge_submit_review", `{`+onGitLab+`,"pull_number":1,"verdict":"request_changes","body":"One more replica.","comments":[{"path":"charts/app/values.yaml","line":1,"body":"2?"}]}`)
	if !strings.HasPrefix(ack, "Submitted comment review on PR #1 in platform/infra/deploy: https://gitlab.example.com/platform/infra/deploy/-/merge_requests/1#note_") {
		t.Errorf("request_changes is acknowledged as what GitLab recorded: %s", ack)
	}
	n = len(g.Requests())
	if ack := e.ok("forge_submit_review", `{`+onGitLab+`,"pull_number":1,"verdict":"approve"}`); !strings.HasPrefix(ack, "Submitted approve review on PR #1") {
		t.Errorf("approve: %s", ack)
	}
	wantSent(t, "approve", gitlabSent(t, g, n),
		"GET "+project+"/merge_requests/1 reviewer",
		`POST `+project+`/merge_requests/1/approve reviewer {"sha":"SHA"}`,
		`POST `+project+`/merge_requests/1/notes reviewer {"body":"`+jsonText(strings.TrimSuffix(stamped, "\n\n"))+`"}`)
	pr := e.ok("forge_get_pull_request", `{`+onGitLab+`,"pull_number":1}`)
	head := field(t, pr, "head_sha")
	for _, part := range []string{"verdict: approve\n", "author: forgetools-reviewer\n", "2?\n", "One more replica.\n"} {
		if !strings.Contains(pr, part) {
			t.Errorf("get merge request lacks %q:\n%s", part, pr)
		}
	}
	if got := e.ok("forge_list_pull_requests", `{`+onGitLab+`,"base":"main"}`); strings.Count(got, "# pull_requests[") != 1 {
		t.Errorf("list merge requests:\n%s", got)
	}
	e.ok("forge_comment_on_pull_request", `{`+onGitLab+`,"pull_number":1,"body":"Merging after the window."}`)
	want(t, "rebase", e.fails("forge_merge_pull_request", `{`+onGitLab+`,"pull_number":1,"method":"rebase","expected_head_sha":"`+head+`"}`),
		"forge_merge_pull_request failed: invalid_argument: GitLab merges with the project's merge method (set in its settings), so rebase cannot be chosen per merge; use merge (which fast-forwards on a fast-forward project) or squash")
	want(t, "merge", e.ok("forge_merge_pull_request", `{`+onGitLab+`,"pull_number":1,"expected_head_sha":"`+head+`"}`),
		"Merged PR #1 in platform/infra/deploy (merge): "+g.Head(deploy, "main"))

	// CI is pipelines.
	got = e.ok("forge_list_ci_runs", `{`+onGitLab+`,"status":"failure"}`)
	runID := field(t, got, "run_id")
	got = e.ok("forge_get_ci_run", `{`+onGitLab+`,"run_id":"`+runID+`"}`)
	if !strings.Contains(got, "Error: timed out waiting for the condition\n") {
		t.Errorf("get pipeline:\n%s", got)
	}
	want(t, "full rerun", e.fails("forge_rerun_ci", `{`+onGitLab+`,"run_id":"`+runID+`"}`),
		"forge_rerun_ci failed: invalid_argument: GitLab re-runs only a pipeline's failed and canceled jobs (retry), never a whole pipeline in place: set failed_only, or start a new pipeline with forge_trigger_ci")
	if ack := e.ok("forge_rerun_ci", `{`+onGitLab+`,"run_id":"`+runID+`","failed_only":true}`); !strings.HasPrefix(ack, "Re-running run "+runID+" in platform/infra/deploy: https://gitlab.example.com/platform/infra/deploy/-/pipelines/"+runID) {
		t.Errorf("retry: %s", ack)
	}
	want(t, "trigger", e.ok("forge_trigger_ci", `{`+onGitLab+`,"workflow":"deploy","ref":"main","inputs":[{"name":"ENV","value":"staging"}]}`),
		"Triggered pipeline on main in platform/infra/deploy")

	want(t, "subscribe", e.fails("forge_subscribe", `{`+onGitLab+`,"kind":"pull_request","number":1}`),
		"forge_subscribe failed: unimplemented: GitLab delivers no change notifications to forgetools (read the issue or merge request again to see changes), so subscribe cannot run on forge gitlab/gitlab.example.com")
	if n := len(e.github.Requests()) + len(e.gitea.Requests()) + len(e.forgejo.Requests()); n != 0 {
		t.Errorf("other forges received %d requests", n)
	}
}

// The scope check covers GitLab's nested paths before any provider runs:
// "platform/infra/*" is the projects directly in platform/infra, not its
// subgroups' nor its parent's.
func TestGitLabNestedScope(t *testing.T) {
	e := start(t)
	for _, repo := range []string{"platform/infra/secrets/vault", "platform/other", "platform/infra", "platform/infrax/deploy"} {
		want(t, repo, e.fails("forge_get_issue", `{"repo":"`+repo+`","issue_number":1,"forge_provider":"gitlab"}`),
			`forge_get_issue failed: permission_denied: repository "`+repo+`" is outside the scope of account "release-bot"`)
	}
	want(t, "too deep", e.fails("forge_get_repo", `{"repo":"`+strings.Repeat("g/", 22)+`p","forge_provider":"gitlab"}`),
		`forge_get_repo failed: invalid_argument: repo "`+strings.Repeat("g/", 22)+`p" is not "owner/name", a nested "group/sub/name" (at most 22 segments) or a team key (letters, digits, '.', '_' and '-' between slashes)`)
	if n := len(e.gitlab.Requests()); n != 0 {
		t.Errorf("refused calls reached GitLab: %d requests", n)
	}
	// "acme/*" covers one level on every forge: a nested path below it is
	// refused as well.
	want(t, "nested on GitHub", e.fails("forge_get_issue", `{"repo":"acme/widgets/x","issue_number":1}`),
		`forge_get_issue failed: permission_denied: repository "acme/widgets/x" is outside the scope of account "release-bot"`)
}
