package gitea

import (
	"context"
	"fmt"

	sdk "code.gitea.io/sdk/gitea"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/internal/unidiff"
	"github.com/forgetools/forgetools/toolserver"
)

// GetPullRequestDiff reads a pull request's diff from Gitea's .diff of it
// (git's diff from the merge base, binary files named, not included) and
// cuts the page the cursor names.
func (p *Provider) GetPullRequestDiff(ctx context.Context, _ toolserver.Call, req *gatewayv1.GetPullRequestDiffRequest) (*forgev1.PullRequestDiff, error) {
	repo, n, err := p.target(req.GetRepo(), req.GetPullNumber(), "pull request")
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("get pull request diff %s#%d", repo, n), func(c *sdk.Client) (*forgev1.PullRequestDiff, error) {
		pr, resp, err := c.GetPullRequest(repo.owner, repo.name, n)
		if err != nil {
			return nil, fail(resp, err)
		}
		raw, resp, err := c.GetPullRequestDiff(repo.owner, repo.name, n, sdk.PullRequestDiffOptions{})
		if err != nil {
			return nil, fail(resp, err)
		}
		files, err := unidiff.Parse(string(raw))
		if err != nil {
			return nil, toolserver.Unavailable("%s's diff of pull request #%d could not be read (%v): read the files with forge_read_file", p.flavor.Name(), n, err)
		}
		head := ""
		if pr.Head != nil {
			head = pr.Head.Sha
		}
		scope := fmt.Sprintf("pull %s#%d", repo, n)
		pg, err := unidiff.Cut(unidiff.Diff{Files: files, Scope: scope, Rev: pr.MergeBase + "..." + head}, req.GetPath(), req.GetCursor(), 0)
		if err != nil {
			return nil, err
		}
		return &forgev1.PullRequestDiff{
			Forge: p.Ref(), Repo: repo.String(), Number: uint64(n), BaseSha: pr.MergeBase, HeadSha: head,
			FilesChanged: pg.Changed, NextCursor: pg.Next, Files: pg.Files,
		}, nil
	})
}
