package githubtest

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

const (
	docRoot     = "https://docs.github.com/rest"
	docIssue    = "https://docs.github.com/rest/issues/issues"
	docComments = "https://docs.github.com/rest/issues/comments#create-an-issue-comment"
	docPulls    = "https://docs.github.com/rest/pulls/pulls#create-a-pull-request"
	docReviews  = "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request"
)

// handle answers a request from the state; s.mu is held.
func (s *Server) handle(r *http.Request, path string, body []byte) answer {
	if v := r.Header.Get("X-GitHub-Api-Version"); v != "" && v != APIVersion {
		return errorAnswer(http.StatusBadRequest, "Unsupported 'X-GitHub-Api-Version' provided", docRoot, nil)
	}
	login, ok := s.login(r.Header.Get("Authorization"))
	if !ok {
		return errorAnswer(http.StatusUnauthorized, "Bad credentials", docRoot, nil)
	}
	rp, rest, moved := s.resolve(path)
	switch {
	case moved != "" && r.URL.RawQuery != "":
		moved += "?" + r.URL.RawQuery
		fallthrough
	case moved != "":
		a := jsonAnswer(http.StatusMovedPermanently, map[string]string{
			"message": "Moved Permanently", "url": moved, "documentation_url": "https://docs.github.com/v3/#http-redirects",
		})
		a.header = http.Header{"Location": {moved}}
		return a
	case rp == nil:
		return errorAnswer(http.StatusNotFound, "Not Found", docRoot, nil)
	}
	seg := strings.Split(rest, "/")
	num := func(i int) *item {
		n, err := strconv.Atoi(seg[i])
		if err != nil {
			return nil
		}
		return rp.item(n)
	}
	q := r.URL.Query()
	switch key := r.Method + " " + shape(seg); key {
	case "GET ":
		return jsonAnswer(http.StatusOK, s.repoJSON(rp))
	case "GET issues":
		return s.listIssues(rp, path, q)
	case "POST issues":
		return s.createIssue(rp, login, body)
	case "GET issues/N":
		if it := num(1); it != nil {
			return jsonAnswer(http.StatusOK, s.issueJSON(rp, it))
		}
	case "GET issues/N/comments":
		if it := num(1); it != nil {
			cs := since(q, it.comments, func(c *comment) time.Time { return c.created })
			return page(s, path, q, cs, func(c *comment) any { return s.commentJSON(rp, it, c) })
		}
	case "POST issues/N/comments":
		if it := num(1); it != nil {
			return s.createComment(rp, it, login, body)
		}
	case "POST pulls":
		return s.createPull(rp, login, body)
	case "GET pulls/N":
		if it := num(1); it != nil && it.pull != nil {
			return jsonAnswer(http.StatusOK, s.pullJSON(rp, it))
		}
	case "GET pulls/N/reviews":
		if it := num(1); it != nil && it.pull != nil {
			return page(s, path, q, it.pull.reviews, func(v *review) any { return s.reviewJSON(rp, it, v) })
		}
	case "POST pulls/N/reviews":
		if it := num(1); it != nil && it.pull != nil {
			return s.createReview(rp, it, login, body)
		}
	case "GET pulls/N/comments":
		if it := num(1); it != nil && it.pull != nil {
			cs := since(q, it.pull.inline, func(c *reviewComment) time.Time { return c.created })
			return page(s, path, q, cs, func(c *reviewComment) any { return s.reviewCommentJSON(rp, it, c) })
		}
	case "GET commits/S/status":
		// No commit statuses: GitHub then reports "pending" with none.
		return jsonAnswer(http.StatusOK, combinedStatusJSON{
			State: "pending", Statuses: []any{}, SHA: seg[1], Repository: s.minimalRepoJSON(rp),
			CommitURL: s.api("/repos/%s/commits/%s", rp.fullName(), seg[1]),
			URL:       s.api("/repos/%s/commits/%s/status", rp.fullName(), seg[1]),
		})
	case "GET commits/S/check-runs":
		runs := []any{}
		for _, it := range rp.items {
			if it.pull != nil && it.pull.headSHA == seg[1] {
				for _, c := range it.pull.checks {
					runs = append(runs, s.checkRunJSON(rp, seg[1], c))
				}
			}
		}
		return jsonAnswer(http.StatusOK, checkRunsJSON{TotalCount: len(runs), CheckRuns: runs})
	}
	return errorAnswer(http.StatusNotFound, "Not Found", docRoot, nil)
}

// shape names a path by its fixed segments: "issues/N/comments".
func shape(seg []string) string {
	out := slices.Clone(seg)
	if len(out) >= 2 {
		if _, err := strconv.Atoi(out[1]); err == nil {
			out[1] = "N"
		} else if out[0] == "commits" {
			out[1] = "S"
		}
	}
	return strings.Join(out, "/")
}

