package github

import (
	"context"
	"fmt"

	gh "github.com/google/go-github/v84/github"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/gitref"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/providers/internal/unidiff"
	"github.com/forgetools/forgetools/toolserver"
)

// filePages is how many pages of a pull request's files a diff may
// read: GitHub lists at most 3,000 files, a hundred a page.
const filePages = 30

// GetPullRequestDiff reads a pull request's diff from its files list
// (GET pulls/{n}/files, each file with its hunks as "patch"), between
// the pull request's base and head commits, and cuts the page the cursor
// names. Only the list's pages that page shows files of are read (one or
// two: the cursor names the file the page starts at); the pull request's
// changed_files counts them all.
func (p *Provider) GetPullRequestDiff(ctx context.Context, _ toolserver.Call, req *gatewayv1.GetPullRequestDiffRequest) (*forgev1.PullRequestDiff, error) {
	repo, n, err := parseNumbered(req.GetRepo(), req.GetPullNumber(), "pull request")
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("get pull request diff %s#%d", repo, n), func(ctx context.Context) (*forgev1.PullRequestDiff, error) {
		pr, _, err := p.author.PullRequests.Get(ctx, repo.owner, repo.name, n)
		if err != nil {
			return nil, err
		}
		pages := unidiff.Pages{PerPage: maxPerPage, MaxPages: filePages, Read: func(page int) ([]unidiff.File, bool, int, error) {
			o := &gh.ListOptions{PerPage: maxPerPage}
			if page > 1 {
				// The first page is asked for without page=1, as every
				// other list's is.
				o.Page = page
			}
			got, resp, err := p.author.PullRequests.ListFiles(ctx, repo.owner, repo.name, n, o)
			if err != nil {
				return nil, false, 0, err
			}
			files, err := diffFiles(got)
			return files, nextPage(resp) != 0, pr.GetChangedFiles(), err
		}}
		return unidiff.PullRequestDiff(unidiff.PullRequest{
			Forge: p.Ref(), Repo: repo.String(), Number: uint64(n), Base: pr.GetBase().GetSHA(), Head: pr.GetHead().GetSHA(),
		}, pages, req.GetPath(), req.GetCursor())
	})
}

// Compare compares two refs through GitHub's compare/{base}...{head}
// (from their merge base, as GitHub's three-dot compare is): the counts
// ahead and behind, the commits ahead (oldest first; GitHub lists at most
// 250) and the files with their hunks (GitHub lists at most 300). The
// head is resolved to its commit first and compared as that commit, so
// the diff is of the head_sha the answer names even if the branch moves
// meanwhile.
func (p *Provider) Compare(ctx context.Context, _ toolserver.Call, req *gatewayv1.CompareRequest) (*forgev1.Comparison, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	base, head := req.GetBase(), req.GetHead()
	for _, ref := range []struct{ name, v string }{{"base", base}, {"head", head}} {
		if err := checkRef(ref.name, ref.v); err != nil {
			return nil, err
		}
	}
	return call(ctx, p, fmt.Sprintf("compare %s %s...%s", repo, base, head), func(ctx context.Context) (*forgev1.Comparison, error) {
		headSHA, err := p.commitOf(ctx, repo, head, "head")
		if err != nil {
			return nil, err
		}
		cmp, _, err := p.author.Repositories.CompareCommits(ctx, repo.owner, repo.name, base, headSHA, nil)
		if status, said := answered(err); status == 404 {
			return nil, toolserver.NotFound("%s has no branch, tag or commit %s (GitHub: %s)", repo, base, said)
		} else if err != nil {
			return nil, err
		}
		files, err := diffFiles(cmp.Files)
		if err != nil {
			return nil, err
		}
		mergeBase := cmp.GetMergeBaseCommit().GetSHA()
		scope := "compare " + repo.String() + " " + base + "..." + head
		pg, err := unidiff.Cut(unidiff.Diff{Files: files, Scope: scope, Rev: mergeBase + "..." + headSHA}, req.GetPath(), req.GetCursor(), 0)
		if err != nil {
			return nil, err
		}
		out := &forgev1.Comparison{
			Forge: p.Ref(), Repo: repo.String(), BaseSha: mergeBase, HeadSha: headSHA,
			AheadBy: uint32(max(cmp.GetAheadBy(), 0)), BehindBy: uint32(max(cmp.GetBehindBy(), 0)),
			FilesChanged: pg.Changed, NextCursor: pg.Next, Files: pg.Files,
		}
		if req.GetCursor() == "" {
			for _, c := range cmp.Commits[:min(len(cmp.Commits), shown.Of(out, "commits"))] {
				out.Commits = append(out.Commits, commitOut(c))
			}
		}
		return out, nil
	})
}

