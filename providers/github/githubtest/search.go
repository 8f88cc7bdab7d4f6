package githubtest

import (
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

// GitHub's search endpoints, GET /search/code and GET /search/issues. The
// fake reads q as GitHub does: whitespace-separated terms, a "quoted
// phrase" one literal term (qualifiers inside it are text), and
// key:value qualifiers anywhere else, repo:, org: and user: restricting
// the repositories (several are OR'ed; none searches every repository
// the caller can see), is:issue, is:pr, is:open, is:closed, state: and
// type: the kind and state. Terms match case-insensitively as
// substrings: of a file's content on the default branch, or of an
// issue's title and body. That is enough for a test to prove a
// provider's query cannot be widened by what it quotes.

const docSearch = "https://docs.github.com/rest/search/search"

// searchRoutes adds the search endpoints to the account's routes.
func (s *Server) searchRoutes() {
	on(s.Engine, "GET /search/code", func(c *call) answer { return s.searchCode(c) })
	on(s.Engine, "GET /search/issues", func(c *call) answer { return s.searchIssues(c) })
}

// searchQuery is a parsed q.
type searchQuery struct {
	terms []string // lower-cased
	repos []string // lower-cased owner/name, or owner/ for org: and user:
	is    []string // is:, state: and type: values, lower-cased
}

// parseQuery reads q; ok is false for one GitHub refuses (no term, or an
// unterminated quote).
func parseQuery(q string) (sq searchQuery, ok bool) {
	for rest := strings.TrimSpace(q); rest != ""; rest = strings.TrimSpace(rest) {
		if phrase, ok := strings.CutPrefix(rest, `"`); ok {
			end := strings.Index(phrase, `"`)
			if end < 0 {
				return sq, false
			}
			if t := strings.ToLower(phrase[:end]); t != "" {
				sq.terms = append(sq.terms, t)
			}
			rest = phrase[end+1:]
			continue
		}
		tok := rest
		if i := strings.IndexAny(rest, " \t\n"); i >= 0 {
			tok, rest = rest[:i], rest[i:]
		} else {
			rest = ""
		}
		key, v, qualifier := strings.Cut(strings.ToLower(tok), ":")
		switch {
		case qualifier && key == "repo":
			sq.repos = append(sq.repos, v)
		case qualifier && (key == "org" || key == "user"):
			sq.repos = append(sq.repos, v+"/")
		case qualifier && (key == "is" || key == "state" || key == "type"):
			sq.is = append(sq.is, v)
		default:
			sq.terms = append(sq.terms, strings.ToLower(tok))
		}
	}
	return sq, len(sq.terms) > 0
}

// covers reports whether the query's repository qualifiers take in r.
func (sq searchQuery) covers(r *repo) bool {
	if len(sq.repos) == 0 {
		return true
	}
	path := strings.ToLower(r.Path)
	return slices.ContainsFunc(sq.repos, func(q string) bool {
		return q == path || (strings.HasSuffix(q, "/") && strings.HasPrefix(path, q))
	})
}

// matches reports whether text holds every term.
func (sq searchQuery) matches(text string) bool {
	text = strings.ToLower(text)
	for _, t := range sq.terms {
		if !strings.Contains(text, t) {
			return false
		}
	}
	return true
}

// searched is the repositories a search covers, in a stable order: those
// the caller can see that its qualifiers take in.
func (s *Server) searched(sq searchQuery, login string) []*repo {
	var out []*repo
	for _, r := range s.Repos {
		if sq.covers(r) && (!r.Private || r.Role(login, "") != "") {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// searchPage is GitHub's search answer: total_count, incomplete_results
// and the page's items, with a Link header for the other pages.
// An issue search also says it was lexical (search_type), the only kind
// the fake performs and GitHub's default.
func searchPage[T any](s *Server, c *call, items []T, render func(T) any) answer {
	n, per, header := s.pageOf(c.path, c.Query, len(items))
	out, _ := forgefake.Page(items, n, per, render)
	body := map[string]any{"total_count": len(items), "incomplete_results": false, "items": out}
	if strings.HasSuffix(c.path, "/issues") {
		body["search_type"] = "lexical"
	}
	a := jsonAnswer(http.StatusOK, body)
	a.Header = header
	return a
}

// badQuery is GitHub's 422 for a q it cannot read.
func badQuery() answer {
	return errorAnswer(http.StatusUnprocessableEntity, "Validation Failed", docSearch,
		[]map[string]string{{"message": "The search query is invalid.", "resource": "Search", "field": "q", "code": "invalid"}})
}

// textMatches is the text-match media type's text_matches of one
// property: the first fragment holding a term (GitHub's fragments are
// short windows around a match; the fake's is the matching line).
func textMatches(sq searchQuery, objectURL, objectType, property, text string) []map[string]any {
	for _, line := range strings.Split(text, "\n") {
		low := strings.ToLower(line)
		for _, t := range sq.terms {
			if i := strings.Index(low, t); i >= 0 {
				return []map[string]any{{
					"object_url": objectURL, "object_type": objectType, "property": property, "fragment": line,
					"matches": []map[string]any{{"text": line[i : i+len(t)], "indices": []int{i, i + len(t)}}},
				}}
			}
		}
	}
	return []map[string]any{}
}

// searchCode is GET /search/code: the default branch's files holding
// every term, by repository then path.
func (s *Server) searchCode(c *call) answer {
	sq, ok := parseQuery(c.Query.Get("q"))
	if !ok {
		return badQuery()
	}
	type hit struct {
		r    *repo
		path string
		sha  string
		text string
	}
	var hits []hit
	for _, r := range s.searched(sq, c.login) {
		head := r.CommitAt(r.DefaultBranch)
		if head == nil {
			continue
		}
		for _, path := range slices.Sorted(maps.Keys(head.Tree)) {
			f := head.Tree[path]
			if f.Kind == "" && sq.matches(string(f.Content)) {
				hits = append(hits, hit{r, path, hashOf(r.Path, path, string(f.Content)), string(f.Content)})
			}
		}
	}
	withText := strings.Contains(c.R.Header.Get("Accept"), "text-match")
	return searchPage(s, c, hits, func(h hit) any {
		name := h.path[strings.LastIndex(h.path, "/")+1:]
		api := s.api("/repos/%s/contents/%s?ref=%s", h.r.Path, h.path, h.r.Branches[h.r.DefaultBranch])
		out := map[string]any{
			"name": name, "path": h.path, "sha": h.sha, "url": api,
			"git_url":    s.api("/repos/%s/git/blobs/%s", h.r.Path, h.sha),
			"html_url":   s.web("/%s/blob/%s/%s", h.r.Path, h.r.Branches[h.r.DefaultBranch], h.path),
			"repository": s.minimalRepoJSON(h.r), "score": 1.0,
		}
		if withText {
			out["text_matches"] = textMatches(sq, api, "FileContent", "content", h.text)
		}
		return out
	})
}

// searchIssues is GET /search/issues: issues and pull requests whose
// title or body holds every term, filtered by is:, state: and type:,
// newest first.
func (s *Server) searchIssues(c *call) answer {
	sq, ok := parseQuery(c.Query.Get("q"))
	if !ok {
		return badQuery()
	}
	want := func(it *item) bool {
		for _, v := range sq.is {
			switch v {
			case "issue":
				if it.Pull != nil {
					return false
				}
			case "pr", "pull-request":
				if it.Pull == nil {
					return false
				}
			case "open", "closed":
				if it.State != v {
					return false
				}
			case "merged":
				if it.Pull == nil || !it.Pull.Merged {
					return false
				}
			}
		}
		return true
	}
	var items []*item
	var repos []*repo
	for _, r := range s.searched(sq, c.login) {
		for _, it := range slices.Backward(r.Items) {
			if it.Moved == nil && want(it) && sq.matches(it.Title+"\n"+it.Body) {
				items, repos = append(items, it), append(repos, r)
			}
		}
	}
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	return searchPage(s, c, idx, func(i int) any {
		// A search item's body is a string, absent when empty, where the
		// issue endpoints send null.
		out := struct {
			issueJSON
			Body  string  `json:"body,omitempty"`
			Score float64 `json:"score"`
		}{issueJSON: s.issueJSON(repos[i], items[i]), Score: 1.0}
		out.Body = items[i].Body
		return out
	})
}
