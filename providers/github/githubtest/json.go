package githubtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The JSON shapes the fake answers with: members named and typed as in
// GitHub's documented examples under testdata/ (TestShapesMatchFixtures
// holds them to that), with every URL pointing at the fake's API or web
// host. Members forgetools never reads and that carry no state (reactions,
// avatar URLs of every kind) are left out.

type userJSON struct {
	Login      string `json:"login"`
	ID         int64  `json:"id"`
	NodeID     string `json:"node_id"`
	AvatarURL  string `json:"avatar_url"`
	GravatarID string `json:"gravatar_id"`
	URL        string `json:"url"`
	HTMLURL    string `json:"html_url"`
	Type       string `json:"type"`
	SiteAdmin  bool   `json:"site_admin"`
}

type labelJSON struct {
	ID          int64   `json:"id"`
	NodeID      string  `json:"node_id"`
	URL         string  `json:"url"`
	Name        string  `json:"name"`
	Color       string  `json:"color"`
	Default     bool    `json:"default"`
	Description *string `json:"description"`
}

type issueJSON struct {
	URL               string         `json:"url"`
	RepositoryURL     string         `json:"repository_url"`
	CommentsURL       string         `json:"comments_url"`
	HTMLURL           string         `json:"html_url"`
	ID                int64          `json:"id"`
	NodeID            string         `json:"node_id"`
	Number            int            `json:"number"`
	Title             string         `json:"title"`
	User              userJSON       `json:"user"`
	Labels            []labelJSON    `json:"labels"`
	State             string         `json:"state"`
	Locked            bool           `json:"locked"`
	Assignee          *userJSON      `json:"assignee"`
	Assignees         []userJSON     `json:"assignees"`
	Comments          int            `json:"comments"`
	CreatedAt         string         `json:"created_at"`
	UpdatedAt         string         `json:"updated_at"`
	ClosedAt          *string        `json:"closed_at"`
	AuthorAssociation string         `json:"author_association"`
	Body              *string        `json:"body"`
	PullRequest       *issuePullJSON `json:"pull_request,omitempty"`
}

// issuePullJSON is the member that marks an issues-endpoint item as a pull
// request.
type issuePullJSON struct {
	URL      string  `json:"url"`
	HTMLURL  string  `json:"html_url"`
	DiffURL  string  `json:"diff_url"`
	PatchURL string  `json:"patch_url"`
	MergedAt *string `json:"merged_at"`
}

type commentJSON struct {
	URL               string   `json:"url"`
	HTMLURL           string   `json:"html_url"`
	IssueURL          string   `json:"issue_url"`
	ID                int64    `json:"id"`
	NodeID            string   `json:"node_id"`
	User              userJSON `json:"user"`
	CreatedAt         string   `json:"created_at"`
	UpdatedAt         string   `json:"updated_at"`
	AuthorAssociation string   `json:"author_association"`
	Body              string   `json:"body"`
}

type repoJSON struct {
	ID            int64    `json:"id"`
	NodeID        string   `json:"node_id"`
	Name          string   `json:"name"`
	FullName      string   `json:"full_name"`
	Owner         userJSON `json:"owner"`
	Private       bool     `json:"private"`
	HTMLURL       string   `json:"html_url"`
	URL           string   `json:"url"`
	DefaultBranch string   `json:"default_branch,omitempty"` // not in a status's repository
}

type branchJSON struct {
	Label string   `json:"label"`
	Ref   string   `json:"ref"`
	SHA   string   `json:"sha"`
	User  userJSON `json:"user"`
	Repo  repoJSON `json:"repo"`
}

