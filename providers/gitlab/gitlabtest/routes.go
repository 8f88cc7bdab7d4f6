package gitlabtest

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
	user, known := s.tokens[r.Header.Get("PRIVATE-TOKEN")]
	if !known {
		return s.message(http.StatusUnauthorized, "401 Unauthorized")
	}
	q := r.URL.Query()
	seg := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i, p := range seg {
		if u, err := url.PathUnescape(p); err == nil {
			seg[i] = u
		}
	}
	switch {
	case r.Method == http.MethodGet && path == "/projects":
		var ps []*project
		for _, k := range slices.Sorted(keys(s.projects)) {
			if p := s.projects[k]; q.Get("membership") != "true" || p.access > 0 {
				ps = append(ps, p)
			}
		}
		slices.SortFunc(ps, func(a, b *project) int { return int(a.id - b.id) })
		return paged(q, ps, func(p *project) any { return s.projectJSON(p) })
	case r.Method == http.MethodGet && path == "/users":
		out := []any{}
		if s.n.KnownUser(q.Get("username")) {
			out = append(out, s.userJSON(q.Get("username")))
		}
		return ok(out)
	case len(seg) < 2 || seg[0] != "projects":
		return s.message(http.StatusNotFound, "404 Not Found")
	}
	p := s.project(seg[1])
	if p == nil {
		return s.message(http.StatusNotFound, "404 Project Not Found")
	}
	rest := seg[2:]
	n := func(i int) int64 {
		if len(rest) <= i {
			return 0
		}
		v, _ := strconv.ParseInt(rest[i], 10, 64)
		return v
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead && p.access < 20 {
		return s.message(http.StatusForbidden, "403 Forbidden")
	}
	switch key := r.Method + " " + shape(rest); key {
	case "GET ":
		return ok(s.projectJSON(p))
	case "GET milestones":
		out := []any{}
		for _, m := range p.milestones {
			if ids := q["iids[]"]; len(ids) == 0 || slices.Contains(ids, strconv.FormatInt(m.iid, 10)) {
				out = append(out, map[string]any{"id": m.id, "iid": m.iid, "project_id": p.id, "title": m.title, "state": "active",
					"web_url": s.web("/%s/-/milestones/%d", p.path, m.iid)})
			}
		}
		return ok(out)
	case "GET issues":
		return s.listIssues(p, q)
	case "POST issues":
		return s.createIssue(p, user, body)
	case "GET issues/N":
		if i := p.issue(n(1)); i != nil {
			return ok(s.issueJSON(p, i))
		}
		return s.message(http.StatusNotFound, "404 Issue Not Found")
	case "PUT issues/N":
		if i := p.issue(n(1)); i != nil {
			return s.updateIssue(p, i, body)
		}
		return s.message(http.StatusNotFound, "404 Issue Not Found")
	case "GET issues/N/notes":
		if i := p.issue(n(1)); i != nil {
			return paged(q, i.notes, func(x *note) any { return s.noteJSON(p, "Issue", i.iid, x) })
		}
		return s.message(http.StatusNotFound, "404 Issue Not Found")
	case "POST issues/N/notes":
		if i := p.issue(n(1)); i != nil {
			return s.addNote(p, "Issue", i.iid, &i.notes, user, body, nil)
		}
		return s.message(http.StatusNotFound, "404 Issue Not Found")
	case "GET merge_requests":
		return s.listMRs(p, q)
	case "POST merge_requests":
		return s.createMR(p, user, body)
	case "GET merge_requests/N":
		if m := p.mr(n(1)); m != nil {
			return ok(s.mrJSON(p, m, true))
		}
		return s.message(http.StatusNotFound, "404 Not found")
	case "GET merge_requests/N/approvals":
		if m := p.mr(n(1)); m != nil {
			return ok(s.approvalsJSON(p, m, user))
		}
	case "POST merge_requests/N/approve":
		if m := p.mr(n(1)); m != nil {
			return s.approve(p, m, user, body)
		}
	case "GET merge_requests/N/notes":
		if m := p.mr(n(1)); m != nil {
			return paged(q, m.notes, func(x *note) any { return s.noteJSON(p, "MergeRequest", m.iid, x) })
		}
	case "POST merge_requests/N/notes":
		if m := p.mr(n(1)); m != nil {
			return s.addNote(p, "MergeRequest", m.iid, &m.notes, user, body, nil)
		}
	case "POST merge_requests/N/discussions":
		if m := p.mr(n(1)); m != nil {
			return s.discussion(p, m, user, body)
		}
	case "PUT merge_requests/N/merge":
		if m := p.mr(n(1)); m != nil {
			return s.merge(p, m, body)
		}
	case "GET repository/tree":
		return s.tree(p, q)
	case "POST repository/branches":
		return s.createBranch(p, body, q)
	case "GET repository/files/F", "HEAD repository/files/F", "POST repository/files/F", "PUT repository/files/F":
		return s.file(r.Method, p, rest[2], q, body)
	case "GET pipelines":
		return s.listPipelines(p, q)
	case "GET pipelines/N":
		if pl := p.pipeline(n(1)); pl != nil {
			return ok(s.pipelineJSON(p, pl))
		}
	case "GET pipelines/N/jobs":
		if pl := p.pipeline(n(1)); pl != nil {
			return paged(q, pl.jobs, func(j *job) any { return s.jobJSON(p, pl, j) })
		}
	case "POST pipelines/N/retry":
		if pl := p.pipeline(n(1)); pl != nil {
			retried := false
			for _, j := range pl.jobs {
				if j.status == "failed" || j.status == "canceled" {
					j.status, retried = "pending", true
				}
			}
			if retried {
				pl.status = "pending"
			}
			return created(s.pipelineJSON(p, pl))
		}
	case "POST pipeline":
		return s.createPipeline(p, body)
	case "GET jobs/N/trace":
		for _, pl := range p.pipelines {
			for _, j := range pl.jobs {
				if j.id == n(1) {
					return answer{Status: http.StatusOK, Raw: []byte(j.trace)}
				}
			}
		}
	}
	return s.message(http.StatusNotFound, "404 Not found")
}

