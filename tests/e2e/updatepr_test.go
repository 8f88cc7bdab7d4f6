package e2e_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// updatePRConfig is a local forge and one agent that may push to the
// default branch unattended (the approval gate has its own tests).
const updatePRConfig = `
forges:
  - provider: local
    base_url: http://forge.test/f
accounts:
  - name: alice
    agent_handle: alice-bot
    owner_handle: alice
    scope: ["demo/*"]
    sessions: [alice-1]
    push_to_default_branch: true
    policy: {push: allow, risk: {high: allow}, unreviewed_merge: allow}
`

// TestLineRangesPullRequestUpdatesAndHistory drives issue 21's line
// ranges, forge_update_pull_request and forge_list_commits through
// `forgetools call` against `forgetools serve` on the local forge: lines
// 4,000 to 4,100 of a 5,000-line file (CRLF endings, multi-byte text, over
// the one-answer cap); the agent retitles its pull request, marks it ready
// and closes it; and it pages a branch's history with no gap or repeat.
func TestLineRangesPullRequestUpdatesAndHistory(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, dsn string) {
		t.Parallel()
		lineRangesPullRequestUpdatesAndHistory(t, dsn)
	})
}

func lineRangesPullRequestUpdatesAndHistory(t *testing.T, dsn string) {
	e := newEnv(t)
	srv := e.serve(1, "--config", writeConfig(t, updatePRConfig), "--store", dsn, "--socket-dir", socketDir(t))
	call := func(tool, args string) result { t.Helper(); return e.call(tool, args, "--gateway", srv.Sockets[0]) }

	// A file over the 100,000 bytes one answer carries.
	var file strings.Builder
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&file, "%04d: é € naïve %s\r\n", i, strings.Repeat("x", 16))
	}
	args, err := json.Marshal(map[string]string{"repo": "demo/app", "branch": "main", "path": "big.txt", "content": file.String(), "message": "Add big.txt"})
	if err != nil {
		t.Fatal(err)
	}
	e.callStdin("forge_write_file", args, "--gateway", srv.Sockets[0]).want(t, 0, `Committed big.txt to main in demo/app: [0-9a-f]{40}`)

	// The render shows a CRLF ending as "\n" (the bytes are the file's:
	// size counts both).
	lines := strings.SplitAfter(strings.ReplaceAll(file.String(), "\r\n", "\n"), "\n")
	got := call("forge_read_file", `{"repo":"demo/app","path":"big.txt","start_line":4000,"end_line":4100}`).record(t)
	if want := "<<<content-NONCE\n" + strings.Join(lines[3999:4100], "") + ">>>NONCE\n"; !strings.Contains(got, want) {
		t.Fatalf("lines 4000 to 4100:\n%.600s", got)
	}
	for _, attr := range []string{"\nsize: 190000\n", "\nstart_line: 4000\n", "\nend_line: 4100\n", "\ntotal_lines: 5000\n", "\nnext_start_line: 4101\n"} {
		if !strings.Contains(got, attr) {
			t.Errorf("the range's record lacks %q:\n%.400s", attr, got)
		}
	}
	// Without a range: whole lines up to the cap, and where to go on.
	first := call("forge_read_file", `{"repo":"demo/app","path":"big.txt"}`).record(t)
	m := regexp.MustCompile(`\nend_line: (\d+)\ntotal_lines: 5000\nnext_start_line: (\d+)\n`).FindStringSubmatch(first)
	if m == nil || !strings.Contains(first, "\ntruncated: true\n") || !strings.Contains(first, "<<<content-NONCE\n0001: ") {
		t.Fatalf("the first answer of a long file:\n%.300s\n...\n%s", first, first[max(len(first)-400, 0):])
	}
	var end, next int
	fmt.Sscan(m[1], &end)
	fmt.Sscan(m[2], &next)
	if next != end+1 || !strings.Contains(first, lines[end-1]+">>>NONCE\n") {
		t.Errorf("first answer ends at line %d, goes on at %d", end, next)
	}
	call("forge_read_file", `{"repo":"demo/app","path":"big.txt","start_line":5001}`).
		want(t, 1, `forge_read_file failed: invalid_argument: start_line 5001 is past the end of big.txt, which has 5000 lines`)
	call("forge_read_file", `{"repo":"demo/app","path":"big.txt","start_line":9,"end_line":8}`).
		want(t, 1, `forge_read_file failed: invalid_argument: .*end_line >= start_line.*`)

	// The agent's pull request: a draft, retitled and marked ready, then
	// closed.
	call("forge_create_branch", `{"repo":"demo/app","branch":"feat"}`).want(t, 0, `Created branch feat in demo/app at [0-9a-f]{40}`)
	var written []string
	for i := 1; i <= 5; i++ {
		written = append(written, call("forge_write_file", fmt.Sprintf(`{"repo":"demo/app","branch":"feat","path":"n%d.txt","content":"%d\n","message":"Note %d"}`, i, i, i)).
			want(t, 0, `Committed n\d\.txt to feat in demo/app: ([0-9a-f]{40})`)[1])
	}
	call("forge_create_pull_request", `{"repo":"demo/app","title":"WIP notes","head_ref":"feat","draft":true}`).
		want(t, 0, `Opened PR #1 in demo/app: http://forge\.test/f/demo/app/pull/1`)
	call("forge_update_pull_request", `{"repo":"demo/app","pull_number":1,"title":"Add notes","body":"Five notes.","ready":true}`).
		want(t, 0, `Updated PR #1 in demo/app: http://forge\.test/f/demo/app/pull/1`)
	pr := call("forge_get_pull_request", `{"repo":"demo/app","pull_number":1}`).record(t)
	if !strings.Contains(pr, "<<<title-NONCE\nAdd notes\n") || strings.Contains(pr, "draft: true") || !strings.Contains(pr, "Five notes.") ||
		!strings.Contains(pr, "claim (unverified): agent=alice-bot owner=alice session=alice-1\n") {
		t.Fatalf("after the update:\n%s", pr)
	}
	call("forge_update_pull_request", `{"repo":"demo/app","pull_number":1,"state":"closed"}`).
		want(t, 0, `Updated PR #1 in demo/app: http://forge\.test/f/demo/app/pull/1`)
	if closed := call("forge_list_pull_requests", `{"repo":"demo/app","state":"closed"}`).record(t); !strings.Contains(closed, "number: 1\nstate: closed\n") {
		t.Fatalf("closed pull requests:\n%s", closed)
	}
	call("forge_update_pull_request", `{"repo":"demo/app","pull_number":1}`).
		want(t, 1, `forge_update_pull_request failed: invalid_argument: .*give at least one field to change.*`)

	// The branch's history, two commits a page: every commit once, newest
	// first, then big.txt's and the repository's first commit.
	var shas []string
	cursor := ""
	for pages := 0; pages < 10; pages++ {
		req := `{"repo":"demo/app","ref":"feat","limit":2` + cursor + `}`
		rec := call("forge_list_commits", req).record(t)
		for _, m := range regexp.MustCompile(`(?m)^sha: ([0-9a-f]{40})$`).FindAllStringSubmatch(rec, -1) {
			shas = append(shas, m[1])
		}
		nc := regexp.MustCompile(`(?m)^next_cursor: (\S+)$`).FindStringSubmatch(rec)
		if nc == nil {
			break
		}
		cursor = `,"cursor":"` + nc[1] + `"`
	}
	seen := map[string]bool{}
	for _, s := range shas {
		seen[s] = true
	}
	if len(shas) != len(written)+2 || len(seen) != len(shas) {
		t.Fatalf("%d commits listed (%d distinct), want %d: %v", len(shas), len(seen), len(written)+2, shas)
	}
	for i, w := range written {
		if shas[len(written)-1-i] != w {
			t.Errorf("commit %d listed as %s, want %s", i, shas[len(written)-1-i], w)
		}
	}
	call("forge_list_commits", `{"repo":"demo/app","cursor":"entry:2"}`).
		want(t, 1, `forge_list_commits failed: invalid_argument: cursor "entry:2" is not a next_cursor forge_list_commits gave; omit it for the first page`)
}
