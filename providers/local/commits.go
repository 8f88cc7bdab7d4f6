package local

import (
	"context"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/internal/commitpage"
	"github.com/forgetools/forgetools/toolserver"
)

// ListCommits lists the history of a ref (the default branch when none is
// given), newest first, a page at a time. The first page pins the ref's
// commit in its cursor, so later pages read the same history however the
// branch moved since.
func (f *Forge) ListCommits(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListCommitsRequest) (*forgev1.CommitList, error) {
	page, err := commitpage.Parse(req.GetCursor(), req.Limit)
	if err != nil {
		return nil, err
	}
	var r *repository
	var ref string
	var head plumbing.Hash
	if page.Head == "" {
		if r, ref, head, err = f.at(ctx, req.GetRepo(), req.GetRef()); err != nil {
			return nil, err
		}
	} else {
		// A later page reads the commit the first pinned, wherever the
		// ref went since (or if it is gone).
		if r, err = f.repository(ctx, req.GetRepo()); err != nil {
			return nil, err
		}
		if ref = req.GetRef(); ref == "" {
			ref = r.defaultBranch
		}
		if head, err = r.git.Resolve(page.Head); err != nil {
			return nil, toolserver.InvalidArgument("cursor %q names a commit %s does not have; omit it for the first page", req.GetCursor(), r.name)
		}
	}
	var since time.Time
	if req.Since != nil {
		since = req.GetSince().AsTime()
	}
	commits, more, err := r.git.Log(head, strings.Trim(req.GetPath(), "/"), since, page.Offset, page.Size)
	if err != nil {
		return nil, gitError(err)
	}
	out := &forgev1.CommitList{Forge: f.Ref(), Repo: r.name, Ref: ref}
	for _, c := range commits {
		out.Commits = append(out.Commits, &forgev1.Commit{
			Sha: c.Hash.String(), Title: c.Title, Author: c.Author,
			AuthoredAt: c.When.UTC().Format(time.RFC3339), Url: f.pageURL(r.name, "commit", c.Hash.String()),
		})
	}
	if more {
		if out.NextCursor, err = page.Next(head.String(), len(commits)); err != nil {
			return nil, internal(err)
		}
	}
	return out, nil
}
