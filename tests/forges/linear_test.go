package forges_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/forgetools/forgetools/providers/linear"
	"github.com/forgetools/forgetools/providers/linear/lineartest"
)

// eng addresses Linear team ENG, as the model names it.
const eng = `"repo":"ENG","forge_provider":"linear"`

// linearSent is what the Linear fake received from request from on, one
// line each: "Operation variables-as-JSON". Every request must be Linear's
// POST /graphql with the API key, bare, as its Authorization.
func linearSent(t *testing.T, s *lineartest.Server, from int) []string {
	t.Helper()
	var out []string
	for _, r := range s.Requests()[from:] {
		if r.Method != "POST" || r.Path != lineartest.Path || r.Header.Get("Authorization") != linearKey ||
			r.Header.Get("Content-Type") != "application/json" || r.Header.Get("User-Agent") != linear.DefaultUserAgent {
			t.Errorf("%s: %s %s with headers %v", r.Operation, r.Method, r.Path, r.Header)
		}
		out = append(out, r.Operation+" "+compact(r.Variables))
	}
	return out
}

func wantLinear(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s: Linear received\n  %s\nwant\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// compact is v as JSON, with "<" and ">" as themselves.
func compact(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// jsonString is s as a JSON string, quotes included.
func jsonString(s string) string { return compact(s) }

// identifiers are the issues a list shows, in order.
func identifiers(text string) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if id, ok := strings.CutPrefix(line, "identifier: "); ok {
			out = append(out, id)
		}
	}
	return strings.Join(out, " ")
}

