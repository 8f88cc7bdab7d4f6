package gitea

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	sdk "code.gitea.io/sdk/gitea"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/shown"
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
		return unidiff.PullRequestDiff(unidiff.PullRequest{
			Forge: p.Ref(), Repo: repo.String(), Number: uint64(n), Base: pr.MergeBase, Head: head,
		}, unidiff.Whole(files), req.GetPath(), req.GetCursor())
	})
}

// compared is Gitea's Compare as its API sends it: the SDK's model has
// no status on a commit's files.
type compared struct {
	TotalCommits int             `json:"total_commits"`
	Commits      []comparedEntry `json:"commits"`
}

type comparedEntry struct {
	SHA     string `json:"sha"`
	HTMLURL string `json:"html_url"`
	Commit  struct {
		Message string `json:"message"`
		Author  struct {
			Name string    `json:"name"`
			Date time.Time `json:"date"`
		} `json:"author"`
	} `json:"commit"`
	Files []struct {
		Filename string `json:"filename"`
		Status   string `json:"status"`
	} `json:"files"`
}

// Compare compares two refs through Gitea's compare/{base}...{head}: the
// commits ahead, and the other way round the count behind. Gitea's API
// has no diff of two refs, so the files are those the commits ahead touch,
// each with its net status and no hunks (too_large): forge_read_file
// reads them at base_sha and head_sha, the two refs' commits.
func (p *Provider) Compare(ctx context.Context, _ toolserver.Call, req *gatewayv1.CompareRequest) (*forgev1.Comparison, error) {
	repo, err := p.parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	base, head := req.GetBase(), req.GetHead()
	return call(ctx, p, fmt.Sprintf("compare %s %s...%s", repo, base, head), func(c *sdk.Client) (*forgev1.Comparison, error) {
		var shas [2]string
		for i, ref := range []string{base, head} {
			commit, resp, err := c.GetSingleCommit(repo.owner, repo.name, ref)
			if err != nil {
				return nil, fail(resp, err)
			}
			shas[i] = commit.SHA
		}
		var ahead, behind compared
		if _, err := p.send(ctx, p.token, http.MethodGet, repoPath(repo, "compare", base+"..."+head), nil, &ahead); err != nil {
			return nil, err
		}
		if _, err := p.send(ctx, p.token, http.MethodGet, repoPath(repo, "compare", head+"..."+base), nil, &behind); err != nil {
			return nil, err
		}
		// Oldest first, whichever order Gitea lists them in.
		slices.SortStableFunc(ahead.Commits, func(a, b comparedEntry) int {
			return a.Commit.Author.Date.Compare(b.Commit.Author.Date)
		})
		status := map[string]string{}
		var order []string
		for _, cm := range ahead.Commits {
			for _, f := range cm.Files {
				was, seen := status[f.Filename]
				if !seen {
					order = append(order, f.Filename)
				}
				status[f.Filename] = netStatus(was, f.Status)
			}
		}
		var files []unidiff.File
		for _, path := range order {
			if st := status[path]; st != "" {
				files = append(files, unidiff.File{Path: path, Status: st, TooLarge: true})
			}
		}
		scope := "compare " + repo.String() + " " + base + "..." + head
		pg, err := unidiff.Cut(unidiff.Diff{Files: files, Scope: scope, Rev: shas[0] + "..." + shas[1]}, req.GetPath(), req.GetCursor(), 0)
		if err != nil {
			return nil, err
		}
		out := &forgev1.Comparison{
			Forge: p.Ref(), Repo: repo.String(), BaseSha: shas[0], HeadSha: shas[1],
			AheadBy: uint32(ahead.TotalCommits), BehindBy: uint32(behind.TotalCommits),
			FilesChanged: pg.Changed, NextCursor: pg.Next, Files: pg.Files,
		}
		if req.GetCursor() == "" {
			for _, cm := range ahead.Commits[:min(len(ahead.Commits), shown.Of(out, "commits"))] {
				title, _, _ := strings.Cut(strings.TrimSpace(cm.Commit.Message), "\n")
				at := ""
				if !cm.Commit.Author.Date.IsZero() {
					at = cm.Commit.Author.Date.UTC().Format(time.RFC3339)
				}
				out.Commits = append(out.Commits, &forgev1.Commit{Sha: cm.SHA, Title: title, Author: cm.Commit.Author.Name, AuthoredAt: at, Url: cm.HTMLURL})
			}
		}
		return out, nil
	})
}

// netStatus is a file's status over the commits so far (was, "" at
// first) after one more commit's (Gitea's added, modified or removed);
// "" when the commits added it and removed it again.
func netStatus(was, now string) string {
	switch {
	case now == "removed" && was == unidiff.Added:
		return ""
	case now == "removed":
		return unidiff.Deleted
	case now == "added" && was == unidiff.Deleted:
		return unidiff.Modified
	case was == unidiff.Added:
		return unidiff.Added
	case now == "added":
		return unidiff.Added
	}
	return unidiff.Modified
}
