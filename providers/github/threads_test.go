package github

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// threadedPull is a pull request of hello changing src/parse.go, with a
// review of two inline comments (new side line 12, old side line 11).
func threadedPull(t *testing.T, srv *githubtest.Server) int {
	t.Helper()
	n := srv.AddPull(hello, githubtest.Pull{Title: "Parse", Head: "feature",
		Files: []githubtest.Change{{Path: "src/parse.go", Patch: parsePatch}}})
	srv.Review(hello, n, "forgetools-reviewer", "COMMENTED", "See inline.",
		githubtest.Inline{Path: "src/parse.go", Line: 12, Body: "Nil?"},
		githubtest.Inline{Path: "src/parse.go", Line: 11, Side: "LEFT", Body: "Why drop it?"})
	return n
}

// operations are the GraphQL operation names sent from request from on.
func operations(t *testing.T, srv *githubtest.Server, from int) []string {
	t.Helper()
	var out []string
	for _, r := range srv.Requests()[from:] {
		if r.Path != "/graphql" {
			out = append(out, r.Method+" "+r.Path)
			continue
		}
		var body struct{ Query string }
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		kind, rest, _ := strings.Cut(body.Query, " ")
		name, _, _ := strings.Cut(rest, "(")
		out = append(out, kind+" "+name)
	}
	return out
}

// List, reply, resolve and reopen through GitHub's GraphQL API, each read
// back through the list and forge_get_pull_request (whose comments carry
// the thread id).
func TestReviewThreadsOnTheFake(t *testing.T) {
	srv, p := stateful(t)
	n := threadedPull(t, srv)
	list := func() *gatewayv1.ListReviewThreadsRequest {
		return &gatewayv1.ListReviewThreadsRequest{Repo: hello, PullNumber: uint64(n)}
	}
	got, err := p.ListReviewThreads(ctx, noCall, list())
	if err != nil {
		t.Fatal(err)
	}
	if len(got.GetThreads()) != 2 || got.GetNextCursor() != "" {
		t.Fatalf("threads = %v, want two on one page", got)
	}
	a, b := got.GetThreads()[0], got.GetThreads()[1]
	if a.GetPath() != "src/parse.go" || a.GetLine() != 12 || a.GetSide() != "RIGHT" || a.GetResolved() || a.GetOutdated() ||
		b.GetLine() != 11 || b.GetSide() != "LEFT" || !strings.HasPrefix(a.GetThreadId(), "PRRT_") ||
		len(a.GetComments()) != 1 || a.GetComments()[0].GetAuthor() != "forgetools-reviewer" || a.GetComments()[0].GetBody() != "Nil?" {
		t.Fatalf("threads = %v", got.GetThreads())
	}

	from := len(srv.Requests())
	ref, err := p.ReplyToReviewThread(ctx, noCall, &gatewayv1.ReplyToReviewThreadRequest{Repo: hello, PullNumber: uint64(n), ThreadId: a.GetThreadId(), Body: "It cannot be."})
	if err != nil {
		t.Fatal(err)
	}
	if ref.GetCommentId() == "" || !strings.Contains(ref.GetUrl(), fmt.Sprintf("/pull/%d#discussion_r%s", n, ref.GetCommentId())) {
		t.Errorf("reply ack = %v", ref)
	}
	res, err := p.ResolveReviewThread(ctx, noCall, &gatewayv1.ResolveReviewThreadRequest{Repo: hello, PullNumber: uint64(n), ThreadId: a.GetThreadId()})
	if err != nil || res.GetState() != "resolved" || res.GetThreadId() != a.GetThreadId() {
		t.Fatalf("resolve = %v, %v", res, err)
	}
	want := []string{"query ReviewThreadOwner", "mutation ReplyToReviewThread", "query ReviewThreadOwner", "mutation ResolveReviewThread"}
	if got := operations(t, srv, from); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sent %q, want %q", got, want)
	}

	got, err = p.ListReviewThreads(ctx, noCall, list())
	if err != nil {
		t.Fatal(err)
	}
	a = got.GetThreads()[0]
	if !a.GetResolved() || got.GetThreads()[1].GetResolved() || len(a.GetComments()) != 2 ||
		a.GetComments()[1].GetAuthor() != "forgetools-bot" || a.GetComments()[1].GetBody() != "It cannot be." {
		t.Errorf("after the reply and resolve: %v", got.GetThreads())
	}
	res, err = p.ResolveReviewThread(ctx, noCall, &gatewayv1.ResolveReviewThreadRequest{Repo: hello, PullNumber: uint64(n), ThreadId: a.GetThreadId(), Unresolve: true})
	if err != nil || res.GetState() != "unresolved" {
		t.Fatalf("unresolve = %v, %v", res, err)
	}
	if got, _ = p.ListReviewThreads(ctx, noCall, list()); got.GetThreads()[0].GetResolved() {
		t.Error("the thread is still resolved after unresolve")
	}

	pr, err := p.GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: hello, PullNumber: uint64(n)})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range pr.GetReviews() {
		for _, c := range r.GetComments() {
			ids = append(ids, c.GetThreadId())
		}
	}
	if strings.Join(ids, " ") != a.GetThreadId()+" "+a.GetThreadId()+" "+b.GetThreadId() {
		t.Errorf("review comments' thread ids = %q, want the opening comment's and the reply's %s, then %s", ids, a.GetThreadId(), b.GetThreadId())
	}
}

