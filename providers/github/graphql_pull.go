package github

import (
	"context"
	"fmt"
	"net/http"

	gh "github.com/google/go-github/v84/github"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/toolserver"
)

// GetPullRequest reads a pull request in two requests however large it is:
// the pull request itself over REST, then its reviews (with their inline
// comments), conversation comments and the head commit's check roll-up in
// one GraphQL query, each at the size the renderer shows, with totals.
//
// The REST read stays because it is conditional: a repeated read of an
// unchanged pull request is a 304, which GitHub does not count against the
// quota (a GraphQL POST cannot be conditional), and REST has what GraphQL
// words differently (mergeable's tri-state, the head sha the roll-up must
// belong to). The query's aggregates change without the pull request's
// ETag changing (a check run finishing), so it is sent every time: a read
// is never answered from a cache. docs/requests.md has the figures.
func (p *Provider) GetPullRequest(ctx context.Context, _ toolserver.Call, req *gatewayv1.GetPullRequestRequest) (*forgev1.PullRequest, error) {
	repo, n, err := parseNumbered(req.GetRepo(), req.GetPullNumber(), "pull request")
	if err != nil {
		return nil, err
	}
	what := fmt.Sprintf("get pull request %s#%d", repo, n)
	return call(ctx, p, what, func(ctx context.Context) (*forgev1.PullRequest, error) {
		pr, _, err := p.author.PullRequests.Get(ctx, repo.owner, repo.name, n)
		if err != nil {
			return nil, err
		}
		var data pullQueryData
		errs, resp, err := p.graphQL(ctx, p.author, what, pullQuery, map[string]any{
			"owner": repo.owner, "name": repo.name, "number": n,
			"reviews": shown.PullReviews, "reviewComments": shown.ReviewComments, "comments": shown.PullComments,
			"threads": maxPerPage, "threadComments": maxPerPage,
		}, &data)
		if err != nil {
			return nil, err
		}
		agg, err := p.pullAggregates(ctx, repo, what, pr, &data, errs, resp)
		if err != nil {
			return nil, err
		}
		out := p.pullRequest(repo, pr)
		out.Reviews, out.ReviewsTotal = agg.reviews, agg.reviewsTotal
		out.Comments, out.CommentsTotal = agg.comments, agg.commentsTotal
		out.ChecksState = agg.checks
		return out, nil
	})
}

// pullQuery is the one GraphQL read of a pull request's aggregates. The
// review threads are read for the side of the diff each inline comment is
// on, which GitHub's GraphQL API keeps on the thread, not the comment, and
// for the thread's id, which forge_reply_to_review_thread takes.
// At most reviews x reviewComments + threads x threadComments + comments
// nodes (600 + 10,000 + 30 at the shown sizes), well under GitHub's
// 500,000-node limit; the roll-up is read as counts by state, so 250 check
// runs cost no more than one.
const pullQuery = `query PullRequestAggregates($owner: String!, $name: String!, $number: Int!, $reviews: Int!, $reviewComments: Int!, $comments: Int!, $threads: Int!, $threadComments: Int!) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviews(first: $reviews) {
        totalCount
        nodes {
          state
          body
          url
          author { login }
          comments(first: $reviewComments) {
            nodes { id path line originalLine body author { login } }
          }
        }
      }
      reviewThreads(first: $threads) {
        nodes {
          id
          diffSide
          comments(first: $threadComments) { nodes { id } }
        }
      }
      comments(first: $comments) {
        totalCount
        nodes { url body author { login } }
      }
      commits(last: 1) {
        nodes {
          commit {
            oid
            statusCheckRollup {
              contexts(first: 1) {
                checkRunCountsByState { state count }
                statusContextCountsByState { state count }
              }
            }
          }
        }
      }
    }
  }
}`

// pullQueryData is pullQuery's answer. Every object GitHub may answer
// null is a pointer, and nodes lists may hold nulls: a hostile or partial
// answer decodes without a panic.
type pullQueryData struct {
	Repository *struct {
		PullRequest *struct {
			Reviews struct {
				TotalCount int
				Nodes      []*struct {
					State, Body, URL string
					Author           *gqlActor
					Comments         struct {
						Nodes []*struct {
							ID, Path           string
							Line, OriginalLine *int
							Body               string
							Author             *gqlActor
						}
					}
				}
			}
			ReviewThreads struct {
				Nodes []*struct {
					ID, DiffSide string
					Comments     struct {
						Nodes []*struct{ ID string }
					}
				}
			}
			Comments struct {
				TotalCount int
				Nodes      []*struct {
					URL, Body string
					Author    *gqlActor
				}
			}
			Commits struct {
				Nodes []*struct{ Commit *headCommit }
			}
		}
	}
}

// headCommit is the pull request's last commit with its check roll-up.
type headCommit struct {
	Oid               string
	StatusCheckRollup *struct {
		Contexts struct {
			CheckRunCountsByState      []stateCount
			StatusContextCountsByState []stateCount
		}
	}
}

type gqlActor struct{ Login string }

// login is the author's login; GraphQL answers null for a deleted
// account, which REST shows as GitHub's "ghost" user.
func (a *gqlActor) login() string {
	if a == nil {
		return "ghost"
	}
	return a.Login
}

type stateCount struct {
	State string
	Count int
}

// pullAggregates is what the query says, as the result's fields.
type pullAggregates struct {
	reviews                     []*forgev1.Review
	comments                    []*forgev1.Comment
	reviewsTotal, commentsTotal uint32
	checks                      string
}

