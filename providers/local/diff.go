package local

import (
	"context"
	"strconv"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/providers/internal/unidiff"
	"github.com/forgetools/forgetools/providers/local/localgit"
	"github.com/forgetools/forgetools/toolserver"
)

// GetPullRequestDiff reads a pull request's diff as git shows base...head:
// what the head changes since it left its base branch.
func (f *Forge) GetPullRequestDiff(ctx context.Context, c toolserver.Call, req *gatewayv1.GetPullRequestDiffRequest) (*forgev1.PullRequestDiff, error) {
	pr, err := f.GetPullRequest(ctx, c, &gatewayv1.GetPullRequestRequest{Repo: req.GetRepo(), PullNumber: req.GetPullNumber()})
	if err != nil {
		return nil, err
	}
	r, err := f.repository(ctx, req.GetRepo())
	if err != nil {
		return nil, err
	}
	base, ok, err := r.git.Branch(pr.GetBaseRef())
	if err != nil {
		return nil, gitError(err)
	}
	if !ok || pr.GetHeadSha() == "" {
		return nil, toolserver.FailedPrecondition("pull request #%d's base or head branch no longer exists", pr.GetNumber())
	}
	scope := "pull " + r.name + "#" + strconv.FormatUint(pr.GetNumber(), 10)
	d, pg, err := f.diffPage(ctx, r, base, plumbing.NewHash(pr.GetHeadSha()), scope, req.GetPath(), req.GetCursor())
	if err != nil {
		return nil, err
	}
	return &forgev1.PullRequestDiff{
		Forge: f.Ref(), Repo: r.name, Number: pr.GetNumber(), BaseSha: d.Base.String(), HeadSha: d.Head.String(),
		FilesChanged: pg.Changed, NextCursor: pg.Next, Files: pg.Files,
	}, nil
}

// Compare compares two refs: the commits head has that base has not (the
// first page lists them, oldest first), how many base has that head has
// not, and the diff of base...head.
func (f *Forge) Compare(ctx context.Context, _ toolserver.Call, req *gatewayv1.CompareRequest) (*forgev1.Comparison, error) {
	r, _, base, err := f.at(ctx, req.GetRepo(), req.GetBase())
	if err != nil {
		return nil, err
	}
	head, err := r.git.Resolve(req.GetHead())
	if err != nil {
		return nil, gitError(err)
	}
	scope := "compare " + r.name + " " + req.GetBase() + "..." + req.GetHead()
	d, pg, err := f.diffPage(ctx, r, base, head, scope, req.GetPath(), req.GetCursor())
	if err != nil {
		return nil, err
	}
	cmp, err := r.git.Compare(base, head)
	if err != nil {
		return nil, gitError(err)
	}
	out := &forgev1.Comparison{
		Forge: f.Ref(), Repo: r.name, BaseSha: d.Base.String(), HeadSha: d.Head.String(),
		AheadBy: uint32(len(cmp.Ahead)), BehindBy: uint32(cmp.Behind),
		FilesChanged: pg.Changed, NextCursor: pg.Next, Files: pg.Files,
	}
	if req.GetCursor() == "" {
		for _, c := range cmp.Ahead[:min(len(cmp.Ahead), comparedCommits)] {
			out.Commits = append(out.Commits, &forgev1.Commit{
				Sha: c.Hash.String(), Title: c.Title, Author: c.Author,
				AuthoredAt: c.When.UTC().Format(time.RFC3339), Url: f.pageURL(r.name, "commit", c.Hash.String()),
			})
		}
	}
	return out, nil
}

// comparedCommits is how many commits a comparison lists: what the
// renderer shows.
var comparedCommits = shown.Of(&forgev1.Comparison{}, "commits")

// diffPage diffs head against base and cuts the page cursor names.
func (f *Forge) diffPage(ctx context.Context, r *repository, base, head plumbing.Hash, scope, path, cursor string) (localgit.Diff, unidiff.Page, error) {
	d, err := r.git.Diff(ctx, base, head)
	if err != nil {
		return localgit.Diff{}, unidiff.Page{}, gitError(err)
	}
	pg, err := unidiff.Cut(unidiff.Diff{Files: d.Files, Scope: scope, Rev: d.Base.String() + "..." + d.Head.String()}, path, cursor, 0)
	return d, pg, err
}
