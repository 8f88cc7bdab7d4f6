// Package cost_test measures what a tool call costs the forge: every arm
// of the forge table runs against each forge's fake (GitHub, GitLab,
// Gitea, Linear), on a small and a large artifact, and the requests each
// sent (and how many were answered 304 Not Modified) make the table in
// docs/requests.md. UPDATE_REQUESTS=1 rewrites it; otherwise the test
// fails when the committed table differs, as the tool docs are checked.
package cost_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// arm is one forge arm and its arguments; reads run twice, the second
// time as a repeated identical read. A name may go on after the arm's
// with a space, naming a second row of the same arm ("list_comments
// reviews").
type arm struct {
	name, args string
	read       bool
}

// arms are the forge table's arms that reach a forge, in the order a
// session might call them (writes after the reads they would change;
// the merge last). subscribe, unsubscribe and get_events act on the
// gateway's own state and send a forge nothing.
var arms = []arm{
	{"get_repo", `{"repo":"{repo}"}`, true},
	{"read_file", `{"repo":"{repo}","path":"README.md"}`, true},
	{"list_dir", `{"repo":"{repo}"}`, true},
	{"list_issues", `{"repo":"{repo}"}`, true},
	{"list_pull_requests", `{"repo":"{repo}"}`, true},
	{"get_issue", `{"repo":"{repo}","issue_number":{issue}}`, true},
	{"list_comments", `{"repo":"{repo}","kind":"COMMENTS_OF_ISSUE","number":{issue}}`, true},
	{"list_comments reviews", `{"repo":"{repo}","kind":"COMMENTS_OF_REVIEWS","number":{pull}}`, true},
	{"get_pull_request", `{"repo":"{repo}","pull_number":{pull}}`, true},
	{"get_pull_request_diff", `{"repo":"{repo}","pull_number":{pull}}`, true},
	{"compare", `{"repo":"{repo}","base":"main","head":"feature-{size}"}`, true},
	{"list_commits", `{"repo":"{repo}"}`, true},
	{"list_ci_runs", `{"repo":"{repo}"}`, true},
	{"get_ci_run", `{"repo":"{repo}","run_id":"{run}"}`, true},
	{"create_issue", `{"repo":"{repo}","title":"cost {size}","body":"b"}`, false},
	{"comment_on_issue", `{"repo":"{repo}","issue_number":{issue},"body":"one more"}`, false},
	{"update_issue", `{"repo":"{repo}","issue_number":{issue},"title":"renamed {size}"}`, false},
	{"comment_on_pull_request", `{"repo":"{repo}","pull_number":{pull},"body":"one more"}`, false},
	{"submit_review", `{"repo":"{repo}","pull_number":{pull},"verdict":"VERDICT_COMMENT","body":"looks fine"}`, false},
	{"create_branch", `{"repo":"{repo}","branch":"cost-{size}","from_ref":"main"}`, false},
	{"write_file", `{"repo":"{repo}","branch":"cost-{size}","path":"cost.txt","content":"x\n","message":"cost"}`, false},
	{"commit_files", `{"repo":"{repo}","branch":"cost-{size}","message":"cost set","files":[{"path":"cost/a.txt","content":"a\n"},{"path":"cost/b.txt","content":"b\n"}]}`, false},
	{"create_pull_request", `{"repo":"{repo}","title":"cost {size}","body":"b","head_ref":"cost-{size}","base_ref":"main"}`, false},
	{"trigger_ci", `{"repo":"{repo}","workflow":"{workflow}","ref":"main"}`, false},
	{"rerun_ci", `{"repo":"{repo}","run_id":"{run}","failed_only":true}`, false},
	{"merge_pull_request", `{"repo":"{repo}","pull_number":{pull},"expected_head_sha":"{sha}"}`, false},
}

var sizes = []string{"small", "large"}

// cell is what one call cost: requests sent, 304s among them, and the
// in-band error code when it failed.
type cell struct {
	requests, notModified int
	code                  string
}

func (c cell) String() string {
	s := fmt.Sprint(c.requests)
	if c.notModified > 0 {
		s += fmt.Sprintf(" (%d × 304)", c.notModified)
	}
	switch c.code {
	case "":
	case "unimplemented":
		return "—"
	default:
		s += " " + strings.ToLower(strings.TrimPrefix(c.code, "ERROR_CODE_"))
	}
	return s
}

// measure runs every arm on f, small artifact then large, and returns
// arm -> [small, small again, large, large again].
func measure(t *testing.T, f *forge) map[string][4]cell {
	out := map[string][4]cell{}
	for si, size := range sizes {
		vars := f.vars[size]
		for _, a := range arms {
			args := strings.ReplaceAll(a.args, "{size}", size)
			for k, v := range vars {
				args = strings.ReplaceAll(args, "{"+k+"}", v)
			}
			row := out[a.name]
			runs := 1
			if a.read {
				runs = 2
			}
			for i := range runs {
				n0, nm0 := f.counts()
				code := serve(t, f.provider, strings.Fields(a.name)[0], args)
				n1, nm1 := f.counts()
				row[2*si+i] = cell{requests: n1 - n0, notModified: nm1 - nm0, code: code}
			}
			out[a.name] = row
		}
	}
	return out
}

func TestRequestsPerCall(t *testing.T) {
	forges := []*forge{newGitHub(t), newGitLab(t), newGitea(t), newLinear(t)}
	var b strings.Builder
	b.WriteString(header)
	results := map[string]map[string][4]cell{}
	for _, f := range forges {
		results[f.name] = measure(t, f)
	}
	b.WriteString(goals(results))
	for _, f := range forges {
		fmt.Fprintf(&b, "\n## %s\n\nLarge artifact: %s.\n\n", f.name, f.seeding)
		b.WriteString("| arm | small | small, repeated | large | large, repeated |\n|---|---|---|---|---|\n")
		for _, a := range arms {
			row := results[f.name][a.name]
			again := func(c cell) string {
				if !a.read {
					return ""
				}
				return c.String()
			}
			fmt.Fprintf(&b, "| forge_%s | %s | %s | %s | %s |\n", a.name, row[0], again(row[1]), row[2], again(row[3]))
		}
	}
	b.WriteString(diffPages(t))
	got := b.String()
	t.Log("\n" + got)
	const path = "../../docs/requests.md"
	if os.Getenv("UPDATE_REQUESTS") == "1" {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (UPDATE_REQUESTS=1 writes it)", err)
	}
	if string(want) != got {
		t.Errorf("docs/requests.md is not what the forges were sent; run UPDATE_REQUESTS=1 go test ./tests/cost and commit it.\nmeasured:\n%s", got)
	}
}
