package giteatest

import (
	"encoding/base64"
	"fmt"
	"time"

	"github.com/forgetools/forgetools/providers/internal/fakewire"
)

// The JSON the fake answers with, member names as in Gitea's swagger (and
// the SDK's json tags), with the members forgetools reads and those that
// carry state; every link points at the fake's web host or API.

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// runStamp is a run's time as Gitea sends it: the Unix epoch for one not
// yet started (or stopped).
func runStamp(t time.Time) string {
	if t.IsZero() {
		t = time.Unix(0, 0)
	}
	return stamp(t)
}

func (s *Server) web(format string, args ...any) string {
	return "https://" + s.host + fmt.Sprintf(format, args...)
}

func (s *Server) api(format string, args ...any) string {
	return s.URL + s.prefix + "/api/v1" + fmt.Sprintf(format, args...)
}

func (s *Server) userJSON(login string) map[string]any {
	return map[string]any{
		"id": s.n.User(login), "login": login, "login_name": "", "full_name": "", "email": login + "@noreply." + s.host,
		"avatar_url": s.web("/avatars/%d", s.n.User(login)), "html_url": s.web("/%s", login),
		"language": "", "is_admin": false, "active": true, "restricted": false, "visibility": "public",
	}
}

func (s *Server) repoJSON(r *repo) map[string]any {
	perm := map[string]any{"admin": r.perm == "admin", "push": r.perm == "admin" || r.perm == "write", "pull": true}
	open := 0
	for _, it := range r.items {
		if it.pull == nil && it.state == "open" {
			open++
		}
	}
	return map[string]any{
		"id": r.id, "owner": s.userJSON(r.owner), "name": r.name, "full_name": r.fullName(),
		"description": "", "empty": len(r.branches) == 0, "private": r.private, "fork": false, "template": false,
		"mirror": false, "internal": false, "archived": false, "html_url": s.web("/%s", r.fullName()),
		"url": s.api("/repos/%s", r.fullName()), "clone_url": s.web("/%s.git", r.fullName()),
		"default_branch": r.defaultBranch, "open_issues_count": open, "permissions": perm,
		"has_issues": true, "has_pull_requests": true, "has_actions": true,
		"created_at": stamp(s.n.Now()), "updated_at": stamp(s.n.Now()),
	}
}

func (s *Server) labelsJSON(r *repo, ls []*label) []any {
	out := []any{}
	for _, l := range ls {
		out = append(out, map[string]any{
			"id": l.id, "name": l.name, "color": "ee0701", "description": "", "exclusive": false, "is_archived": false,
			"url": s.api("/repos/%s/labels/%d", r.fullName(), l.id),
		})
	}
	return out
}

func (s *Server) issueJSON(r *repo, it *item) map[string]any {
	kind := "issues"
	var pr any
	if it.pull != nil {
		kind = "pulls"
		pr = map[string]any{"merged": it.pull.merged, "merged_at": nil, "draft": false, "html_url": s.web("/%s/pulls/%d", r.fullName(), it.number)}
	}
	assignees := []any{}
	for _, a := range it.assignees {
		assignees = append(assignees, s.userJSON(a))
	}
	var milestone any
	if it.milestone != 0 {
		milestone = map[string]any{"id": it.milestone, "title": r.milestones[it.milestone], "state": "open"}
	}
	var closed any
	if it.closed != nil {
		closed = stamp(*it.closed)
	}
	return map[string]any{
		"id": it.id, "url": s.api("/repos/%s/issues/%d", r.fullName(), it.number),
		"html_url": s.web("/%s/%s/%d", r.fullName(), kind, it.number), "number": it.number,
		"user": s.userJSON(it.author), "original_author": "", "original_author_id": 0,
		"title": it.title, "body": it.body, "ref": "", "labels": s.labelsJSON(r, it.labels),
		"milestone": milestone, "assignee": nil, "assignees": assignees, "state": it.state, "is_locked": false,
		"comments": len(it.comments), "created_at": stamp(it.created), "updated_at": stamp(it.updated),
		"closed_at": closed, "due_date": nil, "pull_request": pr,
		"repository": map[string]any{"id": r.id, "name": r.name, "owner": r.owner, "full_name": r.fullName()},
	}
}

func (s *Server) commentJSON(r *repo, it *item, c *comment) map[string]any {
	kind, pr, issue := "issues", "", s.web("/%s/issues/%d", r.fullName(), it.number)
	if it.pull != nil {
		kind, pr, issue = "pulls", s.web("/%s/pulls/%d", r.fullName(), it.number), ""
	}
	return map[string]any{
		"id": c.id, "html_url": s.web("/%s/%s/%d#issuecomment-%d", r.fullName(), kind, it.number, c.id),
		"pull_request_url": pr, "issue_url": issue, "user": s.userJSON(c.author),
		"original_author": "", "original_author_id": 0, "body": c.body, "assets": []any{},
		"created_at": stamp(c.created), "updated_at": stamp(c.created),
	}
}

func (s *Server) branchInfo(r *repo, ref, sha string) map[string]any {
	return map[string]any{"label": ref, "ref": ref, "sha": sha, "repo_id": r.id, "repo": s.repoJSON(r)}
}

