package githubtest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
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
	Number            int64          `json:"number"`
	Title             string         `json:"title"`
	User              userJSON       `json:"user"`
	Labels            []labelJSON    `json:"labels"`
	State             string         `json:"state"`
	Locked            bool           `json:"locked"`
	Assignee          *userJSON      `json:"assignee"`
	Assignees         []userJSON     `json:"assignees"`
	Milestone         *milestoneJSON `json:"milestone"`
	Comments          int            `json:"comments"`
	CreatedAt         string         `json:"created_at"`
	UpdatedAt         string         `json:"updated_at"`
	ClosedAt          *string        `json:"closed_at"`
	AuthorAssociation string         `json:"author_association"`
	Body              *string        `json:"body"`
	StateReason       *string        `json:"state_reason"`
	PullRequest       *issuePullJSON `json:"pull_request,omitempty"`
}

type milestoneJSON struct {
	URL          string   `json:"url"`
	HTMLURL      string   `json:"html_url"`
	LabelsURL    string   `json:"labels_url"`
	ID           int64    `json:"id"`
	NodeID       string   `json:"node_id"`
	Number       int64    `json:"number"`
	State        string   `json:"state"`
	Title        string   `json:"title"`
	Description  *string  `json:"description"`
	Creator      userJSON `json:"creator"`
	OpenIssues   int      `json:"open_issues"`
	ClosedIssues int      `json:"closed_issues"`
	CreatedAt    string   `json:"created_at"`
	UpdatedAt    string   `json:"updated_at"`
	ClosedAt     *string  `json:"closed_at"`
	DueOn        *string  `json:"due_on"`
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
	Description   *string  `json:"description"`
	Fork          bool     `json:"fork"` // the fake has no forks
	URL           string   `json:"url"`
	DefaultBranch string   `json:"default_branch,omitempty"` // not in a status's repository
}

// fullRepoJSON is the repository as GET /repos/o/n answers it, with the
// calling credential's permissions.
type fullRepoJSON struct {
	richRepoJSON
	Visibility  string          `json:"visibility"`
	Permissions permissionsJSON `json:"permissions"`
}

// richRepoJSON is a repository as GitHub's description requires it of a
// pull request's head and base, /user/repos and GET /repos/o/n: with its
// counts and settings.
type richRepoJSON struct {
	repoJSON
	repoStatsJSON
}

// repoStatsJSON are the members a repository object carries besides its
// names. The fake models open issues and archiving; it has no forks,
// stars, watchers, pages, license or language, and every feature on.
type repoStatsJSON struct {
	Archived         bool      `json:"archived"`
	Disabled         bool      `json:"disabled"`
	OpenIssuesCount  int       `json:"open_issues_count"`
	OpenIssues       int       `json:"open_issues"`
	Forks            int       `json:"forks"`
	ForksCount       int       `json:"forks_count"`
	StargazersCount  int       `json:"stargazers_count"`
	Watchers         int       `json:"watchers"`
	WatchersCount    int       `json:"watchers_count"`
	NetworkCount     int       `json:"network_count"`
	SubscribersCount int       `json:"subscribers_count"`
	Size             int       `json:"size"`
	HasIssues        bool      `json:"has_issues"`
	HasProjects      bool      `json:"has_projects"`
	HasWiki          bool      `json:"has_wiki"`
	HasPages         bool      `json:"has_pages"`
	HasDownloads     bool      `json:"has_downloads"`
	HasDiscussions   bool      `json:"has_discussions"`
	Homepage         *string   `json:"homepage"`
	Language         *string   `json:"language"`
	License          *struct{} `json:"license"`
	PushedAt         string    `json:"pushed_at"`
	CreatedAt        string    `json:"created_at"`
	UpdatedAt        string    `json:"updated_at"`
}

type permissionsJSON struct {
	Admin    bool `json:"admin"`
	Maintain bool `json:"maintain"`
	Push     bool `json:"push"`
	Triage   bool `json:"triage"`
	Pull     bool `json:"pull"`
}

type branchJSON struct {
	Label string       `json:"label"`
	Ref   string       `json:"ref"`
	SHA   string       `json:"sha"`
	User  userJSON     `json:"user"`
	Repo  richRepoJSON `json:"repo"`
}