// project resolves a :id, numeric or a full path.
func (s *Server) project(id string) *project {
	if n, err := strconv.ParseInt(id, 10, 64); err == nil {
		for _, p := range s.projects {
			if p.id == n {
				return p
			}
		}
		return nil
	}
	return s.projects[strings.ToLower(id)]
}

func shape(seg []string) string {
	out := slices.Clone(seg)
	for i := range out {
		if _, err := strconv.ParseInt(out[i], 10, 64); err == nil {
			out[i] = "N"
		}
	}
	if len(out) >= 3 && out[0] == "repository" && out[1] == "files" {
		return "repository/files/F"
	}
	return strings.Join(out, "/")
}

func keys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func (s *Server) listIssues(p *project, q url.Values) answer {
	state := fakewire.Or(q.Get("state"), "all")
	var labels []string
	if l := q.Get("labels"); l != "" {
		labels = strings.Split(l, ",")
	}
	var after time.Time
	if v := q.Get("updated_after"); v != "" {
		after, _ = time.Parse(time.RFC3339, v)
	}
	var out []*issue
	for _, i := range p.issues {
		switch {
		case state != "all" && i.state != state,
			!hasAll(i.labels, labels),
			q.Get("assignee_username") != "" && !slices.Contains(i.assignees, q.Get("assignee_username")),
			!after.IsZero() && i.updated.Before(after):
			continue
		}
		out = append(out, i)
	}
	if q.Get("sort") != "asc" {
		slices.Reverse(out)
	}
	return paged(q, out, func(i *issue) any { return s.issueJSON(p, i) })
}

func hasAll(have, want []string) bool {
	for _, w := range want {
		if !slices.ContainsFunc(have, func(h string) bool { return strings.EqualFold(h, w) }) {
			return false
		}
	}
	return true
}

type issueInput struct {
	Title       *string  `json:"title"`
	Description *string  `json:"description"`
	Labels      *string  `json:"labels"`
	AssigneeIDs *[]int64 `json:"assignee_ids"`
	MilestoneID *int64   `json:"milestone_id"`
	StateEvent  *string  `json:"state_event"`
}

