package gitlab

import (
	"context"
	"fmt"
	"strings"
	"time"

	gl "gitlab.com/gitlab-org/api/client-go"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/providers/internal/unidiff"
	"github.com/forgetools/forgetools/toolserver"
)

// GetPullRequestDiff reads a merge request's diff from its diffs list
// (each file's hunks, or too_large or collapsed where GitLab gives none),
// between the diff_refs' base and head, and cuts the page the cursor
// names. GitLab pages the list by files, up to its own cap on a merge
// request's diff files; only the pages that page shows files of are read
// (one or two: the cursor names the file the page starts at), and the
// files are counted by the list's X-Total.
func (p *Provider) GetPullRequestDiff(ctx context.Context, _ toolserver.Call, req *gatewayv1.GetPullRequestDiffRequest) (*forgev1.PullRequestDiff, error) {
	repo, n, err := target(req.GetRepo(), req.GetPullNumber(), "merge request")
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("get merge request diff %s!%d", repo, n), func(ro gl.RequestOptionFunc) (*forgev1.PullRequestDiff, error) {
		mr, resp, err := p.author.MergeRequests.GetMergeRequest(repo.String(), n, nil, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		pages := unidiff.Pages{PerPage: perPage, MaxPages: pageLimit, Read: func(page int) ([]unidiff.File, bool, int, error) {
			diffs, resp, err := p.author.MergeRequests.ListMergeRequestDiffs(repo.String(), n,
				&gl.ListMergeRequestDiffsOptions{ListOptions: gl.ListOptions{PerPage: perPage, Page: int64(page)}}, ro)
			if err != nil {
				return nil, false, 0, fail(resp, err)
			}
			files := make([]unidiff.File, 0, len(diffs))
			for _, d := range diffs {
				f, err := diffFile(d.OldPath, d.NewPath, d.Diff, d.NewFile, d.RenamedFile, d.DeletedFile, d.TooLarge || d.Collapsed)
				if err != nil {
					return nil, false, 0, err
				}
				files = append(files, f)
			}
			total, counted := listTotal(resp)
			if !counted {
				total = -1
			}
			return files, nextPage(resp) != 0, int(total), nil
		}}
		return unidiff.PullRequestDiff(unidiff.PullRequest{
			Forge: p.Ref(), Repo: repo.String(), Number: uint64(n), Base: mr.DiffRefs.BaseSha, Head: mr.DiffRefs.HeadSha,
		}, pages, req.GetPath(), req.GetCursor())
	})
}

// Compare compares two refs through GitLab's compare (from the merge
// base, straight=false): the commits ahead, its diffs, the merge base
// from repository/merge_base, and the commits behind from the compare
// the other way.
func (p *Provider) Compare(ctx context.Context, _ toolserver.Call, req *gatewayv1.CompareRequest) (*forgev1.Comparison, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("compare %s %s...%s", repo, req.GetBase(), req.GetHead()), func(ro gl.RequestOptionFunc) (*forgev1.Comparison, error) {
		compare := func(from, to string) (*gl.Compare, error) {
			c, resp, err := p.author.Repositories.Compare(repo.String(), &gl.CompareOptions{From: ptr(from), To: ptr(to), Straight: ptr(false)}, ro)
			if err != nil {
				return nil, fail(resp, err)
			}
			if c.CompareTimeout {
				return nil, toolserver.Unavailable("GitLab timed out comparing %s with %s", from, to)
			}
			return c, nil
		}
		ahead, err := compare(req.GetBase(), req.GetHead())
		if err != nil {
			return nil, err
		}
		behind, err := compare(req.GetHead(), req.GetBase())
		if err != nil {
			return nil, err
		}
		mb, resp, err := p.author.Repositories.MergeBase(repo.String(), &gl.MergeBaseOptions{Ref: &[]string{req.GetBase(), req.GetHead()}}, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		head := ""
		if ahead.Commit != nil {
			head = ahead.Commit.ID
		}
		files := make([]unidiff.File, 0, len(ahead.Diffs))
		for _, d := range ahead.Diffs {
			f, err := diffFile(d.OldPath, d.NewPath, d.Diff, d.NewFile, d.RenamedFile, d.DeletedFile, false)
			if err != nil {
				return nil, err
			}
			files = append(files, f)
		}
		scope := "compare " + repo.String() + " " + req.GetBase() + "..." + req.GetHead()
		pg, err := unidiff.Cut(unidiff.Diff{Files: files, Scope: scope, Rev: mb.ID + "..." + head}, req.GetPath(), req.GetCursor(), 0)
		if err != nil {
			return nil, err
		}
		out := &forgev1.Comparison{
			Forge: p.Ref(), Repo: repo.String(), BaseSha: mb.ID, HeadSha: head,
			AheadBy: uint32(len(ahead.Commits)), BehindBy: uint32(len(behind.Commits)),
			FilesChanged: pg.Changed, NextCursor: pg.Next, Files: pg.Files,
		}
		if req.GetCursor() == "" {
			// GitLab lists the commits oldest first.
			for _, c := range ahead.Commits[:min(len(ahead.Commits), shown.Of(out, "commits"))] {
				out.Commits = append(out.Commits, comparedCommit(c))
			}
		}
		return out, nil
	})
}

// diffFile is one GitLab diff entry as a file of the diff: its hunks
// (none when GitLab withheld them as too large, or for a binary file).
func diffFile(oldPath, newPath, patch string, added, renamed, deleted, tooLarge bool) (unidiff.File, error) {
	f := unidiff.File{Path: newPath, Status: unidiff.Modified, TooLarge: tooLarge}
	switch {
	case added:
		f.Status = unidiff.Added
	case deleted:
		f.Path, f.Status = oldPath, unidiff.Deleted
	case renamed:
		f.OldPath, f.Status = oldPath, unidiff.Renamed
	}
	if tooLarge || patch == "" {
		return f, nil
	}
	if strings.HasPrefix(patch, "Binary files ") {
		f.Binary = true
		return f, nil
	}
	var err error
	if f.Hunks, f.Additions, f.Deletions, err = unidiff.ParseHunks(patch); err != nil {
		return f, toolserver.Unavailable("GitLab's diff of %s could not be read (%v): read the file with forge_read_file", f.Path, err)
	}
	return f, nil
}

// comparedCommit is a GitLab commit in the shared shape.
func comparedCommit(c *gl.Commit) *forgev1.Commit {
	out := &forgev1.Commit{Sha: c.ID, Title: c.Title, Author: c.AuthorName, Url: c.WebURL}
	if c.AuthoredDate != nil {
		out.AuthoredAt = c.AuthoredDate.UTC().Format(time.RFC3339)
	}
	return out
}
