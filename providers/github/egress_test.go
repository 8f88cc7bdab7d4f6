package github

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/kit"
)

var newIssue = &gatewayv1.CreateIssueRequest{Repo: "octocat/Hello-World", Title: "Crash on start"}

// After a rename GitHub answers a write to the old name with 301. Go would
// replay it as a GET to the new location, which succeeds and writes
// nothing; the provider must stop and say so instead.
func TestWriteRedirectIsNotFollowed(t *testing.T) {
	for _, status := range []int{301, 302, 307, 308} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			f := newFake(t)
			f.expect(exchange{
				method: "POST", path: repoPath + "/issues", status: status, body: `{"title":"Crash on start"}`,
				header: hdr("Location", f.srv.URL+"/repositories/1296269/issues"),
				reply:  fixture(t, "moved_301.json"),
			})
			_, err := f.provider(t).CreateIssue(ctx, noCall, newIssue)
			if status == 301 || status == 308 {
				wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "repository moved", "POST", "nothing was written", "new owner/name")
			} else {
				wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "POST", "redirect", "nothing was written")
			}
			// The script has one exchange: a follow-up request would fail the test.
		})
	}
}

// A read of a renamed repository follows GitHub's same-host redirect, with
// the credential still attached.
func TestReadRedirectOnSameHostIsFollowed(t *testing.T) {
	f := newFake(t)
	f.expect(
		exchange{method: "GET", path: repoPath + "/issues/1347", accept: acceptReactions, status: 301,
			header: hdr("Location", f.srv.URL+"/repositories/1296269/issues/1347"), reply: fixture(t, "moved_301.json")},
		exchange{method: "GET", path: "/repositories/1296269/issues/1347", accept: acceptReactions, reply: fixture(t, "issue.json")},
		// The same number in the repository's own id: a rename (a transfer
		// would be another repository's), which the repository's id shows.
		exchange{method: "GET", path: repoPath, accept: acceptRepo, reply: fixture(t, "repo.json")},
		exchange{method: "GET", path: repoPath + "/issues/1347/comments", query: q("per_page", "30"), accept: acceptReactions, reply: "[]"},
	)
	got, err := f.provider(t).GetIssue(ctx, noCall, getIssue1347)
	if err != nil {
		t.Fatal(err)
	}
	if got.GetTitle() != "Found a bug" {
		t.Errorf("title = %q", got.GetTitle())
	}
}

// elsewhere is another server that must never be contacted.
func elsewhere(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		t.Errorf("request reached another host: %s %s (Authorization %q)", r.Method, r.URL, r.Header.Get("Authorization"))
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func TestRedirectToAnotherHostIsRefused(t *testing.T) {
	other, hits := elsewhere(t)
	f := newFake(t, failingGet(302, hdr("Location", other.URL+"/collect"), ""))
	_, err := f.provider(t).GetIssue(ctx, noCall, getIssue1347)
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "refused to follow a redirect to "+other.URL, "pinned to "+f.srv.URL)
	if hits.Load() != 0 {
		t.Errorf("the other host was contacted %d times", hits.Load())
	}
}

// Whatever builds a URL for another host (here an absolute URL handed to
// go-github), the pinned transport refuses it before the network.
func TestRequestToAnotherHostIsRefused(t *testing.T) {
	other, hits := elsewhere(t)
	f := newFake(t)
	p := f.provider(t)
	req, err := p.author.NewRequest("GET", other.URL+"/repos/octocat/Hello-World", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.author.Do(ctx, req, nil)
	wantCode(t, p.mapError("probe", err), gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "refused a request to "+other.URL)
	if hits.Load() != 0 {
		t.Errorf("the other host was contacted %d times", hits.Load())
	}
}

func TestTimeout(t *testing.T) {
	f := newFake(t, exchange{method: "GET", path: repoPath + "/issues/1347", accept: acceptReactions, hold: true})
	p := f.provider(t, func(o *Options) { o.Timeout = 50 * time.Millisecond })
	_, err := p.GetIssue(ctx, noCall, getIssue1347)
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, "get issue octocat/Hello-World#1347: GitHub did not answer within 50ms")
}

func TestCanceledCall(t *testing.T) {
	f := newFake(t)
	c, cancel := context.WithCancel(ctx)
	cancel()
	_, err := f.provider(t).CreateIssue(c, noCall, newIssue)
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, "canceled")
}

func TestUnreachable(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	url := down.URL
	down.Close()
	p, err := New(Options{Options: kit.Options{APIURL: url, Token: authorToken}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.GetIssue(ctx, noCall, getIssue1347)
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, "GitHub unreachable")
}
