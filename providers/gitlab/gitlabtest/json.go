package gitlabtest

import (
	"fmt"
	"strings"
	"time"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// The JSON the fake answers with, member names as in GitLab's API
// documentation (and the client's json tags), with the members forgetools
// reads and those that carry state; web links point at the fake's web
// host.

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func (s *Server) web(format string, args ...any) string {
	return "https://" + s.host + fmt.Sprintf(format, args...)
}

func (s *Server) userJSON(name string) map[string]any {
	return map[string]any{
		"id": s.User(name), "username": name, "name": name, "state": "active", "locked": false,
		"avatar_url": s.web("/uploads/-/system/user/avatar/%d/avatar.png", s.User(name)), "web_url": s.web("/%s", name),
	}
}

func (s *Server) usersJSON(names []string) []any {
	out := []any{}
	for _, n := range names {
		out = append(out, s.userJSON(n))
	}
	return out
}

func (s *Server) projectJSON(p *forgemodel.Repo) map[string]any {
	open := 0
	for _, i := range p.Kind(false) {
		if i.State == "opened" {
			open++
		}
	}
	ns, name := p.Path[:strings.LastIndexByte(p.Path, '/')], p.Path[strings.LastIndexByte(p.Path, '/')+1:]
	return map[string]any{
		"id": p.ID, "description": "", "name": name, "name_with_namespace": strings.ReplaceAll(p.Path, "/", " / "),
		"path": name, "path_with_namespace": p.Path, "created_at": stamp(s.Now()), "default_branch": p.DefaultBranch,
		"visibility": "private", "web_url": s.web("/%s", p.Path), "http_url_to_repo": s.web("/%s.git", p.Path),
		"ssh_url_to_repo": "git@" + s.host + ":" + p.Path + ".git", "empty_repo": len(p.Branches) == 0,
		"archived": false, "open_issues_count": open, "merge_method": "merge",
		"namespace": map[string]any{"id": p.ID + 1, "name": ns, "path": ns[strings.LastIndexByte(ns, '/')+1:], "kind": "group", "full_path": ns},
		"permissions": map[string]any{
			"project_access": map[string]any{"access_level": p.Access, "notification_level": 3},
			"group_access":   nil,
		},
	}
}

func (s *Server) issueJSON(p *forgemodel.Repo, i *forgemodel.Item) map[string]any {
	assignees := []any{}
	for _, a := range i.Assignees {
		assignees = append(assignees, s.userJSON(a))
	}
	var ms, closed any
	if i.Milestone != nil {
		ms = map[string]any{"id": i.Milestone.ID, "iid": i.Milestone.IID, "project_id": p.ID, "title": i.Milestone.Title, "state": "active"}
	}
	if i.Closed != nil {
		closed = stamp(*i.Closed)
	}
	labels := i.Labels
	if labels == nil {
		labels = []string{}
	}
	return map[string]any{
		"id": i.ID, "iid": i.Number, "project_id": p.ID, "title": i.Title, "description": i.Body, "state": i.State,
		"created_at": stamp(i.Created), "updated_at": stamp(i.Updated), "closed_at": closed, "closed_by": nil,
		"labels": labels, "milestone": ms, "assignees": assignees, "author": s.userJSON(i.Author),
		"type": "ISSUE", "issue_type": "issue", "user_notes_count": len(i.Comments), "confidential": false,
		"web_url":    s.web("/%s/-/issues/%d", p.Path, i.Number),
		"references": map[string]any{"short": fmt.Sprintf("#%d", i.Number), "full": fmt.Sprintf("%s#%d", p.Path, i.Number)},
	}
}

func (s *Server) noteJSON(p *forgemodel.Repo, kind string, iid int64, n *forgemodel.Comment) map[string]any {
	typ, resolvable := any(nil), false
	if n.Position != nil {
		typ, resolvable = "DiffNote", true
	}
	out := map[string]any{
		"id": n.ID, "type": typ, "body": n.Body, "attachment": nil, "author": s.userJSON(n.Author),
		"created_at": stamp(n.Created), "updated_at": stamp(n.Created), "system": false,
		"noteable_id": iid, "noteable_type": kind, "project_id": p.ID, "noteable_iid": iid,
		"resolvable": resolvable, "confidential": false, "internal": false,
	}
	if n.Position != nil {
		// GitLab exposes a position on diff notes only, where the last
		// push left it (outdated.go).
		out["position"], out["resolved"] = n.Position, n.Resolved
		if m := p.Pull(iid); kind == "MergeRequest" && m != nil {
			out["position"] = position(p, m, n.Position)
		}
	}
	return out
}

func (s *Server) mrJSON(p *forgemodel.Repo, m *forgemodel.Item, detailed bool) map[string]any {
	sha := p.PullHead(m.Pull)
	status := "mergeable"
	switch {
	case m.State != "opened":
		status = "not_open"
	case m.Pull.Blocked:
		status = "conflict"
	}
	var mergedAt, mergeSHA, squashSHA any
	if m.State == "merged" {
		mergedAt = stamp(m.Updated)
		if m.Pull.MergeSHA != "" {
			mergeSHA = m.Pull.MergeSHA
		}
		if m.Pull.SquashSHA != "" {
			squashSHA = m.Pull.SquashSHA
		}
	}
	out := map[string]any{
		"id": m.ID, "iid": m.Number, "project_id": p.ID, "title": m.Title, "description": m.Body, "state": m.State,
		"created_at": stamp(m.Created), "updated_at": stamp(m.Updated), "merged_at": mergedAt,
		"target_branch": m.Pull.Base, "source_branch": m.Pull.Head, "author": s.userJSON(m.Author),
		"assignees": []any{}, "reviewers": s.usersJSON(m.Pull.Requested), "source_project_id": p.ID, "target_project_id": p.ID,
		"labels": []string{}, "draft": strings.HasPrefix(m.Title, "Draft:"), "work_in_progress": strings.HasPrefix(m.Title, "Draft:"),
		"milestone": nil, "merge_when_pipeline_succeeds": false, "merge_status": "can_be_merged",
		"detailed_merge_status": status, "sha": sha, "merge_commit_sha": mergeSHA, "squash_commit_sha": squashSHA,
		"user_notes_count": len(m.Comments), "squash": false, "has_conflicts": m.Pull.Blocked,
		"web_url":    s.web("/%s/-/merge_requests/%d", p.Path, m.Number),
		"references": map[string]any{"short": fmt.Sprintf("!%d", m.Number), "full": fmt.Sprintf("%s!%d", p.Path, m.Number)},
	}
	if detailed {
		var head any
		if m.Pull.Status != "" {
			head = map[string]any{"id": m.ID + 7, "iid": 1, "project_id": p.ID, "sha": sha, "ref": m.Pull.Head, "status": m.Pull.Status,
				"source": "merge_request_event", "web_url": s.web("/%s/-/pipelines/%d", p.Path, m.ID+7)}
		}
		out["head_pipeline"] = head
		base, start, _ := diffRefs(p, m)
		out["diff_refs"] = map[string]any{"base_sha": base, "head_sha": sha, "start_sha": start}
		out["merge_error"] = nil
		out["user"] = map[string]any{"can_merge": p.Access >= 30}
	}
	return out
}

func (s *Server) pipelineJSON(p *forgemodel.Repo, pl *forgemodel.Run) map[string]any {
	return map[string]any{
		"id": pl.ID, "iid": pl.Number, "project_id": p.ID, "status": pl.Status, "source": pl.Event, "ref": pl.Ref,
		"sha": pl.SHA, "name": nil, "web_url": s.web("/%s/-/pipelines/%d", p.Path, pl.ID),
		"created_at": stamp(pl.Started), "updated_at": stamp(pl.Started),
	}
}

func (s *Server) jobJSON(p *forgemodel.Repo, pl *forgemodel.Run, j *forgemodel.Job) map[string]any {
	return map[string]any{
		"id": j.ID, "name": j.Name, "stage": j.Stage, "status": j.Status, "ref": pl.Ref, "allow_failure": false,
		"created_at": stamp(pl.Started), "started_at": stamp(pl.Started), "finished_at": stamp(pl.Started.Add(time.Minute)),
		"duration": 60.0, "web_url": s.web("/%s/-/jobs/%d", p.Path, j.ID), "tag_list": []string{},
		"pipeline": map[string]any{"id": pl.ID, "project_id": p.ID, "ref": pl.Ref, "sha": pl.SHA, "status": pl.Status},
		"commit":   map[string]any{"id": pl.SHA, "short_id": pl.SHA[:8], "title": "commit"},
	}
}
