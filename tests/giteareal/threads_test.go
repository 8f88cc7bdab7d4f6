package giteareal_test

import (
	"regexp"
	"strings"
	"testing"
)

// threadID is a thread id as forge_list_review_threads shows it on Gitea.
var threadID = regexp.MustCompile(`\nthread_id: (\d+)-(\d+)\n`)

// reviewComments are a review's inline comments as Gitea itself holds
// them.
type reviewComments []struct {
	ID       int64
	Body     string
	Path     string
	Resolver *struct{ Login string } `json:"resolver"`
}

// TestRealGiteaReviewThreads: on Gitea 1.27 an agent lists a pull
// request's threads, replies in one (Gitea holds the reply, stamped, in
// that conversation), resolves and reopens it; a thread of another pull
// request, or a real review of this one paired with another's comment,
// is not found and Gitea's copy of it is unchanged.
func TestRealGiteaReviewThreads(t *testing.T) {
	e := start(t, asBot)
	e.openPull("fix")
	e.openPull("more")
	for _, n := range []string{"2", "1"} {
		wantPrefix(t, "review #"+n, e.ok("forge_submit_review", `,"pull_number":`+n+`,"verdict":"comment","body":"See inline.","comments":[{"path":"src/gadget.go","line":4,"body":"Why louder?"}]`),
			"Submitted comment review on PR #"+n)
	}
	other := threadID.FindStringSubmatch(e.ok("forge_list_review_threads", `,"pull_number":2`))
	list := e.ok("forge_list_review_threads", `,"pull_number":1`)
	m := threadID.FindStringSubmatch(list)
	if m == nil || other == nil || !strings.Contains(list, "line: 4\nside: RIGHT\n") || strings.Contains(list, "resolved: true") {
		t.Fatalf("threads of #1:\n%s\nof #2: %v", list, other)
	}
	id, review := m[1]+"-"+m[2], m[1]

	wantPrefix(t, "reply", e.ok("forge_reply_to_review_thread", `,"pull_number":1,"thread_id":"`+id+`","body":"Users asked."`), "Replied on PR #1 in "+e.repo+": ")
	var held reviewComments
	e.get("/pulls/1/reviews/"+review+"/comments", &held)
	if len(held) != 2 || held[1].Body != stamped+"Users asked." || held[1].Path != "src/gadget.go" {
		t.Fatalf("Gitea holds the conversation %+v", held)
	}
	list = e.ok("forge_list_review_threads", `,"pull_number":1`)
	if !strings.Contains(list, "threads: 1\n") || !strings.Contains(list, "comments: 2\n") || !strings.Contains(list, "Users asked.") {
		t.Errorf("threads after the reply:\n%s", list)
	}

	want(t, "resolve", e.ok("forge_resolve_review_thread", `,"pull_number":1,"thread_id":"`+id+`"`), "Thread "+id+" on PR #1 in "+e.repo+" is resolved")
	e.get("/pulls/1/reviews/"+review+"/comments", &held)
	if held[0].Resolver == nil {
		t.Errorf("Gitea holds the opening comment unresolved after a resolve: %+v", held[0])
	}
	if list := e.ok("forge_list_review_threads", `,"pull_number":1`); !strings.Contains(list, "resolved: true\n") {
		t.Errorf("threads after the resolve:\n%s", list)
	}
	want(t, "unresolve", e.ok("forge_resolve_review_thread", `,"pull_number":1,"thread_id":"`+id+`","unresolve":true`), "Thread "+id+" on PR #1 in "+e.repo+" is unresolved")
	e.get("/pulls/1/reviews/"+review+"/comments", &held)
	if held[0].Resolver != nil {
		t.Errorf("Gitea holds the opening comment resolved after an unresolve: %+v", held[0])
	}

	// #2's thread, and #1's review paired with #2's comment (Gitea itself
	// would resolve that comment by id), are not #1's.
	for _, foreign := range []string{other[1] + "-" + other[2], review + "-" + other[2]} {
		want(t, "reply "+foreign, e.fails("forge_reply_to_review_thread", `,"pull_number":1,"thread_id":"`+foreign+`","body":"Hijack."`),
			"forge_reply_to_review_thread failed: not_found: review thread "+foreign+" not found on pull request #1 in "+e.repo)
		want(t, "resolve "+foreign, e.fails("forge_resolve_review_thread", `,"pull_number":1,"thread_id":"`+foreign+`"`),
			"forge_resolve_review_thread failed: not_found: review thread "+foreign+" not found on pull request #1 in "+e.repo)
	}
	e.get("/pulls/2/reviews/"+other[1]+"/comments", &held)
	if len(held) != 1 || held[0].Resolver != nil {
		t.Errorf("#2's conversation changed through #1: %+v", held)
	}
}
