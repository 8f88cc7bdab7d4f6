package gitlab_test

import (
	"context"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// The merge request's diff comes from its diffs list (per file hunks, as
// GitLab sends them), between the diff_refs' base and head; the compare of
// the branches shows the same files, the commits ahead, and none behind.
func TestMergeRequestDiffAndCompare(t *testing.T) {
	s := fake(t)
	p := provider(t, s, 0)
	ctx := context.Background()
	f, err := p.ReadFile(ctx, noCall, &gatewayv1.ReadFileRequest{Repo: proj, Path: "charts/app/values.yaml", Ref: "feature"})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []*gatewayv1.WriteFileRequest{
		{Repo: proj, Branch: "feature", Path: "charts/app/values.yaml", Content: "replicas: 3\nimage: app\n", Message: "Bump", ExpectedSha: f.GetSha()},
		{Repo: proj, Branch: "feature", Path: "NOTES.md", Content: "notes\n", Message: "Notes"},
	} {
		if _, err := p.WriteFile(ctx, noCall, w); err != nil {
			t.Fatal(err)
		}
	}
	d, err := p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: proj, PullNumber: 1})
	if err != nil {
		t.Fatal(err)
	}
	if d.GetFilesChanged() != 2 || len(d.GetFiles()) != 2 || d.GetHeadSha() != s.Head(proj, "feature") || d.GetBaseSha() != s.Head(proj, "main") {
		t.Fatalf("diff: %v", d)
	}
	notes, values := d.GetFiles()[0], d.GetFiles()[1]
	if notes.GetPath() != "NOTES.md" || notes.GetStatus() != "added" || notes.GetHunks() != "@@ -0,0 +1,1 @@\nR1 +notes\n" {
		t.Errorf("NOTES.md: %v", notes)
	}
	if values.GetStatus() != "modified" || values.GetAdditions() != 2 || values.GetDeletions() != 1 ||
		!strings.Contains(values.GetHunks(), "L1 -replicas: 2\nR1 +replicas: 3\nR2 +image: app\n") {
		t.Errorf("values.yaml: %v", values)
	}
	if r := last(s); r.Path != escaped+"/merge_requests/1/diffs" || r.Query.Get("per_page") != "100" {
		t.Errorf("the diffs were read from %s?%s", r.Path, r.Query.Encode())
	}

	c, err := p.Compare(ctx, noCall, &gatewayv1.CompareRequest{Repo: proj, Base: "main", Head: "feature"})
	if err != nil {
		t.Fatal(err)
	}
	// main has not moved since feature left it: nothing behind, and
	// feature's two commits oldest first, as GitLab's compare lists them.
	if c.GetAheadBy() != 2 || c.GetBehindBy() != 0 || len(c.GetCommits()) != 2 || c.GetBaseSha() != s.Head(proj, "main") ||
		c.GetCommits()[0].GetTitle() != "Bump" || c.GetCommits()[1].GetTitle() != "Notes" ||
		c.GetHeadSha() != s.Head(proj, "feature") || len(c.GetFiles()) != 2 || c.GetFiles()[1].GetHunks() != values.GetHunks() {
		t.Errorf("compare: %v", c)
	}
	var compares []string
	for _, r := range s.Requests() {
		if r.Path == escaped+"/repository/compare" {
			compares = append(compares, r.Query.Get("from")+"..."+r.Query.Get("to")+" straight="+r.Query.Get("straight"))
		}
	}
	if strings.Join(compares, ", ") != "main...feature straight=false, feature...main straight=false" {
		t.Errorf("compares made: %q", compares)
	}
	if _, err := p.Compare(ctx, noCall, &gatewayv1.CompareRequest{Repo: proj, Base: "main", Head: "nowhere"}); err == nil {
		t.Error("a compare with a missing ref succeeded")
	}
}
