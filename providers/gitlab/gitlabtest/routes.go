package gitlabtest

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

// call is one request to a route: who sent it and, below
// /projects/{id}, the project it names.
type call struct {
	*forgefake.Call
	user string
	p    *forgemodel.Repo
}

// route serves pattern (below /api/v4) with h once the credential is
// known; below /projects/{id} the project must exist (numeric id or
// URL-encoded full path), and a write needs reporter access or more.
func (s *Server) route(pattern string, h func(c *call) answer) {
	s.Handle(pattern, func(fc *forgefake.Call) answer {
		user, known := s.UserOf(fc.R.Header.Get("PRIVATE-TOKEN"))
		if !known {
			return s.message(http.StatusUnauthorized, "401 Unauthorized")
		}
		c := &call{Call: fc, user: user}
		if strings.HasPrefix(pattern[strings.IndexByte(pattern, ' ')+1:], "/projects/{id}") {
			if c.p = s.project(c.Value("id")); c.p == nil {
				return s.message(http.StatusNotFound, "404 Project Not Found")
			}
			if m := fc.R.Method; m != http.MethodGet && m != http.MethodHead && c.p.Access < 20 {
				return s.message(http.StatusForbidden, "403 Forbidden")
			}
		}
		return h(c)
	})
}

// issue serves a route on one issue (404 when there is none).
func (s *Server) issue(pattern string, h func(c *call, i *forgemodel.Item) answer) {
	s.route(pattern, func(c *call) answer {
		if i := c.p.Issue(c.Int("iid")); i != nil {
			return h(c, i)
		}
		return s.message(http.StatusNotFound, "404 Issue Not Found")
	})
}

// mr serves a route on one merge request (404 when there is none).
func (s *Server) mr(pattern string, h func(c *call, m *forgemodel.Item) answer) {
	s.route(pattern, func(c *call) answer {
		if m := c.p.Pull(c.Int("iid")); m != nil {
			return h(c, m)
		}
		return s.message(http.StatusNotFound, "404 Not found")
	})
}

// pipeline serves a route on one pipeline (404 when there is none).
func (s *Server) pipeline(pattern string, h func(c *call, pl *forgemodel.Run) answer) {
	s.route(pattern, func(c *call) answer {
		if pl := c.p.Run(c.Int("pid")); pl != nil {
			return h(c, pl)
		}
		return s.message(http.StatusNotFound, "404 Not found")
	})
}