// pullListJSON is a pull request as the list endpoint has it; pullJSON
// adds what only the single read carries (merge state, counts).
type pullListJSON struct {
	URL               string      `json:"url"`
	ID                int64       `json:"id"`
	NodeID            string      `json:"node_id"`
	HTMLURL           string      `json:"html_url"`
	DiffURL           string      `json:"diff_url"`
	PatchURL          string      `json:"patch_url"`
	IssueURL          string      `json:"issue_url"`
	Number            int64       `json:"number"`
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
	MergeCommitSHA    *string     `json:"merge_commit_sha"`
	Head              branchJSON  `json:"head"`
	Base              branchJSON  `json:"base"`
	AuthorAssociation string      `json:"author_association"`
	Draft             bool        `json:"draft"`
	// Required by GitHub's description; the fake assigns no one to a pull
	// request and models no auto-merge.
	Assignee  *userJSON      `json:"assignee"`
	Milestone *milestoneJSON `json:"milestone"`
	AutoMerge *struct{}      `json:"auto_merge"`
}

type pullJSON struct {
	pullListJSON
	Merged         bool   `json:"merged"`
	Mergeable      *bool  `json:"mergeable"`
	MergeableState string `json:"mergeable_state"`
	Comments       int    `json:"comments"`
	ReviewComments int    `json:"review_comments"`
	// Counted from the pull request's patches; one commit per pull
	// request (the fake does not count the head's commits); the fake has
	// no forks, so no maintainer edits.
	MergedBy            *userJSON `json:"merged_by"`
	Commits             int       `json:"commits"`
	Additions           int       `json:"additions"`
	Deletions           int       `json:"deletions"`
	ChangedFiles        int       `json:"changed_files"`
	MaintainerCanModify bool      `json:"maintainer_can_modify"`
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
	DiffHunk            string   `json:"diff_hunk"` // the file's whole patch, not only the hunk up to the line
	CommitID            string   `json:"commit_id"`
	OriginalCommitID    string   `json:"original_commit_id"`
	User                userJSON `json:"user"`
	Body                string   `json:"body"`
	CreatedAt           string   `json:"created_at"`
	UpdatedAt           string   `json:"updated_at"`
	HTMLURL             string   `json:"html_url"`
	PullRequestURL      string   `json:"pull_request_url"`
	AuthorAssociation   string   `json:"author_association"`
	Line                any      `json:"line,omitempty"` // left out once outdated (the schema has no null)
	OriginalLine        int64    `json:"original_line"`
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
	id := s.User(login)
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
			ID: id, NodeID: fmt.Sprintf("LA_kwDO%d", id), URL: s.api("/repos/%s/labels/%s", r.Path, n),
			Name: n, Color: "ededed",
		})
	}
	return out
}

func (s *Server) repoJSON(r *repo) repoJSON {
	return repoJSON{
		ID: r.ID, NodeID: fmt.Sprintf("R_kgDO%d", r.ID), Name: name(r), FullName: r.Path,
		Owner: s.userJSON(owner(r)), HTMLURL: s.web("/%s", r.Path), Description: nullable(r.Description),
		URL: s.api("/repos/%s", r.Path), DefaultBranch: r.DefaultBranch,
	}
}

func (s *Server) fullRepoJSON(r *repo, login string) fullRepoJSON {
	rank := map[string]int{"read": 1, "triage": 2, "write": 3, "maintain": 4, "admin": 5}[role(r, login)]
	out := fullRepoJSON{
		richRepoJSON: s.richRepoJSON(r), Visibility: r.Visibility,
		Permissions: permissionsJSON{Admin: rank >= 5, Maintain: rank >= 4, Push: rank >= 3, Triage: rank >= 2, Pull: rank >= 1},
	}
	out.Private = r.Visibility != "public"
	return out
}

func (s *Server) richRepoJSON(r *repo) richRepoJSON {
	open := 0
	for _, it := range r.Items {
		if it.State == "open" {
			open++ // pull requests too, as GitHub counts them
		}
	}
	t := stamp(s.clock)
	return richRepoJSON{repoJSON: s.repoJSON(r), repoStatsJSON: repoStatsJSON{
		Archived: r.Archived, OpenIssuesCount: open, OpenIssues: open,
		HasIssues: true, HasProjects: true, HasWiki: true, HasDownloads: true,
		PushedAt: t, CreatedAt: t, UpdatedAt: t,
	}}
}

