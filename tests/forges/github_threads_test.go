package forges_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// Issue 21's review threads through the gateway on GitHub's fake: list, a
// stamped reply and a resolve through GitHub's GraphQL API, each write
// after the read that checks the thread is the pull request's, and a
// thread of another pull request refused with nothing written.
func TestReviewThreadsOnGitHub(t *testing.T) {
	e := start(t)
	n := e.github.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Fix the crash", Head: "fix-crash"})
	other := e.github.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Another", Head: "fix-crash", Base: "new-topic"})
	pr := func(n int) string { return `{` + hello + `,"pull_number":` + strconv.Itoa(n) }

	for _, m := range []int{n, other} {
		e.ok("forge_submit_review", pr(m)+`,"verdict":"comment","body":"See inline.","comments":[{"path":"src/parse.go","line":42,"body":"Both?"}]}`)
	}
	id := threadOf(t, e.ok("forge_list_review_threads", pr(n)+`}`))
	otherID := threadOf(t, e.ok("forge_list_review_threads", pr(other)+`}`))
	from := len(e.github.Requests())
	if ack := e.ok("forge_reply_to_review_thread", pr(n)+`,"thread_id":"`+id+`","body":"Yes, both."}`); !strings.HasPrefix(ack, "Replied on PR #"+strconv.Itoa(n)+" in octocat/Hello-World: ") {
		t.Errorf("github reply: %s", ack)
	}
	want(t, "github resolve", e.ok("forge_resolve_review_thread", pr(n)+`,"thread_id":"`+id+`"}`),
		"Thread "+id+" on PR #"+strconv.Itoa(n)+" in octocat/Hello-World is resolved")
	owner := `ReviewThreadOwner {"name":"Hello-World","number":` + strconv.Itoa(n) + `,"owner":"octocat","thread":"` + id + `"}`
	wantSent(t, "github reply and resolve", sent(t, e.github, from),
		"POST /graphql author "+owner,
		`POST /graphql author mutation ReplyToReviewThread {"body":"`+jsonText(stamped)+`Yes, both.","thread":"`+id+`"}`,
		"POST /graphql author "+owner,
		`POST /graphql author mutation ResolveReviewThread {"thread":"`+id+`"}`)
	list := e.ok("forge_list_review_threads", pr(n)+`}`)
	if !strings.Contains(list, "resolved: true\n") || !strings.Contains(list, claim) || !strings.Contains(list, "Yes, both.") {
		t.Errorf("github threads after the reply and resolve:\n%s", list)
	}
	if got := e.ok("forge_get_pull_request", pr(n)+`}`); !strings.Contains(got, "thread_id: "+id+"\n") {
		t.Errorf("forge_get_pull_request shows no thread id:\n%s", got)
	}

	from = len(e.github.Requests())
	want(t, "github other thread", e.fails("forge_resolve_review_thread", pr(n)+`,"thread_id":"`+otherID+`"}`),
		"forge_resolve_review_thread failed: not_found: review thread "+otherID+" not found on pull request #"+strconv.Itoa(n)+" in octocat/Hello-World")
	for _, line := range sent(t, e.github, from) {
		if strings.Contains(line, "mutation") {
			t.Errorf("a thread of another pull request reached a write: %s", line)
		}
	}
}

// forge_update_pull_request on GitHub's fake: a draft asked for review,
// marked ready and retitled, then closed, with exactly what GitHub got.
func TestUpdatePullRequestOnGitHub(t *testing.T) {
	e := start(t)
	n := e.github.AddPull("octocat/Hello-World", githubtest.Pull{Title: "WIP crash fix", Head: "fix-crash", Draft: true})
	pr := `{` + hello + `,"pull_number":` + strconv.Itoa(n)
	if read := e.ok("forge_get_pull_request", pr+`}`); !strings.Contains(read, "draft: true") {
		t.Fatalf("the draft does not read as one:\n%s", read)
	}
	from := len(e.github.Requests())
	want(t, "github update", e.ok("forge_update_pull_request", pr+`,"title":"Fix the crash","body":"Nil input.","ready":true,"reviewers":["forgetools-reviewer"]}`),
		"Updated PR #"+strconv.Itoa(n)+" in octocat/Hello-World: https://github.com/octocat/Hello-World/pull/"+strconv.Itoa(n))
	path := "/repos/octocat/Hello-World/pulls/" + strconv.Itoa(n)
	got := sent(t, e.github, from)
	// The mutation names the pull request by the node id the read gave.
	if len(got) == 4 && regexp.MustCompile(`^POST /graphql author mutation MarkPullRequestReady \{"pull":"PR_kwDO\d+"\}$`).MatchString(got[2]) {
		got[2] = "MARK READY"
	}
	wantSent(t, "github update", got,
		"GET "+path+" author",
		"POST "+path+`/requested_reviewers author {"reviewers":["forgetools-reviewer"]}`,
		"MARK READY",
		"PATCH "+path+` author {"title":"Fix the crash","body":"`+jsonText(stamped)+`Nil input."}`)
	read := e.ok("forge_get_pull_request", pr+`}`)
	if strings.Contains(read, "draft: true") || !strings.Contains(read, "Fix the crash") {
		t.Errorf("after the update:\n%s", read)
	}
	e.ok("forge_update_pull_request", pr+`,"state":"closed"}`)
	if got := e.ok("forge_get_pull_request", pr+`}`); !strings.Contains(got, "state: closed") {
		t.Errorf("after closing:\n%s", got)
	}
}

// threadAfter is the node id of the thread the i-th inline comment of
// review opens: the fake numbers a review's comments after the review.
func threadAfter(t *testing.T, review string, i int) string {
	t.Helper()
	id, err := strconv.Atoi(review)
	if err != nil {
		t.Fatalf("review id %q: %v", review, err)
	}
	return "PRRT_kwDO" + strconv.Itoa(id+i)
}