type pullJSON struct {
	URL               string      `json:"url"`
	ID                int64       `json:"id"`
	NodeID            string      `json:"node_id"`
	HTMLURL           string      `json:"html_url"`
	DiffURL           string      `json:"diff_url"`
	PatchURL          string      `json:"patch_url"`
	IssueURL          string      `json:"issue_url"`
	Number            int         `json:"number"`
	State             string      `json:"state"`
	Locked            bool        `json:"locked"`
	Title             string      `json:"title"`
	User              userJSON    `json:"user"`
	Body              *string     `json:"body"`
	Labels            []labelJSON `json:"labels"`
	CreatedAt         string      `json:"created_at"`
	UpdatedAt         string      `json:"updated_at"`
	ClosedAt          *string     `json:"closed_at"`
	MergedAt          *string     `json:"merged_at"`
	Head              branchJSON  `json:"head"`
	Base              branchJSON  `json:"base"`
	AuthorAssociation string      `json:"author_association"`
	Draft             bool        `json:"draft"`
	Merged            bool        `json:"merged"`
	Comments          int         `json:"comments"`
	ReviewComments    int         `json:"review_comments"`
}

type reviewJSON struct {
	ID                int64    `json:"id"`
	NodeID            string   `json:"node_id"`
	User              userJSON `json:"user"`
	Body              string   `json:"body"`
	State             string   `json:"state"`
	HTMLURL           string   `json:"html_url"`
	PullRequestURL    string   `json:"pull_request_url"`
	AuthorAssociation string   `json:"author_association"`
	CommitID          string   `json:"commit_id"`
	SubmittedAt       *string  `json:"submitted_at,omitempty"`
}

type reviewCommentJSON struct {
	URL                 string   `json:"url"`
	PullRequestReviewID int64    `json:"pull_request_review_id"`
	ID                  int64    `json:"id"`
	NodeID              string   `json:"node_id"`
	Path                string   `json:"path"`
	CommitID            string   `json:"commit_id"`
	User                userJSON `json:"user"`
	Body                string   `json:"body"`
	CreatedAt           string   `json:"created_at"`
	UpdatedAt           string   `json:"updated_at"`
	HTMLURL             string   `json:"html_url"`
	PullRequestURL      string   `json:"pull_request_url"`
	AuthorAssociation   string   `json:"author_association"`
	Line                int      `json:"line"`
	OriginalLine        int      `json:"original_line"`
	Side                string   `json:"side"`
	SubjectType         string   `json:"subject_type"`
}

type combinedStatusJSON struct {
	State      string   `json:"state"`
	Statuses   []any    `json:"statuses"`
	SHA        string   `json:"sha"`
	TotalCount int      `json:"total_count"`
	Repository repoJSON `json:"repository"`
	CommitURL  string   `json:"commit_url"`
	URL        string   `json:"url"`
}

type checkRunsJSON struct {
	TotalCount int   `json:"total_count"`
	CheckRuns  []any `json:"check_runs"`
}

type checkRunJSON struct {
	ID           int64   `json:"id"`
	HeadSHA      string  `json:"head_sha"`
	NodeID       string  `json:"node_id"`
	ExternalID   string  `json:"external_id"`
	URL          string  `json:"url"`
	HTMLURL      string  `json:"html_url"`
	DetailsURL   string  `json:"details_url"`
	Status       string  `json:"status"`
	Conclusion   *string `json:"conclusion"`
	StartedAt    string  `json:"started_at"`
	CompletedAt  *string `json:"completed_at"`
	Name         string  `json:"name"`
	PullRequests []any   `json:"pull_requests"`
}

// errorJSON is GitHub's error body.
type errorJSON struct {
	Message          string `json:"message"`
	Errors           any    `json:"errors,omitempty"`
	DocumentationURL string `json:"documentation_url"`
	Status           string `json:"status"`
}

// fieldError is one entry of a 422's errors[].
type fieldError struct {
	Resource string `json:"resource"`
	Field    string `json:"field,omitempty"`
	Code     string `json:"code"`
	Message  string `json:"message,omitempty"`
}

func errorAnswer(status int, message, doc string, errs any) answer {
	return jsonAnswer(status, errorJSON{Message: message, Errors: errs, DocumentationURL: doc, Status: strconv.Itoa(status)})
}

// Encoding: GitHub's JSON is not HTML-escaped ("<" stays "<").
func newEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func (s *Server) api(format string, args ...any) string {
	return s.URL + s.prefix + fmt.Sprintf(format, args...)
}

func (s *Server) web(format string, args ...any) string {
	return "https://" + s.host + fmt.Sprintf(format, args...)
}