// labelsOf reads GitLab's labels parameter: a comma-separated string (the
// client sends a JSON string).
func labelsOf(v *string) []string {
	if v == nil || *v == "" {
		return nil
	}
	return strings.Split(*v, ",")
}

func (s *Server) usernames(ids []int64) ([]string, bool) {
	var out []string
	for _, id := range ids {
		name, found := s.n.UserName(id)
		if !found {
			return nil, false
		}
		out = append(out, name)
	}
	return out, true
}

func (s *Server) createIssue(p *project, user string, body []byte) answer {
	var in issueInput
	if !fakewire.Decode(body, &in) {
		return s.message(http.StatusBadRequest, "400 Bad request")
	}
	if in.Title == nil || strings.TrimSpace(*in.Title) == "" {
		return answer{Status: http.StatusBadRequest, Body: map[string]any{"error": "title is missing"}}
	}
	i := s.addIssue(p, *in.Title, deref(in.Description), user, labelsOf(in.Labels))
	return s.applyIssue(p, i, in, created)
}

func (s *Server) updateIssue(p *project, i *issue, body []byte) answer {
	var in issueInput
	if !fakewire.Decode(body, &in) {
		return s.message(http.StatusBadRequest, "400 Bad request")
	}
	if in.Title != nil {
		i.title = *in.Title
	}
	if in.Description != nil {
		i.desc = *in.Description
	}
	if in.Labels != nil {
		i.labels = labelsOf(in.Labels)
	}
	i.updated = s.n.Tick()
	switch deref(in.StateEvent) {
	case "close":
		i.state, i.closed = "closed", &i.updated
	case "reopen":
		i.state, i.closed = "opened", nil
	}
	return s.applyIssue(p, i, in, ok)
}

// applyIssue sets assignees and milestone by id, refusing unknown ones as
// GitLab does.
func (s *Server) applyIssue(p *project, i *issue, in issueInput, reply func(any) answer) answer {
	if in.AssigneeIDs != nil {
		names, found := s.usernames(*in.AssigneeIDs)
		if !found {
			return s.message(http.StatusNotFound, "404 User Not Found")
		}
		i.assignees = names
	}
	if in.MilestoneID != nil {
		idx := slices.IndexFunc(p.milestones, func(m *milestone) bool { return m.id == *in.MilestoneID })
		if idx < 0 {
			return s.message(http.StatusNotFound, "404 Milestone Not Found")
		}
		i.milestone = p.milestones[idx]
	}
	return reply(s.issueJSON(p, i))
}

func (s *Server) addNote(p *project, kind string, iid int64, notes *[]*note, user string, body []byte, pos map[string]any) answer {
	var in struct {
		Body string `json:"body"`
	}
	if !fakewire.Decode(body, &in) || strings.TrimSpace(in.Body) == "" {
		return s.message(http.StatusBadRequest, map[string]any{"note": []string{"can't be blank"}})
	}
	x := &note{id: s.n.ID(), author: user, body: in.Body, created: s.n.Tick(), position: pos}
	s.n.User(user)
	*notes = append(*notes, x)
	return created(s.noteJSON(p, kind, iid, x))
}

func (s *Server) listMRs(p *project, q url.Values) answer {
	state := fakewire.Or(q.Get("state"), "all")
	var out []*mr
	for _, m := range p.mrs {
		switch {
		case state != "all" && m.state != state,
			q.Get("source_branch") != "" && m.source != q.Get("source_branch"),
			q.Get("target_branch") != "" && m.target != q.Get("target_branch"):
			continue
		}
		out = append(out, m)
	}
	if q.Get("sort") != "asc" {
		slices.Reverse(out)
	}
	return paged(q, out, func(m *mr) any { return s.mrJSON(p, m, false) })
}

