package gitlabtest

import (
	"encoding/base64"
	"maps"
	"net/http"
	"strings"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

// createCommit serves POST .../repository/commits, GitLab's "create a
// commit with multiple files and actions": create, update and delete
// (move and chmod are not modelled), each update or delete refused with
// GitLab's message when its last_commit_id is not the commit that last
// touched the file. Every action is checked before any is applied, so a
// refused commit changes nothing, as GitLab's (one Gitaly commit) does.
func (s *Server) createCommit(c *call) answer {
	var in struct {
		Branch        string `json:"branch"`
		CommitMessage string `json:"commit_message"`
		Actions       []struct {
			Action       string `json:"action"`
			FilePath     string `json:"file_path"`
			Content      string `json:"content"`
			Encoding     string `json:"encoding"`
			LastCommitID string `json:"last_commit_id"`
		} `json:"actions"`
	}
	if !forgefake.Decode(c.Body, &in) || in.Branch == "" || in.CommitMessage == "" || len(in.Actions) == 0 {
		return answer{Status: http.StatusBadRequest, Body: map[string]any{"error": "branch is missing, commit_message is missing, actions is missing"}}
	}
	p := c.p
	files, found := p.Files[in.Branch]
	if !found {
		return s.message(http.StatusBadRequest, "You can only create or edit files when you are on a branch")
	}
	next := maps.Clone(files)
	var touched []string
	for _, a := range in.Actions {
		_, exists := files[a.FilePath]
		switch {
		case a.FilePath == "":
			return answer{Status: http.StatusBadRequest, Body: map[string]any{"error": "actions[file_path] is missing"}}
		case a.Action == "create" && exists:
			return s.message(http.StatusBadRequest, "A file with this name already exists")
		case (a.Action == "update" || a.Action == "delete") && !exists:
			return s.message(http.StatusBadRequest, "A file with this name doesn't exist")
		case a.Action != "create" && a.Action != "update" && a.Action != "delete":
			return answer{Status: http.StatusBadRequest, Body: map[string]any{"error": "actions[action] does not have a valid value"}}
		case a.LastCommitID != "" && a.LastCommitID != p.LastCommit[in.Branch][a.FilePath]:
			return s.message(http.StatusBadRequest, "You are attempting to update a file that has changed since you started editing it.")
		}
		touched = append(touched, a.FilePath)
		if a.Action == "delete" {
			delete(next, a.FilePath)
			continue
		}
		content := a.Content
		if a.Encoding == "base64" {
			raw, err := base64.StdEncoding.DecodeString(a.Content)
			if err != nil {
				return s.message(http.StatusBadRequest, "content is not base64")
			}
			content = string(raw)
		}
		next[a.FilePath] = content
	}
	parent := p.Branches[in.Branch]
	p.Files[in.Branch] = next
	sha := s.Commit(p, in.Branch, forgemodel.Meta{Author: c.user, Message: in.CommitMessage}, touched...)
	title, _, _ := strings.Cut(in.CommitMessage, "\n")
	return created(map[string]any{
		"id": sha, "short_id": sha[:8], "title": title, "message": in.CommitMessage,
		"parent_ids": []string{parent}, "author_name": c.user, "committer_name": c.user,
		"created_at": stamp(s.Now()), "web_url": s.web("/%s/-/commit/%s", p.Path, sha),
	})
}

// getBranch serves GET .../repository/branches/:branch.
func (s *Server) getBranch(c *call) answer {
	name := c.Value("branch")
	head, found := c.p.Branches[name]
	if !found {
		return s.message(http.StatusNotFound, "404 Branch Not Found")
	}
	return ok(map[string]any{
		"name": name, "merged": false, "protected": false, "default": name == c.p.DefaultBranch, "can_push": true,
		"web_url": s.web("/%s/-/tree/%s", c.p.Path, name),
		"commit":  map[string]any{"id": head, "short_id": head[:8], "title": "commit", "web_url": s.web("/%s/-/commit/%s", c.p.Path, head)},
	})
}