// routes are the endpoints the fake serves.
func (s *Server) routes() {
	s.route("GET /projects", s.listProjects)
	s.route("GET /users", func(c *call) answer {
		out := []any{}
		if s.KnownUser(c.Query.Get("username")) {
			out = append(out, s.userJSON(c.Query.Get("username")))
		}
		return ok(out)
	})
	s.route("GET /projects/{id}", func(c *call) answer { return ok(s.projectJSON(c.p)) })
	s.route("GET /projects/{id}/milestones", s.milestones)
	s.route("GET /projects/{id}/issues", s.listIssues)
	s.route("POST /projects/{id}/issues", s.createIssue)
	s.issue("GET /projects/{id}/issues/{iid}", func(c *call, i *forgemodel.Item) answer { return ok(s.issueJSON(c.p, i)) })
	s.issue("PUT /projects/{id}/issues/{iid}", s.updateIssue)
	s.issue("GET /projects/{id}/issues/{iid}/notes", func(c *call, i *forgemodel.Item) answer {
		return paged(c.Query, i.Comments, func(x *forgemodel.Comment) any { return s.noteJSON(c.p, "Issue", i.Number, x) })
	})
	s.issue("POST /projects/{id}/issues/{iid}/notes", func(c *call, i *forgemodel.Item) answer {
		return s.addNote(c, "Issue", i, nil)
	})
	s.route("GET /projects/{id}/merge_requests", s.listMRs)
	s.route("POST /projects/{id}/merge_requests", s.createMR)
	s.mr("GET /projects/{id}/merge_requests/{iid}", func(c *call, m *forgemodel.Item) answer { return ok(s.mrJSON(c.p, m, true)) })
	s.mr("PUT /projects/{id}/merge_requests/{iid}", s.updateMR)
	s.mr("GET /projects/{id}/merge_requests/{iid}/approvals", func(c *call, m *forgemodel.Item) answer {
		return ok(s.approvalsJSON(c.p, m, c.user))
	})
	s.mr("POST /projects/{id}/merge_requests/{iid}/approve", s.approve)
	s.mr("GET /projects/{id}/merge_requests/{iid}/notes", func(c *call, m *forgemodel.Item) answer {
		return paged(c.Query, m.Comments, func(x *forgemodel.Comment) any { return s.noteJSON(c.p, "MergeRequest", m.Number, x) })
	})
	s.mr("POST /projects/{id}/merge_requests/{iid}/notes", func(c *call, m *forgemodel.Item) answer {
		return s.addNote(c, "MergeRequest", m, nil)
	})
	s.mr("GET /projects/{id}/merge_requests/{iid}/discussions", s.listDiscussions)
	s.mr("POST /projects/{id}/merge_requests/{iid}/discussions", s.discussion)
	s.thread("POST /projects/{id}/merge_requests/{iid}/discussions/{did}/notes", s.replyToDiscussion)
	s.thread("PUT /projects/{id}/merge_requests/{iid}/discussions/{did}", s.resolveDiscussion)
	s.mr("PUT /projects/{id}/merge_requests/{iid}/merge", s.merge)
	s.mr("GET /projects/{id}/merge_requests/{iid}/diffs", s.mrDiffs)
	s.route("GET /projects/{id}/repository/compare", s.compare)
	s.route("GET /projects/{id}/repository/merge_base", s.mergeBase)
	s.route("GET /projects/{id}/repository/tree", s.tree)
	s.route("GET /projects/{id}/repository/commits", s.listCommits)
	s.route("GET /projects/{id}/repository/commits/{sha}", s.getCommit)
	s.route("POST /projects/{id}/repository/branches", s.createBranch)
	s.route("GET /projects/{id}/repository/files/{file}", s.file) // and HEAD
	s.route("POST /projects/{id}/repository/files/{file}", s.writeFile)
	s.route("PUT /projects/{id}/repository/files/{file}", s.writeFile)
	s.route("POST /projects/{id}/repository/commits", s.createCommit)
	s.route("GET /projects/{id}/repository/branches/{branch}", s.getBranch)
	s.route("GET /projects/{id}/pipelines", s.listPipelines)
	s.route("POST /projects/{id}/pipeline", s.createPipeline)
	s.pipeline("GET /projects/{id}/pipelines/{pid}", func(c *call, pl *forgemodel.Run) answer { return ok(s.pipelineJSON(c.p, pl)) })
	s.pipeline("GET /projects/{id}/pipelines/{pid}/jobs", func(c *call, pl *forgemodel.Run) answer {
		return paged(c.Query, pl.Jobs, func(j *forgemodel.Job) any { return s.jobJSON(c.p, pl, j) })
	})
	s.pipeline("POST /projects/{id}/pipelines/{pid}/retry", s.retry)
	s.route("GET /projects/{id}/jobs/{jid}/trace", func(c *call) answer {
		if _, j := c.p.Job(c.Int("jid")); j != nil {
			return answer{Status: http.StatusOK, Raw: []byte(j.Log)}
		}
		return s.message(http.StatusNotFound, "404 Not found")
	})
	s.searchRoutes()
}

// project resolves a :id, numeric or a full path.
func (s *Server) project(id string) *forgemodel.Repo {
	if n, err := strconv.ParseInt(id, 10, 64); err == nil {
		return s.RepoByID(n)
	}
	return s.Repo(id)
}

func (s *Server) listProjects(c *call) answer {
	var ps []*forgemodel.Repo
	for _, p := range s.SortedRepos() {
		if c.Query.Get("membership") != "true" || p.Access > 0 {
			ps = append(ps, p)
		}
	}
	return paged(c.Query, ps, func(p *forgemodel.Repo) any { return s.projectJSON(p) })
}

func (s *Server) milestones(c *call) answer {
	out := []any{}
	for _, m := range c.p.Milestones {
		if ids := c.Query["iids[]"]; len(ids) == 0 || slices.Contains(ids, strconv.FormatInt(m.IID, 10)) {
			out = append(out, map[string]any{"id": m.ID, "iid": m.IID, "project_id": c.p.ID, "title": m.Title, "state": "active",
				"web_url": s.web("/%s/-/milestones/%d", c.p.Path, m.IID)})
		}
	}
	return ok(out)
}

// retry re-queues a pipeline's failed and canceled jobs.
func (s *Server) retry(c *call, pl *forgemodel.Run) answer {
	retried := false
	for _, j := range pl.Jobs {
		if j.Status == "failed" || j.Status == "canceled" {
			j.Status, retried = "pending", true
		}
	}
	if retried {
		pl.Status = "pending"
	}
	return created(s.pipelineJSON(c.p, pl))
}