// The issue arms on Linear through the tools: the team key as repo, issue
// numbers as ENG-N, creates with a client-chosen id derived from the
// account and the call, and in-band unimplemented for what Linear lacks.
func TestLinearSession(t *testing.T) {
	e := start(t)
	lin := e.linear

	create := `{` + eng + `,"title":"Flaky upload test","body":"Times out one run in ten.","labels":["Bug","Backend"]}`
	want(t, "create", e.ok("forge_create_issue", create, "lin-create-1"),
		"Created issue #3 in ENG: https://linear.app/acme/issue/ENG-3/flaky-upload-test")
	// The CLI keys a create made with --id X as "cli:X"; Linear gets the
	// id derived from that key and the account (laid out as UUID v4).
	id := linear.IssueID(account, "cli:lin-create-1")
	issueCreate := fmt.Sprintf(`IssueCreate {"input":{"description":%s,"id":%q,"labelIds":[%q,%q],"teamId":%q,"title":"Flaky upload test"}}`,
		jsonString(stamped+"Times out one run in ten."), id, e.bugLabel, e.backendLabel, e.engTeam)
	teamByKey := `TeamByKey {"key":"ENG"}`
	labels := fmt.Sprintf(`Labels {"filter":{"and":[{"name":{"in":["Bug","Backend"]}},{"or":[{"team":{"id":{"eq":%q}}},{"team":{"null":true}}]}]}}`, e.engTeam)
	wantLinear(t, "create", linearSent(t, lin, 0), teamByKey, labels, issueCreate)
	if got := lin.IssueID("ENG-3"); got != id {
		t.Errorf("ENG-3 has id %s, want the deterministic %s", got, id)
	}

	// A retry through the same gateway is answered from its memo.
	want(t, "replay", e.ok("forge_create_issue", create, "lin-create-1"), "Issue #3 in ENG already created by an earlier attempt")
	wantLinear(t, "replay", linearSent(t, lin, 3))

	got := e.ok("forge_get_issue", `{`+eng+`,"issue_number":3}`)
	want(t, "get created", got, readPreamble+`# issue
repo: ENG
number: 3
identifier: ENG-3
state: open
url: https://linear.app/acme/issue/ENG-3/flaky-upload-test
labels: Bug, Backend
author: forgetools
`+claim+`<<<title-NONCE
Flaky upload test
<<<body-NONCE
Times out one run in ten.
>>>NONCE
comments: none`)
	wantLinear(t, "get created", linearSent(t, lin, 3), `Issue {"comments":30,"id":"ENG-3"}`)

	ack := e.ok("forge_comment_on_issue", `{`+eng+`,"issue_number":1,"body":"Reproduced."}`)
	m := regexp.MustCompile(`#comment-([0-9a-f]{8})$`).FindStringSubmatch(ack)
	if m == nil {
		t.Fatalf("comment ack %q", ack)
	}
	want(t, "comment", ack, "Commented on issue #1 in ENG: https://linear.app/acme/issue/ENG-1/crash-on-save#comment-"+m[1])
	wantLinear(t, "comment", linearSent(t, lin, 4), `IssueRef {"id":"ENG-1"}`,
		fmt.Sprintf(`CommentCreate {"input":{"body":%s,"issueId":%q}}`, jsonString(stamped+"Reproduced."), lin.IssueID("ENG-1")))

	want(t, "get by number", e.ok("forge_get_issue", `{`+eng+`,"issue_number":1}`), readPreamble+`# issue
repo: ENG
number: 1
identifier: ENG-1
state: open
url: https://linear.app/acme/issue/ENG-1/crash-on-save
labels: Bug
author: ada
<<<title-NONCE
Crash on save
<<<body-NONCE
Steps: save.
>>>NONCE
comments: 1
# comments[0]
author: forgetools
`+claim+`url: https://linear.app/acme/issue/ENG-1/crash-on-save#comment-`+m[1]+`
<<<body-NONCE
Reproduced.
>>>NONCE`)

	// Lists name the team by key in the issues filter: no lookup, one
	// query each.
	got = e.ok("forge_list_issues", `{`+eng+`,"state":"all","labels":["Bug"],"limit":5}`)
	want(t, "list labelled", identifiers(got), "ENG-3 ENG-1")
	got = e.ok("forge_list_issues", `{`+eng+`,"state":"closed"}`)
	want(t, "list closed", identifiers(got), "ENG-2")
	if !strings.Contains(got, "state: closed\n") {
		t.Errorf("closed list:\n%s", got)
	}
	got = e.ok("forge_list_issues", `{`+eng+`,"limit":1}`)
	want(t, "list open", identifiers(got), "ENG-3")
	open := `{"type":{"in":["triage","backlog","unstarted","started"]}}`
	wantLinear(t, "lists", linearSent(t, lin, 7),
		`Issues {"filter":{"and":[{"labels":{"some":{"name":{"eq":"Bug"}}}}],"team":{"key":{"eq":"ENG"}}},"first":5}`,
		`Issues {"filter":{"state":{"type":{"nin":["triage","backlog","unstarted","started"]}},"team":{"key":{"eq":"ENG"}}},"first":30}`,
		fmt.Sprintf(`Issues {"filter":{"state":%s,"team":{"key":{"eq":"ENG"}}},"first":1}`, open))

	// Linear has no pull requests, reviews or notifications: in-band
	// unimplemented, and nothing reaches Linear.
	before := len(lin.Requests())
	for _, c := range []struct{ tool, args, want string }{
		{"forge_get_pull_request", `{` + eng + `,"pull_number":1}`,
			"forge_get_pull_request failed: unimplemented: Linear has no pull requests or reviews: only the issue tools work on a Linear forge, so get_pull_request cannot run on forge linear/linear.app"},
		{"forge_create_pull_request", `{` + eng + `,"title":"x","head_ref":"y"}`,
			"forge_create_pull_request failed: unimplemented: Linear has no pull requests or reviews: only the issue tools work on a Linear forge, so create_pull_request cannot run on forge linear/linear.app"},
		{"forge_comment_on_pull_request", `{` + eng + `,"pull_number":1,"body":"x"}`,
			"forge_comment_on_pull_request failed: unimplemented: Linear has no pull requests or reviews: only the issue tools work on a Linear forge, so comment_on_pull_request cannot run on forge linear/linear.app"},
		{"forge_submit_review", `{` + eng + `,"pull_number":1,"verdict":"approve"}`,
			"forge_submit_review failed: unimplemented: Linear has no pull requests or reviews: only the issue tools work on a Linear forge, so submit_review cannot run on forge linear/linear.app"},
		{"forge_subscribe", `{` + eng + `,"kind":"issue","number":1}`,
			"forge_subscribe failed: unimplemented: Linear change notifications are not supported (the gateway neither polls Linear nor receives its webhooks, so a subscription would never deliver), so subscribe cannot run on forge linear/linear.app"},
		// Nor repositories, pushes, merges or CI (issue 9's arms).
		{"forge_read_file", `{` + eng + `,"path":"README.md"}`,
			"forge_read_file failed: unimplemented: " + linear.NoRepository + ", so read_file cannot run on forge linear/linear.app"},
		{"forge_write_file", `{` + eng + `,"branch":"b","path":"a","message":"m"}`,
			"forge_write_file failed: unimplemented: " + linear.NoRepository + ", so write_file cannot run on forge linear/linear.app"},
		{"forge_merge_pull_request", `{` + eng + `,"pull_number":1,"expected_head_sha":"abc1234"}`,
			"forge_merge_pull_request failed: unimplemented: Linear has no pull requests or reviews: only the issue tools work on a Linear forge, so merge_pull_request cannot run on forge linear/linear.app"},
		{"forge_trigger_ci", `{` + eng + `,"workflow":"ci","ref":"main"}`,
			"forge_trigger_ci failed: unimplemented: Linear runs no CI: CI runs live on the code forge (GitHub), not in Linear, so trigger_ci cannot run on forge linear/linear.app"},
		{"forge_update_issue", `{` + eng + `,"issue_number":1,"state":"closed"}`,
			"forge_update_issue failed: unimplemented: " + linear.NoIssueUpdates + ", so update_issue cannot run on forge linear/linear.app"},
	} {
		want(t, c.tool, e.fails(c.tool, c.args), c.want)
	}
	want(t, "missing issue", e.fails("forge_get_issue", `{`+eng+`,"issue_number":99}`),
		"forge_get_issue failed: not_found: linear get issue ENG-99: not found: Entity not found: Issue (Could not find referenced Issue.) [INPUT_ERROR]")
	wantLinear(t, "refused arms", linearSent(t, lin, before), `Issue {"comments":30,"id":"ENG-99"}`)
}