func (s *Server) createMR(p *project, user string, body []byte) answer {
	var in struct {
		Title        string `json:"title"`
		Description  string `json:"description"`
		SourceBranch string `json:"source_branch"`
		TargetBranch string `json:"target_branch"`
	}
	if !fakewire.Decode(body, &in) || in.Title == "" || in.SourceBranch == "" || in.TargetBranch == "" {
		return answer{Status: http.StatusBadRequest, Body: map[string]any{"error": "title, source_branch, target_branch are missing"}}
	}
	for _, b := range []string{in.SourceBranch, in.TargetBranch} {
		if _, found := p.branches[b]; !found {
			return s.message(http.StatusNotFound, "404 Branch Not Found")
		}
	}
	for _, m := range p.mrs {
		if m.state == "opened" && m.source == in.SourceBranch && m.target == in.TargetBranch {
			return s.message(http.StatusConflict, []string{"Another open merge request already exists for this source branch: !" + strconv.FormatInt(m.iid, 10)})
		}
	}
	m := s.addMR(p, in.Title, in.Description, user, in.SourceBranch, in.TargetBranch)
	return created(s.mrJSON(p, m, true))
}

func (s *Server) approvalsJSON(p *project, m *mr, user string) map[string]any {
	by := []any{}
	for _, a := range m.approvedBy {
		by = append(by, map[string]any{"user": s.userJSON(a)})
	}
	return map[string]any{
		"id": m.id, "iid": m.iid, "project_id": p.id, "title": m.title, "state": m.state,
		"approved": len(m.approvedBy) > 0, "approvals_required": 0, "approvals_left": 0, "approved_by": by,
		"user_has_approved": slices.Contains(m.approvedBy, user), "user_can_approve": user != m.author,
	}
}

// approve is POST .../approve: the author cannot approve (401, as GitLab
// answers), nor can anyone twice; a sha that is not the head is 409.
func (s *Server) approve(p *project, m *mr, user string, body []byte) answer {
	var in struct {
		SHA string `json:"sha"`
	}
	fakewire.Decode(body, &in)
	switch {
	case user == m.author || slices.Contains(m.approvedBy, user):
		return s.message(http.StatusUnauthorized, "401 Unauthorized")
	case in.SHA != "" && in.SHA != p.branches[m.source]:
		return s.message(http.StatusConflict, "SHA does not match HEAD of source branch: "+p.branches[m.source])
	}
	m.approvedBy = append(m.approvedBy, user)
	s.n.User(user)
	return created(s.approvalsJSON(p, m, user))
}

// discussion is POST .../discussions with a diff position: base, start and
// head sha must be the merge request's diff refs, and a text position
// needs new_line or old_line.
func (s *Server) discussion(p *project, m *mr, user string, body []byte) answer {
	var in struct {
		Body     string         `json:"body"`
		Position map[string]any `json:"position"`
	}
	if !fakewire.Decode(body, &in) {
		return s.message(http.StatusBadRequest, "400 Bad request")
	}
	pos := in.Position
	if pos != nil {
		if pos["base_sha"] != p.branches[m.target] || pos["head_sha"] != p.branches[m.source] || pos["start_sha"] != p.branches[m.target] {
			return s.message(http.StatusBadRequest, "400 Bad request - Note {:line_code=>[\"can't be blank\", \"must be a valid line code\"]}")
		}
		if pos["position_type"] != "text" || (pos["new_line"] == nil && pos["old_line"] == nil) {
			return s.message(http.StatusBadRequest, "400 Bad request - position is invalid")
		}
	}
	a := s.addNote(p, "MergeRequest", m.iid, &m.notes, user, body, pos)
	if a.Status != http.StatusCreated {
		return a
	}
	return created(map[string]any{"id": strconv.FormatInt(s.n.ID(), 16), "individual_note": pos == nil, "notes": []any{a.Body}})
}

// merge is PUT .../merge: 405 when it cannot be merged, 409 when sha is
// not the head of the source branch.
func (s *Server) merge(p *project, m *mr, body []byte) answer {
	var in struct {
		SHA    string `json:"sha"`
		Squash bool   `json:"squash"`
	}
	fakewire.Decode(body, &in)
	switch {
	case m.state != "opened" || m.blocked:
		return s.message(http.StatusMethodNotAllowed, "405 Method Not Allowed")
	case in.SHA != "" && in.SHA != p.branches[m.source]:
		return s.message(http.StatusConflict, "SHA does not match HEAD of source branch: "+p.branches[m.source])
	}
	var changed []string
	for k, v := range p.files[m.source] {
		if p.files[m.target][k] != v {
			p.files[m.target][k] = v
			changed = append(changed, k)
		}
	}
	if in.Squash {
		m.squashSHA = p.commit(m.target, changed...)
		m.mergeSHA = p.commit(m.target)
	} else {
		m.mergeSHA = p.commit(m.target, changed...)
	}
	m.state, m.updated = "merged", s.n.Tick()
	return ok(s.mrJSON(p, m, true))
}