// minimalRepoJSON is the repository as a commit status embeds it.
func (s *Server) minimalRepoJSON(r *repo) repoJSON {
	out := s.repoJSON(r)
	out.DefaultBranch = ""
	return out
}

func (s *Server) issueJSON(r *repo, it *item) issueJSON {
	base := s.api("/repos/%s/issues/%d", r.Path, it.Number)
	out := issueJSON{
		URL: base, RepositoryURL: s.api("/repos/%s", r.Path), CommentsURL: base + "/comments",
		HTMLURL: s.web("/%s/issues/%d", r.Path, it.Number),
		ID:      it.ID, NodeID: fmt.Sprintf("I_kwDO%d", it.ID), Number: it.Number, Title: it.Title,
		User: s.userJSON(it.Author), Labels: s.labelsJSON(r, it.Labels), State: it.State,
		Assignees: []userJSON{}, Milestone: s.milestoneJSON(r, number(it.Milestone)), Comments: len(it.Comments),
		CreatedAt: stamp(it.Created), UpdatedAt: stamp(it.Updated), ClosedAt: closedAt(it),
		AuthorAssociation: "OWNER", Body: nullable(it.Body), StateReason: nullable(it.StateReason),
	}
	for _, a := range it.Assignees {
		out.Assignees = append(out.Assignees, s.userJSON(a))
	}
	if len(out.Assignees) > 0 {
		out.Assignee = &out.Assignees[0]
	}
	if it.Pull != nil {
		out.HTMLURL = s.web("/%s/pull/%d", r.Path, it.Number)
		out.PullRequest = &issuePullJSON{
			URL: s.api("/repos/%s/pulls/%d", r.Path, it.Number), HTMLURL: out.HTMLURL,
			DiffURL: out.HTMLURL + ".diff", PatchURL: out.HTMLURL + ".patch", MergedAt: mergedAt(it),
		}
	}
	return out
}

func (s *Server) milestoneJSON(r *repo, n int) *milestoneJSON {
	if n < 1 || n > len(r.Milestones) {
		return nil
	}
	id := int64(1002600 + n)
	var open, closed int
	for _, it := range r.Items {
		if number(it.Milestone) == n && it.State == "open" {
			open++
		} else if number(it.Milestone) == n {
			closed++
		}
	}
	return &milestoneJSON{
		URL: s.api("/repos/%s/milestones/%d", r.Path, n), HTMLURL: s.web("/%s/milestone/%d", r.Path, n),
		LabelsURL: s.api("/repos/%s/milestones/%d/labels", r.Path, n), ID: id, NodeID: fmt.Sprintf("MI_kwDO%d", id),
		Number: int64(n), State: "open", Title: r.Milestones[n-1].Title, Creator: s.userJSON(owner(r)),
		OpenIssues: open, ClosedIssues: closed, CreatedAt: stamp(s.clock), UpdatedAt: stamp(s.clock),
	}
}

func (s *Server) commentJSON(r *repo, it *item, c *comment) commentJSON {
	kind := "issues"
	if it.Pull != nil {
		kind = "pull"
	}
	return commentJSON{
		URL:      s.api("/repos/%s/issues/comments/%d", r.Path, c.ID),
		HTMLURL:  s.web("/%s/%s/%d#issuecomment-%d", r.Path, kind, it.Number, c.ID),
		IssueURL: s.api("/repos/%s/issues/%d", r.Path, it.Number),
		ID:       c.ID, NodeID: fmt.Sprintf("IC_kwDO%d", c.ID), User: s.userJSON(c.Author),
		CreatedAt: stamp(c.Created), UpdatedAt: stamp(c.Created), AuthorAssociation: "CONTRIBUTOR", Body: c.Body,
	}
}

