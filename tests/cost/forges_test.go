package cost_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/providers/gitea"
	"github.com/forgetools/forgetools/providers/gitea/giteatest"
	"github.com/forgetools/forgetools/providers/github"
	"github.com/forgetools/forgetools/providers/github/githubtest"
	"github.com/forgetools/forgetools/providers/gitlab"
	"github.com/forgetools/forgetools/providers/gitlab/gitlabtest"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/providers/linear"
	"github.com/forgetools/forgetools/providers/linear/lineartest"
	"github.com/forgetools/forgetools/toolserver"
)

// The forges' fakes, seeded with one small and one large artifact of
// each kind, and a provider on each.

const (
	ghToken, ghReviewer = "ghp_Q7vK2mX9pL4wR8tZ3nB6yH1cF5dJ0sA2gE7u", "ghp_W3kP8xN1qV6zT4bM9rL2yC7hG5fD0sJ3aE8o"
	glToken, glReviewer = "glpat-hGAkWvj7FAc9QeWJKY40uvSwMFLZDe1f8r", "glpat-ESQedUStPKR0CsTy4Qwb8DwkNhFdnXsiVp"
	gtToken, gtReviewer = "gitea_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL", "gitea_8dKLzdocJ2isAjIhKtJ0RlgLKOmxgJTeKd"
	linearKey           = "lin_api_P9xZ4qT1wK7mR3vB8nL6cY2hF5dJ0gS4aE9u"
)

// The large artifact's sizes (issue 23).
const (
	largeComments = 300
	largeReviews  = 120
	largeChecks   = 250
)

var call = toolserver.Call{Account: "a", Session: "s"}

// forge is one fake and its provider. counts is how many requests the
// fake received and how many it answered 304; vars fill the arms' JSON
// ({repo}, {issue}, {pull}, {run}, {workflow}, {sha}: the pull
// request's head) for a size.
type forge struct {
	name     string
	provider any
	counts   func() (requests, notModified int)
	vars     map[string]map[string]string // size -> name -> value
	// seeding is how the large artifact was made, for the table.
	seeding string
}

func newGitHub(t *testing.T) *forge {
	srv := githubtest.New(githubtest.Options{})
	t.Cleanup(srv.Close)
	srv.AddToken(ghToken, "forgetools-bot")
	srv.AddToken(ghReviewer, "forgetools-reviewer")
	const repo = "octocat/Hello-World"
	srv.AddRepo(repo, "main", "feature-small", "feature-large")
	wf := ".github/workflows/ci.yml"
	srv.AddWorkflow(repo, githubtest.Workflow{Path: wf, Name: "CI", Dispatch: true})
	vars := perSize(func(size, branch string) map[string]string {
		// A run each: a re-run leaves its run in progress.
		run := srv.AddRun(repo, githubtest.Run{Workflow: wf, Conclusion: "failure", Jobs: []githubtest.Job{{Name: "test", Conclusion: "failure", Log: "FAIL\n"}}})
		issue := srv.AddIssue(repo, githubtest.Issue{Title: size + " issue", Body: "b"})
		pull := srv.AddPull(repo, githubtest.Pull{Title: size + " pull", Body: "b", Head: branch})
		if size == "large" {
			for i := range largeComments {
				srv.Comment(repo, issue, "someone", fmt.Sprint("comment ", i))
				srv.Comment(repo, pull, "someone", fmt.Sprint("comment ", i))
			}
			for i := range largeReviews {
				srv.Review(repo, pull, "reviewer", "COMMENTED", fmt.Sprint("review ", i))
			}
			runs := make([]githubtest.CheckRun, largeChecks)
			for i := range runs {
				runs[i] = githubtest.CheckRun{Name: fmt.Sprint("job ", i)}
			}
			srv.AddCheckRuns(repo, pull, runs...)
		}
		return map[string]string{"repo": repo, "issue": strconv.Itoa(issue), "pull": strconv.Itoa(pull),
			"run": strconv.FormatInt(run, 10), "workflow": "ci.yml", "sha": srv.Head(repo, branch)}
	})
	p, err := github.New(github.Options{Options: kit.Options{APIURL: srv.APIURL(), Token: ghToken, ReviewerToken: ghReviewer}})
	if err != nil {
		t.Fatal(err)
	}
	return &forge{name: "GitHub", provider: p, vars: vars,
		counts:  func() (int, int) { return len(srv.Requests()), srv.Statuses()[304] },
		seeding: fmt.Sprintf("%d comments on the issue and on the pull request, %d reviews, %d check runs (the fake's seeding)", largeComments, largeReviews, largeChecks)}
}

