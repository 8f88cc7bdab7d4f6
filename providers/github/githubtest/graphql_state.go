package githubtest

import (
	"cmp"
	"fmt"
	"strings"
)

// The GraphQL objects the fake serves, built from the same state its REST
// endpoints answer from, so a pull request read over either API says the
// same: the same URLs, authors, bodies and counts.
//
// What it models: Query.repository (by owner and name, renamed
// repositories not followed: GitHub's GraphQL API does not redirect
// either), Repository.pullRequest and issueOrPullRequest (graphql_issue.go), and of a pull request its number,
// headRefOid, reviews (with their inline comments), reviewThreads,
// conversation comments and commits(last:) down to the head commit's
// statusCheckRollup (the state and the counts by state of its check runs);
// Query.node and the mutations of review threads and drafts
// (graphql_threads.go). What it does not: commit statuses (the fake has
// none, as its REST combined status says), any field or type not listed
// here, other mutations, and GitHub's
// GraphQL rate limit by points (a query costs one request of the login's
// hourly quota, as a REST call does).

// gqlRoot is the Query object for a login.
func (s *Server) gqlRoot(login string) *gqlObject {
	return &gqlObject{typename: "Query", fields: map[string]gqlField{
		"repository": func(args map[string]any) (any, *gqlError) {
			owner, _ := args["owner"].(string)
			name, _ := args["name"].(string)
			r := s.Repos[strings.ToLower(owner+"/"+name)]
			if r == nil {
				return nil, &gqlError{Type: "NOT_FOUND", Message: fmt.Sprintf("Could not resolve to a Repository with the name '%s/%s'.", owner, name)}
			}
			return s.gqlRepo(r, login), nil
		},
		"node": s.gqlNode,
	}}
}

func (s *Server) gqlRepo(r *repo, login string) *gqlObject {
	return &gqlObject{typename: "Repository", interfaces: []string{"Node"}, fields: map[string]gqlField{
		"nameWithOwner":      constant(r.Path),
		"issueOrPullRequest": s.gqlIssueOrPull(r),
		"pullRequest": func(args map[string]any) (any, *gqlError) {
			n, _ := intArg(args, "number")
			it := itemN(r, n)
			if it == nil || it.Pull == nil || it.Moved != nil {
				return nil, &gqlError{Type: "NOT_FOUND", Message: fmt.Sprintf("Could not resolve to a PullRequest with the number of %d.", n)}
			}
			return s.gqlPull(r, it), nil
		},
	}}
}

func (s *Server) gqlPull(r *repo, it *item) *gqlObject {
	p := it.Pull
	return &gqlObject{typename: "PullRequest", interfaces: []string{"Node"}, fields: map[string]gqlField{
		"id":         constant(fmt.Sprintf("PR_kwDO%d", p.ID)),
		"isDraft":    constant(p.Draft),
		"number":     constant(it.Number),
		"headRefOid": constant(r.PullHead(p)),
		"reviews": func(args map[string]any) (any, *gqlError) {
			items := make([]any, 0, len(p.Reviews))
			for _, v := range p.Reviews {
				items = append(items, s.gqlReview(r, it, v))
			}
			return connection("PullRequestReviewConnection", items, args, nil)
		},
		"reviewThreads": func(args map[string]any) (any, *gqlError) {
			items := []any{}
			for _, t := range threads(p) {
				items = append(items, s.gqlThread(r, it, t))
			}
			return connection("PullRequestReviewThreadConnection", items, args, nil)
		},
		"comments": s.gqlComments(r, it),
		"commits": func(args map[string]any) (any, *gqlError) {
			// The fake's pull requests have one commit: the head.
			head := &gqlObject{typename: "PullRequestCommit", interfaces: []string{"Node"}, fields: map[string]gqlField{
				"commit": constant(s.gqlCommit(p, r.PullHead(p))),
			}}
			return connection("PullRequestCommitConnection", []any{head}, args, nil)
		},
	}}
}

func (s *Server) gqlActor(login string) *gqlObject {
	return &gqlObject{typename: "User", interfaces: []string{"Actor", "Node"}, fields: map[string]gqlField{
		"login": constant(login),
		"url":   constant(s.web("/%s", login)),
	}}
}