// pullAggregates judges the answer: an error under the head commit (a
// token without the checks or statuses permission) leaves the roll-up
// unknown, as a pull request is still worth reading without it; any other
// error fails the read with its code.
func (p *Provider) pullAggregates(ctx context.Context, repo repoName, what string, pr *gh.PullRequest, d *pullQueryData, errs []gqlError, resp *http.Response) (*pullAggregates, error) {
	var fatal, checkErrs []gqlError
	for _, e := range errs {
		if e.under("repository", "pullRequest", "commits") {
			checkErrs = append(checkErrs, e)
		} else {
			fatal = append(fatal, e)
		}
	}
	if err := p.gqlFailure(what, fatal, resp); err != nil {
		return nil, err
	}
	if d.Repository == nil || d.Repository.PullRequest == nil {
		return nil, toolserver.NotFound("%s: GitHub's GraphQL API has no such pull request (it does not exist, or the credential cannot see it)", what)
	}
	q := d.Repository.PullRequest
	out := &pullAggregates{}

	side, thread := map[string]string{}, map[string]string{}
	for _, t := range q.ReviewThreads.Nodes {
		if t == nil {
			continue
		}
		for _, c := range t.Comments.Nodes {
			if c != nil {
				side[c.ID] = t.DiffSide
				if threadNodeID.MatchString(t.ID) {
					thread[c.ID] = t.ID
				}
			}
		}
	}
	shownReviews := q.Reviews.Nodes[:min(len(q.Reviews.Nodes), shown.PullReviews)]
	for _, r := range shownReviews {
		if r == nil || r.State == "PENDING" {
			// A pending review is a draft only its author sees.
			continue
		}
		v := &forgev1.Review{Author: r.Author.login(), Verdict: verdict(r.State), Url: r.URL, Body: r.Body}
		for _, c := range r.Comments.Nodes[:min(len(r.Comments.Nodes), shown.ReviewComments)] {
			if c == nil {
				continue
			}
			line := c.Line
			if line == nil {
				// An outdated comment no longer maps onto the diff; its
				// original line is where it was written.
				line = c.OriginalLine
			}
			rc := &forgev1.ReviewComment{Path: c.Path, Side: side[c.ID], Author: c.Author.login(), Body: c.Body, ThreadId: thread[c.ID]}
			if line != nil {
				rc.Line = uint64(max(*line, 0))
			}
			v.Comments = append(v.Comments, rc)
		}
		out.reviews = append(out.reviews, v)
	}
	out.reviewsTotal = shown.Total(len(shownReviews), q.Reviews.TotalCount, len(q.Reviews.Nodes))

	shownComments := q.Comments.Nodes[:min(len(q.Comments.Nodes), shown.PullComments)]
	out.comments = make([]*forgev1.Comment, 0, len(shownComments))
	for _, c := range shownComments {
		if c != nil {
			out.comments = append(out.comments, &forgev1.Comment{Author: c.Author.login(), Url: c.URL, Body: c.Body})
		}
	}
	out.commentsTotal = shown.Total(len(shownComments), q.Comments.TotalCount, len(q.Comments.Nodes))

	var head *headCommit
	if n := len(q.Commits.Nodes); n > 0 && q.Commits.Nodes[n-1] != nil {
		head = q.Commits.Nodes[n-1].Commit
	}
	out.checks = p.rollup(ctx, repo, pr.GetHead().GetSHA(), head, checkErrs, resp)
	return out, nil
}

// rollup is the head commit's checks state from the query's counts, or ""
// when it cannot be had: the query failed under the commit, or its head is
// not the one the REST read named (a push landed between the two reads).
func (p *Provider) rollup(ctx context.Context, repo repoName, sha string, head *headCommit, errs []gqlError, resp *http.Response) string {
	if len(errs) > 0 {
		p.log.DebugContext(ctx, "github: no check roll-up for pull request head", "host", p.host, "repo", repo.String(),
			"code", p.mapError("checks", p.gqlFailure("checks", errs, resp)).Code.String())
		return ""
	}
	if head == nil {
		return ""
	}
	if head.Oid != sha {
		p.log.DebugContext(ctx, "github: the pull request's head moved between its reads", "host", p.host, "repo", repo.String())
		return ""
	}
	if head.StatusCheckRollup == nil {
		return "" // nothing reported on the commit
	}
	ctxs := head.StatusCheckRollup.Contexts
	return countedChecks(ctxs.StatusContextCountsByState, ctxs.CheckRunCountsByState).state()
}

// countedChecks rolls counts by state up as statusChecks and runChecks do
// the REST lists: a status that is error or failure, or a run that
// completed with anything but success, neutral or skipped, failed; a
// pending or expected status, or a run not completed, is waiting.
func countedChecks(statuses, runs []stateCount) checks {
	var c checks
	for _, s := range statuses {
		if s.Count <= 0 {
			continue
		}
		c.Seen = true
		switch s.State {
		case "SUCCESS":
		case "PENDING", "EXPECTED":
			c.Waiting = true
		default: // ERROR, FAILURE
			c.Failed = true
		}
	}
	for _, r := range runs {
		if r.Count <= 0 {
			continue
		}
		c.Seen = true
		switch r.State {
		case "SUCCESS", "NEUTRAL", "SKIPPED":
		case "QUEUED", "IN_PROGRESS", "PENDING", "WAITING", "REQUESTED":
			c.Waiting = true
		default: // FAILURE, CANCELLED, TIMED_OUT, ACTION_REQUIRED, STALE, STARTUP_FAILURE, COMPLETED
			c.Failed = true
		}
	}
	return c
}