func (s *Server) pullListJSON(r *repo, it *item) pullListJSON {
	p := it.Pull
	html := s.web("/%s/pull/%d", r.Path, it.Number)
	branch := func(ref, sha string) branchJSON {
		return branchJSON{Label: owner(r) + ":" + ref, Ref: ref, SHA: sha, User: s.userJSON(owner(r)), Repo: s.richRepoJSON(r)}
	}
	return pullListJSON{
		URL: s.api("/repos/%s/pulls/%d", r.Path, it.Number), ID: p.ID, NodeID: fmt.Sprintf("PR_kwDO%d", p.ID),
		HTMLURL: html, DiffURL: html + ".diff", PatchURL: html + ".patch",
		IssueURL: s.api("/repos/%s/issues/%d", r.Path, it.Number),
		Number:   it.Number, State: it.State, Title: it.Title, User: s.userJSON(it.Author), Body: nullable(it.Body),
		Labels: s.labelsJSON(r, it.Labels), CreatedAt: stamp(it.Created), UpdatedAt: stamp(it.Updated),
		ClosedAt: closedAt(it), MergedAt: mergedAt(it), MergeCommitSHA: nullable(p.MergeSHA),
		Head: branch(p.Head, r.PullHead(p)), Base: branch(p.Base, cmp.Or(r.Branches[p.Base], strings.Repeat("b", 40))),
		AuthorAssociation: "OWNER", Draft: p.Draft, Milestone: s.milestoneJSON(r, number(it.Milestone)),
	}
}

// pullJSON is the single read: mergeable is null once closed, as GitHub
// stops computing it.
func (s *Server) pullJSON(r *repo, it *item) pullJSON {
	p := it.Pull
	out := pullJSON{
		pullListJSON: s.pullListJSON(r, it), Merged: p.Merged, MergeableState: "clean",
		Comments: len(it.Comments), ReviewComments: len(inlines(p)), Commits: 1, ChangedFiles: len(changesOf(r, p)),
	}
	for _, f := range changesOf(r, p) {
		add, del := lineCounts(f)
		out.Additions, out.Deletions = out.Additions+add, out.Deletions+del
	}
	if p.Merged {
		who := s.userJSON(cmp.Or(p.MergedBy, owner(r)))
		out.MergedBy = &who
	}
	switch {
	case it.State != "open":
		out.MergeableState = "unknown"
	case p.Blocked:
		out.Mergeable, out.MergeableState = new(bool), "dirty"
	default:
		out.Mergeable = &[]bool{true}[0]
	}
	return out
}

func (s *Server) reviewJSON(r *repo, it *item, v *review) reviewJSON {
	out := reviewJSON{
		ID: v.ID, NodeID: fmt.Sprintf("PRR_kwDO%d", v.ID), User: s.userJSON(v.Author), Body: v.Body, State: v.State,
		HTMLURL:           s.web("/%s/pull/%d#pullrequestreview-%d", r.Path, it.Number, v.ID),
		PullRequestURL:    s.api("/repos/%s/pulls/%d", r.Path, it.Number),
		AuthorAssociation: "COLLABORATOR", CommitID: cmp.Or(v.Commit, r.PullHead(it.Pull)),
	}
	if v.State != "PENDING" {
		out.SubmittedAt = nullable(stamp(v.Created))
	}
	return out
}

func (s *Server) reviewCommentJSON(r *repo, it *item, c inline) reviewCommentJSON {
	_, side := c.Line()
	at := placeOf(r, it, c)
	return reviewCommentJSON{
		URL: s.api("/repos/%s/pulls/comments/%d", r.Path, c.ID), PullRequestReviewID: c.review.ID,
		ID: c.ID, NodeID: fmt.Sprintf("PRRC_kwDO%d", c.ID), Path: c.Path, DiffHunk: patchOf(r, it.Pull, c.Path),
		CommitID: at.commit, OriginalCommitID: cmp.Or(c.review.Commit, r.PullHead(it.Pull)),
		User: s.userJSON(cmp.Or(c.Author, c.review.Author)), Body: c.Body, CreatedAt: stamp(c.review.Created), UpdatedAt: stamp(c.review.Created),
		HTMLURL:        s.web("/%s/pull/%d#discussion_r%d", r.Path, it.Number, c.ID),
		PullRequestURL: s.api("/repos/%s/pulls/%d", r.Path, it.Number), AuthorAssociation: "COLLABORATOR",
		Line: at.line, OriginalLine: at.original, Side: side, SubjectType: "line",
	}
}

func closedAt(it *item) *string {
	if it.State != "closed" {
		return nil
	}
	return nullable(stamp(closedTime(it)))
}

// closedTime is when it closed (or merged); zero while open.
func closedTime(it *item) time.Time {
	if it.Closed == nil {
		return time.Time{}
	}
	return *it.Closed
}

func mergedAt(it *item) *string {
	if it.Pull == nil || !it.Pull.Merged {
		return nil
	}
	return nullable(stamp(closedTime(it)))
}

// nullable is s, or JSON null for "" (GitHub's empty body).
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
