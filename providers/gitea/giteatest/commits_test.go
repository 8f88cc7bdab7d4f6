package giteatest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	sdk "code.gitea.io/sdk/gitea"
)

// TestListCommitsWire holds GET .../commits to Gitea 1.27's
// GetAllCommits: the SDK's Commit shape, newest first, the paging
// headers, a path's history paged at COMMITS_RANGE_SIZE whatever the
// limit (but counted by it), 404 for a path nothing touched, 422 for a
// bad since (a good one ignored), until applied, stat/files/verification on unless "false", and a branch
// made from another carrying its history.
func TestListCommitsWire(t *testing.T) {
	s := seeded(t)
	const base = "/repos/acme/gadgets"
	if st, _, b := get(t, s, "POST", base+"/branches", `{"new_branch_name":"hist","old_ref_name":"main"}`, token); st != http.StatusCreated {
		t.Fatalf("branch: %d %s", st, b)
	}
	var shas []string
	for i := 1; i <= 4; i++ {
		body := fmt.Sprintf(`{"branch":"hist","message":"Note %d","content":%q}`, i, base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf("n%d\nmore\n", i))))
		st, _, b := get(t, s, "POST", fmt.Sprintf("%s/contents/notes/n%d.txt", base, i), body, token)
		if st != http.StatusCreated {
			t.Fatalf("write %d: %d %s", i, st, b)
		}
		var out struct{ Commit struct{ SHA string } }
		_ = json.Unmarshal(b, &out)
		shas = append(shas, out.Commit.SHA)
	}
	seed := s.Head("acme/gadgets", "main") // hist's first commit is main's

	st, h, b := get(t, s, "GET", base+"/commits?sha=hist&limit=2&page=2&stat=false&verification=false&files=false", "", token)
	var page []sdk.Commit
	if err := json.Unmarshal(b, &page); st != http.StatusOK || err != nil {
		t.Fatalf("list: %d %s", st, b)
	}
	if len(page) != 2 || page[0].SHA != shas[1] || page[1].SHA != shas[0] {
		t.Fatalf("page 2 is %s, want Note 2 and Note 1", b)
	}
	if c := page[0]; c.RepoCommit.Message != "Note 2\n" || c.RepoCommit.Author.Name != "forgetools-bot" || c.Author.UserName != "forgetools-bot" ||
		len(c.Parents) != 1 || c.Parents[0].SHA != shas[0] || c.HTMLURL != "https://gitea.example.com/acme/gadgets/commit/"+shas[1] || c.Stats != nil || c.Files != nil {
		t.Errorf("commit: %s", b)
	}
	if strings.Contains(string(b), "verification") {
		t.Errorf("verification=false still sent it: %s", b)
	}
	for k, v := range map[string]string{"X-Total-Count": "5", "X-Total": "5", "X-Page": "2", "X-PerPage": "2", "X-PageCount": "3", "X-HasMore": "true"} {
		if h.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, h.Get(k), v)
		}
	}
	link := h.Get("Link")
	for _, rel := range []string{`page=3&sha=hist&stat=false&verification=false>; rel="next"`, `page=3&sha=hist&stat=false&verification=false>; rel="last"`, `page=1&`, `rel="first"`, `rel="prev"`} {
		if !strings.Contains(link, rel) {
			t.Errorf("Link %q has no %s", link, rel)
		}
	}
	// The last page: the seeded commit, no next.
	_, h, b = get(t, s, "GET", base+"/commits?sha=hist&limit=2&page=3", "", token)
	if err := json.Unmarshal(b, &page); err != nil || len(page) != 1 || page[0].SHA != seed || h.Get("X-HasMore") != "false" || strings.Contains(h.Get("Link"), `rel="next"`) {
		t.Errorf("last page: %s %v", b, h)
	}
	// Flags left out are on: stats, files and verification.
	if len(page) == 1 && (page[0].Stats == nil || len(page[0].Files) != 1 || page[0].RepoCommit.Verification == nil) {
		t.Errorf("default flags: %s", b)
	}
	_, _, b = get(t, s, "GET", base+"/commits?sha="+shas[3]+"&limit=1", "", token)
	if err := json.Unmarshal(b, &page); err != nil || len(page) != 1 || page[0].Stats == nil || page[0].Stats.Additions != 2 || page[0].Files[0].Filename != "notes/n4.txt" || !strings.Contains(string(b), `"status":"added"`) {
		t.Errorf("a commit's stats and files: %s", b)
	}

	// A path pages at 50 whatever limit says, yet counts pages by limit.
	st, h, b = get(t, s, "GET", base+"/commits?sha=hist&path=notes&limit=1", "", token)
	if err := json.Unmarshal(b, &page); st != http.StatusOK || err != nil || len(page) != 4 || h.Get("X-PageCount") != "4" || h.Get("X-HasMore") != "true" {
		t.Errorf("path: %d %s %v", st, b, h)
	}
	var got []string
	for _, c := range page {
		got = append(got, c.SHA)
	}
	if !slices.Equal(got, []string{shas[3], shas[2], shas[1], shas[0]}) {
		t.Errorf("path history %v", got)
	}
	if st, _, b = get(t, s, "GET", base+"/commits?sha=hist&path=nowhere", "", token); st != http.StatusNotFound || !strings.Contains(string(b), `"not found"`) {
		t.Errorf("untouched path: %d %s", st, b)
	}
	// A date filter that leaves none of a touched path is an empty page.
	if st, _, b = get(t, s, "GET", base+"/commits?sha=hist&path=notes&until=2000-01-01T00:00:00Z", "", token); st != http.StatusOK || strings.TrimSpace(string(b)) != "[]" {
		t.Errorf("until before everything: %d %s", st, b)
	}
	// since is checked, then ignored, as Gitea 1.27.3 does.
	if _, _, b = get(t, s, "GET", base+"/commits?sha=hist&since=2999-01-01T00:00:00Z", "", token); json.Unmarshal(b, &page) != nil || len(page) != 5 {
		t.Errorf("since in the future: %s", b)
	}
	if st, _, _ = get(t, s, "GET", base+"/commits?since=yesterday", "", token); st != http.StatusUnprocessableEntity {
		t.Errorf("bad since: %d", st)
	}
	if st, _, b = get(t, s, "GET", base+"/commits?sha=nope", "", token); st != http.StatusNotFound || !strings.Contains(string(b), "object does not exist") {
		t.Errorf("unknown sha: %d %s", st, b)
	}
	// not leaves out main's history.
	if _, _, b = get(t, s, "GET", base+"/commits?sha=hist&not=main", "", token); json.Unmarshal(b, &page) != nil || len(page) != 4 {
		t.Errorf("not=main: %s", b)
	}
	// The default branch: main's one commit, untouched by hist's writes.
	if _, h, b = get(t, s, "GET", base+"/commits", "", token); json.Unmarshal(b, &page) != nil || len(page) != 1 || page[0].SHA != seed || h.Get("Link") != "" {
		t.Errorf("main: %s %v", b, h)
	}
}
