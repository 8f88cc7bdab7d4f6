package gitea_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/forgemodel"
)

// TestPullRequestDiffAfterBaseMoved: once the base branch moves on with
// an unrelated change, Gitea's pulls/{index}.diff is still from the merge
// base (git diff base...head), so the pull request's diff shows its own
// change only, not the base's reversed; merged, it keeps that diff.
func TestPullRequestDiffAfterBaseMoved(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	ctx := context.Background()
	if _, err := p.WriteFile(ctx, noCall, &gatewayv1.WriteFileRequest{Repo: repo, Branch: "feature", Path: "docs/new.md", Content: "# New\n", Message: "Add docs"}); err != nil {
		t.Fatal(err)
	}
	mergeBase := s.Head(repo, "main")
	// The base moves on (straight through the API: the gateway does not
	// push to a default branch): README.md changed, main.txt added.
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	rawGitea(t, s, "POST", "contents", fmt.Sprintf(`{"branch":"main","message":"Base moves","files":[`+
		`{"operation":"update","path":"README.md","content":%q,"sha":%q},{"operation":"create","path":"main.txt","content":%q}]}`,
		b64("# widgets\nMore.\n"), forgemodel.BlobSHA("# widgets\n"), b64("m\n")), &struct{}{})

	d, err := p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: repo, PullNumber: 2})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range d.GetFiles() {
		paths = append(paths, f.GetPath()+" "+f.GetStatus())
	}
	if strings.Join(paths, ", ") != "docs/new.md added" || d.GetFilesChanged() != 1 {
		t.Fatalf("diff files = %q, want docs/new.md alone (not the base's README.md and main.txt reversed)", paths)
	}
	if h := d.GetFiles()[0].GetHunks(); h != "@@ -0,0 +1,1 @@\nR1 +# New\n" {
		t.Errorf("docs/new.md hunks = %q", h)
	}

	// merge_base is the merge base, not the base's head: a comment on the
	// left side counts the file's lines there (README.md has one at the
	// merge base, two on main), read at that commit.
	var pr struct {
		MergeBase string `json:"merge_base"`
	}
	rawGitea(t, s, "GET", "pulls/2", "", &pr)
	if pr.MergeBase != mergeBase || d.GetBaseSha() != mergeBase {
		t.Errorf("merge_base %s, diff base %s; want the merge base %s", pr.MergeBase, d.GetBaseSha(), mergeBase)
	}
	left := func(line uint64) error {
		_, err := p.SubmitReview(ctx, noCall, &gatewayv1.SubmitReviewRequest{Repo: repo, PullNumber: 2, Verdict: gatewayv1.Verdict_VERDICT_COMMENT,
			Body: "See inline.", Comments: []*gatewayv1.ReviewCommentInput{{Path: "README.md", Line: line, Side: gatewayv1.Side_SIDE_LEFT, Body: "Old?"}}})
		return err
	}
	if err := left(1); err != nil {
		t.Errorf("a left comment on line 1 at the merge base: %v", err)
	}
	wantCode(t, left(2), invalid, "README.md has 1 lines at the base")

	// Merged, it keeps the diff it was merged with.
	if _, err := p.MergePullRequest(ctx, noCall, &gatewayv1.MergePullRequestRequest{Repo: repo, PullNumber: 2, ExpectedHeadSha: s.Head(repo, "feature")}); err != nil {
		t.Fatal(err)
	}
	after, err := p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: repo, PullNumber: 2})
	if err != nil || len(after.GetFiles()) != 1 || after.GetFiles()[0].GetHunks() != d.GetFiles()[0].GetHunks() {
		t.Errorf("merged: diff = %v, %v", after, err)
	}
}
