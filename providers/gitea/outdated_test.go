package gitea_test

import (
	"context"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// TestReviewThreadsOutdated: Gitea marks a review stale, and so its
// threads outdated, once a push changes what the pull request changes;
// a review written at the new head is current, and the stale one stays
// stale.
func TestReviewThreadsOutdated(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	ctx := context.Background()
	inline(t, p, repo, 2, 1, 3)
	outdated := func() []bool {
		t.Helper()
		l, err := p.ListReviewThreads(ctx, noCall, &gatewayv1.ListReviewThreadsRequest{Repo: repo, PullNumber: 2})
		if err != nil {
			t.Fatal(err)
		}
		var out []bool
		for _, th := range l.GetThreads() {
			out = append(out, th.GetOutdated())
		}
		return out
	}
	if got := outdated(); len(got) != 2 || got[0] || got[1] {
		t.Fatalf("before a push: outdated %v", got)
	}
	if _, err := p.WriteFile(ctx, noCall, &gatewayv1.WriteFileRequest{Repo: repo, Branch: "feature", Path: "more.go", Content: "package more\n", Message: "More"}); err != nil {
		t.Fatal(err)
	}
	if got := outdated(); len(got) != 2 || !got[0] || !got[1] {
		t.Errorf("after a push that changes the pull request: outdated %v, want both", got)
	}
	inline(t, p, repo, 2, 5)
	if got := outdated(); len(got) != 3 || !got[0] || !got[1] || got[2] {
		t.Errorf("with a review of the new head: outdated %v, want the old two only", got)
	}
}
