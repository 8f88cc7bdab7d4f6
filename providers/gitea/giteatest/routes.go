package giteatest

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/forgetools/forgetools/providers/internal/fakewire"
)

// handle answers a request from the state; s.mu is held.
func (s *Server) handle(r *http.Request, path string, body []byte) answer {
	if r.Method == http.MethodGet && path == "/version" {
		return ok(map[string]any{"version": s.Version()})
	}
	login, known := s.tokens[strings.TrimPrefix(r.Header.Get("Authorization"), "token ")]
	if !known || !strings.HasPrefix(r.Header.Get("Authorization"), "token ") {
		return s.apiError(http.StatusUnauthorized, "invalid username, password or token")
	}
	q := r.URL.Query()
	if r.Method == http.MethodGet && path == "/user/repos" {
		var rs []*repo
		for _, k := range slices.Sorted(mapKeys(s.repos)) {
			rs = append(rs, s.repos[k])
		}
		return paged(s, path, q, rs, func(rp *repo) any { return s.repoJSON(rp) })
	}
	seg := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i, p := range seg {
		if u, err := url.PathUnescape(p); err == nil {
			seg[i] = u
		}
	}
	if len(seg) < 3 || seg[0] != "repos" {
		return s.notFound()
	}
	rp := s.repos[strings.ToLower(seg[1]+"/"+seg[2])]
	if rp == nil {
		return s.notFound()
	}
	rest := seg[3:]
	num := func(i int) *item {
		if len(rest) <= i {
			return nil
		}
		n, err := strconv.ParseInt(rest[i], 10, 64)
		if err != nil {
			return nil
		}
		return rp.item(n)
	}
	write := r.Method != http.MethodGet
	if write && rp.perm == "read" {
		return s.apiError(http.StatusForbidden, "user should have a permission to write to the repository")
	}
	switch key := r.Method + " " + shape(rest); key {
	case "GET ":
		return ok(s.repoJSON(rp))
	case "GET labels":
		return paged(s, path, q, rp.labels, func(l *label) any { return s.labelsJSON(rp, []*label{l})[0] })
	case "GET issues":
		return s.listIssues(rp, path, q)
	case "POST issues":
		return s.createIssue(rp, login, body)
	case "GET issues/N":
		if it := num(1); it != nil {
			return ok(s.issueJSON(rp, it))
		}
	case "PATCH issues/N":
		if it := num(1); it != nil {
			return s.editIssue(rp, it, body)
		}
	case "PUT issues/N/labels":
		if it := num(1); it != nil {
			return s.replaceLabels(rp, it, body)
		}
	case "GET issues/N/comments":
		if it := num(1); it != nil {
			return paged(s, path, q, it.comments, func(c *comment) any { return s.commentJSON(rp, it, c) })
		}
	case "POST issues/N/comments":
		if it := num(1); it != nil {
			var in struct{ Body string }
			if !fakewire.Decode(body, &in) || strings.TrimSpace(in.Body) == "" {
				return s.apiError(http.StatusUnprocessableEntity, "[Body]: Required")
			}
			c := &comment{id: s.n.ID(), author: login, body: in.Body, created: s.n.Tick()}
			it.comments = append(it.comments, c)
			return created(s.commentJSON(rp, it, c))
		}
	case "GET pulls":
		return s.listPulls(rp, path, q)
	case "POST pulls":
		return s.createPull(rp, login, body)
	case "GET pulls/N":
		if it := num(1); it != nil && it.pull != nil {
			return ok(s.pullJSON(rp, it))
		}
	case "POST pulls/N/merge":
		if it := num(1); it != nil && it.pull != nil {
			return s.merge(rp, it, body)
		}
	case "GET pulls/N/reviews":
		if it := num(1); it != nil && it.pull != nil {
			return paged(s, path, q, it.pull.reviews, func(v *review) any { return s.reviewJSON(rp, it, v) })
		}
	case "POST pulls/N/reviews":
		if it := num(1); it != nil && it.pull != nil {
			return s.createReview(rp, it, login, body)
		}
	case "GET pulls/N/reviews/N/comments":
		if it := num(1); it != nil && it.pull != nil {
			id, _ := strconv.ParseInt(rest[3], 10, 64)
			for _, v := range it.pull.reviews {
				if v.id == id {
					out := []any{}
					for _, c := range v.comments {
						out = append(out, s.reviewCommentJSON(rp, it, v, c))
					}
					return ok(out)
				}
			}
		}
	case "GET commits/S/status":
		return s.combinedStatus(rp, rest[1])
	case "GET git/commits/S":
		// A branch, a tag or a commit; this fake knows branches and their
		// head commits.
		if sha := rp.resolve(rest[2]); sha != "" {
			return ok(map[string]any{"sha": sha, "url": s.api("/repos/%s/git/commits/%s", rp.fullName(), sha)})
		}
		return s.apiError(http.StatusNotFound, "commit doesn't exist: "+rest[2])
	case "GET milestones/N":
		id, _ := strconv.ParseInt(rest[1], 10, 64)
		if title, found := rp.milestones[id]; found {
			return ok(map[string]any{"id": id, "title": title, "state": "open"})
		}
	case "POST branches":
		return s.createBranch(rp, body)
	case "GET actions/runs":
		if !s.forgejo {
			return s.listRuns(rp, path, q)
		}
	case "GET actions/runs/N":
		if ru := s.runOf(rp, rest, 2); ru != nil {
			return ok(s.runJSON(rp, ru))
		}
	case "GET actions/runs/N/jobs":
		if ru := s.runOf(rp, rest, 2); ru != nil {
			jobs := []any{}
			for _, j := range ru.jobs {
				jobs = append(jobs, s.jobJSON(rp, ru, j))
			}
			return ok(map[string]any{"total_count": len(jobs), "jobs": jobs})
		}
	case "GET actions/jobs/N/logs":
		if s.forgejo {
			break
		}
		id, _ := strconv.ParseInt(rest[2], 10, 64)
		for _, ru := range rp.runs {
			for _, j := range ru.jobs {
				if j.id == id {
					return answer{Status: http.StatusOK, Raw: []byte(j.log)}
				}
			}
		}
	case "POST actions/runs/N/rerun", "POST actions/runs/N/rerun-failed-jobs":
		if ru := s.runOf(rp, rest, 2); ru != nil {
			// Gitea re-runs only a finished run, and only failed jobs
			// when it has some.
			if ru.status != "completed" {
				return s.apiError(http.StatusBadRequest, "this workflow run is not done")
			}
			if rest[3] == "rerun-failed-jobs" && !slices.ContainsFunc(ru.jobs, func(j *job) bool { return j.conclusion == "failure" }) {
				return s.apiError(http.StatusBadRequest, "this workflow run has no failed jobs to re-run")
			}
			ru.status, ru.conclusion, ru.attempt, ru.started = "queued", "", ru.attempt+1, time.Time{}
			if rest[3] == "rerun-failed-jobs" {
				return answer{Status: http.StatusCreated}
			}
			return created(s.runJSON(rp, ru))
		}
	case "POST actions/workflows/S/dispatches":
		return s.dispatch(rp, rest[2], body)
	}
	if len(rest) >= 1 && rest[0] == "contents" {
		return s.contents(r, rp, login, strings.Join(rest[1:], "/"), q, body)
	}
	if len(rest) >= 1 && rest[0] == "raw" && r.Method == http.MethodGet {
		ref, p := q.Get("ref"), strings.Join(rest[1:], "/")
		if c, found := rp.files[rp.branchAt(fakewire.Or(ref, rp.defaultBranch))][p]; found {
			return answer{Status: http.StatusOK, Raw: []byte(c)}
		}
	}
	return s.notFound()
}