func (s *Server) gqlReview(r *repo, it *item, v *review) *gqlObject {
	return &gqlObject{typename: "PullRequestReview", interfaces: []string{"Node", "Comment"}, fields: map[string]gqlField{
		"id":     constant(fmt.Sprintf("PRR_kwDO%d", v.ID)),
		"state":  constant(v.State),
		"body":   constant(v.Body),
		"url":    constant(s.web("/%s/pull/%d#pullrequestreview-%d", r.Path, it.Number, v.ID)),
		"author": constant(s.gqlActor(v.Author)),
		"comments": func(args map[string]any) (any, *gqlError) {
			var items []any
			for _, c := range inlines(it.Pull) {
				if c.review == v {
					items = append(items, s.gqlReviewComment(r, it, c))
				}
			}
			return connection("PullRequestReviewCommentConnection", items, args, nil)
		},
	}}
}

func (s *Server) gqlReviewComment(r *repo, it *item, c inline) *gqlObject {
	at := placeOf(r, it, c)
	return &gqlObject{typename: "PullRequestReviewComment", interfaces: []string{"Node", "Comment"}, fields: map[string]gqlField{
		"id":           constant(fmt.Sprintf("PRRC_kwDO%d", c.ID)),
		"databaseId":   constant(c.ID),
		"path":         constant(c.Path),
		"line":         constant(at.line),
		"originalLine": constant(at.original),
		"outdated":     constant(at.outdated),
		"body":         constant(c.Body),
		"url":          constant(s.web("/%s/pull/%d#discussion_r%d", r.Path, it.Number, c.ID)),
		"author":       constant(s.gqlActor(cmp.Or(c.Author, c.review.Author))),
	}}
}

func (s *Server) gqlIssueComment(r *repo, it *item, c *comment) *gqlObject {
	j := s.commentJSON(r, it, c)
	return &gqlObject{typename: "IssueComment", interfaces: []string{"Node", "Comment"}, fields: map[string]gqlField{
		"id":     constant(j.NodeID),
		"body":   constant(c.Body),
		"url":    constant(j.HTMLURL),
		"author": constant(s.gqlActor(c.Author)),
	}}
}

// gqlCommit is a pull request's head commit with its check roll-up: null
// without check runs, as GitHub's is for a commit nothing reported on.
func (s *Server) gqlCommit(p *pull, sha string) *gqlObject {
	var rollup *gqlObject
	if len(p.Checks) > 0 {
		rollup = s.gqlRollup(p.Checks)
	}
	return &gqlObject{typename: "Commit", interfaces: []string{"GitObject", "Node"}, fields: map[string]gqlField{
		"oid":               constant(sha),
		"statusCheckRollup": constant(rollup),
	}}
}

// gqlRollup is the roll-up of check runs: GitHub's state for them and
// its counts by state (a run's state is its conclusion once completed,
// else its status).
func (s *Server) gqlRollup(runs []*checkRun) *gqlObject {
	counts := map[string]int{}
	var order []string
	failed, waiting := false, false
	for _, c := range runs {
		st := strings.ToUpper(c.Status)
		if c.Status == "completed" {
			st = strings.ToUpper(c.Conclusion)
			if c.Conclusion != "success" && c.Conclusion != "neutral" && c.Conclusion != "skipped" {
				failed = true
			}
		} else {
			waiting = true
		}
		if counts[st] == 0 {
			order = append(order, st)
		}
		counts[st]++
	}
	state := "SUCCESS"
	switch {
	case failed:
		state = "FAILURE"
	case waiting:
		state = "PENDING"
	}
	byState := make([]any, 0, len(order))
	for _, st := range order {
		byState = append(byState, &gqlObject{typename: "CheckRunStateCount", fields: map[string]gqlField{
			"state": constant(st), "count": constant(counts[st]),
		}})
	}
	items := make([]any, 0, len(runs))
	for _, c := range runs {
		items = append(items, &gqlObject{typename: "CheckRun", interfaces: []string{"Node"}, fields: map[string]gqlField{
			"name": constant(c.Name), "status": constant(strings.ToUpper(c.Status)),
			"conclusion": constant(nullableUpper(c.Conclusion)),
		}})
	}
	return &gqlObject{typename: "StatusCheckRollup", interfaces: []string{"Node"}, fields: map[string]gqlField{
		"state": constant(state),
		"contexts": func(args map[string]any) (any, *gqlError) {
			return connection("StatusCheckRollupContextConnection", items, args, map[string]gqlField{
				"checkRunCount":              constant(len(runs)),
				"checkRunCountsByState":      constant(byState),
				"statusContextCount":         constant(0),
				"statusContextCountsByState": constant([]any{}),
			})
		},
	}}
}

func nullableUpper(s string) any {
	if s == "" {
		return nil
	}
	return strings.ToUpper(s)
}
