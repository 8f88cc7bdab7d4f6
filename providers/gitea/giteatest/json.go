package giteatest

import (
	"cmp"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/forgetools/forgetools/internal/forgemodel"
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
		"id": s.User(login), "login": login, "login_name": "", "full_name": "", "email": login + "@noreply." + s.host,
		"avatar_url": s.web("/avatars/%d", s.User(login)), "html_url": s.web("/%s", login),
		"language": "", "is_admin": false, "active": true, "restricted": false, "visibility": "public",
	}
}

func (s *Server) repoJSON(r *forgemodel.Repo) map[string]any {
	owner, name, _ := strings.Cut(r.Path, "/")
	perm := map[string]any{"admin": r.Access >= 40, "push": r.Access >= 30, "pull": true}
	open := 0
	for _, it := range r.Kind(false) {
		if it.State == "open" {
			open++
		}
	}
	return map[string]any{
		"id": r.ID, "owner": s.userJSON(owner), "name": name, "full_name": r.Path,
		"description": "", "empty": len(r.Branches) == 0, "private": r.Private, "fork": false, "template": false,
		"mirror": false, "internal": false, "archived": false, "html_url": s.web("/%s", r.Path),
		"url": s.api("/repos/%s", r.Path), "clone_url": s.web("/%s.git", r.Path),
		"default_branch": r.DefaultBranch, "open_issues_count": open, "permissions": perm,
		"has_issues": true, "has_pull_requests": true, "has_actions": true,
		"created_at": stamp(s.Now()), "updated_at": stamp(s.Now()),
	}
}

func (s *Server) labelsJSON(r *forgemodel.Repo, ls []string) []any {
	out := []any{}
	for _, name := range ls {
		l := r.Label(name)
		out = append(out, map[string]any{
			"id": l.ID, "name": l.Name, "color": "ee0701", "description": "", "exclusive": false, "is_archived": false,
			"url": s.api("/repos/%s/labels/%d", r.Path, l.ID),
		})
	}
	return out
}

func (s *Server) issueJSON(r *forgemodel.Repo, it *forgemodel.Item) map[string]any {
	owner, name, _ := strings.Cut(r.Path, "/")
	kind := "issues"
	var pr any
	if it.Pull != nil {
		kind = "pulls"
		pr = map[string]any{"merged": it.Pull.Merged, "merged_at": nil, "draft": false, "html_url": s.web("/%s/pulls/%d", r.Path, it.Number)}
	}
	assignees := []any{}
	for _, a := range it.Assignees {
		assignees = append(assignees, s.userJSON(a))
	}
	var milestone any
	if it.Milestone != nil {
		milestone = map[string]any{"id": it.Milestone.ID, "title": it.Milestone.Title, "state": "open"}
	}
	var closed any
	if it.Closed != nil {
		closed = stamp(*it.Closed)
	}
	return map[string]any{
		"id": it.ID, "url": s.api("/repos/%s/issues/%d", r.Path, it.Number),
		"html_url": s.web("/%s/%s/%d", r.Path, kind, it.Number), "number": it.Number,
		"user": s.userJSON(it.Author), "original_author": "", "original_author_id": 0,
		"title": it.Title, "body": it.Body, "ref": "", "labels": s.labelsJSON(r, it.Labels),
		"milestone": milestone, "assignee": nil, "assignees": assignees, "state": it.State, "is_locked": false,
		"comments": len(it.Comments), "created_at": stamp(it.Created), "updated_at": stamp(it.Updated),
		"closed_at": closed, "due_date": nil, "pull_request": pr,
		"repository": map[string]any{"id": r.ID, "name": name, "owner": owner, "full_name": r.Path},
	}
}