func newGitLab(t *testing.T) *forge {
	srv := gitlabtest.New(gitlabtest.Options{})
	t.Cleanup(srv.Close)
	srv.AddToken(glToken, "forgetools-bot")
	srv.AddToken(glReviewer, "forgetools-reviewer")
	const repo = "platform/infra/deploy"
	srv.AddProject(repo, "main", map[string]string{"README.md": "# deploy\n", "charts/app/values.yaml": "replicas: 2\n"}, "feature-small", "feature-large")
	run := srv.AddPipeline(repo, gitlabtest.Pipeline{Ref: "main", Status: "failed", Jobs: []gitlabtest.Job{{Name: "deploy", Status: "failed", Trace: "Error\n"}}})
	p, err := gitlab.New(gitlab.Options{Options: kit.Options{Host: srv.Host(), APIURL: srv.APIURL(), Token: glToken, ReviewerToken: glReviewer}})
	if err != nil {
		t.Fatal(err)
	}
	vars := perSize(func(size, branch string) map[string]string {
		issue := srv.AddIssue(repo, gitlabtest.Issue{Title: size + " issue", Description: "b"})
		pull := srv.AddMergeRequest(repo, gitlabtest.MergeRequest{Title: size + " pull", Source: branch, Pipeline: "success"})
		if size == "large" {
			comment(t, p, repo, uint64(issue), uint64(pull), 0)
		}
		return map[string]string{"repo": repo, "issue": fmt.Sprint(issue), "pull": fmt.Sprint(pull),
			"run": fmt.Sprint(run), "workflow": "main", "sha": srv.Head(repo, branch)}
	})
	return &forge{name: "GitLab", provider: p, vars: vars,
		counts:  func() (int, int) { return len(srv.Requests()), srv.Statuses()[304] },
		seeding: fmt.Sprintf("%d comments on the issue and on the merge request, through the provider (the fake seeds no notes)", largeComments)}
}

func newGitea(t *testing.T) *forge {
	srv := giteatest.New(giteatest.Options{})
	t.Cleanup(srv.Close)
	srv.AddToken(gtToken, "forgetools-bot")
	srv.AddToken(gtReviewer, "forgetools-reviewer")
	const repo = "acme/gadgets"
	srv.AddRepo(repo, "main", map[string]string{"README.md": "# gadgets\n", "src/gadget.go": "package gadget\n", ".gitea/workflows/ci.yml": "on: [push]\n"}, "feature-small", "feature-large")
	srv.AddLabel(repo, "bug")
	run := srv.AddRun(repo, giteatest.Run{Workflow: "ci.yml", Branch: "main", Status: "completed", Conclusion: "failure",
		Jobs: []giteatest.Job{{Name: "test", Conclusion: "failure", Log: "FAIL\n"}}})
	p, err := gitea.New(gitea.Options{Options: kit.Options{Host: srv.Host(), APIURL: srv.APIURL(), Token: gtToken, ReviewerToken: gtReviewer}})
	if err != nil {
		t.Fatal(err)
	}
	vars := perSize(func(size, branch string) map[string]string {
		issue := srv.AddIssue(repo, giteatest.Issue{Title: size + " issue", Body: "b"})
		pull := srv.AddPull(repo, giteatest.Pull{Title: size + " pull", Head: branch, Status: "success"})
		if size == "large" {
			comment(t, p, repo, uint64(issue), uint64(pull), largeReviews)
		}
		return map[string]string{"repo": repo, "issue": fmt.Sprint(issue), "pull": fmt.Sprint(pull),
			"run": fmt.Sprint(run), "workflow": "ci.yml", "sha": srv.Head(repo, branch)}
	})
	return &forge{name: "Gitea", provider: p, vars: vars,
		counts: func() (int, int) { return len(srv.Requests()), srv.Statuses()[304] },
		seeding: fmt.Sprintf("%d comments on the issue and on the pull request and %d reviews, through the provider (the fake seeds none)",
			largeComments, largeReviews)}
}

func newLinear(t *testing.T) *forge {
	srv := lineartest.New(lineartest.Options{})
	t.Cleanup(srv.Close)
	srv.AddKey(linearKey, lineartest.User{Name: "bot", DisplayName: "bot"})
	srv.AddTeam("ENG", "Engineering")
	p, err := linear.New(linear.Options{Options: kit.Options{APIURL: srv.APIURL(), Token: linearKey}})
	if err != nil {
		t.Fatal(err)
	}
	vars := perSize(func(size, branch string) map[string]string {
		id := srv.AddIssue("ENG", lineartest.Issue{Title: size + " issue"})
		n, _ := strconv.ParseUint(strings.TrimPrefix(id, "ENG-"), 10, 64)
		if size == "large" {
			comment(t, p, "ENG", n, 0, 0)
		}
		return map[string]string{"repo": "ENG", "issue": fmt.Sprint(n), "pull": "1", "run": "1", "workflow": "ci", "sha": ""}
	})
	return &forge{name: "Linear", provider: p, vars: vars,
		counts:  func() (int, int) { return len(srv.Requests()), 0 },
		seeding: fmt.Sprintf("%d comments on the issue, through the provider", largeComments)}
}

// perSize is each size's arm variables, as fill seeds them; branch is
// the size's pull request head.
func perSize(fill func(size, branch string) map[string]string) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, size := range sizes {
		out[size] = fill(size, "feature-"+size)
	}
	return out
}

// comment makes the large artifact through the provider's own write arms
// where a fake seeds no comments: largeComments on the issue and on pull
// (0 = none), and reviews reviews on pull.
func comment(t *testing.T, p any, repo string, issue, pull uint64, reviews int) {
	t.Helper()
	for i := range largeComments {
		mustServe(t, p, "comment_on_issue", fmt.Sprintf(`{"repo":%q,"issue_number":%d,"body":"comment %d"}`, repo, issue, i))
		if pull != 0 {
			mustServe(t, p, "comment_on_pull_request", fmt.Sprintf(`{"repo":%q,"pull_number":%d,"body":"comment %d"}`, repo, pull, i))
		}
	}
	for i := range reviews {
		mustServe(t, p, "submit_review", fmt.Sprintf(`{"repo":%q,"pull_number":%d,"verdict":"VERDICT_COMMENT","body":"review %d"}`, repo, pull, i))
	}
}
