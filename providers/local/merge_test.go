package local_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
)

// openFix opens a pull request from a new branch fix carrying one commit
// that adds path, and returns its number and head commit.
func openFix(t *testing.T, f *local.Forge, repo, head, path string) (uint64, string) {
	t.Helper()
	branch(t, f, repo, head)
	fc := writeFile(t, f, alice, repo, head, path, "fixed by "+head+"\n", "")
	pr, err := f.CreatePullRequest(context.Background(), alice, &gatewayv1.CreatePullRequestRequest{Repo: repo, Title: "Fix via " + head, HeadRef: head})
	if err != nil {
		t.Fatal(err)
	}
	return pr.GetNumber(), fc.GetCommitSha()
}

func getPull(t *testing.T, f *local.Forge, repo string, n uint64) *forgev1.PullRequest {
	t.Helper()
	pr, err := f.GetPullRequest(context.Background(), alice, &gatewayv1.GetPullRequestRequest{Repo: repo, PullNumber: n})
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

func TestMergePullRequest(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		n, reviewed := openFix(t, f, "acme/app", "fix", "fix.txt")
		pr := getPull(t, f, "acme/app", n)
		if pr.GetHeadSha() != reviewed || pr.GetMergeable() != "true" || pr.GetMerged() {
			t.Fatalf("before the merge: head %s mergeable %q merged %v", pr.GetHeadSha(), pr.GetMergeable(), pr.GetMerged())
		}

		// The head moves after the review: the merge is refused and writes
		// nothing, in git or in the database.
		moved := writeFile(t, f, alice, "acme/app", "fix", "late.txt", "pushed after the review\n", "")
		before := refs(t, f, "acme/app")
		_, err := f.MergePullRequest(ctx, alice, &gatewayv1.MergePullRequestRequest{Repo: "acme/app", PullNumber: n, ExpectedHeadSha: reviewed})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "now "+moved.GetCommitSha()+", not the expected_head_sha "+reviewed)
		if after := refs(t, f, "acme/app"); !maps.Equal(after, before) {
			t.Fatalf("a refused merge changed the repository:\n%v\nwas\n%v", after, before)
		}
		if pr := getPull(t, f, "acme/app", n); pr.GetState() != "open" || pr.GetMerged() || pr.GetHeadSha() != moved.GetCommitSha() {
			t.Fatalf("after a refused merge: %v", pr)
		}

		res, err := f.MergePullRequest(ctx, alice, &gatewayv1.MergePullRequestRequest{Repo: "acme/app", PullNumber: n,
			ExpectedHeadSha: moved.GetCommitSha()[:10]})
		if err != nil {
			t.Fatal(err)
		}
		if res.GetMethod() != "merge" || res.GetNumber() != n || res.GetUrl() != fmt.Sprintf("%s/acme/app/pull/%d", testBase, n) {
			t.Errorf("merge result %v", res)
		}
		for _, p := range []string{"fix.txt", "late.txt"} {
			if got := readFile(t, f, "acme/app", "main", p); got.GetContent() == "" {
				t.Errorf("%s is not on main after the merge", p)
			}
		}
		if main := refs(t, f, "acme/app")["refs/heads/main"]; res.GetSha() != main {
			t.Errorf("main is at %s, the merge says %s", main, res.GetSha())
		}
		pr = getPull(t, f, "acme/app", n)
		if pr.GetState() != "merged" || !pr.GetMerged() || pr.GetHeadSha() != moved.GetCommitSha() || pr.GetMergeable() != "" {
			t.Errorf("after the merge: %v", pr)
		}
		// The head branch moving on later does not rewrite what was merged.
		writeFile(t, f, alice, "acme/app", "fix", "after.txt", "x", "")
		if pr := getPull(t, f, "acme/app", n); pr.GetHeadSha() != moved.GetCommitSha() {
			t.Errorf("a merged pull request's head moved to %s", pr.GetHeadSha())
		}
		_, err = f.MergePullRequest(ctx, alice, &gatewayv1.MergePullRequestRequest{Repo: "acme/app", PullNumber: n, ExpectedHeadSha: moved.GetCommitSha()})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "is merged: only an open pull request can be merged")
	})
}

