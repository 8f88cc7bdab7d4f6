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
	Number            int            `json:"number"`
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
	Number       int      `json:"number"`
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
			ID: id, NodeID: fmt.Sprintf("LA_kwDO%d", id), URL: s.api("/repos/%s/labels/%s", r.fullName(), n),
			Name: n, Color: "ededed",
		})
	}
	return out
}

func (s *Server) repoJSON(r *repo) repoJSON {
	return repoJSON{
		ID: r.id, NodeID: fmt.Sprintf("R_kgDO%d", r.id), Name: r.name, FullName: r.fullName(),
		Owner: s.userJSON(r.owner), HTMLURL: s.web("/%s", r.fullName()), Description: nullable(r.description),
		URL: s.api("/repos/%s", r.fullName()), DefaultBranch: r.defaultBranch,
	}
}

func (s *Server) fullRepoJSON(r *repo, login string) fullRepoJSON {
	rank := map[string]int{"read": 1, "triage": 2, "write": 3, "maintain": 4, "admin": 5}[r.role(login)]
	out := fullRepoJSON{
		richRepoJSON: s.richRepoJSON(r), Visibility: r.visibility,
		Permissions: permissionsJSON{Admin: rank >= 5, Maintain: rank >= 4, Push: rank >= 3, Triage: rank >= 2, Pull: rank >= 1},
	}
	out.Private = r.visibility != "public"
	return out
}

