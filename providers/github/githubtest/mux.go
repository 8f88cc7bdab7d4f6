package githubtest

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

// The fake's routes, on the fakes' engine's ServeMux patterns
// (forgefake.Router): the account's own (below the API root), and a
// repository's (below /repos/{owner}/{repo} or /repositories/{id},
// which resolve finds, renamed repositories included).

// call is one request a route answers: the engine's Call, the
// repository it addresses (nil on the account's routes), who sent it, and
// its path below the API root (paging links name it).
type call struct {
	*forgefake.Call
	rp    *repo
	login string
	path  string
}

type scopeKey struct{}

// router is where routes are added: the engine (the account's) or a
// repository's Router.
type router interface {
	Handle(pattern string, h forgefake.Handler)
}

// on routes pattern on rt to h.
func on(rt router, pattern string, h func(c *call) answer) {
	rt.Handle(pattern, func(fc *forgefake.Call) forgefake.Answer {
		c := fc.R.Context().Value(scopeKey{}).(call)
		c.Call = fc
		return h(&c)
	})
}

// scoped is r carrying the scope c its route answers in.
func scoped(r *http.Request, c call) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), scopeKey{}, c))
}

// routeBelow answers r with the route of rt that sub, a path below rt's
// root (unescaped), matches; false when none does.
func routeBelow(rt *forgefake.Router, r *http.Request, sub string, body []byte, c call) (answer, bool) {
	in := r.Clone(context.WithValue(r.Context(), scopeKey{}, c))
	in.URL.Path, in.URL.RawPath = sub, ""
	return rt.Route(in, body)
}

// userRoutes are the routes outside a repository, on the engine.
func (s *Server) userRoutes() {
	rt := s.Engine
	on(rt, "GET /user", func(c *call) answer { return jsonAnswer(http.StatusOK, s.me(c.login)) })
	on(rt, "GET /user/repos", func(c *call) answer { return s.userRepos(c.path, c.Query, c.login) })
	on(rt, "GET /orgs/{org}/members/{username}", func(c *call) answer {
		return s.orgMember(c.Value("org"), c.Value("username"))
	})
}

// repoRoutes are a repository's routes, below its root.
func (s *Server) repoRoutes() *forgefake.Router {
	rt := forgefake.NewRouter("")
	on(rt, "GET /{$}", func(c *call) answer { return jsonAnswer(http.StatusOK, s.fullRepoJSON(c.rp, c.login)) })
	on(rt, "GET /issues", func(c *call) answer { return s.listIssues(c.rp, c.path, c.Query) })
	on(rt, "POST /issues", func(c *call) answer { return s.createIssue(c.rp, c.login, c.Body) })
	onItem(rt, "GET /issues/{n}", false, func(c *call, it *item) answer {
		return jsonAnswer(http.StatusOK, s.issueJSON(c.rp, it))
	})
	onItem(rt, "PATCH /issues/{n}", false, func(c *call, it *item) answer { return s.editIssue(c.rp, it, c.login, c.Body) })
	onItem(rt, "GET /issues/{n}/comments", false, func(c *call, it *item) answer {
		cs := since(c.Query, it.Comments, func(v *comment) time.Time { return v.Created })
		return page(s, c.path, c.Query, cs, func(v *comment) any { return s.commentJSON(c.rp, it, v) })
	})
	onItem(rt, "POST /issues/{n}/comments", false, func(c *call, it *item) answer {
		return s.createComment(c.rp, it, c.login, c.Body)
	})
	on(rt, "GET /pulls", func(c *call) answer { return s.listPulls(c.rp, c.path, c.Query) })
	on(rt, "POST /pulls", func(c *call) answer { return s.createPull(c.rp, c.login, c.Body) })
	onItem(rt, "GET /pulls/{n}", true, func(c *call, it *item) answer { return jsonAnswer(http.StatusOK, s.pullJSON(c.rp, it)) })
	onItem(rt, "PUT /pulls/{n}/merge", true, func(c *call, it *item) answer { return s.merge(c.rp, it, c.login, c.Body) })
	onItem(rt, "GET /pulls/{n}/reviews", true, func(c *call, it *item) answer {
		return page(s, c.path, c.Query, it.Pull.Reviews, func(v *review) any { return s.reviewJSON(c.rp, it, v) })
	})
	onItem(rt, "POST /pulls/{n}/reviews", true, func(c *call, it *item) answer {
		return s.createReview(c.rp, it, c.login, c.Body)
	})
	onItem(rt, "GET /pulls/{n}/files", true, func(c *call, it *item) answer { return s.files(c.rp, it, c.path, c.Query) })
	onItem(rt, "GET /pulls/{n}/comments", true, func(c *call, it *item) answer {
		cs := since(c.Query, inlines(it.Pull), func(v inline) time.Time { return v.review.Created })
		return page(s, c.path, c.Query, cs, func(v inline) any { return s.reviewCommentJSON(c.rp, it, v) })
	})
	on(rt, "GET /commits", func(c *call) answer { return s.listCommits(c.rp, c.path, c.Query) })
	on(rt, "GET /compare/{basehead...}", func(c *call) answer { return s.compare(c.rp, c.Value("basehead")) })
	on(rt, "GET /commits/{sha}/status", func(c *call) answer { return s.combinedStatus(c.rp, c.Value("sha")) })
	on(rt, "GET /commits/{sha}/check-runs", func(c *call) answer {
		return s.checkRuns(c.rp, c.path, c.Value("sha"), c.Query)
	})
	on(rt, "GET /commits/{ref...}", func(c *call) answer {
		ref := c.Value("ref")
		if strings.HasSuffix(ref, "/status") || strings.HasSuffix(ref, "/check-runs") {
			return notFound() // a ref with slashes has no statuses or check runs here
		}
		return s.getCommit(c.rp, ref, c.R.Header.Get("Accept"))
	})
	for _, p := range []string{"/contents", "/contents/{path...}"} {
		on(rt, "GET "+p, func(c *call) answer {
			return s.getContents(c.rp, strings.Trim(c.Value("path"), "/"), c.Query, c.R.Header.Get("Accept"))
		})
		on(rt, "PUT "+p, func(c *call) answer { return s.putContents(c.rp, strings.Trim(c.Value("path"), "/"), c.login, c.Body) })
	}
	on(rt, "POST /git/refs", func(c *call) answer { return s.createRef(c.rp, c.Body) })
	on(rt, "GET /git/ref/{ref...}", func(c *call) answer { return s.getRef(c.rp, c.Value("ref")) })
	on(rt, "GET /collaborators/{username}/permission", func(c *call) answer {
		return s.collaboratorPermission(c.rp, c.Value("username"))
	})
	s.actionRoutes(rt)
	s.gitDataRoutes(rt)
	s.pullEditRoutes(rt)
	return rt
}

// onItem routes pattern, whose {n} is an issue's or (pull) a pull
// request's number, to h with that item; 404 when there is none.
func onItem(rt *forgefake.Router, pattern string, pull bool, h func(c *call, it *item) answer) {
	on(rt, pattern, func(c *call) answer {
		it := itemN(c.rp, int(c.Int("n")))
		if it == nil || (pull && it.Pull == nil) {
			return notFound()
		}
		return h(c, it)
	})
}

// notFound is GitHub's 404 for a path it serves nothing at.
func notFound() answer { return errorAnswer(http.StatusNotFound, "Not Found", docRoot, nil) }
