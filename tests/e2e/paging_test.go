package e2e_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// pagingConfig is a local forge and one account, whose write limit lets it
// open the issues the test pages through within a minute.
const pagingConfig = `
forges:
  - provider: local
    base_url: http://forge.test/f
accounts:
  - name: alice
    agent_handle: alice-bot
    owner_handle: alice
    scope: ["demo/*"]
    sessions: [alice-1]
    limits: {write_calls_per_minute: 1000}
`

var (
	nextCursor = regexp.MustCompile(`(?m)^next_cursor: (\S+)$`)
	numberLine = regexp.MustCompile(`(?m)^number: (\d+)$`)
	bodyLine   = regexp.MustCompile(`(?m)^(c\d+)$`)
)

// TestPagingOverSocket is issue 21's paging proof on the local forge,
// through `forgetools call` against `forgetools serve`, on each store
// backend: 250 issues read a page at a time with forge_list_issues and an
// issue's 45 comments with forge_list_comments, each exactly once, in
// order, with no gap or repeat; and a cursor passed with other arguments,
// or one another list gave, is refused as invalid_argument.
func TestPagingOverSocket(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, dsn string) {
		t.Parallel()
		e := newEnv(t)
		srv := e.serve(1, "--config", writeConfig(t, pagingConfig), "--store", dsn, "--socket-dir", socketDir(t))
		gw := []string{"--gateway", srv.Sockets[0]}
		alice := func(tool, args string) result { t.Helper(); return e.call(tool, args, gw...) }

		// The issues are opened four calls at a time (each a process of
		// its own); their numbers are the forge's to give.
		const issues = 250
		var wg sync.WaitGroup
		errs := make(chan string, issues)
		work := make(chan int)
		for range 4 {
			wg.Go(func() {
				for i := range work {
					r, err := e.runErr(append([]string{"call", "forge_create_issue", fmt.Sprintf(`{"repo":"demo/app","title":"issue %d"}`, i)}, gw...)...)
					if err != nil || r.code != 0 {
						errs <- fmt.Sprintf("create issue %d: %v %v", i, r, err)
					}
				}
			})
		}
		for i := range issues {
			work <- i
		}
		close(work)
		wg.Wait()
		close(errs)
		for msg := range errs {
			t.Fatal(msg)
		}

		// Newest first, 100 a page: 100, 100, 50, and the last says so.
		var numbers []int
		args := `{"repo":"demo/app","limit":100}`
		var pages []string
		for len(pages) < 5 {
			out := alice("forge_list_issues", args).record(t)
			pages = append(pages, out)
			for _, m := range numberLine.FindAllStringSubmatch(out, -1) {
				n, _ := strconv.Atoi(m[1])
				numbers = append(numbers, n)
			}
			m := nextCursor.FindStringSubmatch(out)
			if m == nil {
				break
			}
			args = `{"repo":"demo/app","limit":100,"cursor":"` + m[1] + `"}`
		}
		if len(pages) != 3 {
			t.Fatalf("read %d pages of issues, want 3", len(pages))
		}
		if len(numbers) != issues {
			t.Fatalf("read %d issues, want %d", len(numbers), issues)
		}
		for i, n := range numbers {
			if n != issues-i {
				t.Fatalf("issue %d of the listing is #%d, want #%d (newest first, no gap or repeat)", i, n, issues-i)
			}
		}
		cursor := nextCursor.FindStringSubmatch(pages[0])[1]

		// A cursor passed with other filters, or to another list, or made
		// up, is refused; nothing is read as a position.
		alice("forge_list_issues", `{"repo":"demo/app","limit":100,"state":"all","cursor":"`+cursor+`"}`).
			want(t, 1, `forge_list_issues failed: invalid_argument: cursor ".*" is not one forge_list_issues gave for these arguments: .*`)
		alice("forge_list_pull_requests", `{"repo":"demo/app","cursor":"`+cursor+`"}`).
			want(t, 1, `forge_list_pull_requests failed: invalid_argument: cursor ".*" is not one forge_list_pull_requests gave for these arguments: .*`)
		alice("forge_list_issues", `{"repo":"demo/app","cursor":"entry:100"}`).
			want(t, 1, `forge_list_issues failed: invalid_argument: cursor "entry:100" is not a next_cursor forge_list_issues gave; omit it for the first page`)

		// 45 comments on one issue, 20 a page, oldest first.
		const comments = 45
		for i := range comments {
			alice("forge_comment_on_issue", fmt.Sprintf(`{"repo":"demo/app","issue_number":7,"body":"c%d"}`, i)).
				want(t, 0, `Commented on issue #7 in demo/app: .*`)
		}
		var bodies []string
		args = `{"repo":"demo/app","kind":"issue","number":7,"limit":20}`
		for range 5 {
			out := alice("forge_list_comments", args).record(t)
			for _, m := range bodyLine.FindAllStringSubmatch(out, -1) {
				bodies = append(bodies, m[1])
			}
			m := nextCursor.FindStringSubmatch(out)
			if m == nil {
				break
			}
			args = `{"repo":"demo/app","kind":"issue","number":7,"limit":20,"cursor":"` + m[1] + `"}`
		}
		want := make([]string, comments)
		for i := range want {
			want[i] = "c" + strconv.Itoa(i)
		}
		if strings.Join(bodies, " ") != strings.Join(want, " ") {
			t.Fatalf("comments read: %v\nwant %v (oldest first, no gap or repeat)", bodies, want)
		}
	})
}
