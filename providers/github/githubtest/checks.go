package githubtest

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

// CheckRun is a check run on a pull request's head commit, as GitHub
// Actions or another app reports it.
type CheckRun struct {
	Name string
	// Status is queued, in_progress or completed ("" = completed).
	Status string
	// Conclusion is set once completed: success, failure, neutral,
	// cancelled, skipped, timed_out or action_required ("" = success).
	Conclusion string
}

// AddCheckRuns reports check runs on the head commit of pull request
// number, in the order given (GitHub lists the newest first).
func (s *Server) AddCheckRuns(fullName string, number int, runs ...CheckRun) {
	s.Lock()
	defer s.Unlock()
	it := itemN(s.mustRepo(fullName), number)
	if it == nil || it.Pull == nil {
		panic(fmt.Sprintf("githubtest: no pull request #%d in %s", number, fullName))
	}
	for _, c := range runs {
		c.Status = cmp.Or(c.Status, "completed")
		if c.Status == "completed" {
			c.Conclusion = cmp.Or(c.Conclusion, "success")
		}
		it.Pull.Checks = append(it.Pull.Checks, &checkRun{Name: c.Name, Status: c.Status, Conclusion: c.Conclusion, ID: s.ID(), Started: s.Tick()})
	}
}

// checkRun is a check run as the model holds it.
type checkRun = forgemodel.Check

type checkRunJSON struct {
	ID          int64   `json:"id"`
	HeadSHA     string  `json:"head_sha"`
	NodeID      string  `json:"node_id"`
	ExternalID  string  `json:"external_id"`
	URL         string  `json:"url"`
	HTMLURL     string  `json:"html_url"`
	DetailsURL  string  `json:"details_url"`
	Status      string  `json:"status"`
	Conclusion  *string `json:"conclusion"`
	StartedAt   string  `json:"started_at"`
	CompletedAt *string `json:"completed_at"`
	Name        string  `json:"name"`
	// Required by GitHub's description. The fake models no check suites
	// (null) and no output beyond its annotations link, lists no pull
	// requests on a run, and reports every run as GitHub Actions'.
	CheckSuite   *struct{}   `json:"check_suite"`
	Output       checkOutput `json:"output"`
	App          appJSON     `json:"app"`
	PullRequests []struct{}  `json:"pull_requests"`
}

type checkOutput struct {
	Title            *string `json:"title"`
	Summary          *string `json:"summary"`
	Text             *string `json:"text"`
	AnnotationsCount int     `json:"annotations_count"`
	AnnotationsURL   string  `json:"annotations_url"`
}

// appJSON is the GitHub App that reports a check run (integration).
type appJSON struct {
	ID          int64             `json:"id"`
	Slug        string            `json:"slug"`
	NodeID      string            `json:"node_id"`
	Owner       userJSON          `json:"owner"`
	Name        string            `json:"name"`
	Description string            `json:"description"`
	ExternalURL string            `json:"external_url"`
	HTMLURL     string            `json:"html_url"`
	CreatedAt   string            `json:"created_at"`
	UpdatedAt   string            `json:"updated_at"`
	Permissions map[string]string `json:"permissions"`
	Events      []string          `json:"events"`
}

// actionsApp is GitHub Actions as an app, as its check runs name it.
func (s *Server) actionsApp() appJSON {
	return appJSON{
		ID: 15368, Slug: "github-actions", NodeID: "MDM6QXBwMTUzNjg=", Owner: s.userJSON("github"),
		Name: "GitHub Actions", Description: "Automate your workflow from idea to production",
		ExternalURL: "https://help.github.com/en/actions", HTMLURL: s.web("/apps/github-actions"),
		CreatedAt: "2018-07-30T09:30:17Z", UpdatedAt: "2019-12-10T19:04:12Z",
		Permissions: map[string]string{"checks": "write", "contents": "write", "metadata": "read"},
		Events:      []string{"check_run", "check_suite", "push", "pull_request"},
	}
}

type checkRunsJSON struct {
	TotalCount int   `json:"total_count"`
	CheckRuns  []any `json:"check_runs"`
}

// checkRuns is GET /repos/o/n/commits/SHA/check-runs: the runs on a pull
// request's head commit, paged, with total_count counting them all.
func (s *Server) checkRuns(r *repo, path, sha string, q url.Values) answer {
	var runs []*checkRun
	for _, it := range r.Items {
		if it.Pull != nil && r.PullHead(it.Pull) == sha {
			runs = it.Pull.Checks
		}
	}
	n, per, header := s.pageOf(path, q, len(runs))
	out := checkRunsJSON{TotalCount: len(runs)}
	out.CheckRuns, _ = forgefake.Page(runs, n, per, func(c *checkRun) any { return s.checkRunJSON(r, sha, c) })
	a := jsonAnswer(http.StatusOK, out)
	a.Header = header
	return a
}

// checkRunJSON is one check run on commit sha.
func (s *Server) checkRunJSON(r *repo, sha string, c *checkRun) checkRunJSON {
	j := checkRunJSON{
		ID: c.ID, HeadSHA: sha, NodeID: fmt.Sprintf("CR_kwDO%d", c.ID),
		URL: s.api("/repos/%s/check-runs/%d", r.Path, c.ID), HTMLURL: s.web("/%s/runs/%d", r.Path, c.ID),
		DetailsURL: s.web("/%s/actions/runs/%d/job/%d", r.Path, c.ID, c.ID),
		Status:     c.Status, Name: c.Name, StartedAt: stamp(c.Started),
		Output: checkOutput{AnnotationsURL: s.api("/repos/%s/check-runs/%d/annotations", r.Path, c.ID)},
		App:    s.actionsApp(), PullRequests: []struct{}{},
	}
	if c.Status == "completed" {
		j.Conclusion, j.CompletedAt = nullable(c.Conclusion), nullable(stamp(c.Started.Add(time.Minute)))
	}
	return j
}
