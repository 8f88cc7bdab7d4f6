package forges_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/providers/gitea/giteatest"
	"github.com/forgetools/forgetools/providers/gitlab/gitlabtest"
)

// threadOf is the first thread id a forge_list_review_threads text shows.
func threadOf(t *testing.T, list string) string {
	t.Helper()
	m := regexp.MustCompile(`\nthread_id: ([\w.:-]+)\n`).FindStringSubmatch(list)
	if m == nil {
		t.Fatalf("no thread in:\n%s", list)
	}
	return m[1]
}

// Issue 21's review threads through the gateway on GitLab's fake: list,
// a stamped reply and a resolve, with what reached GitLab (a discussion
// id, 40 hex digits, reads SHA there).
func TestReviewThreadsOnGitLab(t *testing.T) {
	e := start(t)
	e.gitlab.AddMergeRequest(deploy, gitlabtest.MergeRequest{Title: "Bump replicas", Source: "feature"})

	// GitLab: a diff discussion is the thread.
	e.ok("forge_submit_review", `{`+onGitLab+`,"pull_number":1,"verdict":"comment","body":"See inline.","comments":[{"path":"charts/app/values.yaml","line":1,"body":"2?"}]}`)
	id := threadOf(t, e.ok("forge_list_review_threads", `{`+onGitLab+`,"pull_number":1}`))
	n := len(e.gitlab.Requests())
	if ack := e.ok("forge_reply_to_review_thread", `{`+onGitLab+`,"pull_number":1,"thread_id":"`+id+`","body":"Two is enough."}`); !strings.HasPrefix(ack, "Replied on PR #1 in platform/infra/deploy: https://gitlab.example.com/platform/infra/deploy/-/merge_requests/1#note_") {
		t.Errorf("gitlab reply: %s", ack)
	}
	want(t, "gitlab resolve", e.ok("forge_resolve_review_thread", `{`+onGitLab+`,"pull_number":1,"thread_id":"`+id+`"}`),
		"Thread "+id+" on PR #1 in platform/infra/deploy is resolved")
	wantSent(t, "gitlab reply and resolve", gitlabSent(t, e.gitlab, n),
		"GET "+project+"/merge_requests/1 author",
		`POST `+project+`/merge_requests/1/discussions/SHA/notes author {"body":"`+jsonText(stamped)+`Two is enough."}`,
		`PUT `+project+`/merge_requests/1/discussions/SHA author {"resolved":true}`)
	list := e.ok("forge_list_review_threads", `{`+onGitLab+`,"pull_number":1}`)
	if !strings.Contains(list, "resolved: true\n") || !strings.Contains(list, claim+"url: ") || !strings.Contains(list, "Two is enough.") {
		t.Errorf("gitlab threads after the reply and resolve:\n%s", list)
	}
}

// The same on Gitea's fake (Gitea 1.27's endpoints); Forgejo lists
// threads but answers unimplemented for a reply, Linear for every thread
// arm, and nothing is written.
func TestReviewThreadsOnGiteaAndTheRest(t *testing.T) {
	e := start(t)
	for _, f := range []*giteatest.Server{e.gitea, e.forgejo} {
		f.AddPull(gadgets, giteatest.Pull{Title: "Quiet", Head: "feature"})
	}

	// Gitea: a review's conversation, replied to and resolved through
	// Gitea 1.27's endpoints once the thread is found through the pull
	// request.
	e.ok("forge_submit_review", `{`+onGitea+`,"pull_number":2,"verdict":"comment","body":"See inline.","comments":[{"path":"src/gadget.go","line":1,"body":"Why?"}]}`)
	id := threadOf(t, e.ok("forge_list_review_threads", `{`+onGitea+`,"pull_number":2}`))
	review, comment, _ := strings.Cut(id, "-")
	n := len(e.gitea.Requests())
	if ack := e.ok("forge_reply_to_review_thread", `{`+onGitea+`,"pull_number":2,"thread_id":"`+id+`","body":"Because."}`); !strings.HasPrefix(ack, "Replied on PR #2 in acme/gadgets: ") {
		t.Errorf("gitea reply: %s", ack)
	}
	want(t, "gitea unresolve", e.ok("forge_resolve_review_thread", `{`+onGitea+`,"pull_number":2,"thread_id":"`+id+`","unresolve":true}`),
		"Thread "+id+" on PR #2 in acme/gadgets is unresolved")
	wantSent(t, "gitea reply and unresolve", giteaSent(t, e.gitea, n),
		"GET /repos/acme/gadgets/pulls/2/reviews/"+review+"/comments author",
		`POST /repos/acme/gadgets/pulls/2/comments/`+comment+`/replies author {"body":"`+jsonText(stamped)+`Because."}`,
		"GET /repos/acme/gadgets/pulls/2/reviews/"+review+"/comments author",
		"POST /repos/acme/gadgets/pulls/comments/"+comment+"/unresolve author")
	if list := e.ok("forge_list_review_threads", `{`+onGitea+`,"pull_number":2}`); !strings.Contains(list, "comments: 2\n") || !strings.Contains(list, claim) {
		t.Errorf("gitea threads after the reply:\n%s", list)
	}

	// Forgejo lists, but has no reply or resolve endpoint.
	e.ok("forge_submit_review", `{`+onForgejo+`,"pull_number":2,"verdict":"comment","body":"See inline.","comments":[{"path":"src/gadget.go","line":1,"body":"Why?"}]}`)
	id = threadOf(t, e.ok("forge_list_review_threads", `{`+onForgejo+`,"pull_number":2}`))
	n = len(e.forgejo.Requests())
	want(t, "forgejo reply", e.fails("forge_reply_to_review_thread", `{`+onForgejo+`,"pull_number":2,"thread_id":"`+id+`","body":"x"}`),
		"forge_reply_to_review_thread failed: unimplemented: forge_reply_to_review_thread cannot run on Forgejo: Forgejo's API has no endpoint to reply to a review comment or to resolve a conversation (Gitea added them in 1.27)")
	if len(e.forgejo.Requests()) != n {
		t.Error("a refused Forgejo reply reached Forgejo")
	}

	// GitHub's are in github_threads_test.go; Linear has no pull requests.
	want(t, "linear", e.fails("forge_resolve_review_thread", `{"repo":"ENG","forge_provider":"linear","pull_number":1,"thread_id":"x"}`),
		"forge_resolve_review_thread failed: unimplemented: Linear has no pull requests or reviews: only the issue tools work on a Linear forge, so resolve_review_thread cannot run on forge linear/linear.app")
}