func (s *Server) tree(p *project, q url.Values) answer {
	ref := fakewire.Or(q.Get("ref"), p.defaultBranch)
	files, found := p.files[ref]
	if !found {
		return s.message(http.StatusNotFound, "404 Tree Not Found")
	}
	prefix := strings.Trim(q.Get("path"), "/")
	if prefix != "" {
		prefix += "/"
	}
	var nodes []map[string]any
	seen := map[string]bool{}
	for _, k := range slices.Sorted(keys(files)) {
		rest, under := strings.CutPrefix(k, prefix)
		if !under {
			continue
		}
		if dir, _, nested := strings.Cut(rest, "/"); nested {
			if !seen[dir] {
				seen[dir] = true
				nodes = append(nodes, map[string]any{"id": fakewire.BlobSHA("tree:" + prefix + dir), "name": dir, "type": "tree", "path": prefix + dir, "mode": "040000"})
			}
			continue
		}
		nodes = append(nodes, map[string]any{"id": fakewire.BlobSHA(files[k]), "name": rest, "type": "blob", "path": k, "mode": "100644"})
	}
	return paged(q, nodes, func(n map[string]any) any { return n })
}

func (s *Server) createBranch(p *project, body []byte, q url.Values) answer {
	var in struct {
		Branch string `json:"branch"`
		Ref    string `json:"ref"`
	}
	if !fakewire.Decode(body, &in) {
		in.Branch, in.Ref = q.Get("branch"), q.Get("ref")
	}
	if in.Branch == "" || in.Ref == "" {
		return answer{Status: http.StatusBadRequest, Body: map[string]any{"error": "branch is missing, ref is missing"}}
	}
	if _, found := p.branches[in.Branch]; found {
		return s.message(http.StatusBadRequest, "Branch already exists")
	}
	from, found := p.branches[in.Ref]
	if !found {
		return s.message(http.StatusBadRequest, "Invalid reference name: "+in.Ref)
	}
	p.branches[in.Branch] = from
	p.files[in.Branch] = map[string]string{}
	p.lastCommit[in.Branch] = map[string]string{}
	for k, v := range p.files[in.Ref] {
		p.files[in.Branch][k] = v
		p.lastCommit[in.Branch][k] = p.lastCommit[in.Ref][k]
	}
	return created(map[string]any{
		"name": in.Branch, "merged": false, "protected": false, "default": false, "can_push": true,
		"web_url": s.web("/%s/-/tree/%s", p.path, in.Branch),
		"commit":  map[string]any{"id": from, "short_id": from[:8], "title": "commit", "web_url": s.web("/%s/-/commit/%s", p.path, from)},
	})
}

