package giteareal_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

var realEntryName = regexp.MustCompile(`(?m)^(f\d{3}\.txt)$`)

// forge_list_dir on the real server: asked without a ref, Gitea names the
// default branch in every entry's url (…/contents/<path>?ref=main), which
// the provider takes as the ref read instead of looking the repository
// up; a 210-entry directory is two pages with no gap or repeat; a cursor
// is refused with another path or an explicit ref.
func TestRealGiteaListDirPages(t *testing.T) {
	e := start(t, asBot)
	var files []map[string]any
	for i := range 210 {
		files = append(files, map[string]any{"operation": "create", "path": fmt.Sprintf("big/f%03d.txt", i), "content": b64("x")})
	}
	files = append(files, map[string]any{"operation": "create", "path": "other/g.txt", "content": b64("y")})
	e.mustAPI(e.u.bot.Token, "POST", "/repos/"+e.repo+"/contents", map[string]any{"branch": "main", "message": "many files", "files": files}, nil)

	var raw []struct {
		URL string `json:"url"`
	}
	e.get("/contents/big", &raw)
	if len(raw) != 210 || !strings.HasSuffix(raw[0].URL, "/contents/big/f000.txt?ref=main") {
		t.Fatalf("Gitea's listing without a ref: %d entries, the first's url %q; the provider reads the ref from it", len(raw), raw[0].URL)
	}

	pages := e.pages("forge_list_dir", `,"path":"big"`)
	var names []string
	for _, p := range pages {
		if !strings.Contains(p, "\nmain\n") || !strings.Contains(p, "entries_total: 210\n") {
			t.Errorf("a page does not name main or count 210:\n%s", p)
		}
		for _, m := range realEntryName.FindAllStringSubmatch(p, -1) {
			names = append(names, m[1])
		}
	}
	if len(pages) != 2 || len(names) != 210 || names[0] != "f000.txt" || names[209] != "f209.txt" {
		t.Errorf("%d pages, %d entries (first %v); want 2 pages of f000 to f209", len(pages), len(names), names[:min(len(names), 2)])
	}
	cursor := realNextCursor.FindStringSubmatch(pages[0])[1]
	for _, args := range []string{`,"path":"other","cursor":"` + cursor + `"`, `,"path":"big","ref":"main","cursor":"` + cursor + `"`} {
		wantPrefix(t, "a cursor passed with other arguments", e.fails("forge_list_dir", args),
			"forge_list_dir failed: invalid_argument: cursor")
	}
}
