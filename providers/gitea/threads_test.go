package gitea_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/gitea"
	"github.com/forgetools/forgetools/providers/gitea/giteatest"
)

// inline submits a comment review of pull request n in r with one inline
// comment per line of long.go, which it commits to the feature branch
// first (the provider refuses a line past a file's end).
func inline(t *testing.T, p *gitea.Provider, r string, n uint64, lines ...uint64) {
	t.Helper()
	if _, err := p.WriteFile(context.Background(), noCall, &gatewayv1.WriteFileRequest{Repo: r, Branch: "feature", Path: "long.go",
		Content: strings.Repeat("x\n", 100), Message: "Long"}); err != nil && !strings.Contains(err.Error(), "exists") {
		t.Fatal(err)
	}
	var cs []*gatewayv1.ReviewCommentInput
	for _, l := range lines {
		cs = append(cs, &gatewayv1.ReviewCommentInput{Path: "long.go", Line: l, Body: fmt.Sprintf("line %d?", l)})
	}
	if _, err := p.SubmitReview(context.Background(), noCall, &gatewayv1.SubmitReviewRequest{Repo: r, PullNumber: n,
		Verdict: gatewayv1.Verdict_VERDICT_COMMENT, Body: "See inline.", Comments: cs}); err != nil {
		t.Fatal(err)
	}
}

func threadsOf(t *testing.T, p *gitea.Provider, r string, n uint64, cursor string) []string {
	t.Helper()
	l, err := p.ListReviewThreads(context.Background(), noCall, &gatewayv1.ListReviewThreadsRequest{Repo: r, PullNumber: n, Cursor: cursor})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, th := range l.GetThreads() {
		out = append(out, th.GetThreadId())
	}
	return out
}

// TestReviewThreads: a review's inline comments are conversations; a reply
// goes to Gitea 1.27's replies endpoint and joins its conversation, a
// resolve to its resolve endpoint; the pull request's read names each
// comment's thread.
func TestReviewThreads(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	ctx := context.Background()
	inline(t, p, repo, 2, 1, 3)
	l, err := p.ListReviewThreads(ctx, noCall, &gatewayv1.ListReviewThreadsRequest{Repo: repo, PullNumber: 2})
	if err != nil || len(l.GetThreads()) != 2 || l.GetNextCursor() != "" {
		t.Fatalf("threads = %v, %v", l, err)
	}
	th := l.GetThreads()[0]
	if !regexp.MustCompile(`^\d+-\d+$`).MatchString(th.GetThreadId()) || th.GetPath() != "long.go" || th.GetLine() != 1 || th.GetSide() != "RIGHT" ||
		th.GetResolved() || len(th.GetComments()) != 1 || th.GetComments()[0].GetAuthor() != "forgetools-reviewer" {
		t.Fatalf("first thread = %v", th)
	}
	_, comment, _ := strings.Cut(th.GetThreadId(), "-")

	reply, err := p.ReplyToReviewThread(ctx, noCall, &gatewayv1.ReplyToReviewThreadRequest{Repo: repo, PullNumber: 2, ThreadId: th.GetThreadId(), Body: "One it is."})
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Requests()[len(s.Requests())-1]; r.Method != "POST" || r.Path != "/repos/acme/widgets/pulls/2/comments/"+comment+"/replies" {
		t.Errorf("reply request = %s %s", r.Method, r.Path)
	}
	if reply.GetCommentId() == "" || reply.GetNumber() != 2 {
		t.Errorf("reply ref = %v", reply)
	}
	res, err := p.ResolveReviewThread(ctx, noCall, &gatewayv1.ResolveReviewThreadRequest{Repo: repo, PullNumber: 2, ThreadId: th.GetThreadId()})
	if err != nil || res.GetState() != "resolved" {
		t.Fatalf("resolve = %v, %v", res, err)
	}
	if r := s.Requests()[len(s.Requests())-1]; r.Method != "POST" || r.Path != "/repos/acme/widgets/pulls/comments/"+comment+"/resolve" {
		t.Errorf("resolve request = %s %s", r.Method, r.Path)
	}
	l, _ = p.ListReviewThreads(ctx, noCall, &gatewayv1.ListReviewThreadsRequest{Repo: repo, PullNumber: 2})
	if got := l.GetThreads()[0]; !got.GetResolved() || len(got.GetComments()) != 2 || got.GetComments()[1].GetBody() != "One it is." ||
		got.GetComments()[1].GetAuthor() != "forgetools-bot" || l.GetThreads()[1].GetResolved() {
		t.Fatalf("after reply and resolve = %v", l)
	}
	if res, err := p.ResolveReviewThread(ctx, noCall, &gatewayv1.ResolveReviewThreadRequest{Repo: repo, PullNumber: 2, ThreadId: th.GetThreadId(), Unresolve: true}); err != nil || res.GetState() != "unresolved" {
		t.Fatalf("unresolve = %v, %v", res, err)
	}
	if r := s.Requests()[len(s.Requests())-1]; r.Path != "/repos/acme/widgets/pulls/comments/"+comment+"/unresolve" {
		t.Errorf("unresolve request = %s %s", r.Method, r.Path)
	}
	pr, err := p.GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: repo, PullNumber: 2})
	if err != nil {
		t.Fatal(err)
	}
	cs := pr.GetReviews()[len(pr.GetReviews())-1].GetComments()
	if len(cs) != 3 || cs[0].GetThreadId() != th.GetThreadId() || cs[2].GetThreadId() != th.GetThreadId() || cs[1].GetThreadId() != l.GetThreads()[1].GetThreadId() {
		t.Errorf("review comments name threads %v", cs)
	}
}