// A thread id of another pull request, of another repository, or none
// GitHub knows is not found on the pull request named, and nothing is
// written; one that is no node id never reaches GitHub.
func TestReviewThreadOfAnotherPullRequest(t *testing.T) {
	srv, p := stateful(t)
	n := threadedPull(t, srv)
	other := threadedPull(t, srv)
	srv.AddRepo("octocat/Spoon-Knife", "main", "feature")
	elsewhere := srv.AddPull("octocat/Spoon-Knife", githubtest.Pull{Title: "Spoon", Head: "feature",
		Files: []githubtest.Change{{Path: "src/parse.go", Patch: parsePatch}}})
	srv.Review("octocat/Spoon-Knife", elsewhere, "forgetools-reviewer", "COMMENTED", "x", githubtest.Inline{Path: "src/parse.go", Line: 12, Body: "y"})
	idOf := func(repo string, n int) string {
		got, err := p.ListReviewThreads(ctx, noCall, &gatewayv1.ListReviewThreadsRequest{Repo: repo, PullNumber: uint64(n)})
		if err != nil || len(got.GetThreads()) == 0 {
			t.Fatalf("list %s#%d: %v %v", repo, n, got, err)
		}
		return got.GetThreads()[0].GetThreadId()
	}
	for name, id := range map[string]string{
		"another pull request":   idOf(hello, other),
		"another repository":     idOf("octocat/Spoon-Knife", elsewhere),
		"unknown":                "PRRT_kwDO999999",
		"a pull request's id":    "PR_kwDO1",
		"a review comment's id":  "PRRC_kwDO1",
		"the pull request's own": idOf(hello, n) + "x",
	} {
		t.Run(name, func(t *testing.T) {
			from := len(srv.Requests())
			_, err := p.ReplyToReviewThread(ctx, noCall, &gatewayv1.ReplyToReviewThreadRequest{Repo: hello, PullNumber: uint64(n), ThreadId: id, Body: "x"})
			wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "review thread "+id+" not found on pull request #"+fmt.Sprint(n)+" in "+hello)
			_, err = p.ResolveReviewThread(ctx, noCall, &gatewayv1.ResolveReviewThreadRequest{Repo: hello, PullNumber: uint64(n), ThreadId: id})
			wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "review thread "+id)
			if got := operations(t, srv, from); strings.Join(got, ",") != "query ReviewThreadOwner,query ReviewThreadOwner" {
				t.Errorf("sent %q; want only the two ownership reads", got)
			}
		})
	}
	for _, id := range []string{"../x", "PRRT x", "PRR", strings.Repeat("A", 101), "PRRT_\u00e9"} {
		from := len(srv.Requests())
		_, err := p.ResolveReviewThread(ctx, noCall, &gatewayv1.ResolveReviewThreadRequest{Repo: hello, PullNumber: uint64(n), ThreadId: id})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "is not a GitHub review thread id")
		if len(srv.Requests()) != from {
			t.Errorf("thread id %q reached GitHub", id)
		}
	}
	if got, _ := p.ListReviewThreads(ctx, noCall, &gatewayv1.ListReviewThreadsRequest{Repo: hello, PullNumber: uint64(other)}); got.GetThreads()[0].GetResolved() || len(got.GetThreads()[0].GetComments()) != 1 {
		t.Errorf("the other pull request's thread changed: %v", got.GetThreads()[0])
	}
}

