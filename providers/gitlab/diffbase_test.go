package gitlab_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// TestMergeRequestDiffAfterTargetMoved: once the target branch moves on
// with an unrelated change, GitLab's diff is still from the merge base
// (diff_refs.base_sha; start_sha is the target's head), so it shows the
// source's change only, not the target's reversed; and an inline comment
// anchored on those diff refs lands on its line and stays current.
// Merged, it keeps both.
func TestMergeRequestDiffAfterTargetMoved(t *testing.T) {
	s := fake(t)
	p := provider(t, s, 0)
	ctx := context.Background()
	raw(t, s, "PUT", "repository/files/charts%2Fapp%2Fvalues.yaml",
		`{"branch":"feature","content":"replicas: 3\n","commit_message":"Bump"}`, &struct{}{})
	mergeBase := s.Head(proj, "main")
	// The target moves on (straight through the API: the gateway does not
	// push to a default branch).
	raw(t, s, "PUT", "repository/files/README.md", `{"branch":"main","content":"# deploy\nMore.\n","commit_message":"Docs"}`, &struct{}{})
	raw(t, s, "POST", "repository/files/MAINTAINERS", `{"branch":"main","content":"ada\n","commit_message":"Maintainers"}`, &struct{}{})
	target := s.Head(proj, "main")

	var mr struct {
		DiffRefs struct {
			Base  string `json:"base_sha"`
			Start string `json:"start_sha"`
			Head  string `json:"head_sha"`
		} `json:"diff_refs"`
	}
	raw(t, s, "GET", "merge_requests/1", "", &mr)
	if mr.DiffRefs.Base != mergeBase || mr.DiffRefs.Start != target || mr.DiffRefs.Head != s.Head(proj, "feature") {
		t.Fatalf("diff_refs = %+v, want base %s (merge base), start %s (target head)", mr.DiffRefs, mergeBase, target)
	}

	d, err := p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: proj, PullNumber: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.GetFiles()) != 1 || d.GetFiles()[0].GetPath() != "charts/app/values.yaml" || d.GetBaseSha() != mergeBase {
		t.Fatalf("diff = %v, want values.yaml alone from the merge base (not the target's README and MAINTAINERS reversed)", d)
	}
	if h := d.GetFiles()[0].GetHunks(); !strings.Contains(h, "L1 -replicas: 2\nR1 +replicas: 3\n") {
		t.Errorf("values.yaml hunks = %q", h)
	}

	inline(t, p, proj, 1, 1)
	var pos map[string]any
	for _, r := range s.Requests() {
		if r.Method == "POST" && r.Path == escaped+"/merge_requests/1/discussions" {
			var body struct {
				Position map[string]any `json:"position"`
			}
			if err := json.Unmarshal(r.Body, &body); err != nil {
				t.Fatal(err)
			}
			pos = body.Position
		}
	}
	if pos["base_sha"] != mergeBase || pos["start_sha"] != target || pos["head_sha"] != s.Head(proj, "feature") {
		t.Errorf("the comment's position = %v, want the merge request's diff refs", pos)
	}
	list, err := p.ListReviewThreads(ctx, noCall, &gatewayv1.ListReviewThreadsRequest{Repo: proj, PullNumber: 1})
	if err != nil || len(list.GetThreads()) != 1 {
		t.Fatalf("threads = %v, %v", list, err)
	}
	if th := list.GetThreads()[0]; th.GetPath() != "charts/app/values.yaml" || th.GetLine() != 1 || th.GetSide() != "RIGHT" || th.GetOutdated() {
		t.Errorf("thread = %v, want current on values.yaml:1", th)
	}

	// Merged, it keeps the diff refs and the diff it was merged with.
	head := s.Head(proj, "feature")
	if _, err := p.MergePullRequest(ctx, noCall, &gatewayv1.MergePullRequestRequest{Repo: proj, PullNumber: 1, ExpectedHeadSha: head}); err != nil {
		t.Fatal(err)
	}
	raw(t, s, "GET", "merge_requests/1", "", &mr)
	if mr.DiffRefs.Base != mergeBase || mr.DiffRefs.Start != target || mr.DiffRefs.Head != head {
		t.Errorf("merged: diff_refs = %+v, want base %s, start %s, head %s", mr.DiffRefs, mergeBase, target, head)
	}
	after, err := p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: proj, PullNumber: 1})
	if err != nil || len(after.GetFiles()) != 1 || after.GetFiles()[0].GetHunks() != d.GetFiles()[0].GetHunks() {
		t.Errorf("merged: diff = %v, %v", after, err)
	}
}
