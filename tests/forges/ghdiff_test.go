package forges_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// Issue 21's diff through the gateway on GitHub's fake: the agent reads
// a pull request's diff, anchors review comments to an added, a context
// and a removed line exactly as the render numbers them, and the fake
// (which refuses, as GitHub does, a line its diff does not show) takes
// all three; then the history and a compare of the branch.
func TestGitHubDiffAnchorsAReviewToTheLinesShown(t *testing.T) {
	e := start(t)
	gh := e.github
	n := gh.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Fix the crash", Head: "fix-crash"})
	num := strconv.Itoa(n)

	diff := e.ok("forge_get_pull_request_diff", `{`+hello+`,"pull_number":`+num+`}`)
	// The numbers the render gives: an added, a context and a removed line.
	pick := func(re string) (side, line string) {
		m := regexp.MustCompile(`(?m)^([RL])(\d+) ` + re + `$`).FindStringSubmatch(diff)
		if m == nil {
			t.Fatalf("no line %s in the diff:\n%s", re, diff)
		}
		return map[string]string{"R": "RIGHT", "L": "LEFT"}[m[1]], m[2]
	}
	addSide, addLine := pick(`\+\t\treturn errEmpty`)
	ctxSide, ctxLine := pick(` \tif in == nil \{`)
	delSide, delLine := pick(`-func legacy\(\) \{\}`)
	if addLine != "41" || ctxLine != "40" || delSide != "LEFT" || delLine != "7" {
		t.Errorf("render numbered +%s%s, context %s%s, -%s%s:\n%s", addSide, addLine, ctxSide, ctxLine, delSide, delLine, diff)
	}
	mark := len(gh.Requests())
	e.ok("forge_submit_review", `{`+hello+`,"pull_number":`+num+`,"verdict":"comment","body":"Inline.","comments":[`+
		`{"path":"src/parse.go","line":`+addLine+`,"side":"`+addSide+`","body":"added"},`+
		`{"path":"src/parse.go","line":`+ctxLine+`,"side":"`+ctxSide+`","body":"context"},`+
		`{"path":"src/old.go","line":`+delLine+`,"side":"`+delSide+`","body":"removed"}]}`)
	wantSent(t, "review", sent(t, gh, mark),
		`POST /repos/octocat/Hello-World/pulls/`+num+`/reviews reviewer {"body":"`+jsonText(stamped)+`Inline.","event":"COMMENT","comments":[`+
			`{"path":"src/parse.go","body":"added","side":"RIGHT","line":41},{"path":"src/parse.go","body":"context","side":"RIGHT","line":40},`+
			`{"path":"src/old.go","body":"removed","side":"LEFT","line":7}]}`)

	// History and compare of a branch with two commits over main.
	first := gh.Commit("octocat/Hello-World", "topic", "Add notes", githubtest.File{Path: "NOTES.md", Content: "one\n"})
	second := gh.Commit("octocat/Hello-World", "topic", "More notes", githubtest.File{Path: "NOTES.md", Content: "one\ntwo\n"})
	log := e.ok("forge_list_commits", `{`+hello+`,"ref":"topic","limit":2}`)
	if !strings.Contains(log, second) || !strings.Contains(log, first) || !strings.Contains(log, "More notes") || !strings.Contains(log, "next_cursor: c") {
		t.Errorf("commits:\n%s", log)
	}
	cmp := e.ok("forge_compare", `{`+hello+`,"base":"main","head":"topic"}`)
	for _, s := range []string{"ahead_by: 2\n", "head_sha: " + second, "Add notes", "R1 +one\n", "R2 +two\n", "NOTES.md"} {
		if !strings.Contains(cmp, s) {
			t.Errorf("compare lacks %q:\n%s", s, cmp)
		}
	}
}