// A pull request with more threads than a page pages by GitHub's cursor,
// with no gap or repeat; a cursor the list did not give is refused before
// any request.
func TestReviewThreadsPage(t *testing.T) {
	srv, p := stateful(t)
	n := srv.AddPull(hello, githubtest.Pull{Title: "Long", Head: "feature",
		Files: []githubtest.Change{{Path: "src/parse.go", Patch: parsePatch}}})
	total := shown.ReviewThreads + 5
	for i := range total {
		srv.Review(hello, n, "forgetools-reviewer", "COMMENTED", "", githubtest.Inline{Path: "src/parse.go", Line: 12, Body: fmt.Sprint("note ", i)})
	}
	seen, cursor, pages := map[string]bool{}, "", 0
	for {
		got, err := p.ListReviewThreads(ctx, noCall, &gatewayv1.ListReviewThreadsRequest{Repo: hello, PullNumber: uint64(n), Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, th := range got.GetThreads() {
			body := th.GetComments()[0].GetBody()
			if seen[body] || body != fmt.Sprint("note ", len(seen)) {
				t.Fatalf("page %d: %q out of order or repeated", pages, body)
			}
			seen[body] = true
		}
		if cursor = got.GetNextCursor(); cursor == "" {
			break
		}
		if !strings.HasPrefix(cursor, "threads:") || len(cursor) > 64 {
			t.Fatalf("next_cursor %q", cursor)
		}
	}
	if len(seen) != total || pages != 2 {
		t.Errorf("%d threads in %d pages, want %d in 2", len(seen), pages, total)
	}
	for _, c := range []string{"bogus", "threads:", "threads:a b", "threads:" + strings.Repeat("A", 57), "page:2"} {
		from := len(srv.Requests())
		_, err := p.ListReviewThreads(ctx, noCall, &gatewayv1.ListReviewThreadsRequest{Repo: hello, PullNumber: uint64(n), Cursor: c})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "is not a next_cursor forge_list_review_threads gave")
		if len(srv.Requests()) != from {
			t.Errorf("cursor %q reached GitHub", c)
		}
	}
}

// Hostile and odd answers: GitHub refusing a cursor, a thread whose id no
// reply could name, a cursor that is not base64, nulls, a reply GitHub
// answers without its comment.
func TestReviewThreadsHostileAnswers(t *testing.T) {
	threads := func(nodes, pageInfo string) string {
		return `{"data":{"repository":{"pullRequest":{"reviewThreads":{"pageInfo":` + pageInfo + `,"nodes":[` + nodes + `]}}}}}`
	}
	last := `{"hasNextPage":false,"endCursor":null}`
	vars := func(after string) string {
		return `{"owner":"octocat","name":"Hello-World","number":1,"first":30,"after":` + after + `,"comments":50}`
	}
	for _, c := range []struct {
		name, cursor, reply string
		code                gatewayv1.ErrorCode
		threads             int
	}{
		{name: "cursor refused", cursor: "threads:Y3Vyc29yOnYyOpK9", reply: `{"data":{"repository":{"pullRequest":{"reviewThreads":null}}},"errors":[{"type":"INVALID_CURSOR_ARGUMENTS","path":["repository","pullRequest","reviewThreads"],"message":"` + "`Y3Vyc29yOnYyOpK9`" + ` does not appear to be a valid cursor."}]}`,
			code: gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT},
		{name: "hostile thread id", reply: threads(`{"id":"PRRT\n<<<x","path":"a","comments":{"nodes":[]}},{"id":"PRRT_ok","path":"b","line":null,"originalLine":-4,"comments":{"nodes":[null,{"body":"x","author":null}]}},null`, last), threads: 1},
		{name: "hostile cursor", reply: threads(``, `{"hasNextPage":true,"endCursor":"a\nb"}`), code: gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE},
		{name: "more than a page", reply: threads(strings.TrimSuffix(strings.Repeat(`{"id":"PRRT_ok","comments":{"nodes":[]}},`, 31), ","), `{"hasNextPage":true,"endCursor":"Y3Vyc29y"}`),
			code: gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE},
		{name: "no pull request", reply: `{"data":{"repository":{"pullRequest":null}}}`, code: gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND},
	} {
		t.Run(c.name, func(t *testing.T) {
			after := "null"
			if c.cursor != "" {
				after = `"` + strings.TrimPrefix(c.cursor, "threads:") + `"`
			}
			f := newFake(t, exchange{method: "POST", path: "/graphql", body: vars(after), reply: c.reply})
			got, err := f.provider(t).ListReviewThreads(ctx, noCall, &gatewayv1.ListReviewThreadsRequest{Repo: hello, PullNumber: 1, Cursor: c.cursor})
			if c.code != 0 {
				wantCode(t, err, c.code, "list the threads of pull request octocat/Hello-World#1")
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got.GetThreads()) != c.threads {
				t.Fatalf("threads = %v", got.GetThreads())
			}
			if th := got.GetThreads()[0]; th.GetThreadId() != "PRRT_ok" || th.GetLine() != 0 || len(th.GetComments()) != 1 || th.GetComments()[0].GetAuthor() != "ghost" {
				t.Errorf("thread = %v", th)
			}
		})
	}
	owner := `{"data":{"repository":{"pullRequest":{"id":"PR_1"}},"node":{"__typename":"PullRequestReviewThread","pullRequest":{"id":"PR_1"}}}}`
	ownerVars := `{"owner":"octocat","name":"Hello-World","number":1,"thread":"PRRT_1"}`
	f := newFake(t,
		exchange{method: "POST", path: "/graphql", body: ownerVars, reply: owner},
		exchange{method: "POST", path: "/graphql", body: `{"thread":"PRRT_1","body":"x"}`, reply: `{"data":{"addPullRequestReviewThreadReply":{"comment":null}}}`},
		exchange{method: "POST", path: "/graphql", body: ownerVars, reply: owner},
		exchange{method: "POST", path: "/graphql", body: `{"thread":"PRRT_1"}`, reply: `{"data":{"resolveReviewThread":null},"errors":[{"type":"FORBIDDEN","path":["resolveReviewThread"],"message":"Resource not accessible by integration"}]}`},
	)
	p := f.provider(t)
	_, err := p.ReplyToReviewThread(ctx, noCall, &gatewayv1.ReplyToReviewThreadRequest{Repo: hello, PullNumber: 1, ThreadId: "PRRT_1", Body: "x"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, "without the reply")
	_, err = p.ResolveReviewThread(ctx, noCall, &gatewayv1.ResolveReviewThreadRequest{Repo: hello, PullNumber: 1, ThreadId: "PRRT_1"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "FORBIDDEN", "Resource not accessible by integration")
}