func (s *Server) richRepoJSON(r *repo) richRepoJSON {
	open := 0
	for _, it := range r.items {
		if it.state == "open" {
			open++ // pull requests too, as GitHub counts them
		}
	}
	t := stamp(s.clock)
	return richRepoJSON{repoJSON: s.repoJSON(r), repoStatsJSON: repoStatsJSON{
		Archived: r.archived, OpenIssuesCount: open, OpenIssues: open,
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
	base := s.api("/repos/%s/issues/%d", r.fullName(), it.number)
	out := issueJSON{
		URL: base, RepositoryURL: s.api("/repos/%s", r.fullName()), CommentsURL: base + "/comments",
		HTMLURL: s.web("/%s/issues/%d", r.fullName(), it.number),
		ID:      it.id, NodeID: fmt.Sprintf("I_kwDO%d", it.id), Number: it.number, Title: it.title,
		User: s.userJSON(it.author), Labels: s.labelsJSON(r, it.labels), State: it.state,
		Assignees: []userJSON{}, Milestone: s.milestoneJSON(r, it.milestone), Comments: len(it.comments),
		CreatedAt: stamp(it.created), UpdatedAt: stamp(it.updated), ClosedAt: closedAt(it),
		AuthorAssociation: "OWNER", Body: nullable(it.body), StateReason: nullable(it.stateReason),
	}
	for _, a := range it.assignees {
		out.Assignees = append(out.Assignees, s.userJSON(a))
	}
	if len(out.Assignees) > 0 {
		out.Assignee = &out.Assignees[0]
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

func (s *Server) milestoneJSON(r *repo, n int) *milestoneJSON {
	if n < 1 || n > len(r.milestones) {
		return nil
	}
	id := int64(1002600 + n)
	var open, closed int
	for _, it := range r.items {
		if it.milestone == n && it.state == "open" {
			open++
		} else if it.milestone == n {
			closed++
		}
	}
	return &milestoneJSON{
		URL: s.api("/repos/%s/milestones/%d", r.fullName(), n), HTMLURL: s.web("/%s/milestone/%d", r.fullName(), n),
		LabelsURL: s.api("/repos/%s/milestones/%d/labels", r.fullName(), n), ID: id, NodeID: fmt.Sprintf("MI_kwDO%d", id),
		Number: n, State: "open", Title: r.milestones[n-1], Creator: s.userJSON(r.owner),
		OpenIssues: open, ClosedIssues: closed, CreatedAt: stamp(s.clock), UpdatedAt: stamp(s.clock),
	}
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

func (s *Server) pullListJSON(r *repo, it *item) pullListJSON {
	p := it.pull
	html := s.web("/%s/pull/%d", r.fullName(), it.number)
	branch := func(ref, sha string) branchJSON {
		return branchJSON{Label: r.owner + ":" + ref, Ref: ref, SHA: sha, User: s.userJSON(r.owner), Repo: s.richRepoJSON(r)}
	}
	return pullListJSON{
		URL: s.api("/repos/%s/pulls/%d", r.fullName(), it.number), ID: p.id, NodeID: fmt.Sprintf("PR_kwDO%d", p.id),
		HTMLURL: html, DiffURL: html + ".diff", PatchURL: html + ".patch",
		IssueURL: s.api("/repos/%s/issues/%d", r.fullName(), it.number),
		Number:   it.number, State: it.state, Title: it.title, User: s.userJSON(it.author), Body: nullable(it.body),
		Labels: s.labelsJSON(r, it.labels), CreatedAt: stamp(it.created), UpdatedAt: stamp(it.updated),
		ClosedAt: closedAt(it), MergedAt: mergedAt(it), MergeCommitSHA: nullable(p.mergeSHA),
		Head: branch(p.head, r.headSHA(p)), Base: branch(p.base, cmp.Or(r.branches[p.base], strings.Repeat("b", 40))),
		AuthorAssociation: "OWNER", Draft: p.draft, Milestone: s.milestoneJSON(r, it.milestone),
	}
}

// pullJSON is the single read: mergeable is null once closed, as GitHub
// stops computing it.
func (s *Server) pullJSON(r *repo, it *item) pullJSON {
	p := it.pull
	out := pullJSON{
		pullListJSON: s.pullListJSON(r, it), Merged: p.merged, MergeableState: "clean",
		Comments: len(it.comments), ReviewComments: len(p.inline), Commits: 1, ChangedFiles: len(p.files),
	}
	for _, f := range p.files {
		add, del := f.counts()
		out.Additions, out.Deletions = out.Additions+add, out.Deletions+del
	}
	if p.merged {
		who := s.userJSON(cmp.Or(p.mergedBy, r.owner))
		out.MergedBy = &who
	}
	switch {
	case it.state != "open":
		out.MergeableState = "unknown"
	case p.unmergeable:
		out.Mergeable, out.MergeableState = new(bool), "dirty"
	default:
		out.Mergeable = &[]bool{true}[0]
	}
	return out
}

func (s *Server) reviewJSON(r *repo, it *item, v *review) reviewJSON {
	out := reviewJSON{
		ID: v.id, NodeID: fmt.Sprintf("PRR_kwDO%d", v.id), User: s.userJSON(v.author), Body: v.body, State: v.state,
		HTMLURL:           s.web("/%s/pull/%d#pullrequestreview-%d", r.fullName(), it.number, v.id),
		PullRequestURL:    s.api("/repos/%s/pulls/%d", r.fullName(), it.number),
		AuthorAssociation: "COLLABORATOR", CommitID: r.headSHA(it.pull),
	}
	if v.state != "PENDING" {
		out.SubmittedAt = nullable(stamp(v.created))
	}
	return out
}

func (s *Server) reviewCommentJSON(r *repo, it *item, c *reviewComment) reviewCommentJSON {
	return reviewCommentJSON{
		URL: s.api("/repos/%s/pulls/comments/%d", r.fullName(), c.id), PullRequestReviewID: c.reviewID,
		ID: c.id, NodeID: fmt.Sprintf("PRRC_kwDO%d", c.id), Path: c.path, DiffHunk: it.pull.patchOf(c.path),
		CommitID: r.headSHA(it.pull), OriginalCommitID: r.headSHA(it.pull),
		User: s.userJSON(c.author), Body: c.body, CreatedAt: stamp(c.created), UpdatedAt: stamp(c.created),
		HTMLURL:        s.web("/%s/pull/%d#discussion_r%d", r.fullName(), it.number, c.id),
		PullRequestURL: s.api("/repos/%s/pulls/%d", r.fullName(), it.number), AuthorAssociation: "COLLABORATOR",
		Line: c.line, OriginalLine: c.line, Side: c.side, SubjectType: "line",
	}
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