// TestReviewThreadScope: Gitea resolves a comment by id within the
// repository, so the provider looks the thread up through the pull
// request first: another pull request's or repository's thread is not
// found and nothing is written; a made-up id never reaches Gitea.
func TestReviewThreadScope(t *testing.T) {
	s := fake(t, false)
	s.AddRepo("acme/other", "main", map[string]string{"src/main.go": "package main\n"}, "feature")
	s.AddPull("acme/other", giteatest.Pull{Title: "Other", Head: "feature"})
	s.AddPull(repo, giteatest.Pull{Title: "Sibling", Head: "feature"})
	p := provider(t, s, false, 0)
	ctx := context.Background()
	inline(t, p, "acme/other", 1, 1)
	inline(t, p, repo, 3, 1)
	inline(t, p, repo, 2, 1)
	foreign := []string{threadsOf(t, p, "acme/other", 1, "")[0], threadsOf(t, p, repo, 3, "")[0]}
	mine := threadsOf(t, p, repo, 2, "")[0]
	myReview, _, _ := strings.Cut(mine, "-")
	_, otherComment, _ := strings.Cut(foreign[1], "-")
	// A real review of #2 with a comment of #3: still not #2's thread.
	forged := myReview + "-" + otherComment
	for _, id := range append(foreign, forged) {
		_, err := p.ReplyToReviewThread(ctx, noCall, &gatewayv1.ReplyToReviewThreadRequest{Repo: repo, PullNumber: 2, ThreadId: id, Body: "Hijack."})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "thread "+id+" not found on pull request #2 in acme/widgets")
		_, err = p.ResolveReviewThread(ctx, noCall, &gatewayv1.ResolveReviewThreadRequest{Repo: repo, PullNumber: 2, ThreadId: id})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "thread "+id+" not found")
	}
	for _, at := range []struct {
		r string
		n uint64
	}{{"acme/other", 1}, {repo, 3}} {
		l, _ := p.ListReviewThreads(ctx, noCall, &gatewayv1.ListReviewThreadsRequest{Repo: at.r, PullNumber: at.n})
		if th := l.GetThreads()[0]; th.GetResolved() || len(th.GetComments()) != 1 {
			t.Errorf("%s#%d changed through another pull request: %v", at.r, at.n, th)
		}
	}
	before := len(s.Requests())
	for _, id := range []string{"7", "1-", "-1", "01-2", "1-2-3", "1-0", "../1", "6a9c1750b37d513a43987b574953fceb50b03ce7"} {
		_, err := p.ReplyToReviewThread(ctx, noCall, &gatewayv1.ReplyToReviewThreadRequest{Repo: repo, PullNumber: 2, ThreadId: id, Body: "x"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "is not a Gitea thread id")
		_, err = p.ResolveReviewThread(ctx, noCall, &gatewayv1.ResolveReviewThreadRequest{Repo: repo, PullNumber: 2, ThreadId: id})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "is not a Gitea thread id")
	}
	for _, c := range []string{"2", "reviews:1:0", "reviews:0:0", "reviews:2", "reviews:02:0", "page:2", "reviews:1:-1"} {
		_, err := p.ListReviewThreads(ctx, noCall, &gatewayv1.ListReviewThreadsRequest{Repo: repo, PullNumber: 2, Cursor: c})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "is not a next_cursor forge_list_review_threads gave")
	}
	if after := len(s.Requests()); after != before {
		t.Errorf("refused ids and cursors sent %d requests", after-before)
	}
}

