package gitlab

import (
	"time"

	gl "gitlab.com/gitlab-org/api/client-go"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

// This file translates the client's view of GitLab's JSON into the
// canonical forge types. Bodies and titles pass through untouched.

// state is GitLab's issue or merge request state in the tools' words:
// "opened" is open; closed and merged stay.
func state(s string) string {
	if s == "opened" {
		return "open"
	}
	return s
}

func stamp(t *time.Time) string {
	if t == nil || t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func (p *Provider) issue(repo project, i *gl.Issue, notes []*gl.Note) *forgev1.Issue {
	out := &forgev1.Issue{
		Forge:     p.Ref(),
		Repo:      repo.String(),
		Number:    uint64(i.IID),
		State:     state(i.State),
		Url:       i.WebURL,
		Labels:    append([]string{}, i.Labels...),
		Title:     i.Title,
		Body:      i.Description,
		Comments:  comments(notes),
		CreatedAt: stamp(i.CreatedAt),
		UpdatedAt: stamp(i.UpdatedAt),
	}
	if i.Author != nil {
		out.Author = i.Author.Username
	}
	for _, a := range i.Assignees {
		out.Assignees = append(out.Assignees, a.Username)
	}
	if i.Milestone != nil {
		out.Milestone = i.Milestone.Title
	}
	if i.State == "closed" {
		out.ClosedAt = stamp(i.ClosedAt)
	}
	return out
}

// comments are the user notes that are not anchored to a diff, oldest
// first (system notes are GitLab's own activity log).
func comments(notes []*gl.Note) []*forgev1.Comment {
	out := []*forgev1.Comment{}
	for _, n := range notes {
		if n.System || n.Position != nil {
			continue
		}
		out = append(out, &forgev1.Comment{Author: n.Author.Username, Body: n.Body})
	}
	return out
}

func (p *Provider) basicMR(repo project, mr *gl.BasicMergeRequest) *forgev1.PullRequest {
	out := &forgev1.PullRequest{
		Forge:   p.Ref(),
		Repo:    repo.String(),
		Number:  uint64(mr.IID),
		State:   state(mr.State),
		Url:     mr.WebURL,
		HeadRef: mr.SourceBranch,
		BaseRef: mr.TargetBranch,
		Draft:   mr.Draft,
		Title:   mr.Title,
		Body:    mr.Description,
		HeadSha: mr.SHA,
		Merged:  mr.State == "merged",
	}
	if mr.Author != nil {
		out.Author = mr.Author.Username
	}
	if mr.State == "opened" {
		out.Mergeable = mergeable(mr.DetailedMergeStatus)
	}
	return out
}

// mergeable is GitLab's detailed_merge_status as the tools say it: true
// when it says mergeable, "" while it is still checking, else false.
func mergeable(s string) string {
	switch s {
	case "mergeable":
		return "true"
	case "", "checking", "unchecked", "preparing", "approvals_syncing":
		return ""
	default:
		return "false"
	}
}

// reviews are what GitLab records of reviews: an approval per approver
// (the approvals endpoint), and per author the diff notes they left,
// each at its line.
func reviews(approvals *gl.MergeRequestApprovals, notes []*gl.Note) []*forgev1.Review {
	var out []*forgev1.Review
	if approvals != nil {
		for _, a := range approvals.ApprovedBy {
			if a.User != nil {
				out = append(out, &forgev1.Review{Author: a.User.Username, Verdict: "approve"})
			}
		}
	}
	byAuthor := map[string]*forgev1.Review{}
	for _, n := range notes {
		if n.System || n.Position == nil {
			continue
		}
		r := byAuthor[n.Author.Username]
		if r == nil {
			r = &forgev1.Review{Author: n.Author.Username, Verdict: "comment"}
			byAuthor[n.Author.Username] = r
			out = append(out, r)
		}
		c := &forgev1.ReviewComment{Author: n.Author.Username, Body: n.Body}
		c.Path, c.Line, c.Side = anchor(n.Position)
		if len(r.Comments) < 20 {
			r.Comments = append(r.Comments, c)
		}
	}
	return out
}

// anchor is the line a diff note sits on: its new-side line (RIGHT), or
// for a note on a removed line its old-side line (LEFT).
func anchor(pos *gl.NotePosition) (path string, line uint64, side string) {
	if pos.NewLine == 0 && pos.OldLine > 0 {
		return pos.OldPath, uint64(pos.OldLine), "LEFT"
	}
	return pos.NewPath, uint64(max(pos.NewLine, 0)), "RIGHT"
}

// checksState rolls the head pipeline's status into one word: success,
// failure or pending; empty without a pipeline.
func checksState(pl *gl.Pipeline) string {
	if pl == nil {
		return ""
	}
	switch pl.Status {
	case "success", "skipped":
		return "success"
	case "failed", "canceled", "canceling":
		return "failure"
	default: // created, waiting_for_resource, preparing, pending, running, scheduled, manual
		return "pending"
	}
}

// permission is a GitLab access level in the tools' vocabulary: owner ->
// admin, maintainer -> maintain, developer -> write, reporter -> triage,
// guest and planner -> read.
func permission(level gl.AccessLevelValue) string {
	switch {
	case level >= gl.OwnerPermissions:
		return "admin"
	case level >= gl.MaintainerPermissions:
		return "maintain"
	case level >= gl.DeveloperPermissions:
		return "write"
	case level >= gl.ReporterPermissions:
		return "triage"
	case level > gl.NoPermissions:
		return "read"
	default:
		return ""
	}
}

// projectPermission is the higher of the credential's project and group
// access.
func projectPermission(p *gl.Permissions) string {
	if p == nil {
		return ""
	}
	var level gl.AccessLevelValue
	if p.ProjectAccess != nil {
		level = p.ProjectAccess.AccessLevel
	}
	if p.GroupAccess != nil && p.GroupAccess.AccessLevel > level {
		level = p.GroupAccess.AccessLevel
	}
	return permission(level)
}
