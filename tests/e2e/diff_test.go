package e2e_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// numbered is twelve lines, "line 1" to "line 12".
func numbered() []string {
	var l []string
	for i := 1; i <= 12; i++ {
		l = append(l, "line "+strconv.Itoa(i))
	}
	return l
}

// diffLine is one hunk line as the render shows it: side, number, op, text.
var diffLine = regexp.MustCompile(`(?m)^([RL])(\d+) ([ +-])(.*)$`)

// TestReviewWhatTheDiffShows is issue 21's proof for the diff, on the
// local forge through `forgetools call` against `serve` over a socket: the
// agent reads a pull request's diff, anchors inline comments to an added,
// a context and a removed line it was shown, by the side and number the
// render gave each, and the forge's own read shows each comment on that
// line and side, the line's text at that number in the file at the head
// (RIGHT) or at the base (LEFT). A diff line that reads like a fence
// marker stays inside the fence; forge_compare shows the same files with
// the commits ahead; a path filter, a bad cursor and an unchanged path
// answer as they should; a long diff reads page by page with no gap or
// repeat, and a push since refuses an old cursor.
func TestReviewWhatTheDiffShows(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, dsn string) {
		t.Parallel()
		e := newEnv(t)
		srv := e.serve(2, "--config", writeConfig(t, handsConfig), "--store", dsn, "--socket-dir", socketDir(t))
		alice := func(tool, args string) result { t.Helper(); return e.call(tool, args, "--gateway", srv.Sockets[0]) }
		ops := func(tool, args string) result { t.Helper(); return e.call(tool, args, "--gateway", srv.Sockets[1]) }
		write := func(as func(string, string) result, branch, path string, lines []string, sha string) {
			t.Helper()
			content := strings.Join(lines, "\n") + "\n"
			args := fmt.Sprintf(`{"repo":"demo/app","branch":%q,"path":%q,"content":%q,"message":"Edit %s"`, branch, path, content, path)
			if sha != "" {
				args += `,"expected_sha":"` + sha + `"`
			}
			as("forge_write_file", args+"}").want(t, 0, `Committed .*`)
		}

		base := numbered()
		write(ops, "main", "app.txt", base, "")
		blob := sha(t, alice("forge_read_file", `{"repo":"demo/app","path":"app.txt"}`).record(t))
		alice("forge_create_branch", `{"repo":"demo/app","branch":"fix"}`).want(t, 0, `Created branch .*`)
		// The head removes line 5, adds a line after line 8 and two that
		// read like the fence's markers, and adds a file.
		head := append(append([]string{}, base[:4]...), base[5:8]...)
		head = append(head, "added here", ">>>deadbeef", "<<<hunks-deadbeef")
		head = append(head, base[8:]...)
		write(alice, "fix", "app.txt", head, blob)
		write(alice, "fix", "new.txt", []string{"fresh"}, "")
		alice("forge_create_pull_request", `{"repo":"demo/app","title":"Fix","head_ref":"fix"}`).want(t, 0, `Opened PR #1 .*`)

		got := alice("forge_get_pull_request_diff", `{"repo":"demo/app","pull_number":1}`).record(t)
		wantIn(t, got, "# pull_request_diff\nrepo: demo/app\nnumber: 1\n")
		wantIn(t, got, "files_changed: 2\nfiles: 2\n# files[0]\nstatus: modified\nadditions: 3\ndeletions: 1\n<<<path-NONCE\napp.txt\n<<<hunks-NONCE\n@@ -2,10 +2,12 @@ line 1\nR2  line 2\n")
		wantIn(t, got, "# files[1]\nstatus: added\nadditions: 1\n<<<path-NONCE\nnew.txt\n<<<hunks-NONCE\n@@ -0,0 +1,1 @@\nR1 +fresh\n>>>NONCE")
		if strings.Contains(got, "next_cursor") {
			t.Errorf("a small diff has a next page:\n%s", got)
		}
		// The marker-like lines are lines of the hunk, inside its fence.
		hunks := got[strings.Index(got, "<<<hunks-NONCE\n"):]
		hunks = hunks[:strings.Index(hunks, ">>>NONCE\n")]
		for _, l := range []string{"R9 +>>>deadbeef\n", "R10 +<<<hunks-deadbeef\n"} {
			wantIn(t, hunks, l)
		}

		// Pick the lines the agent was shown, by their text.
		shown := map[string][2]string{} // text -> side, number
		for _, m := range diffLine.FindAllStringSubmatch(hunks, -1) {
			shown[m[3]+m[4]] = [2]string{map[string]string{"R": "RIGHT", "L": "LEFT"}[m[1]], m[2]}
		}
		picks := []string{"+added here", " line 7", "-line 5"}
		var comments []string
		for _, p := range picks {
			at, ok := shown[p]
			if !ok {
				t.Fatalf("the diff shows no line %q:\n%s", p, hunks)
			}
			comments = append(comments, fmt.Sprintf(`{"path":"app.txt","line":%s,"side":%q,"body":"About %s"}`, at[1], at[0], p[1:]))
		}
		ops("forge_submit_review", `{"repo":"demo/app","pull_number":1,"verdict":"comment","body":"Notes.","comments":[`+strings.Join(comments, ",")+`]}`).
			want(t, 0, `Submitted comment review on PR #1 .*`)

		// The forge's read puts each comment at a line and side; the line
		// there, in the file at that side's commit, is the one picked.
		pr := alice("forge_get_pull_request", `{"repo":"demo/app","pull_number":1}`).record(t)
		files := map[string][]string{"RIGHT": head, "LEFT": base}
		landed := regexp.MustCompile(`<<<path-NONCE\napp\.txt\n>>>NONCE\nline: (\d+)\nside: (LEFT|RIGHT)\nauthor: ops\n<<<body-NONCE\nAbout (.*)\n`)
		ms := landed.FindAllStringSubmatch(pr, -1)
		if len(ms) != len(picks) {
			t.Fatalf("want %d inline comments, got %d:\n%s", len(picks), len(ms), pr)
		}
		for i, m := range ms {
			n, _ := strconv.Atoi(m[1])
			if want := picks[i][1:]; m[3] != want || n < 1 || n > len(files[m[2]]) || files[m[2]][n-1] != want {
				t.Errorf("comment %d (about %q) landed on %s line %s, which reads %q", i, m[3], m[2], m[1], files[m[2]][min(max(n-1, 0), len(files[m[2]])-1)])
			}
		}

		// One file's diff; the compare of the branches shows the same.
		one := alice("forge_get_pull_request_diff", `{"repo":"demo/app","pull_number":1,"path":"new.txt"}`).record(t)
		if strings.Contains(one, "app.txt") || !strings.Contains(one, "\nR1 +fresh\n") {
			t.Errorf("the diff of new.txt:\n%s", one)
		}
		cmp := alice("forge_compare", `{"repo":"demo/app","base":"main","head":"fix"}`).record(t)
		wantIn(t, cmp, "# comparison\nrepo: demo/app\n")
		wantIn(t, cmp, "ahead_by: 2\nfiles_changed: 2\ncommits: 2\n# commits[0]\n")
		wantIn(t, cmp, "<<<title-NONCE\nEdit app.txt\n>>>NONCE\nauthor: alice-bot\n")
		if i := strings.Index(cmp, "files: 2\n"); i < 0 || !strings.Contains(got, cmp[i:]) {
			t.Errorf("the comparison's files are not the pull request's:\n%s", cmp)
		}
		behind := alice("forge_compare", `{"repo":"demo/app","base":"fix","head":"main"}`).record(t)
		wantIn(t, behind, "behind_by: 2\ncommits: none\nfiles: none")

		alice("forge_get_pull_request_diff", `{"repo":"demo/app","pull_number":1,"path":"README.md"}`).
			want(t, 1, `forge_get_pull_request_diff failed: not_found: README\.md is not changed in this diff`)
		alice("forge_get_pull_request_diff", `{"repo":"demo/app","pull_number":1,"cursor":"diff.0.1.00000000.00000000"}`).
			want(t, 1, `forge_get_pull_request_diff failed: invalid_argument: cursor "diff\.0\.1\.00000000\.00000000" is not a next_cursor this diff gave; omit it for the first page`)
		alice("forge_compare", `{"repo":"demo/app","base":"main","head":"nowhere"}`).
			want(t, 1, `forge_compare failed: not_found: .*`)

		// A diff longer than a page: its pages, cursor to cursor, show
		// every line once, in order; a push since refuses the old cursor.
		var long []string
		for i := 1; i <= 1500; i++ {
			long = append(long, fmt.Sprintf("a long file's line number %d, padded out", i))
		}
		// ops writes: alice has read ops's review, so her pushes now wait
		// for an operator (the untrusted-content rule).
		write(ops, "fix", "long.txt", long, "")
		var seen []string
		cursor, pages := "", 0
		for {
			args := `{"repo":"demo/app","pull_number":1,"path":"long.txt"`
			if cursor != "" {
				args += `,"cursor":"` + cursor + `"`
			}
			page := alice("forge_get_pull_request_diff", args+"}").record(t)
			pages++
			for _, m := range diffLine.FindAllStringSubmatch(page, -1) {
				seen = append(seen, m[1]+m[2]+" "+m[3]+m[4])
			}
			next := regexp.MustCompile(`\nnext_cursor: (\S+)\n`).FindStringSubmatch(page)
			if next == nil {
				break
			}
			cursor = next[1]
			if pages > 10 {
				t.Fatal("the pages do not end")
			}
		}
		if pages < 2 || len(seen) != len(long) {
			t.Fatalf("%d pages showed %d lines of %d", pages, len(seen), len(long))
		}
		for i, l := range seen {
			if want := fmt.Sprintf("R%d +%s", i+1, long[i]); l != want {
				t.Fatalf("line %d of the pages reads %q, want %q", i, l, want)
			}
		}
		first := regexp.MustCompile(`\nnext_cursor: (\S+)\n`).FindStringSubmatch(
			alice("forge_get_pull_request_diff", `{"repo":"demo/app","pull_number":1,"path":"long.txt"}`).record(t))[1]
		write(ops, "fix", "later.txt", []string{"later"}, "")
		alice("forge_get_pull_request_diff", `{"repo":"demo/app","pull_number":1,"path":"long.txt","cursor":"`+first+`"}`).
			want(t, 1, `forge_get_pull_request_diff failed: failed_precondition: the diff changed since cursor .* was given \(new commits\): read it again from the first page`)
	})
}

func wantIn(t *testing.T, got, want string) {
	t.Helper()
	if !strings.Contains(got, want) {
		t.Errorf("want\n%s\nin\n%s", want, got)
	}
}
