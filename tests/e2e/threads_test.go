package e2e_test

import (
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// TestReviewThreadsOverSocket is issue 21's review-thread proof on the
// local forge, through `forgetools call` against `forgetools serve`, on
// each store backend: an agent lists a pull request's threads, replies to
// one (the forge's read shows the reply in that thread, stamped with the
// attribution header) and resolves it, then reopens it. A thread of
// another pull request or repository is not found through this one and
// nothing is written there; a hostile thread id is refused as invalid.
func TestReviewThreadsOverSocket(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, dsn string) {
		t.Parallel()
		e := newEnv(t)
		srv := e.serve(1, "--config", writeConfig(t, aliceConfig), "--store", dsn, "--socket-dir", socketDir(t))
		call := func(tool, args string) result { t.Helper(); return e.call(tool, args, "--gateway", srv.Sockets[0]) }

		// Two pull requests in demo/app and one in demo/other, each with
		// an inline review thread: thread 1 on demo/app#1, 2 on
		// demo/app#2, 3 on demo/other#1.
		for _, pr := range []struct{ repo, branch, number, line string }{
			{"demo/app", "fix", "1", "2"}, {"demo/app", "more", "2", "1"}, {"demo/other", "fix", "1", "1"},
		} {
			call("forge_create_branch", `{"repo":"`+pr.repo+`","branch":"`+pr.branch+`"}`).want(t, 0, `Created branch .*`)
			call("forge_create_pull_request", `{"repo":"`+pr.repo+`","title":"Fix","head_ref":"`+pr.branch+`"}`).
				want(t, 0, `Opened PR #`+pr.number+` in `+pr.repo+`: .*`)
			call("forge_submit_review", `{"repo":"`+pr.repo+`","pull_number":`+pr.number+`,"verdict":"comment","body":"See inline.",`+
				`"comments":[{"path":"README.md","line":`+pr.line+`,"body":"Say why."}]}`).want(t, 0, `Submitted comment review .*`)
		}

		thread := func(resolved, replies string) string {
			return header + "# review_thread_list\nrepo: demo/app\nnumber: 1\nthreads: 1\n" +
				"# threads[0]\nthread_id: 1\n<<<path-NONCE\nREADME.md\n>>>NONCE\nline: 2\nside: RIGHT\n" + resolved +
				"# threads[0].comments[0]\nauthor: alice\nurl: http://forge.test/f/demo/app/pull/1#discussion_r1\n" +
				"<<<body-NONCE\nSay why.\n>>>NONCE\n" + replies
		}
		list := `{"repo":"demo/app","pull_number":1}`
		wantText(t, call("forge_list_review_threads", list).record(t), thread("comments: 1\n", ""))

		call("forge_reply_to_review_thread", `{"repo":"demo/app","pull_number":1,"thread_id":"1","body":"Done: it says why now."}`).
			want(t, 0, `Replied on PR #1 in demo/app: http://forge\.test/f/demo/app/pull/1#discussion_r1`)
		reply := "# threads[0].comments[1]\nauthor: alice\n" + attribution +
			"url: http://forge.test/f/demo/app/pull/1#discussion_r1\n<<<body-NONCE\nDone: it says why now.\n>>>NONCE\n"
		wantText(t, call("forge_list_review_threads", list).record(t), thread("comments: 2\n", reply))

		call("forge_resolve_review_thread", `{"repo":"demo/app","pull_number":1,"thread_id":"1"}`).
			want(t, 0, `Thread 1 on PR #1 in demo/app is resolved`)
		wantText(t, call("forge_list_review_threads", list).record(t), thread("resolved: true\ncomments: 2\n", reply))
		call("forge_resolve_review_thread", `{"repo":"demo/app","pull_number":1,"thread_id":"1","unresolve":true}`).
			want(t, 0, `Thread 1 on PR #1 in demo/app is unresolved`)
		wantText(t, call("forge_list_review_threads", list).record(t), thread("comments: 2\n", reply))

		// The pull request's read names the thread its review comment opened.
		if pr := call("forge_get_pull_request", list).record(t); !strings.Contains(pr, "<<<body-NONCE\nSay why.\n>>>NONCE\nthread_id: 1\n") {
			t.Fatalf("the pull request's review comment does not name its thread:\n%s", pr)
		}

		// Threads of demo/app#2 and demo/other#1, addressed through
		// demo/app#1, are not found; nothing is written to them.
		for _, id := range []string{"2", "3"} {
			call("forge_reply_to_review_thread", `{"repo":"demo/app","pull_number":1,"thread_id":"`+id+`","body":"Hijacked."}`).
				want(t, 1, `forge_reply_to_review_thread failed: not_found: review thread `+id+` not found on pull request #1 in demo/app`)
			call("forge_resolve_review_thread", `{"repo":"demo/app","pull_number":1,"thread_id":"`+id+`"}`).
				want(t, 1, `forge_resolve_review_thread failed: not_found: review thread `+id+` not found on pull request #1 in demo/app`)
		}
		for _, other := range []string{`{"repo":"demo/app","pull_number":2}`, `{"repo":"demo/other","pull_number":1}`} {
			if got := call("forge_list_review_threads", other).record(t); strings.Contains(got, "Hijacked") ||
				strings.Contains(got, "resolved: true") || !strings.Contains(got, "comments: 1\n") {
				t.Errorf("%s changed through another pull request:\n%s", other, got)
			}
		}

		// Hostile ids: the runtime refuses what the schema forbids; what
		// the schema allows but the forge never gave, the forge refuses.
		call("forge_reply_to_review_thread", `{"repo":"demo/app","pull_number":1,"thread_id":"1 OR 1=1","body":"x"}`).
			want(t, 1, `forge_reply_to_review_thread failed: invalid_argument: thread_id: must be non-empty and contain only letters, digits.*`)
		call("forge_resolve_review_thread", `{"repo":"demo/app","pull_number":1,"thread_id":"../2"}`).
			want(t, 1, `forge_resolve_review_thread failed: invalid_argument: thread_id: .*`)
		call("forge_resolve_review_thread", `{"repo":"demo/app","pull_number":1,"thread_id":"01"}`).
			want(t, 1, `forge_resolve_review_thread failed: invalid_argument: thread_id "01" is not a thread id of the local forge.*`)
		call("forge_list_review_threads", `{"repo":"demo/app","pull_number":1,"cursor":"entry:1"}`).
			want(t, 1, `forge_list_review_threads failed: invalid_argument: cursor "entry:1" is not a next_cursor forge_list_review_threads gave.*`)
	})
}