func TestMergeRefusals(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		base := writeFile(t, f, pusher, "acme/app", "main", "shared.txt", "base\n", "")
		n, head := openFix(t, f, "acme/app", "fix", "fix.txt")
		writeFile(t, f, alice, "acme/app", "fix", "shared.txt", "the fix's version\n", base.GetBlobSha())
		head = getPull(t, f, "acme/app", n).GetHeadSha()
		writeFile(t, f, pusher, "acme/app", "main", "shared.txt", "main's version\n", base.GetBlobSha())

		if pr := getPull(t, f, "acme/app", n); pr.GetMergeable() != "false" {
			t.Errorf("a conflicting pull request is mergeable %q", pr.GetMergeable())
		}
		before := refs(t, f, "acme/app")
		_, err := f.MergePullRequest(ctx, alice, &gatewayv1.MergePullRequestRequest{Repo: "acme/app", PullNumber: n, ExpectedHeadSha: head,
			Method: gatewayv1.MergeMethod_MERGE_METHOD_SQUASH})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "both sides changed shared.txt")
		if !maps.Equal(refs(t, f, "acme/app"), before) {
			t.Fatal("a conflicting merge changed the repository")
		}

		branch(t, f, "acme/app", "wip")
		writeFile(t, f, alice, "acme/app", "wip", "wip.txt", "x", "")
		draft, err := f.CreatePullRequest(ctx, alice, &gatewayv1.CreatePullRequestRequest{Repo: "acme/app", Title: "WIP", HeadRef: "wip", Draft: true})
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.MergePullRequest(ctx, alice, &gatewayv1.MergePullRequestRequest{Repo: "acme/app", PullNumber: draft.GetNumber(), ExpectedHeadSha: draft.GetHeadSha()})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "is a draft")
		_, err = f.MergePullRequest(ctx, alice, &gatewayv1.MergePullRequestRequest{Repo: "acme/app", PullNumber: 99, ExpectedHeadSha: head})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "pull request #99 not found")

		// A pull request's head must be a branch.
		_, err = f.CreatePullRequest(ctx, alice, &gatewayv1.CreatePullRequestRequest{Repo: "acme/app", Title: "x", HeadRef: "never-pushed"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, `head_ref "never-pushed" is not a branch of acme/app`)
	})
}

func TestMergeMethodsMarkMerged(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		for _, tc := range []struct {
			method     gatewayv1.MergeMethod
			head, name string
		}{
			{gatewayv1.MergeMethod_MERGE_METHOD_SQUASH, "squashed", "squash"},
			{gatewayv1.MergeMethod_MERGE_METHOD_REBASE, "rebased", "rebase"},
		} {
			head := tc.head
			n, sha := openFix(t, f, "acme/app", head, head+".txt")
			res, err := f.MergePullRequest(ctx, alice, &gatewayv1.MergePullRequestRequest{Repo: "acme/app", PullNumber: n, ExpectedHeadSha: sha, Method: tc.method})
			if err != nil {
				t.Fatal(err)
			}
			if res.GetMethod() != tc.name || res.GetSha() != refs(t, f, "acme/app")["refs/heads/main"] {
				t.Errorf("%s: %v", tc.name, res)
			}
			if got := readFile(t, f, "acme/app", "main", head+".txt"); got.GetContent() != "fixed by "+head+"\n" {
				t.Errorf("%s.txt on main = %q", head, got.GetContent())
			}
			if pr := getPull(t, f, "acme/app", n); !pr.GetMerged() || pr.GetHeadSha() != sha {
				t.Errorf("%s: %v", head, pr)
			}
		}
	})
}

func TestListPullRequests(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		createIssue(t, f, "acme/app", "an issue is never listed") // 1
		a, shaA := openFix(t, f, "acme/app", "a", "a.txt")        // 2
		b, _ := openFix(t, f, "acme/app", "b", "b.txt")           // 3
		branch(t, f, "acme/app", "release")
		c, err := f.CreatePullRequest(ctx, alice, &gatewayv1.CreatePullRequestRequest{Repo: "acme/app", Title: "to release", HeadRef: "a", BaseRef: "release"})
		if err != nil {
			t.Fatal(err)
		}
		if err := f.SetState(ctx, "acme/app", b, "closed"); err != nil {
			t.Fatal(err)
		}
		if _, err := f.MergePullRequest(ctx, alice, &gatewayv1.MergePullRequestRequest{Repo: "acme/app", PullNumber: a, ExpectedHeadSha: shaA}); err != nil {
			t.Fatal(err)
		}
		limit := uint32(1)
		for _, tc := range []struct {
			name string
			req  *gatewayv1.ListPullRequestsRequest
			want []uint64
		}{
			{"default is open", &gatewayv1.ListPullRequestsRequest{}, []uint64{c.GetNumber()}},
			{"closed includes merged", &gatewayv1.ListPullRequestsRequest{State: gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_CLOSED}, []uint64{b, a}},
			{"all", &gatewayv1.ListPullRequestsRequest{State: gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_ALL}, []uint64{4, b, a}},
			{"base", &gatewayv1.ListPullRequestsRequest{State: gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_ALL, Base: "main"}, []uint64{b, a}},
			{"head", &gatewayv1.ListPullRequestsRequest{State: gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_ALL, Head: "a"}, []uint64{4, a}},
			{"limit", &gatewayv1.ListPullRequestsRequest{State: gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_ALL, Limit: &limit}, []uint64{4}},
		} {
			tc.req.Repo = "acme/app"
			list, err := f.ListPullRequests(ctx, alice, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			var got []uint64
			for _, pr := range list.GetPullRequests() {
				got = append(got, pr.GetNumber())
				if pr.GetHeadSha() == "" || pr.GetComments() != nil {
					t.Errorf("%s: #%d lists head %q and %d comments", tc.name, pr.GetNumber(), pr.GetHeadSha(), len(pr.GetComments()))
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			}
		}
	})
}
