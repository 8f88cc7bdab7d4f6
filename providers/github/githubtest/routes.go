package githubtest

import (
	"cmp"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

const (
	docRoot     = "https://docs.github.com/rest"
	docIssue    = "https://docs.github.com/rest/issues/issues"
	docComments = "https://docs.github.com/rest/issues/comments#create-an-issue-comment"
	docPulls    = "https://docs.github.com/rest/pulls/pulls#create-a-pull-request"
	docReviews  = "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request"
)

// handle answers a request from the state; the engine's lock is held.
// The account's routes are the engine's (route); a repository's are
// below its root, which resolve finds.
func (s *Server) handle(c *forgefake.Call, route func(*http.Request) (answer, bool)) answer {
	r := c.R
	if v := r.Header.Get("X-GitHub-Api-Version"); v != "" && v != APIVersion {
		return errorAnswer(http.StatusBadRequest, "Unsupported 'X-GitHub-Api-Version' provided", docRoot, nil)
	}
	login, ok := s.login(r.Header.Get("Authorization"))
	if !ok {
		return errorAnswer(http.StatusUnauthorized, "Bad credentials", docRoot, nil)
	}
	path := strings.TrimPrefix(r.URL.Path, s.prefix)
	// HEAD matches no route: the fake answers GET only, as it always has.
	head := r.Method == http.MethodHead
	if !head {
		if a, ok := route(scoped(r, call{login: login, path: path})); ok {
			return a
		}
	}
	rp, rest, moved := s.resolve(path)
	switch {
	case moved != "" && r.URL.RawQuery != "":
		moved += "?" + r.URL.RawQuery
		fallthrough
	case moved != "":
		return redirectAnswer(moved)
	case rp == nil:
		return notFound()
	}
	seg := strings.Split(rest, "/")
	if len(seg) >= 2 && seg[0] == "issues" {
		if n, err := strconv.Atoi(seg[1]); err == nil {
			if it := itemN(rp, n); it != nil && it.Moved != nil {
				return s.movedAnswer(it.Moved, strings.TrimPrefix(rest, seg[0]+"/"+seg[1]), r.URL.RawQuery)
			}
		}
	}
	if head {
		return notFound()
	}
	if a, ok := routeBelow(s.repoMux, r, "/"+rest, c.Body, call{rp: rp, login: login, path: path}); ok {
		return a
	}
	return notFound()
}

// combinedStatus is GET /repos/o/n/commits/{ref}/status. The fake keeps
// no commit statuses: GitHub then reports "pending" with none.
func (s *Server) combinedStatus(rp *repo, sha string) answer {
	return jsonAnswer(http.StatusOK, combinedStatusJSON{
		State: "pending", Statuses: []any{}, SHA: sha, Repository: s.minimalRepoJSON(rp),
		CommitURL: s.api("/repos/%s/commits/%s", rp.Path, sha),
		URL:       s.api("/repos/%s/commits/%s/status", rp.Path, sha),
	})
}

// redirectAnswer is GitHub's 301 Moved Permanently to loc.
func redirectAnswer(loc string) answer {
	a := jsonAnswer(http.StatusMovedPermanently, map[string]string{
		"message": "Moved Permanently", "url": loc, "documentation_url": "https://docs.github.com/v3/#http-redirects",
	})
	a.Header = http.Header{"Location": {loc}}
	return a
}

// login is who the Authorization header authenticates.
func (s *Server) login(auth string) (string, bool) {
	token, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok {
		token, ok = strings.CutPrefix(auth, "token ")
	}
	login, known := s.Tokens[token]
	return login, ok && known
}

// resolve finds the repository a path addresses, by name (/repos/o/n/...)
// or by id (/repositories/ID/...), and the rest of the path. A renamed
// repository's old name answers with where it moved.
func (s *Server) resolve(path string) (r *repo, rest, moved string) {
	seg := strings.SplitN(strings.TrimPrefix(path, "/"), "/", 4)
	switch {
	case len(seg) >= 3 && seg[0] == "repos":
		full := strings.ToLower(seg[1] + "/" + seg[2])
		if len(seg) == 4 {
			rest = seg[3]
		}
		if old := s.Renamed[full]; old != nil && s.Repos[full] == nil {
			moved = s.api("/repositories/%d", old.ID)
			if rest != "" {
				moved += "/" + rest
			}
			return nil, rest, moved
		}
		return s.Repos[full], rest, ""
	case len(seg) >= 2 && seg[0] == "repositories":
		rest = strings.Join(seg[2:], "/")
		for _, r := range s.Repos {
			if strconv.FormatInt(r.ID, 10) == seg[1] {
				return r, rest, ""
			}
		}
	}
	return nil, "", ""
}

// listIssues is GET /repos/o/n/issues: issues and pull requests, filtered
// by state, labels, creator, assignee and update time (since), newest
// first unless direction=asc, paged.
func (s *Server) listIssues(r *repo, path string, q url.Values) answer {
	state := first(q["state"], "open")
	creator := first(q["creator"], "")
	var labels []string
	if l := first(q["labels"], ""); l != "" {
		labels = strings.Split(l, ",")
	}
	since, _ := time.Parse(time.RFC3339, first(q["since"], ""))
	var items []*item
	for _, it := range r.Items {
		if it.Moved == nil && (state == "all" || it.State == state) && hasAll(it.Labels, labels) &&
			(creator == "" || strings.EqualFold(it.Author, creator)) &&
			assigned(it, first(q["assignee"], "")) && !it.Updated.Before(since) {
			items = append(items, it)
		}
	}
	if first(q["direction"], "desc") == "desc" {
		slices.Reverse(items)
	}
	return page(s, path, q, items, func(it *item) any { return s.issueJSON(r, it) })
}

// page serves one page of items as a JSON array (see pageOf).
func page[T any](s *Server, path string, q url.Values, items []T, render func(T) any) answer {
	n, per, header := s.pageOf(path, q, len(items))
	out, _ := forgefake.Page(items, n, per, render)
	a := jsonAnswer(http.StatusOK, out)
	a.Header = header
	return a
}

// pageOf is the page a request asks for (page from 1; per_page, default
// 30, at most 100) of count items, and GitHub's Link header when there
// are other pages.
func (s *Server) pageOf(path string, q url.Values, count int) (n, per int, header http.Header) {
	per, _ = strconv.Atoi(first(q["per_page"], "30"))
	per = min(max(per, 1), 100)
	n, _ = strconv.Atoi(first(q["page"], "1"))
	n = max(n, 1)
	last := max((count+per-1)/per, 1)
	var links []string
	if n > 1 {
		links = append(links, s.link(path, q, n-1, "prev"), s.link(path, q, 1, "first"))
	}
	if n < last {
		links = append(links, s.link(path, q, n+1, "next"), s.link(path, q, last, "last"))
	}
	if len(links) > 0 {
		header = http.Header{"Link": {strings.Join(links, ", ")}}
	}
	return n, per, header
}

// assigned reports whether it matches GitHub's assignee filter: a login,
// "*" (anyone) or "none"; "" does not filter.
func assigned(it *item, who string) bool {
	switch who {
	case "":
		return true
	case "*":
		return len(it.Assignees) > 0
	case "none":
		return len(it.Assignees) == 0
	}
	return slices.ContainsFunc(it.Assignees, func(a string) bool { return strings.EqualFold(a, who) })
}

func (s *Server) createIssue(r *repo, login string, body []byte) answer {
	var in struct {
		Title     *string  `json:"title"`
		Body      string   `json:"body"`
		Labels    []string `json:"labels"`
		Assignees []string `json:"assignees"`
		Milestone int      `json:"milestone"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return errorAnswer(http.StatusBadRequest, "Problems parsing JSON", docIssue+"#create-an-issue", nil)
	}
	if in.Title == nil || strings.TrimSpace(*in.Title) == "" {
		return errorAnswer(http.StatusUnprocessableEntity, "Validation Failed", docIssue+"#create-an-issue",
			[]fieldError{{Resource: "Issue", Field: "title", Code: "missing_field"}})
	}
	if in.Milestone < 0 || in.Milestone > len(r.Milestones) {
		return errorAnswer(http.StatusUnprocessableEntity, "Validation Failed", docIssue+"#create-an-issue",
			[]fieldError{{Resource: "Issue", Field: "milestone", Code: "invalid"}})
	}
	if role(r, login) == "read" {
		// GitHub drops them without a word: only push access sets labels,
		// assignees and a milestone on a new issue.
		in.Labels, in.Assignees, in.Milestone = nil, nil, 0
	}
	it := s.addItem(r, *in.Title, in.Body, login, in.Labels, "open", nil)
	it.Assignees, it.Milestone = in.Assignees, milestoneN(r, in.Milestone)
	return jsonAnswer(http.StatusCreated, s.issueJSON(r, it))
}

// editIssue is PATCH /repos/o/n/issues/N: only the members sent change.
// Closing records a state reason (completed unless given); reopening makes
// it "reopened". Hooks hear of a new state and of labels added or removed.
func (s *Server) editIssue(r *repo, it *item, login string, body []byte) answer {
	var in struct {
		Title       *string   `json:"title"`
		Body        *string   `json:"body"`
		State       *string   `json:"state"`
		StateReason *string   `json:"state_reason"`
		Labels      *[]string `json:"labels"`
		Assignees   *[]string `json:"assignees"`
		Milestone   *int      `json:"milestone"`
	}
	doc := docIssue + "#update-an-issue"
	if err := json.Unmarshal(body, &in); err != nil {
		return errorAnswer(http.StatusBadRequest, "Problems parsing JSON", doc, nil)
	}
	invalid := func(field string) answer {
		return errorAnswer(http.StatusUnprocessableEntity, "Validation Failed", doc, []fieldError{{Resource: "Issue", Field: field, Code: "invalid"}})
	}
	switch {
	case in.State != nil && *in.State != "open" && *in.State != "closed":
		return invalid("state")
	case in.StateReason != nil && !slices.Contains([]string{"completed", "not_planned", "reopened"}, *in.StateReason):
		return invalid("state_reason")
	case in.Milestone != nil && (*in.Milestone < 0 || *in.Milestone > len(r.Milestones)):
		return invalid("milestone")
	case in.Title != nil && strings.TrimSpace(*in.Title) == "":
		return invalid("title")
	}
	now := s.Tick()
	stateAction := ""
	if in.State != nil && *in.State != it.State {
		it.State = *in.State
		if it.State == "closed" {
			it.Closed, it.StateReason, stateAction = &now, "completed", "closed"
		} else {
			it.Closed, it.StateReason, stateAction = nil, "reopened", "reopened"
		}
	}
	labelsBefore := it.Labels
	if in.StateReason != nil {
		it.StateReason = *in.StateReason
	}
	for _, f := range []struct {
		to   *string
		from *string
	}{{&it.Title, in.Title}, {&it.Body, in.Body}} {
		if f.from != nil {
			*f.to = *f.from
		}
	}
	if in.Labels != nil {
		it.Labels = slices.Clone(*in.Labels)
	}
	if in.Assignees != nil {
		it.Assignees = slices.Clone(*in.Assignees)
	}
	if in.Milestone != nil {
		it.Milestone = milestoneN(r, *in.Milestone)
	}
	it.Updated = now
	if stateAction != "" {
		s.itemEvent(r, it, stateAction, login)
	}
	if in.Labels != nil {
		s.labelEvents(r, it, labelsBefore, login)
	}
	return jsonAnswer(http.StatusOK, s.issueJSON(r, it))
}

// listPulls is GET /repos/o/n/pulls: filtered by state, head (owner:branch)
// and base, newest first unless direction=asc, paged.
func (s *Server) listPulls(r *repo, path string, q url.Values) answer {
	state := first(q["state"], "open")
	head := first(q["head"], "")
	var items []*item
	for _, it := range r.Items {
		p := it.Pull
		if p == nil || (state != "all" && it.State != state) || (q.Get("base") != "" && p.Base != q.Get("base")) {
			continue
		}
		if who, branch, ok := strings.Cut(head, ":"); head != "" && (!ok || !strings.EqualFold(who, owner(r)) || branch != p.Head) {
			continue
		}
		items = append(items, it)
	}
	if first(q["direction"], "desc") == "desc" {
		slices.Reverse(items)
	}
	return page(s, path, q, items, func(it *item) any { return s.pullListJSON(r, it) })
}

func (s *Server) createComment(r *repo, it *item, login string, body []byte) answer {
	var in struct {
		Body string `json:"body"`
	}
	if err := json.Unmarshal(body, &in); err != nil || strings.TrimSpace(in.Body) == "" {
		return errorAnswer(http.StatusUnprocessableEntity, "Validation Failed", docComments,
			[]fieldError{{Resource: "IssueComment", Field: "body", Code: "missing_field"}})
	}
	c := s.addComment(r, it, login, in.Body)
	return jsonAnswer(http.StatusCreated, s.commentJSON(r, it, c))
}

// createPull opens a pull request: head and base must be branches of the
// repository, and one open pull request per head and base.
func (s *Server) createPull(r *repo, login string, body []byte) answer {
	var in struct {
		Title string `json:"title"`
		Head  string `json:"head"`
		Base  string `json:"base"`
		Body  string `json:"body"`
		Draft bool   `json:"draft"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return errorAnswer(http.StatusBadRequest, "Problems parsing JSON", docPulls, nil)
	}
	head := in.Head
	if who, branch, ok := strings.Cut(head, ":"); ok && strings.EqualFold(who, owner(r)) {
		head = branch
	}
	var bad []fieldError
	for _, f := range []struct{ field, v string }{{"title", in.Title}, {"head", head}, {"base", in.Base}} {
		switch {
		case f.v == "":
			bad = append(bad, fieldError{Resource: "PullRequest", Field: f.field, Code: "missing_field"})
		case f.field != "title" && !hasBranch(r, f.v):
			bad = append(bad, fieldError{Resource: "PullRequest", Field: f.field, Code: "invalid"})
		}
	}
	if len(bad) > 0 {
		return errorAnswer(http.StatusUnprocessableEntity, "Validation Failed", docPulls, bad)
	}
	for _, it := range r.Items {
		if it.Pull != nil && it.State == "open" && it.Pull.Head == head && it.Pull.Base == in.Base {
			return errorAnswer(http.StatusUnprocessableEntity, "Validation Failed", docPulls, []fieldError{{
				Resource: "PullRequest", Code: "custom", Message: "A pull request already exists for " + owner(r) + ":" + head + ".",
			}})
		}
	}
	it := s.addItem(r, in.Title, in.Body, login, nil, "open", &pull{Head: head, Base: in.Base, Draft: in.Draft, Changes: slices.Clone(r.Changes[head])})
	return jsonAnswer(http.StatusCreated, s.pullJSON(r, it))
}

// createReview posts a review: submitted at once when it has an event
// (pending otherwise), refused with GitHub's words when the reviewer is the
// pull request's author and the verdict is not a comment.
func (s *Server) createReview(r *repo, it *item, login string, body []byte) answer {
	var in struct {
		Event    string `json:"event"`
		Body     string `json:"body"`
		Comments []struct {
			Path string `json:"path"`
			Body string `json:"body"`
			Line int    `json:"line"`
			Side string `json:"side"`
		} `json:"comments"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return errorAnswer(http.StatusBadRequest, "Problems parsing JSON", docReviews, nil)
	}
	state, ok := map[string]string{"": "PENDING", "APPROVE": "APPROVED", "REQUEST_CHANGES": "CHANGES_REQUESTED", "COMMENT": "COMMENTED"}[in.Event]
	switch {
	case !ok:
		return errorAnswer(http.StatusUnprocessableEntity, "Unprocessable Entity", docReviews, []string{"Invalid event: " + in.Event})
	case login == it.Author && in.Event == "APPROVE":
		return errorAnswer(http.StatusUnprocessableEntity, "Unprocessable Entity", docReviews, []string{"Can not approve your own pull request"})
	case login == it.Author && in.Event == "REQUEST_CHANGES":
		return errorAnswer(http.StatusUnprocessableEntity, "Unprocessable Entity", docReviews, []string{"Can not request changes on your own pull request"})
	case (in.Event == "REQUEST_CHANGES" || in.Event == "COMMENT") && strings.TrimSpace(in.Body) == "":
		return errorAnswer(http.StatusUnprocessableEntity, "Unprocessable Entity", docReviews, []string{"Review Comment is missing"})
	}
	for _, c := range in.Comments {
		if c.Path == "" || c.Line < 1 || strings.TrimSpace(c.Body) == "" {
			return errorAnswer(http.StatusUnprocessableEntity, "Unprocessable Entity", docReviews, []string{"Path and line are required for each comment"})
		}
		if why := unresolved(r, it.Pull, c.Path, c.Line, cmp.Or(c.Side, "RIGHT")); why != "" {
			return errorAnswer(http.StatusUnprocessableEntity, "Unprocessable Entity", docReviews, []string{why})
		}
	}
	inline := make([]Inline, len(in.Comments))
	for i, c := range in.Comments {
		inline[i] = Inline{Path: c.Path, Line: c.Line, Side: c.Side, Body: c.Body}
	}
	v := s.addReview(r, it, login, state, in.Body, inline)
	return jsonAnswer(http.StatusOK, s.reviewJSON(r, it, v))
}

// since keeps the items updated at or after the since parameter (an ISO
// 8601 time), as GitHub's comment listings do; the fake never edits, so an
// item's update time is its creation.
func since[T any](q url.Values, items []T, updated func(T) time.Time) []T {
	v := first(q["since"], "")
	if v == "" {
		return items
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return items // GitHub ignores a since it cannot parse
	}
	var out []T
	for _, it := range items {
		if !updated(it).Before(t) {
			out = append(out, it)
		}
	}
	return out
}

func first(vs []string, def string) string {
	if len(vs) == 0 || vs[0] == "" {
		return def
	}
	return vs[0]
}

func hasAll(have, want []string) bool {
	for _, w := range want {
		if !slices.ContainsFunc(have, func(h string) bool { return strings.EqualFold(h, w) }) {
			return false
		}
	}
	return true
}
