package gitlabtest

import (
	"fmt"
	"strings"
	"time"
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
		"id": s.n.User(name), "username": name, "name": name, "state": "active", "locked": false,
		"avatar_url": s.web("/uploads/-/system/user/avatar/%d/avatar.png", s.n.User(name)), "web_url": s.web("/%s", name),
	}
}

func (s *Server) projectJSON(p *project) map[string]any {
	open := 0
	for _, i := range p.issues {
		if i.state == "opened" {
			open++
		}
	}
	ns, name := p.path[:strings.LastIndexByte(p.path, '/')], p.path[strings.LastIndexByte(p.path, '/')+1:]
	return map[string]any{
		"id": p.id, "description": "", "name": name, "name_with_namespace": strings.ReplaceAll(p.path, "/", " / "),
		"path": name, "path_with_namespace": p.path, "created_at": stamp(s.n.Now()), "default_branch": p.defaultBranch,
		"visibility": "private", "web_url": s.web("/%s", p.path), "http_url_to_repo": s.web("/%s.git", p.path),
		"ssh_url_to_repo": "git@" + s.host + ":" + p.path + ".git", "empty_repo": len(p.branches) == 0,
		"archived": false, "open_issues_count": open, "merge_method": "merge",
		"namespace": map[string]any{"id": p.id + 1, "name": ns, "path": ns[strings.LastIndexByte(ns, '/')+1:], "kind": "group", "full_path": ns},
		"permissions": map[string]any{
			"project_access": map[string]any{"access_level": p.access, "notification_level": 3},
			"group_access":   nil,
		},
	}
}

func (s *Server) issueJSON(p *project, i *issue) map[string]any {
	assignees := []any{}
	for _, a := range i.assignees {
		assignees = append(assignees, s.userJSON(a))
	}
	var ms, closed any
	if i.milestone != nil {
		ms = map[string]any{"id": i.milestone.id, "iid": i.milestone.iid, "project_id": p.id, "title": i.milestone.title, "state": "active"}
	}
	if i.closed != nil {
		closed = stamp(*i.closed)
	}
	labels := i.labels
	if labels == nil {
		labels = []string{}
	}
	return map[string]any{
		"id": i.id, "iid": i.iid, "project_id": p.id, "title": i.title, "description": i.desc, "state": i.state,
		"created_at": stamp(i.created), "updated_at": stamp(i.updated), "closed_at": closed, "closed_by": nil,
		"labels": labels, "milestone": ms, "assignees": assignees, "author": s.userJSON(i.author),
		"type": "ISSUE", "issue_type": "issue", "user_notes_count": len(i.notes), "confidential": false,
		"web_url":    s.web("/%s/-/issues/%d", p.path, i.iid),
		"references": map[string]any{"short": fmt.Sprintf("#%d", i.iid), "full": fmt.Sprintf("%s#%d", p.path, i.iid)},
	}
}

func (s *Server) noteJSON(p *project, kind string, iid int64, n *note) map[string]any {
	typ, resolvable := any(nil), false
	if n.position != nil {
		typ, resolvable = "DiffNote", true
	}
	out := map[string]any{
		"id": n.id, "type": typ, "body": n.body, "attachment": nil, "author": s.userJSON(n.author),
		"created_at": stamp(n.created), "updated_at": stamp(n.created), "system": false,
		"noteable_id": iid, "noteable_type": kind, "project_id": p.id, "noteable_iid": iid,
		"resolvable": resolvable, "confidential": false, "internal": false,
	}
	if n.position != nil {
		// GitLab exposes a position on diff notes only.
		out["position"], out["resolved"] = n.position, false
	}
	return out
}

func (s *Server) mrJSON(p *project, m *mr, detailed bool) map[string]any {
	sha := p.branches[m.source]
	status := "mergeable"
	switch {
	case m.state != "opened":
		status = "not_open"
	case m.blocked:
		status = "conflict"
	}
	var mergedAt, mergeSHA, squashSHA any
	if m.state == "merged" {
		mergedAt = stamp(m.updated)
		if m.mergeSHA != "" {
			mergeSHA = m.mergeSHA
		}
		if m.squashSHA != "" {
			squashSHA = m.squashSHA
		}
	}
	out := map[string]any{
		"id": m.id, "iid": m.iid, "project_id": p.id, "title": m.title, "description": m.desc, "state": m.state,
		"created_at": stamp(m.created), "updated_at": stamp(m.updated), "merged_at": mergedAt,
		"target_branch": m.target, "source_branch": m.source, "author": s.userJSON(m.author),
		"assignees": []any{}, "reviewers": []any{}, "source_project_id": p.id, "target_project_id": p.id,
		"labels": []string{}, "draft": strings.HasPrefix(m.title, "Draft:"), "work_in_progress": strings.HasPrefix(m.title, "Draft:"),
		"milestone": nil, "merge_when_pipeline_succeeds": false, "merge_status": "can_be_merged",
		"detailed_merge_status": status, "sha": sha, "merge_commit_sha": mergeSHA, "squash_commit_sha": squashSHA,
		"user_notes_count": len(m.notes), "squash": false, "has_conflicts": m.blocked,
		"web_url":    s.web("/%s/-/merge_requests/%d", p.path, m.iid),
		"references": map[string]any{"short": fmt.Sprintf("!%d", m.iid), "full": fmt.Sprintf("%s!%d", p.path, m.iid)},
	}
	if detailed {
		var head any
		if m.pipeline != "" {
			head = map[string]any{"id": m.id + 7, "iid": 1, "project_id": p.id, "sha": sha, "ref": m.source, "status": m.pipeline,
				"source": "merge_request_event", "web_url": s.web("/%s/-/pipelines/%d", p.path, m.id+7)}
		}
		out["head_pipeline"] = head
		out["diff_refs"] = map[string]any{"base_sha": p.branches[m.target], "head_sha": sha, "start_sha": p.branches[m.target]}
		out["merge_error"] = nil
		out["user"] = map[string]any{"can_merge": p.access >= 30}
	}
	return out
}

func (s *Server) pipelineJSON(p *project, pl *pipeline) map[string]any {
	return map[string]any{
		"id": pl.id, "iid": pl.iid, "project_id": p.id, "status": pl.status, "source": pl.source, "ref": pl.ref,
		"sha": pl.sha, "name": nil, "web_url": s.web("/%s/-/pipelines/%d", p.path, pl.id),
		"created_at": stamp(pl.created), "updated_at": stamp(pl.created),
	}
}

func (s *Server) jobJSON(p *project, pl *pipeline, j *job) map[string]any {
	return map[string]any{
		"id": j.id, "name": j.name, "stage": j.stage, "status": j.status, "ref": pl.ref, "allow_failure": false,
		"created_at": stamp(pl.created), "started_at": stamp(pl.created), "finished_at": stamp(pl.created.Add(time.Minute)),
		"duration": 60.0, "web_url": s.web("/%s/-/jobs/%d", p.path, j.id), "tag_list": []string{},
		"pipeline": map[string]any{"id": pl.id, "project_id": p.id, "ref": pl.ref, "sha": pl.sha, "status": pl.status},
		"commit":   map[string]any{"id": pl.sha, "short_id": pl.sha[:8], "title": "commit"},
	}
}