func (s *Server) commentJSON(r *forgemodel.Repo, it *forgemodel.Item, c *forgemodel.Comment) map[string]any {
	kind, pr, issue := "issues", "", s.web("/%s/issues/%d", r.Path, it.Number)
	if it.Pull != nil {
		kind, pr, issue = "pulls", s.web("/%s/pulls/%d", r.Path, it.Number), ""
	}
	return map[string]any{
		"id": c.ID, "html_url": s.web("/%s/%s/%d#issuecomment-%d", r.Path, kind, it.Number, c.ID),
		"pull_request_url": pr, "issue_url": issue, "user": s.userJSON(c.Author),
		"original_author": "", "original_author_id": 0, "body": c.Body, "assets": []any{},
		"created_at": stamp(c.Created), "updated_at": stamp(c.Created),
	}
}

func (s *Server) branchInfo(r *forgemodel.Repo, ref, sha string) map[string]any {
	return map[string]any{"label": ref, "ref": ref, "sha": sha, "repo_id": r.ID, "repo": s.repoJSON(r)}
}

func (s *Server) usersJSON(logins []string) []any {
	out := []any{}
	for _, l := range logins {
		out = append(out, s.userJSON(l))
	}
	return out
}

func (s *Server) pullJSON(r *forgemodel.Repo, it *forgemodel.Item) map[string]any {
	p := it.Pull
	html := s.web("/%s/pulls/%d", r.Path, it.Number)
	var mergeSHA, mergedAt any
	if p.Merged {
		mergeSHA, mergedAt = p.MergeSHA, stamp(it.Updated)
	}
	var closed any
	if it.Closed != nil {
		closed = stamp(*it.Closed)
	}
	return map[string]any{
		"id": it.ID, "url": s.api("/repos/%s/pulls/%d", r.Path, it.Number), "number": it.Number,
		"user": s.userJSON(it.Author), "title": it.Title, "body": it.Body, "labels": s.labelsJSON(r, it.Labels),
		"milestone": nil, "assignee": nil, "assignees": []any{}, "requested_reviewers": s.usersJSON(p.Requested),
		"state": it.State, "draft": workInProgress(it.Title), "is_locked": false, "comments": len(it.Comments),
		"html_url": html, "diff_url": html + ".diff", "patch_url": html + ".patch",
		"mergeable": !p.Blocked && !p.Merged && it.State == "open", "merged": p.Merged, "merged_at": mergedAt,
		"merge_commit_sha": mergeSHA, "merged_by": nil, "allow_maintainer_edit": false,
		"base": s.branchInfo(r, p.Base, r.Branches[p.Base]), "head": s.branchInfo(r, p.Head, r.PullHead(p)),
		"merge_base": cmp.Or(r.MergeBase(r.PullStart(p), r.PullHead(p)), r.Branches[p.Base]), "due_date": nil, "created_at": stamp(it.Created), "updated_at": stamp(it.Updated),
		"closed_at": closed, "pin_order": 0,
	}
}

func (s *Server) reviewJSON(r *forgemodel.Repo, it *forgemodel.Item, v *forgemodel.Review) map[string]any {
	return map[string]any{
		"id": v.ID, "user": s.userJSON(v.Author), "team": nil, "state": v.State, "body": v.Body, "commit_id": v.Commit,
		"stale": stale(r, it.Pull, v), "official": v.State == "APPROVED", "dismissed": false, "comments_count": len(v.Comments),
		"submitted_at": stamp(v.Created), "updated_at": stamp(v.Created),
		"html_url":         s.web("/%s/pulls/%d#issuecomment-%d", r.Path, it.Number, v.ID),
		"pull_request_url": s.web("/%s/pulls/%d", r.Path, it.Number),
	}
}