// shape names a path by its fixed segments: "issues/N/comments".
func shape(seg []string) string {
	out := slices.Clone(seg)
	for i := range out {
		if _, err := strconv.ParseInt(out[i], 10, 64); err == nil {
			out[i] = "N"
		} else if i == 1 && (seg[0] == "commits") || i == 2 && seg[0] == "git" && seg[1] == "commits" || i == 2 && len(seg) > 2 && seg[0] == "actions" && seg[1] == "workflows" {
			out[i] = "S"
		}
	}
	if len(out) > 0 && (out[0] == "contents" || out[0] == "raw") {
		return out[0] + "/PATH"
	}
	return strings.Join(out, "/")
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func (s *Server) runOf(rp *repo, rest []string, _ int) *run {
	if s.forgejo || len(rest) < 3 {
		return nil
	}
	id, _ := strconv.ParseInt(rest[2], 10, 64)
	return rp.run(id)
}

// listIssues is GET .../issues: state, type, labels, since, assigned_by;
// newest first; paged. As on Gitea, a label name the repository lacks is
// dropped from the filter and the rest match case-sensitively (so an
// unknown name widens the listing), and an assignee Gitea has no user
// for is a 404.
func (s *Server) listIssues(rp *repo, path string, q url.Values) answer {
	state := fakewire.Or(q.Get("state"), "open")
	var labels []string
	if l := q.Get("labels"); l != "" {
		for _, name := range strings.Split(l, ",") {
			if slices.ContainsFunc(rp.labels, func(x *label) bool { return x.name == name }) {
				labels = append(labels, name)
			}
		}
	}
	if a := q.Get("assigned_by"); a != "" && !s.isUser(a) {
		return s.apiError(http.StatusNotFound, "user redirect does not exist [name: "+a+"]")
	}
	var since time.Time
	if v := q.Get("since"); v != "" {
		since, _ = time.Parse(time.RFC3339, v)
	}
	var items []*item
	for i := len(rp.items) - 1; i >= 0; i-- {
		it := rp.items[i]
		switch {
		case state != "all" && it.state != state,
			q.Get("type") == "issues" && it.pull != nil,
			q.Get("type") == "pulls" && it.pull == nil,
			!hasLabels(it, labels),
			!since.IsZero() && it.updated.Before(since),
			q.Get("assigned_by") != "" && !slices.Contains(it.assignees, q.Get("assigned_by")):
			continue
		}
		items = append(items, it)
	}
	return paged(s, path, q, items, func(it *item) any { return s.issueJSON(rp, it) })
}

func hasLabels(it *item, want []string) bool {
	for _, w := range want {
		if !slices.ContainsFunc(it.labels, func(l *label) bool { return l.name == w }) {
			return false
		}
	}
	return true
}

func (s *Server) labelsByID(rp *repo, ids []int64) ([]*label, bool) {
	var out []*label
	for _, id := range ids {
		i := slices.IndexFunc(rp.labels, func(l *label) bool { return l.id == id })
		if i < 0 {
			return nil, false
		}
		out = append(out, rp.labels[i])
	}
	return out, true
}

func (s *Server) createIssue(rp *repo, login string, body []byte) answer {
	var in struct {
		Title     string   `json:"title"`
		Body      string   `json:"body"`
		Assignees []string `json:"assignees"`
		Milestone int64    `json:"milestone"`
		Labels    []int64  `json:"labels"`
	}
	if !fakewire.Decode(body, &in) || strings.TrimSpace(in.Title) == "" {
		return s.apiError(http.StatusUnprocessableEntity, "[Title]: Required")
	}
	ls, found := s.labelsByID(rp, in.Labels)
	if !found {
		return s.apiError(http.StatusUnprocessableEntity, "label does not exist")
	}
	if _, found := rp.milestones[in.Milestone]; !found {
		in.Milestone = 0 // Gitea drops a milestone that is not the repository's
	}
	it := s.addItem(rp, in.Title, in.Body, login, nil)
	if rp.perm == "admin" || rp.perm == "write" {
		// Gitea keeps these only from a credential that can write, and
		// drops them silently otherwise.
		it.labels, it.assignees, it.milestone = ls, in.Assignees, in.Milestone
	}
	return created(s.issueJSON(rp, it))
}

func (s *Server) editIssue(rp *repo, it *item, body []byte) answer {
	var in struct {
		Title     string   `json:"title"`
		Body      *string  `json:"body"`
		Assignees []string `json:"assignees"`
		State     *string  `json:"state"`
	}
	if !fakewire.Decode(body, &in) {
		return s.apiError(http.StatusUnprocessableEntity, "invalid JSON")
	}
	if in.Title != "" {
		it.title = in.Title
	}
	if in.Body != nil {
		it.body = *in.Body
	}
	if in.Assignees != nil {
		it.assignees = in.Assignees
	}
	it.updated = s.n.Tick()
	if in.State != nil && *in.State != it.state {
		it.state = *in.State
		if it.state == "closed" {
			it.closed = &it.updated
		} else {
			it.closed = nil
		}
	}
	return created(s.issueJSON(rp, it))
}

func (s *Server) replaceLabels(rp *repo, it *item, body []byte) answer {
	var in struct {
		Labels []int64 `json:"labels"`
	}
	if !fakewire.Decode(body, &in) {
		return s.apiError(http.StatusUnprocessableEntity, "invalid JSON")
	}
	ls, found := s.labelsByID(rp, in.Labels)
	if !found {
		return s.apiError(http.StatusUnprocessableEntity, "label does not exist")
	}
	it.labels = ls
	return ok(s.labelsJSON(rp, ls))
}

func (s *Server) listPulls(rp *repo, path string, q url.Values) answer {
	state := fakewire.Or(q.Get("state"), "open")
	var items []*item
	for i := len(rp.items) - 1; i >= 0; i-- {
		if it := rp.items[i]; it.pull != nil && (state == "all" || it.state == state) {
			items = append(items, it)
		}
	}
	return paged(s, path, q, items, func(it *item) any { return s.pullJSON(rp, it) })
}

func (s *Server) createPull(rp *repo, login string, body []byte) answer {
	var in struct {
		Head, Base, Title, Body string
	}
	if !fakewire.Decode(body, &in) || strings.TrimSpace(in.Title) == "" {
		return s.apiError(http.StatusUnprocessableEntity, "[Title]: Required")
	}
	if _, found := rp.branches[in.Head]; !found {
		return s.apiError(http.StatusNotFound, "The target couldn't be found.")
	}
	if _, found := rp.branches[in.Base]; !found {
		return s.apiError(http.StatusNotFound, "The target couldn't be found.")
	}
	for _, it := range rp.items {
		if it.pull != nil && it.state == "open" && it.pull.head == in.Head && it.pull.base == in.Base {
			return s.apiError(http.StatusConflict, "pull request already exists for these targets [id: "+strconv.FormatInt(it.id, 10)+", issue_id: "+strconv.FormatInt(it.id, 10)+", head_repo_id: "+strconv.FormatInt(rp.id, 10)+", base_repo_id: "+strconv.FormatInt(rp.id, 10)+", head_branch: "+in.Head+", base_branch: "+in.Base+"]")
		}
	}
	it := s.addPull(rp, in.Title, in.Body, login, in.Head, in.Base, "", true)
	return created(s.pullJSON(rp, it))
}

// merge is POST .../pulls/N/merge: 405 when it cannot be merged, 409 when
// head_commit_id is not the head; 200 with no body when merged.
func (s *Server) merge(rp *repo, it *item, body []byte) answer {
	var in struct {
		Do           string `json:"Do"`
		HeadCommitID string `json:"head_commit_id"`
	}
	if !fakewire.Decode(body, &in) {
		return s.apiError(http.StatusUnprocessableEntity, "invalid JSON")
	}
	p := it.pull
	switch {
	case p.merged:
		return s.apiError(http.StatusMethodNotAllowed, "The PR is already merged")
	case strings.HasPrefix(strings.ToUpper(it.title), "WIP:") || strings.HasPrefix(strings.ToUpper(it.title), "[WIP]"):
		return s.apiError(http.StatusMethodNotAllowed, "Work in progress PRs cannot be merged")
	case !p.mergeable || it.state != "open":
		return s.apiError(http.StatusMethodNotAllowed, "Please try again later")
	case in.HeadCommitID != "" && in.HeadCommitID != p.headSHA:
		return s.apiError(http.StatusConflict, "head out of date")
	case !slices.Contains([]string{"merge", "rebase", "rebase-merge", "squash", "fast-forward-only"}, in.Do):
		return s.apiError(http.StatusUnprocessableEntity, "[Do]: In")
	}
	for k, v := range rp.files[p.head] {
		rp.files[p.base][k] = v
	}
	p.merged, p.mergeSHA = true, rp.commit(p.base)
	it.state, it.updated = "closed", s.n.Tick()
	it.closed = &it.updated
	return answer{Status: http.StatusOK}
}

// createReview posts a review: APPROVED, REQUEST_CHANGES or COMMENT (an
// empty event leaves it PENDING); Gitea refuses a verdict from the pull
// request's author.
func (s *Server) createReview(rp *repo, it *item, login string, body []byte) answer {
	var in struct {
		Event    string `json:"event"`
		Body     string `json:"body"`
		CommitID string `json:"commit_id"`
		Comments []struct {
			Path string `json:"path"`
			Body string `json:"body"`
			Old  int64  `json:"old_position"`
			New  int64  `json:"new_position"`
		} `json:"comments"`
	}
	if !fakewire.Decode(body, &in) {
		return s.apiError(http.StatusUnprocessableEntity, "invalid JSON")
	}
	state := map[string]string{"": "PENDING", "APPROVED": "APPROVED", "REQUEST_CHANGES": "REQUEST_CHANGES", "COMMENT": "COMMENT"}[in.Event]
	switch {
	case state == "":
		return s.apiError(http.StatusUnprocessableEntity, "unknown review event: "+in.Event)
	case login == it.author && (state == "APPROVED" || state == "REQUEST_CHANGES"):
		return s.apiError(http.StatusUnprocessableEntity, "reject your own pull is not allowed")
	case state != "APPROVED" && state != "PENDING" && strings.TrimSpace(in.Body) == "" && len(in.Comments) == 0:
		return s.apiError(http.StatusUnprocessableEntity, "review event COMMENT requires a body or comment")
	}
	v := &review{id: s.n.ID(), author: login, state: state, body: in.Body, commit: it.pull.headSHA, created: s.n.Tick()}
	for _, c := range in.Comments {
		if c.Path == "" || (c.New == 0) == (c.Old == 0) {
			return s.apiError(http.StatusUnprocessableEntity, "comment needs a path and exactly one of old_position and new_position")
		}
		v.comments = append(v.comments, &reviewComment{id: s.n.ID(), path: c.Path, newLine: c.New, oldLine: c.Old, body: c.Body})
	}
	s.n.User(login)
	it.pull.reviews = append(it.pull.reviews, v)
	return ok(s.reviewJSON(rp, it, v))
}

func (s *Server) combinedStatus(rp *repo, sha string) answer {
	state, total := "", 0
	for _, it := range rp.items {
		if it.pull != nil && it.pull.headSHA == sha && it.pull.statusState != "" {
			state, total = it.pull.statusState, 1
		}
	}
	return ok(map[string]any{
		"state": state, "sha": sha, "total_count": total, "statuses": []any{}, "repository": s.repoJSON(rp),
		"commit_url": s.api("/repos/%s/commits/%s", rp.fullName(), sha),
		"url":        s.api("/repos/%s/commits/%s/status", rp.fullName(), sha),
	})
}

// createBranch is POST .../branches: new_branch_name from old_ref_name
// (a branch or a commit) or the deprecated old_branch_name (a branch),
// the default branch when neither is given; 409 when it exists.
func (s *Server) createBranch(rp *repo, body []byte) answer {
	var in struct {
		New    string `json:"new_branch_name"`
		Old    string `json:"old_branch_name"`
		OldRef string `json:"old_ref_name"`
	}
	if !fakewire.Decode(body, &in) || in.New == "" {
		return s.apiError(http.StatusUnprocessableEntity, "[NewBranchName]: Required")
	}
	old := rp.defaultBranch
	switch {
	case in.OldRef != "":
		// Any ref or commit; one that names nothing is a 500 on Gitea.
		if old = rp.branchAt(in.OldRef); old == "" {
			return s.apiError(http.StatusInternalServerError, "object does not exist [id: "+in.OldRef+", rel_path: ]")
		}
	case in.Old != "":
		// The deprecated field: a branch name only.
		if _, found := rp.branches[in.Old]; !found {
			return s.apiError(http.StatusNotFound, "The old branch does not exist")
		}
		old = in.Old
	}
	if _, found := rp.branches[in.New]; found {
		return s.apiError(http.StatusConflict, "The branch already exists.")
	}
	rp.files[in.New] = map[string]string{}
	for k, v := range rp.files[old] {
		rp.files[in.New][k] = v
	}
	rp.branches[in.New] = rp.branches[old]
	return created(map[string]any{
		"name": in.New, "protected": false, "user_can_push": true, "user_can_merge": true,
		"commit": map[string]any{
			"id": rp.branches[in.New], "message": "Initial commit\n", "url": s.web("/%s/commit/%s", rp.fullName(), rp.branches[in.New]),
			"timestamp": stamp(s.n.Now()),
		},
	})
}

// contents serves GET (a file or a directory listing), POST (create) and
// PUT (update, with the current sha) under .../contents/PATH.
func (s *Server) contents(r *http.Request, rp *repo, login, path string, q url.Values, body []byte) answer {
	switch r.Method {
	case http.MethodGet:
		ref := fakewire.Or(q.Get("ref"), rp.defaultBranch)
		files, found := rp.files[ref]
		if !found {
			return s.notFound()
		}
		if c, isFile := files[path]; isFile {
			return ok(s.contentJSON(rp, ref, path, c, true))
		}
		var entries []any
		seen := map[string]bool{}
		prefix := strings.Trim(path, "/")
		if prefix != "" {
			prefix += "/"
		}
		for _, k := range slices.Sorted(mapKeys(files)) {
			rest, under := strings.CutPrefix(k, prefix)
			if !under {
				continue
			}
			if dir, _, nested := strings.Cut(rest, "/"); nested {
				if !seen[dir] {
					seen[dir] = true
					entries = append(entries, s.dirJSON(rp, ref, prefix+dir))
				}
				continue
			}
			entries = append(entries, s.contentJSON(rp, ref, k, files[k], false))
		}
		if entries == nil {
			return s.notFound()
		}
		return ok(entries)
	case http.MethodPost, http.MethodPut:
		var in struct {
			Content string `json:"content"`
			Message string `json:"message"`
			Branch  string `json:"branch"`
			SHA     string `json:"sha"`
		}
		if !fakewire.Decode(body, &in) {
			return s.apiError(http.StatusUnprocessableEntity, "invalid JSON")
		}
		raw, err := base64.StdEncoding.DecodeString(in.Content)
		if err != nil {
			return s.apiError(http.StatusUnprocessableEntity, "invalid base64 content")
		}
		branch := fakewire.Or(in.Branch, rp.defaultBranch)
		files, found := rp.files[branch]
		if !found {
			return s.apiError(http.StatusNotFound, "branch does not exist [name: "+branch+"]")
		}
		cur, exists := files[path]
		switch {
		case r.Method == http.MethodPost && exists:
			return s.apiError(http.StatusUnprocessableEntity, "repository file already exists [path: "+path+"]")
		case r.Method == http.MethodPut && !exists:
			return s.apiError(http.StatusNotFound, "repository file does not exist [path: "+path+"]")
		case r.Method == http.MethodPut && in.SHA != fakewire.BlobSHA(cur):
			return s.apiError(http.StatusUnprocessableEntity, "sha does not match [given: "+in.SHA+", expected: "+fakewire.BlobSHA(cur)+"]")
		}
		files[path] = string(raw)
		sha := rp.commit(branch)
		out := map[string]any{
			"content": s.contentJSON(rp, branch, path, string(raw), false),
			"commit": map[string]any{
				"url": s.api("/repos/%s/git/commits/%s", rp.fullName(), sha), "sha": sha, "created": stamp(s.n.Tick()),
				"html_url": s.web("/%s/commit/%s", rp.fullName(), sha), "message": in.Message + "\n",
				"author": map[string]any{"name": login, "email": login + "@noreply." + s.host},
			},
			"verification": map[string]any{"verified": false, "reason": "gpg.error.not_signed_commit"},
		}
		if r.Method == http.MethodPost {
			return created(out)
		}
		return ok(out)
	}
	return s.apiError(http.StatusMethodNotAllowed, "method not allowed")
}

// listRuns is GET .../actions/runs: branch and status filters, newest
// first, {total_count, workflow_runs}.
func (s *Server) listRuns(rp *repo, path string, q url.Values) answer {
	var runs []any
	for i := len(rp.runs) - 1; i >= 0; i-- {
		ru := rp.runs[i]
		st := q.Get("status")
		if (q.Get("branch") != "" && ru.branch != q.Get("branch")) || (st != "" && st != ru.status && st != ru.conclusion) {
			continue
		}
		runs = append(runs, s.runJSON(rp, ru))
	}
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit > 0 && len(runs) > limit {
		runs = runs[:limit]
	}
	if runs == nil {
		runs = []any{}
	}
	return ok(map[string]any{"total_count": len(runs), "workflow_runs": runs})
}

// dispatch is POST .../actions/workflows/{file}/dispatches: 204, the run
// queued.
func (s *Server) dispatch(rp *repo, workflow string, body []byte) answer {
	var in struct {
		Ref    string            `json:"ref"`
		Inputs map[string]string `json:"inputs"`
	}
	if !fakewire.Decode(body, &in) || in.Ref == "" {
		return s.apiError(http.StatusUnprocessableEntity, "[Ref]: Required")
	}
	if _, found := rp.branches[in.Ref]; !found {
		return s.apiError(http.StatusNotFound, "ref does not exist")
	}
	// Gitea reads the workflow at the dispatched ref.
	if _, found := rp.files[in.Ref][".gitea/workflows/"+workflow]; !found {
		if _, found := rp.files[in.Ref][".forgejo/workflows/"+workflow]; !found {
			return s.apiError(http.StatusNotFound, "workflow "+workflow+" not found")
		}
	}
	rp.runs = append(rp.runs, &run{
		id: s.n.ID(), number: int64(len(rp.runs) + 1), workflow: workflow, branch: in.Ref, sha: rp.branches[in.Ref],
		status: "queued", event: "workflow_dispatch", attempt: 1, // not started: Gitea sends the Unix epoch
	})
	return answer{Status: http.StatusNoContent}
}