// login is who the Authorization header authenticates.
func (s *Server) login(auth string) (string, bool) {
	token, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok {
		token, ok = strings.CutPrefix(auth, "token ")
	}
	login, known := s.tokens[token]
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
		if old := s.renamed[full]; old != nil && s.repos[full] == nil {
			moved = s.api("/repositories/%d", old.id)
			if rest != "" {
				moved += "/" + rest
			}
			return nil, rest, moved
		}
		return s.repos[full], rest, ""
	case len(seg) >= 2 && seg[0] == "repositories":
		rest = strings.Join(seg[2:], "/")
		for _, r := range s.repos {
			if strconv.FormatInt(r.id, 10) == seg[1] {
				return r, rest, ""
			}
		}
	}
	return nil, "", ""
}

// listIssues is GET /repos/o/n/issues: issues and pull requests, filtered
// by state and labels, newest first unless direction=asc, paged.
func (s *Server) listIssues(r *repo, path string, q url.Values) answer {
	state := first(q["state"], "open")
	var labels []string
	if l := first(q["labels"], ""); l != "" {
		labels = strings.Split(l, ",")
	}
	var items []*item
	for _, it := range r.items {
		if (state == "all" || it.state == state) && hasAll(it.labels, labels) {
			items = append(items, it)
		}
	}
	if first(q["direction"], "desc") == "desc" {
		slices.Reverse(items)
	}
	return page(s, path, q, items, func(it *item) any { return s.issueJSON(r, it) })
}

// page serves one page of items (per_page, default 30, at most 100) with
// GitHub's Link header when there are others.
func page[T any](s *Server, path string, q url.Values, items []T, render func(T) any) answer {
	per, _ := strconv.Atoi(first(q["per_page"], "30"))
	per = min(max(per, 1), 100)
	n, _ := strconv.Atoi(first(q["page"], "1"))
	n = max(n, 1)
	last := max((len(items)+per-1)/per, 1)
	out := []any{}
	for _, it := range items[min((n-1)*per, len(items)):min(n*per, len(items))] {
		out = append(out, render(it))
	}
	a := jsonAnswer(http.StatusOK, out)
	var links []string
	if n > 1 {
		links = append(links, s.link(path, q, n-1, "prev"), s.link(path, q, 1, "first"))
	}
	if n < last {
		links = append(links, s.link(path, q, n+1, "next"), s.link(path, q, last, "last"))
	}
	if len(links) > 0 {
		a.header = http.Header{"Link": {strings.Join(links, ", ")}}
	}
	return a
}

func (s *Server) createIssue(r *repo, login string, body []byte) answer {
	var in struct {
		Title  *string  `json:"title"`
		Body   string   `json:"body"`
		Labels []string `json:"labels"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return errorAnswer(http.StatusBadRequest, "Problems parsing JSON", docIssue+"#create-an-issue", nil)
	}
	if in.Title == nil || strings.TrimSpace(*in.Title) == "" {
		return errorAnswer(http.StatusUnprocessableEntity, "Validation Failed", docIssue+"#create-an-issue",
			[]fieldError{{Resource: "Issue", Field: "title", Code: "missing_field"}})
	}
	it := s.addItem(r, *in.Title, in.Body, login, in.Labels, "open", nil)
	return jsonAnswer(http.StatusCreated, s.issueJSON(r, it))
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
	if owner, branch, ok := strings.Cut(head, ":"); ok && strings.EqualFold(owner, r.owner) {
		head = branch
	}
	var bad []fieldError
	for _, f := range []struct{ field, v string }{{"title", in.Title}, {"head", head}, {"base", in.Base}} {
		switch {
		case f.v == "":
			bad = append(bad, fieldError{Resource: "PullRequest", Field: f.field, Code: "missing_field"})
		case f.field != "title" && !r.hasBranch(f.v):
			bad = append(bad, fieldError{Resource: "PullRequest", Field: f.field, Code: "invalid"})
		}
	}
	if len(bad) > 0 {
		return errorAnswer(http.StatusUnprocessableEntity, "Validation Failed", docPulls, bad)
	}
	for _, it := range r.items {
		if it.pull != nil && it.state == "open" && it.pull.head == head && it.pull.base == in.Base {
			return errorAnswer(http.StatusUnprocessableEntity, "Validation Failed", docPulls, []fieldError{{
				Resource: "PullRequest", Code: "custom", Message: "A pull request already exists for " + r.owner + ":" + head + ".",
			}})
		}
	}
	it := s.addItem(r, in.Title, in.Body, login, nil, "open", &pull{head: head, base: in.Base, draft: in.Draft})
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
	case login == it.author && in.Event == "APPROVE":
		return errorAnswer(http.StatusUnprocessableEntity, "Unprocessable Entity", docReviews, []string{"Can not approve your own pull request"})
	case login == it.author && in.Event == "REQUEST_CHANGES":
		return errorAnswer(http.StatusUnprocessableEntity, "Unprocessable Entity", docReviews, []string{"Can not request changes on your own pull request"})
	case (in.Event == "REQUEST_CHANGES" || in.Event == "COMMENT") && strings.TrimSpace(in.Body) == "":
		return errorAnswer(http.StatusUnprocessableEntity, "Unprocessable Entity", docReviews, []string{"Review Comment is missing"})
	}
	for _, c := range in.Comments {
		if c.Path == "" || c.Line < 1 || strings.TrimSpace(c.Body) == "" {
			return errorAnswer(http.StatusUnprocessableEntity, "Unprocessable Entity", docReviews, []string{"Path and line are required for each comment"})
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