// file serves .../repository/files/:path: GET (content, base64), HEAD
// (metadata in X-Gitlab-* headers), POST (create) and PUT (update,
// last_commit_id checked).
func (s *Server) file(method string, p *project, name string, q url.Values, body []byte) answer {
	if method == http.MethodGet || method == http.MethodHead {
		ref := q.Get("ref")
		if ref == "" {
			return answer{Status: http.StatusBadRequest, Body: map[string]any{"error": "ref is missing"}}
		}
		content, found := p.files[ref][name]
		if !found {
			return s.message(http.StatusNotFound, "404 File Not Found")
		}
		meta := map[string]any{
			"file_name": name[strings.LastIndexByte(name, '/')+1:], "file_path": name, "size": len(content),
			"encoding": "base64", "content_sha256": "", "ref": ref, "blob_id": fakewire.BlobSHA(content),
			"commit_id": p.branches[ref], "last_commit_id": p.lastCommit[ref][name], "execute_filemode": false,
		}
		if method == http.MethodHead {
			h := http.Header{}
			for k, hk := range map[string]string{"blob_id": "X-Gitlab-Blob-Id", "commit_id": "X-Gitlab-Commit-Id", "last_commit_id": "X-Gitlab-Last-Commit-Id",
				"file_path": "X-Gitlab-File-Path", "file_name": "X-Gitlab-File-Name", "ref": "X-Gitlab-Ref", "encoding": "X-Gitlab-Encoding"} {
				h.Set(hk, meta[k].(string))
			}
			h.Set("X-Gitlab-Size", strconv.Itoa(len(content)))
			return answer{Status: http.StatusOK, Header: h}
		}
		meta["content"] = base64.StdEncoding.EncodeToString([]byte(content))
		return ok(meta)
	}
	var in struct {
		Branch        string `json:"branch"`
		Content       string `json:"content"`
		CommitMessage string `json:"commit_message"`
		LastCommitID  string `json:"last_commit_id"`
		Encoding      string `json:"encoding"`
	}
	if !fakewire.Decode(body, &in) || in.Branch == "" || in.CommitMessage == "" {
		return answer{Status: http.StatusBadRequest, Body: map[string]any{"error": "branch is missing, commit_message is missing"}}
	}
	files, found := p.files[in.Branch]
	if !found {
		return s.message(http.StatusBadRequest, "You can only create or edit files when you are on a branch")
	}
	_, exists := files[name]
	switch {
	case method == http.MethodPost && exists:
		return s.message(http.StatusBadRequest, "A file with this name already exists")
	case method == http.MethodPut && !exists:
		return s.message(http.StatusBadRequest, "A file with this name doesn't exist")
	case method == http.MethodPut && in.LastCommitID != "" && in.LastCommitID != p.lastCommit[in.Branch][name]:
		return s.message(http.StatusBadRequest, "You are attempting to update a file that has changed since you started editing it.")
	}
	content := in.Content
	if in.Encoding == "base64" {
		raw, err := base64.StdEncoding.DecodeString(in.Content)
		if err != nil {
			return s.message(http.StatusBadRequest, "content is not base64")
		}
		content = string(raw)
	}
	files[name] = content
	p.commit(in.Branch, name)
	status := http.StatusCreated
	if method == http.MethodPut {
		status = http.StatusOK
	}
	return answer{Status: status, Body: map[string]any{"file_path": name, "branch": in.Branch}}
}

func (s *Server) listPipelines(p *project, q url.Values) answer {
	var out []*pipeline
	for i := len(p.pipelines) - 1; i >= 0; i-- {
		pl := p.pipelines[i]
		if (q.Get("ref") != "" && pl.ref != q.Get("ref")) || (q.Get("status") != "" && pl.status != q.Get("status")) {
			continue
		}
		out = append(out, pl)
	}
	return paged(q, out, func(pl *pipeline) any { return s.pipelineJSON(p, pl) })
}

// createPipeline is POST .../pipeline: a pipeline on a branch or tag, with
// variables; 400 when the ref does not exist.
func (s *Server) createPipeline(p *project, body []byte) answer {
	var in struct {
		Ref       string `json:"ref"`
		Variables []struct {
			Key   string `json:"key"`
			Value string `json:"value"`
		} `json:"variables"`
	}
	if !fakewire.Decode(body, &in) || in.Ref == "" {
		return answer{Status: http.StatusBadRequest, Body: map[string]any{"error": "ref is missing"}}
	}
	if _, found := p.branches[in.Ref]; !found {
		return s.message(http.StatusBadRequest, map[string]any{"base": []string{"Reference not found"}})
	}
	vars := map[string]string{}
	for _, v := range in.Variables {
		vars[v.Key] = v.Value
	}
	pl := s.addPipeline(p, in.Ref, "created", "api", vars)
	return created(s.pipelineJSON(p, pl))
}

// Variables are the CI/CD variables a pipeline was started with.
func (s *Server) Variables(path string, id int64) map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if pl := s.mustProject(path).pipeline(id); pl != nil {
		return pl.vars
	}
	return nil
}

func deref(v *string) string {
	if v == nil {
		return ""
	}
	return *v
}