func (s *Server) userJSON(login string) userJSON {
	id := s.user(login)
	return userJSON{
		Login: login, ID: id, NodeID: fmt.Sprintf("MDQ6VXNlcj%d", id),
		AvatarURL: fmt.Sprintf("https://avatars.githubusercontent.com/u/%d?v=4", id),
		URL:       s.api("/users/%s", login), HTMLURL: s.web("/%s", login), Type: "User",
	}
}

func (s *Server) labelsJSON(r *repo, names []string) []labelJSON {
	out := []labelJSON{}
	for _, n := range names {
		var id int64
		for _, c := range n {
			id = id*31 + int64(c)
		}
		id = 200000000 + id%100000000
		out = append(out, labelJSON{
			ID: id, NodeID: fmt.Sprintf("LA_kwDO%d", id), URL: s.api("/repos/%s/labels/%s", r.fullName(), n),
			Name: n, Color: "ededed",
		})
	}
	return out
}

func (s *Server) repoJSON(r *repo) repoJSON {
	return repoJSON{
		ID: r.id, NodeID: fmt.Sprintf("R_kgDO%d", r.id), Name: r.name, FullName: r.fullName(),
		Owner: s.userJSON(r.owner), HTMLURL: s.web("/%s", r.fullName()), URL: s.api("/repos/%s", r.fullName()),
		DefaultBranch: r.defaultBranch,
	}
}

// minimalRepoJSON is the repository as a commit status embeds it.
func (s *Server) minimalRepoJSON(r *repo) repoJSON {
	out := s.repoJSON(r)
	out.DefaultBranch = ""
	return out
}

func (s *Server) issueJSON(r *repo, it *item) issueJSON {
	base := s.api("/repos/%s/issues/%d", r.fullName(), it.number)
	out := issueJSON{
		URL: base, RepositoryURL: s.api("/repos/%s", r.fullName()), CommentsURL: base + "/comments",
		HTMLURL: s.web("/%s/issues/%d", r.fullName(), it.number),
		ID:      it.id, NodeID: fmt.Sprintf("I_kwDO%d", it.id), Number: it.number, Title: it.title,
		User: s.userJSON(it.author), Labels: s.labelsJSON(r, it.labels), State: it.state,
		Assignees: []userJSON{}, Comments: len(it.comments),
		CreatedAt: stamp(it.created), UpdatedAt: stamp(it.updated), ClosedAt: closedAt(it),
		AuthorAssociation: "OWNER", Body: nullable(it.body),
	}
	if it.pull != nil {
		out.HTMLURL = s.web("/%s/pull/%d", r.fullName(), it.number)
		out.PullRequest = &issuePullJSON{
			URL: s.api("/repos/%s/pulls/%d", r.fullName(), it.number), HTMLURL: out.HTMLURL,
			DiffURL: out.HTMLURL + ".diff", PatchURL: out.HTMLURL + ".patch", MergedAt: mergedAt(it),
		}
	}
	return out
}

func (s *Server) commentJSON(r *repo, it *item, c *comment) commentJSON {
	kind := "issues"
	if it.pull != nil {
		kind = "pull"
	}
	return commentJSON{
		URL:      s.api("/repos/%s/issues/comments/%d", r.fullName(), c.id),
		HTMLURL:  s.web("/%s/%s/%d#issuecomment-%d", r.fullName(), kind, it.number, c.id),
		IssueURL: s.api("/repos/%s/issues/%d", r.fullName(), it.number),
		ID:       c.id, NodeID: fmt.Sprintf("IC_kwDO%d", c.id), User: s.userJSON(c.author),
		CreatedAt: stamp(c.created), UpdatedAt: stamp(c.created), AuthorAssociation: "CONTRIBUTOR", Body: c.body,
	}
}