func (s *Server) reviewCommentJSON(r *forgemodel.Repo, it *forgemodel.Item, v *forgemodel.Review, c *forgemodel.ReviewComment) map[string]any {
	var resolver any
	if c.Resolver != "" {
		resolver = s.userJSON(c.Resolver)
	}
	return map[string]any{
		"id": c.ID, "body": c.Body, "user": s.userJSON(cmp.Or(c.Author, v.Author)), "pull_request_review_id": v.ID, "resolver": resolver,
		"created_at": stamp(v.Created), "updated_at": stamp(v.Created), "path": c.Path,
		"commit_id": v.Commit, "original_commit_id": v.Commit, "diff_hunk": "@@ -1 +1 @@",
		"position": c.NewLine, "original_position": c.OldLine,
		"html_url":         s.web("/%s/pulls/%d/files#issuecomment-%d", r.Path, it.Number, c.ID),
		"pull_request_url": s.web("/%s/pulls/%d", r.Path, it.Number),
	}
}

func (s *Server) contentJSON(r *forgemodel.Repo, ref, path, content string, withContent bool) map[string]any {
	sha := forgemodel.BlobSHA(content)
	out := map[string]any{
		"name": path[lastSlash(path)+1:], "path": path, "sha": sha, "last_commit_sha": r.Branches[ref], "type": "file",
		"size": len(content), "encoding": nil, "content": nil, "target": nil,
		"url":          s.api("/repos/%s/contents/%s?ref=%s", r.Path, path, ref),
		"html_url":     s.web("/%s/src/branch/%s/%s", r.Path, ref, path),
		"git_url":      s.api("/repos/%s/git/blobs/%s", r.Path, sha),
		"download_url": s.web("/%s/raw/branch/%s/%s", r.Path, ref, path),
	}
	if withContent {
		out["encoding"] = "base64"
		out["content"] = base64.StdEncoding.EncodeToString([]byte(content))
	}
	return out
}

func (s *Server) dirJSON(r *forgemodel.Repo, ref, path string) map[string]any {
	return map[string]any{
		"name": path[lastSlash(path)+1:], "path": path, "sha": r.TreeID(ref, path), "type": "dir", "size": 0,
		"encoding": nil, "content": nil, "html_url": s.web("/%s/src/branch/%s/%s", r.Path, ref, path),
		"url": s.api("/repos/%s/contents/%s?ref=%s", r.Path, path, ref),
	}
}

func (s *Server) runJSON(r *forgemodel.Repo, ru *forgemodel.Run) map[string]any {
	return map[string]any{
		"id": ru.ID, "display_title": ru.Workflow + " on " + ru.Ref, "event": ru.Event, "head_branch": ru.Ref,
		"head_sha": ru.SHA, "path": ru.Workflow + "@refs/heads/" + ru.Ref, "run_attempt": ru.Attempt,
		"run_number": ru.Number, "status": ru.Status, "conclusion": ru.Conclusion,
		"url":        s.api("/repos/%s/actions/runs/%d", r.Path, ru.ID),
		"html_url":   s.web("/%s/actions/runs/%d", r.Path, ru.Number),
		"started_at": runStamp(ru.Started), "completed_at": runStamp(stopped(ru)),
		"repository_id": r.ID,
	}
}

func (s *Server) jobJSON(r *forgemodel.Repo, ru *forgemodel.Run, j *forgemodel.Job) map[string]any {
	return map[string]any{
		"id": j.ID, "run_id": ru.ID, "run_url": s.api("/repos/%s/actions/runs/%d", r.Path, ru.ID),
		"run_attempt": ru.Attempt, "name": j.Name, "head_branch": ru.Ref, "head_sha": ru.SHA,
		"status": j.Status, "conclusion": j.Conclusion,
		"url":        s.api("/repos/%s/actions/jobs/%d", r.Path, j.ID),
		"html_url":   s.web("/%s/actions/runs/%d/jobs/%d", r.Path, ru.Number, j.ID),
		"created_at": stamp(ru.Started), "started_at": stamp(ru.Started), "completed_at": stamp(ru.Started.Add(time.Minute)),
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
func stopped(ru *forgemodel.Run) time.Time {
	if ru.Status != "completed" || ru.Started.IsZero() {
		return time.Time{}
	}
	return ru.Started.Add(time.Minute)
}