// TestReviewThreadPages: 45 conversations over 12 reviews (two review
// pages, one of them holding more threads than a page shows) read with no
// gap or repeat.
func TestReviewThreadPages(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	var want []uint64
	line := uint64(0)
	for r := range 12 {
		n := 2
		if r == 0 {
			n = 23
		}
		var lines []uint64
		for range n {
			line++
			lines = append(lines, line)
		}
		want = append(want, lines...)
		inline(t, p, repo, 2, lines...)
	}
	var got []uint64
	cursor := ""
	for range 6 {
		l, err := p.ListReviewThreads(context.Background(), noCall, &gatewayv1.ListReviewThreadsRequest{Repo: repo, PullNumber: 2, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.GetThreads()) > 30 {
			t.Fatalf("a page of %d threads", len(l.GetThreads()))
		}
		for _, th := range l.GetThreads() {
			got = append(got, th.GetLine())
		}
		if cursor = l.GetNextCursor(); cursor == "" {
			break
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || cursor != "" {
		t.Fatalf("read lines %v (cursor %q), want %v", got, cursor, want)
	}
}

// TestForgejoThreadWrites: Forgejo lists threads but has no reply or
// resolve endpoint: both answer unimplemented, saying so, before any write.
func TestForgejoThreadWrites(t *testing.T) {
	s := fake(t, true)
	p := provider(t, s, true, 0)
	ctx := context.Background()
	inline(t, p, repo, 2, 1)
	id := threadsOf(t, p, repo, 2, "")[0]
	_, err := p.ReplyToReviewThread(ctx, noCall, &gatewayv1.ReplyToReviewThreadRequest{Repo: repo, PullNumber: 2, ThreadId: id, Body: "x"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED, "Forgejo's API has no endpoint to reply")
	_, err = p.ResolveReviewThread(ctx, noCall, &gatewayv1.ResolveReviewThreadRequest{Repo: repo, PullNumber: 2, ThreadId: id})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED, "resolve a conversation")
}

// TestReviewThreadsFromAHostileForge: null reviews and comments, a
// pending review and a comment without its user are skipped or read
// without a dereference.
func TestReviewThreadsFromAHostileForge(t *testing.T) {
	s := fake(t, false)
	json := http.Header{"Content-Type": {"application/json"}}
	s.Inject("GET /repos/acme/widgets/pulls/2/reviews", giteatest.Response{Status: 200, Header: json,
		Body: `[null,{"id":5,"state":"PENDING","comments_count":1},{"id":6,"state":"COMMENT","comments_count":2,"stale":true}]`})
	s.Inject("GET /repos/acme/widgets/pulls/2/reviews/6/comments", giteatest.Response{Status: 200, Header: json,
		Body: `[null,{"id":7,"path":"a.go","position":0,"original_position":3,"user":null,"body":"gone?"}]`})
	l, err := provider(t, s, false, 0).ListReviewThreads(context.Background(), noCall, &gatewayv1.ListReviewThreadsRequest{Repo: repo, PullNumber: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.GetThreads()) != 1 {
		t.Fatalf("threads = %v, want one", l)
	}
	if th := l.GetThreads()[0]; th.GetThreadId() != "6-7" || th.GetSide() != "LEFT" || th.GetLine() != 3 || !th.GetOutdated() || th.GetComments()[0].GetAuthor() != "" {
		t.Errorf("thread = %v", th)
	}
}