func (s *Server) pullJSON(r *repo, it *item) pullJSON {
	p := it.pull
	html := s.web("/%s/pull/%d", r.fullName(), it.number)
	branch := func(ref, sha string) branchJSON {
		return branchJSON{Label: r.owner + ":" + ref, Ref: ref, SHA: sha, User: s.userJSON(r.owner), Repo: s.repoJSON(r)}
	}
	return pullJSON{
		URL: s.api("/repos/%s/pulls/%d", r.fullName(), it.number), ID: p.id, NodeID: fmt.Sprintf("PR_kwDO%d", p.id),
		HTMLURL: html, DiffURL: html + ".diff", PatchURL: html + ".patch",
		IssueURL: s.api("/repos/%s/issues/%d", r.fullName(), it.number),
		Number:   it.number, State: it.state, Title: it.title, User: s.userJSON(it.author), Body: nullable(it.body),
		Labels: s.labelsJSON(r, it.labels), CreatedAt: stamp(it.created), UpdatedAt: stamp(it.updated),
		ClosedAt: closedAt(it), MergedAt: mergedAt(it),
		Head: branch(p.head, p.headSHA), Base: branch(p.base, strings.Repeat("b", 40)),
		AuthorAssociation: "OWNER", Draft: p.draft, Merged: p.merged,
		Comments: len(it.comments), ReviewComments: len(p.inline),
	}
}

func (s *Server) reviewJSON(r *repo, it *item, v *review) reviewJSON {
	out := reviewJSON{
		ID: v.id, NodeID: fmt.Sprintf("PRR_kwDO%d", v.id), User: s.userJSON(v.author), Body: v.body, State: v.state,
		HTMLURL:           s.web("/%s/pull/%d#pullrequestreview-%d", r.fullName(), it.number, v.id),
		PullRequestURL:    s.api("/repos/%s/pulls/%d", r.fullName(), it.number),
		AuthorAssociation: "COLLABORATOR", CommitID: it.pull.headSHA,
	}
	if v.state != "PENDING" {
		out.SubmittedAt = nullable(stamp(v.created))
	}
	return out
}

func (s *Server) reviewCommentJSON(r *repo, it *item, c *reviewComment) reviewCommentJSON {
	return reviewCommentJSON{
		URL: s.api("/repos/%s/pulls/comments/%d", r.fullName(), c.id), PullRequestReviewID: c.reviewID,
		ID: c.id, NodeID: fmt.Sprintf("PRRC_kwDO%d", c.id), Path: c.path, CommitID: it.pull.headSHA,
		User: s.userJSON(c.author), Body: c.body, CreatedAt: stamp(c.created), UpdatedAt: stamp(c.created),
		HTMLURL:        s.web("/%s/pull/%d#discussion_r%d", r.fullName(), it.number, c.id),
		PullRequestURL: s.api("/repos/%s/pulls/%d", r.fullName(), it.number), AuthorAssociation: "COLLABORATOR",
		Line: c.line, OriginalLine: c.line, Side: c.side, SubjectType: "line",
	}
}

func (s *Server) checkRunJSON(r *repo, sha string, c *checkRun) checkRunJSON {
	out := checkRunJSON{
		ID: c.id, HeadSHA: sha, NodeID: fmt.Sprintf("CR_kwDO%d", c.id),
		URL:     s.api("/repos/%s/check-runs/%d", r.fullName(), c.id),
		HTMLURL: s.web("/%s/runs/%d", r.fullName(), c.id), DetailsURL: s.web("/%s/actions/runs/%d/job/%d", r.fullName(), c.id, c.id),
		Status: c.status, StartedAt: stamp(c.started), Name: c.name, PullRequests: []any{},
	}
	if c.status == "completed" {
		out.Conclusion, out.CompletedAt = nullable(c.conclusion), nullable(stamp(c.started))
	}
	return out
}

func closedAt(it *item) *string {
	if it.state != "closed" {
		return nil
	}
	return nullable(stamp(it.closed))
}

func mergedAt(it *item) *string {
	if it.pull == nil || !it.pull.merged {
		return nil
	}
	return nullable(stamp(it.closed))
}

// nullable is s, or JSON null for "" (GitHub's empty body).
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// writeHeaders copies h into w.
func writeHeaders(w http.Header, h http.Header) {
	for k, vs := range h {
		w[k] = vs
	}
}