// commitOf is the commit ref names (GET commits/{ref} as a bare sha);
// not_found, naming which (param), for a ref that names none.
func (p *Provider) commitOf(ctx context.Context, repo repoName, ref, param string) (string, error) {
	sha, _, err := p.author.Repositories.GetCommitSHA1(ctx, repo.owner, repo.name, ref, "")
	if status, said := answered(err); status == 404 || status == 422 {
		return "", toolserver.NotFound("%s %q is not a branch, tag or commit of %s (GitHub: %s)", param, ref, repo, said)
	} else if err != nil {
		return "", err
	}
	return sha, nil
}

// checkRef refuses what no git ref or commit id can be, by the rules the
// gateway already holds every (param).git_ref field to (internal/gitref:
// git check-ref-format's, and no "%" or "#"), so a ref can never change
// the compare path's "base...head" split or the URL around it: go-github
// resolves a path against the API root, and a "../" or "./" segment of
// commits/{ref} would climb out of the repository or name another ref.
// Through the gateway it never refuses; it stays as defence in depth for
// a caller of the provider that is not the gateway, and for an arm whose
// ref field lost its option. An empty ref is the default branch.
func checkRef(param, ref string) error {
	if ref == "" {
		return nil
	}
	if why := gitref.Problem(ref); why != "" {
		return toolserver.InvalidArgument("%s %q is not a branch, tag or commit name: %s", param, ref, why)
	}
	return nil
}

// diffFiles is GitHub's changed files as files of a diff.
func diffFiles(got []*gh.CommitFile) ([]unidiff.File, error) {
	files := make([]unidiff.File, 0, len(got))
	for _, f := range got {
		df, err := diffFile(f)
		if err != nil {
			return nil, err
		}
		files = append(files, df)
	}
	return files, nil
}

// diffFile is one of GitHub's changed files: its hunks from its patch.
// GitHub leaves the patch out for a binary file and for one whose diff is
// too large for its API; the file is then too_large, to be read whole at
// both commits (a rename or copy that changes no line has no patch
// either, and nothing to read).
func diffFile(f *gh.CommitFile) (unidiff.File, error) {
	out := unidiff.File{Path: f.GetFilename(), Additions: max(f.GetAdditions(), 0), Deletions: max(f.GetDeletions(), 0)}
	switch f.GetStatus() {
	case "added":
		out.Status = unidiff.Added
	case "removed":
		out.Status = unidiff.Deleted
	case "renamed":
		out.Status, out.OldPath = unidiff.Renamed, f.GetPreviousFilename()
	case "copied":
		out.Status, out.OldPath = unidiff.Copied, f.GetPreviousFilename()
	default: // modified, changed (a mode change), unchanged
		out.Status = unidiff.Modified
	}
	if f.Patch == nil || f.GetPatch() == "" {
		moved := out.Status == unidiff.Renamed || out.Status == unidiff.Copied
		out.TooLarge = !moved || f.GetChanges() > 0
		return out, nil
	}
	hunks, add, del, err := unidiff.ParseHunks(f.GetPatch())
	if err != nil {
		return out, toolserver.Unavailable("GitHub's diff of %s could not be read (%v): read the file with forge_read_file", out.Path, err)
	}
	out.Hunks, out.Additions, out.Deletions = hunks, add, del
	return out, nil
}