// Linear's own idempotency: a gateway that lost its memo (a fresh store)
// replays the create with the same client-chosen id, Linear refuses the id
// it holds, and the model gets the issue the first attempt filed, not a
// second one.
func TestLinearReplayWithoutTheGatewayMemo(t *testing.T) {
	e := start(t)
	create := `{` + eng + `,"title":"Flaky upload test","labels":["Bug"]}`
	want(t, "create", e.ok("forge_create_issue", create, "lin-create-2"),
		"Created issue #3 in ENG: https://linear.app/acme/issue/ENG-3/flaky-upload-test")
	e.restart(true)
	mark := len(e.linear.Requests())
	want(t, "replay reaching Linear", e.ok("forge_create_issue", create, "lin-create-2"),
		"Created issue #3 in ENG: https://linear.app/acme/issue/ENG-3/flaky-upload-test")
	id := linear.IssueID(account, "cli:lin-create-2")
	var ops []string
	for _, line := range linearSent(t, e.linear, mark) {
		ops = append(ops, strings.Fields(line)[0])
		if strings.HasPrefix(line, "IssueCreate ") && !strings.Contains(line, `"id":"`+id+`"`) {
			t.Errorf("the replay's issueCreate does not carry %s: %s", id, line)
		}
	}
	want(t, "replay operations", strings.Join(ops, " "), "TeamByKey Labels IssueCreate Issue")
	if n := e.linear.Issues(); n != 3 {
		t.Errorf("Linear holds %d issues, want 3 (two seeded, one created)", n)
	}
}

// Linear's rate limit (an errors[] entry RATELIMITED with the budgets'
// reset times) reaches the model with the wait.
func TestLinearRateLimitInBand(t *testing.T) {
	e := start(t)
	reset := time.Now().Add(30 * time.Second)
	e.linear.Inject("issues", lineartest.Response{Status: 400, Body: lineartest.Fixture("error_ratelimited.json"), Header: http.Header{
		"X-Ratelimit-Requests-Remaining": {"0"},
		"X-Ratelimit-Requests-Reset":     {strconv.FormatInt(reset.UnixMilli(), 10)},
	}})
	got := e.fails("forge_list_issues", `{`+eng+`}`)
	m := regexp.MustCompile(`^forge_list_issues failed: resource_exhausted: linear list issues in ENG: rate limited: Rate limit exceeded ` +
		`\(Too many requests\. Please try again in a few minutes\.\) \[RATELIMITED\]; retry after (\d+)ms$`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("rate limited: %s", got)
	}
	// Thirty seconds after the injection, less the time the call took;
	// not Linear's default minute.
	if ms, _ := strconv.Atoi(m[1]); ms < 1000 || ms > 30000 {
		t.Errorf("retry after %dms, want the time to the reset (at most 30000ms)", ms)
	}
	// The limit has passed: the same call goes through.
	if got := e.ok("forge_list_issues", `{`+eng+`}`); identifiers(got) != "ENG-1" {
		t.Errorf("after the limit:\n%s", got)
	}
}
