package githubtest

import (
	"fmt"
	"strings"
	"testing"
)

const (
	replyMutation   = `mutation($t: ID!, $b: String!) { addPullRequestReviewThreadReply(input: {pullRequestReviewThreadId: $t, body: $b}) { comment { databaseId author { login } } } }`
	resolveMutation = `mutation($t: ID!) { resolveReviewThread(input: {threadId: $t}) { thread { id isResolved comments(first: 5) { totalCount } } } }`
	threadNode      = `query($t: ID!) { node(id: $t) { __typename ... on PullRequestReviewThread { path line isResolved pullRequest { number } } } }`
)

// A reply joins its thread, a resolve marks it, and Query.node finds it;
// an id that is no thread's is GitHub's NOT_FOUND under the field, with
// nothing changed. Every query passes the schema check.
func TestGraphQLThreadMutations(t *testing.T) {
	s, rt, n := gqlFake(t, Options{})
	s.Review("octocat/Hello-World", n, "hubot", "COMMENTED", "", Inline{Path: "README", Line: 1, Body: "typo"})
	thread := ""
	s.Lock()
	for _, th := range threads(s.mustItem("octocat/Hello-World", n).Pull) {
		thread = th.id()
	}
	s.Unlock()

	_, got := query(t, s, replyMutation, map[string]any{"t": thread, "b": "fixed"}, bearer(token))
	if c := jsonOf(got["data"]); !strings.Contains(c, `"author":{"login":"forgetools-bot"}`) || got["errors"] != nil {
		t.Errorf("reply: %v", got)
	}
	_, got = query(t, s, resolveMutation, map[string]any{"t": thread}, bearer(token))
	if want := fmt.Sprintf(`{"resolveReviewThread":{"thread":{"comments":{"totalCount":2},"id":"%s","isResolved":true}}}`, thread); jsonOf(got["data"]) != want {
		t.Errorf("resolve: %s, want %s", jsonOf(got["data"]), want)
	}
	_, got = query(t, s, threadNode, map[string]any{"t": thread}, bearer(token))
	if want := fmt.Sprintf(`{"node":{"__typename":"PullRequestReviewThread","isResolved":true,"line":1,"path":"README","pullRequest":{"number":%d}}}`, n); jsonOf(got["data"]) != want {
		t.Errorf("node: %s, want %s", jsonOf(got["data"]), want)
	}
	for _, id := range []string{"PRRT_kwDO0", "PR_kwDO1", thread + "0", "PRRT_kwDO01"} {
		_, got = query(t, s, resolveMutation, map[string]any{"t": id}, bearer(token))
		if e := jsonOf(got["errors"]); !strings.Contains(e, `"type":"NOT_FOUND"`) || !strings.Contains(e, `"path":["resolveReviewThread"]`) || jsonOf(got["data"]) != `{"resolveReviewThread":null}` {
			t.Errorf("resolve %s: %v", id, got)
		}
	}
	if len(rt.errs) > 0 {
		t.Errorf("schema check: %v", rt.errs)
	}
}