func (s *Server) pullJSON(r *repo, it *item) map[string]any {
	p := it.pull
	html := s.web("/%s/pulls/%d", r.fullName(), it.number)
	var mergeSHA, mergedAt any
	if p.merged {
		mergeSHA, mergedAt = p.mergeSHA, stamp(it.updated)
	}
	var closed any
	if it.closed != nil {
		closed = stamp(*it.closed)
	}
	return map[string]any{
		"id": it.id, "url": s.api("/repos/%s/pulls/%d", r.fullName(), it.number), "number": it.number,
		"user": s.userJSON(it.author), "title": it.title, "body": it.body, "labels": s.labelsJSON(r, it.labels),
		"milestone": nil, "assignee": nil, "assignees": []any{}, "requested_reviewers": []any{},
		"state": it.state, "draft": false, "is_locked": false, "comments": len(it.comments),
		"html_url": html, "diff_url": html + ".diff", "patch_url": html + ".patch",
		"mergeable": p.mergeable && !p.merged && it.state == "open", "merged": p.merged, "merged_at": mergedAt,
		"merge_commit_sha": mergeSHA, "merged_by": nil, "allow_maintainer_edit": false,
		"base": s.branchInfo(r, p.base, r.branches[p.base]), "head": s.branchInfo(r, p.head, p.headSHA),
		"merge_base": r.branches[p.base], "due_date": nil, "created_at": stamp(it.created), "updated_at": stamp(it.updated),
		"closed_at": closed, "pin_order": 0,
	}
}

func (s *Server) reviewJSON(r *repo, it *item, v *review) map[string]any {
	return map[string]any{
		"id": v.id, "user": s.userJSON(v.author), "team": nil, "state": v.state, "body": v.body, "commit_id": v.commit,
		"stale": false, "official": v.state == "APPROVED", "dismissed": false, "comments_count": len(v.comments),
		"submitted_at": stamp(v.created), "updated_at": stamp(v.created),
		"html_url":         s.web("/%s/pulls/%d#issuecomment-%d", r.fullName(), it.number, v.id),
		"pull_request_url": s.web("/%s/pulls/%d", r.fullName(), it.number),
	}
}

func (s *Server) reviewCommentJSON(r *repo, it *item, v *review, c *reviewComment) map[string]any {
	return map[string]any{
		"id": c.id, "body": c.body, "user": s.userJSON(v.author), "pull_request_review_id": v.id, "resolver": nil,
		"created_at": stamp(v.created), "updated_at": stamp(v.created), "path": c.path,
		"commit_id": v.commit, "original_commit_id": v.commit, "diff_hunk": "@@ -1 +1 @@",
		"position": c.newLine, "original_position": c.oldLine,
		"html_url":         s.web("/%s/pulls/%d/files#issuecomment-%d", r.fullName(), it.number, c.id),
		"pull_request_url": s.web("/%s/pulls/%d", r.fullName(), it.number),
	}
}

func (s *Server) contentJSON(r *repo, ref, path, content string, withContent bool) map[string]any {
	sha := fakewire.BlobSHA(content)
	out := map[string]any{
		"name": path[lastSlash(path)+1:], "path": path, "sha": sha, "last_commit_sha": r.branches[ref], "type": "file",
		"size": len(content), "encoding": nil, "content": nil, "target": nil,
		"url":          s.api("/repos/%s/contents/%s?ref=%s", r.fullName(), path, ref),
		"html_url":     s.web("/%s/src/branch/%s/%s", r.fullName(), ref, path),
		"git_url":      s.api("/repos/%s/git/blobs/%s", r.fullName(), sha),
		"download_url": s.web("/%s/raw/branch/%s/%s", r.fullName(), ref, path),
	}
	if withContent {
		out["encoding"] = "base64"
		out["content"] = base64.StdEncoding.EncodeToString([]byte(content))
	}
	return out
}

func (s *Server) dirJSON(r *repo, ref, path string) map[string]any {
	return map[string]any{
		"name": path[lastSlash(path)+1:], "path": path, "sha": commitSHA(r, ref+":"+path, 0), "type": "dir", "size": 0,
		"encoding": nil, "content": nil, "html_url": s.web("/%s/src/branch/%s/%s", r.fullName(), ref, path),
	}
}

func (s *Server) runJSON(r *repo, ru *run) map[string]any {
	return map[string]any{
		"id": ru.id, "display_title": ru.workflow + " on " + ru.branch, "event": ru.event, "head_branch": ru.branch,
		"head_sha": ru.sha, "path": ru.workflow + "@refs/heads/" + ru.branch, "run_attempt": ru.attempt,
		"run_number": ru.number, "status": ru.status, "conclusion": ru.conclusion,
		"url":        s.api("/repos/%s/actions/runs/%d", r.fullName(), ru.id),
		"html_url":   s.web("/%s/actions/runs/%d", r.fullName(), ru.number),
		"started_at": runStamp(ru.started), "completed_at": runStamp(stopped(ru)),
		"repository_id": r.id,
	}
}

func (s *Server) jobJSON(r *repo, ru *run, j *job) map[string]any {
	return map[string]any{
		"id": j.id, "run_id": ru.id, "run_url": s.api("/repos/%s/actions/runs/%d", r.fullName(), ru.id),
		"run_attempt": ru.attempt, "name": j.name, "head_branch": ru.branch, "head_sha": ru.sha,
		"status": j.status, "conclusion": j.conclusion,
		"url":        s.api("/repos/%s/actions/jobs/%d", r.fullName(), j.id),
		"html_url":   s.web("/%s/actions/runs/%d/jobs/%d", r.fullName(), ru.number, j.id),
		"created_at": stamp(ru.started), "started_at": stamp(ru.started), "completed_at": stamp(ru.started.Add(time.Minute)),
		"labels": []string{"ubuntu-latest"}, "steps": []any{},
	}
}

func lastSlash(p string) int {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return i
		}
	}
	return -1
}

// stopped is when a run stopped: a minute after its start once completed.
func stopped(ru *run) time.Time {
	if ru.status != "completed" || ru.started.IsZero() {
		return time.Time{}
	}
	return ru.started.Add(time.Minute)
}
