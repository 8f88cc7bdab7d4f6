package giteatest

import (
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

// call is one request to a route: who sent it and, below
// /repos/{owner}/{repo}, the repository it names.
type call struct {
	*forgefake.Call
	login string
	r     *forgemodel.Repo
}

// route serves pattern (below /api/v1) with h once the credential is
// known ("Authorization: token ..."); below /repos/{owner}/{repo} the
// repository must exist, and a write needs write permission.
func (s *Server) route(pattern string, h func(c *call) answer) {
	s.Handle(pattern, func(fc *forgefake.Call) answer {
		auth := fc.R.Header.Get("Authorization")
		login, known := s.UserOf(strings.TrimPrefix(auth, "token "))
		if !known || !strings.HasPrefix(auth, "token ") {
			return s.apiError(http.StatusUnauthorized, "invalid username, password or token")
		}
		c := &call{Call: fc, login: login}
		if strings.Contains(pattern, " /repos/{owner}/{repo}") {
			if c.r = s.Repo(c.Value("owner") + "/" + c.Value("repo")); c.r == nil {
				return s.notFound()
			}
			if fc.R.Method != http.MethodGet && c.r.Access < 30 {
				return s.apiError(http.StatusForbidden, "user should have a permission to write to the repository")
			}
		}
		return h(c)
	})
}

// item serves a route on one issue or pull request (an issue route
// serves both, as on Gitea); 404 when there is none.
func (s *Server) item(pattern string, pulls bool, h func(c *call, it *forgemodel.Item) answer) {
	s.route(pattern, func(c *call) answer {
		it := c.r.Issue(c.Int("index"))
		if it == nil || (pulls && it.Pull == nil) {
			return s.notFound()
		}
		return h(c, it)
	})
}

// run serves a route on one Actions run; 404 when there is none, and on
// Forgejo, which serves no run API.
func (s *Server) run(pattern string, h func(c *call, ru *forgemodel.Run) answer) {
	s.route(pattern, func(c *call) answer {
		if ru := c.r.Run(c.Int("run")); ru != nil && !s.forgejo {
			return h(c, ru)
		}
		return s.notFound()
	})
}

// routes are the endpoints the fake serves.
func (s *Server) routes() {
	s.Handle("GET /version", func(*forgefake.Call) answer { return ok(map[string]any{"version": s.Version()}) })
	s.route("GET /user/repos", func(c *call) answer {
		var rs []*forgemodel.Repo
		for _, k := range slices.Sorted(maps.Keys(s.Repos)) {
			rs = append(rs, s.Repos[k])
		}
		return paged(s, c, rs, func(r *forgemodel.Repo) any { return s.repoJSON(r) })
	})
	const repo = "/repos/{owner}/{repo}"
	s.route("GET "+repo, func(c *call) answer { return ok(s.repoJSON(c.r)) })
	s.route("GET "+repo+"/labels", func(c *call) answer {
		return paged(s, c, c.r.Labels, func(l *forgemodel.Label) any { return s.labelsJSON(c.r, []string{l.Name})[0] })
	})
	s.route("GET "+repo+"/issues", s.listIssues)
	s.route("POST "+repo+"/issues", s.createIssue)
	s.item("GET "+repo+"/issues/{index}", false, func(c *call, it *forgemodel.Item) answer { return ok(s.issueJSON(c.r, it)) })
	s.item("PATCH "+repo+"/issues/{index}", false, s.editIssue)
	s.item("PUT "+repo+"/issues/{index}/labels", false, s.replaceLabels)
	// Gitea's issue comments endpoint does not page: it takes since and
	// before, ignores page and limit, and answers every comment with their
	// count.
	s.item("GET "+repo+"/issues/{index}/comments", false, func(c *call, it *forgemodel.Item) answer {
		out := make([]any, 0, len(it.Comments))
		for _, x := range it.Comments {
			out = append(out, s.commentJSON(c.r, it, x))
		}
		a := ok(out)
		a.Header = http.Header{"X-Total-Count": {strconv.Itoa(len(out))}}
		return a
	})
	s.item("POST "+repo+"/issues/{index}/comments", false, s.comment)
	s.route("GET "+repo+"/pulls", s.listPulls)
	s.route("POST "+repo+"/pulls", s.createPull)
	s.route("GET "+repo+"/pulls/{index}", s.getPull)
	s.route("GET "+repo+"/compare/{basehead...}", s.compare)
	s.item("PATCH "+repo+"/pulls/{index}", true, s.editPull)
	s.item("POST "+repo+"/pulls/{index}/requested_reviewers", true, s.requestReviewers)
	s.item("POST "+repo+"/pulls/{index}/merge", true, s.merge)
	s.item("GET "+repo+"/pulls/{index}/reviews", true, s.listReviews)
	s.item("POST "+repo+"/pulls/{index}/reviews", true, s.createReview)
	s.item("GET "+repo+"/pulls/{index}/reviews/{id}/comments", true, s.reviewComments)
	s.item("POST "+repo+"/pulls/{index}/comments/{id}/replies", true, s.replyToReviewComment)
	s.route("POST "+repo+"/pulls/comments/{id}/resolve", func(c *call) answer { return s.resolveReviewComment(c, true) })
	s.route("POST "+repo+"/pulls/comments/{id}/unresolve", func(c *call) answer { return s.resolveReviewComment(c, false) })
	s.route("GET "+repo+"/commits", s.listCommits)
	s.route("GET "+repo+"/commits/{ref}/status", s.combinedStatus)
	s.route("GET "+repo+"/git/commits/{sha}", func(c *call) answer {
		// A branch, a tag or a commit; this fake knows branches and their
		// head commits.
		if sha := resolve(c.r, c.Value("sha")); sha != "" {
			return ok(map[string]any{"sha": sha, "url": s.api("/repos/%s/git/commits/%s", c.r.Path, sha)})
		}
		return s.apiError(http.StatusNotFound, "commit doesn't exist: "+c.Value("sha"))
	})
	s.route("GET "+repo+"/milestones/{id}", func(c *call) answer {
		if m := c.r.Milestone(c.Int("id")); m != nil {
			return ok(map[string]any{"id": m.ID, "title": m.Title, "state": "open"})
		}
		return s.notFound()
	})
	s.route("POST "+repo+"/branches", s.createBranch)
	s.route("GET "+repo+"/contents", s.readContents)
	s.route("GET "+repo+"/contents/{path...}", s.readContents)
	s.route("POST "+repo+"/contents/{path...}", s.writeContents)
	s.route("PUT "+repo+"/contents/{path...}", s.writeContents)
	s.route("POST "+repo+"/contents", s.changeFiles)
	s.route("GET "+repo+"/branches/{branch...}", s.getBranch)
	s.route("GET "+repo+"/raw/{path...}", s.raw)
	s.route("GET "+repo+"/actions/runs", func(c *call) answer {
		if s.forgejo {
			return s.notFound()
		}
		return s.listRuns(c)
	})
	s.run("GET "+repo+"/actions/runs/{run}", func(c *call, ru *forgemodel.Run) answer { return ok(s.runJSON(c.r, ru)) })
	s.run("GET "+repo+"/actions/runs/{run}/jobs", func(c *call, ru *forgemodel.Run) answer {
		jobs := []any{}
		for _, j := range ru.Jobs {
			jobs = append(jobs, s.jobJSON(c.r, ru, j))
		}
		return ok(map[string]any{"total_count": len(jobs), "jobs": jobs})
	})
	s.route("GET "+repo+"/actions/jobs/{job}/logs", func(c *call) answer {
		if _, j := c.r.Job(c.Int("job")); j != nil && !s.forgejo {
			return answer{Status: http.StatusOK, Raw: []byte(j.Log)}
		}
		return s.notFound()
	})
	s.run("POST "+repo+"/actions/runs/{run}/rerun", func(c *call, ru *forgemodel.Run) answer { return s.rerun(c, ru, false) })
	s.run("POST "+repo+"/actions/runs/{run}/rerun-failed-jobs", func(c *call, ru *forgemodel.Run) answer { return s.rerun(c, ru, true) })
	s.route("POST "+repo+"/actions/workflows/{workflow}/dispatches", s.dispatch)
}

// rerun re-runs a finished run, or only its failed jobs when it has some.
func (s *Server) rerun(c *call, ru *forgemodel.Run, failed bool) answer {
	if ru.Status != "completed" {
		return s.apiError(http.StatusBadRequest, "this workflow run is not done")
	}
	if failed && !slices.ContainsFunc(ru.Jobs, func(j *forgemodel.Job) bool { return j.Conclusion == "failure" }) {
		return s.apiError(http.StatusBadRequest, "this workflow run has no failed jobs to re-run")
	}
	ru.Status, ru.Conclusion, ru.Attempt, ru.Started = "queued", "", ru.Attempt+1, time.Time{}
	if failed {
		return answer{Status: http.StatusCreated}
	}
	return created(s.runJSON(c.r, ru))
}

func (s *Server) comment(c *call, it *forgemodel.Item) answer {
	var in struct{ Body string }
	if !forgefake.Decode(c.Body, &in) || strings.TrimSpace(in.Body) == "" {
		return s.apiError(http.StatusUnprocessableEntity, "[Body]: Required")
	}
	return created(s.commentJSON(c.r, it, s.AddComment(&it.Comments, c.login, in.Body, nil)))
}

func (s *Server) reviewComments(c *call, it *forgemodel.Item) answer {
	for _, v := range it.Pull.Reviews {
		if v.ID == c.Int("id") {
			out := []any{}
			for _, rc := range v.Comments {
				out = append(out, s.reviewCommentJSON(c.r, it, v, rc))
			}
			return ok(out)
		}
	}
	return s.notFound()
}
