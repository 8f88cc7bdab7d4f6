package gitea_test

import (
	"context"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/gitea"
)

// The pull request's diff comes from Gitea's pulls/{index}.diff: each
// changed file with its status and counts, each line with the side and
// number a review comment takes.
func TestPullRequestDiff(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	ctx := context.Background()
	f, err := p.ReadFile(ctx, noCall, &gatewayv1.ReadFileRequest{Repo: repo, Path: "src/main.go", Ref: "feature"})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []*gatewayv1.WriteFileRequest{
		{Repo: repo, Branch: "feature", Path: "src/main.go", Content: "package main\n\nfunc main() {}\n", Message: "Add main", ExpectedSha: f.GetSha()},
		{Repo: repo, Branch: "feature", Path: "docs/new.md", Content: "# New\n", Message: "Add docs"},
	} {
		if _, err := p.WriteFile(ctx, noCall, w); err != nil {
			t.Fatal(err)
		}
	}
	d, err := p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: repo, PullNumber: 2})
	if err != nil {
		t.Fatal(err)
	}
	if d.GetFilesChanged() != 2 || len(d.GetFiles()) != 2 || d.GetNextCursor() != "" || d.GetHeadSha() != s.Head(repo, "feature") || d.GetBaseSha() != s.Head(repo, "main") {
		t.Fatalf("diff: %v", d)
	}
	docs, main := d.GetFiles()[0], d.GetFiles()[1]
	if docs.GetPath() != "docs/new.md" || docs.GetStatus() != "added" || docs.GetAdditions() != 1 || docs.GetHunks() != "@@ -0,0 +1,1 @@\nR1 +# New\n" {
		t.Errorf("docs/new.md: %v", docs)
	}
	if main.GetPath() != "src/main.go" || main.GetStatus() != "modified" || main.GetAdditions() != 2 || main.GetDeletions() != 0 ||
		!strings.Contains(main.GetHunks(), "R1  package main\nR2 +\nR3 +func main() {}\n") {
		t.Errorf("src/main.go: %v", main)
	}
	one, err := p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: repo, PullNumber: 2, Path: "src/main.go"})
	if err != nil || len(one.GetFiles()) != 1 || one.GetFiles()[0].GetPath() != "src/main.go" {
		t.Errorf("src/main.go alone: %v %v", one, err)
	}
	_, err = p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: repo, PullNumber: 2, Cursor: "entry:3"})
	wantCode(t, err, invalid, "not a next_cursor")
	if _, err := p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: repo, PullNumber: 99}); err == nil {
		t.Error("a missing pull request has a diff")
	}
}

// Gitea's API has no diff of two refs: the comparison counts the commits
// ahead and behind (the compare both ways), lists those ahead, and the
// files they touch without hunks, to be read at the two refs' commits.
func TestCompare(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	ctx := context.Background()
	if _, err := p.WriteFile(ctx, noCall, &gatewayv1.WriteFileRequest{Repo: repo, Branch: "feature", Path: "docs/new.md", Content: "# New\n", Message: "Add docs"}); err != nil {
		t.Fatal(err)
	}
	c, err := p.Compare(ctx, noCall, &gatewayv1.CompareRequest{Repo: repo, Base: "main", Head: "feature"})
	if err != nil {
		t.Fatal(err)
	}
	if c.GetBaseSha() != s.Head(repo, "main") || c.GetHeadSha() != s.Head(repo, "feature") || c.GetAheadBy() != 1 || c.GetBehindBy() != 0 ||
		len(c.GetCommits()) != 1 || c.GetCommits()[0].GetSha() != s.Head(repo, "feature") || c.GetFilesChanged() != 1 {
		t.Fatalf("comparison: %v", c)
	}
	if f := c.GetFiles()[0]; f.GetPath() != "docs/new.md" || f.GetStatus() != "added" || !f.GetTooLarge() || f.GetHunks() != "" {
		t.Errorf("file: %v", f)
	}
	var paths []string
	for _, r := range s.Requests() {
		if strings.Contains(r.Path, "/compare/") {
			paths = append(paths, r.Path)
		}
	}
	if strings.Join(paths, " ") != "/repos/acme/widgets/compare/main...feature /repos/acme/widgets/compare/feature...main" {
		t.Errorf("compares: %q", paths)
	}
}

func TestNetStatus(t *testing.T) {
	for _, c := range []struct{ steps, want string }{
		{"added", "added"}, {"added modified", "added"}, {"added removed", ""}, {"modified removed", "deleted"},
		{"removed added", "modified"}, {"modified", "modified"},
	} {
		st := ""
		for _, s := range strings.Fields(c.steps) {
			st = gitea.NetStatus(st, s)
		}
		if st != c.want {
			t.Errorf("%s: %q, want %q", c.steps, st, c.want)
		}
	}
}
