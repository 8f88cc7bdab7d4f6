package e2e_test

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// callStdin runs `forgetools call tool -` with stdin as the arguments.
func (e *env) callStdin(tool string, stdin []byte, flags ...string) result {
	e.t.Helper()
	r, err := e.runWith(func(cmd *exec.Cmd) { cmd.Stdin = bytes.NewReader(stdin) },
		append([]string{"call", tool, "-"}, flags...)...)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

// TestCallArgumentEdges: arguments that are not exactly one JSON object of
// valid Unicode text are refused the same way whether they come on the
// command line or on stdin: a model-facing failure line on stdout, exit 1,
// and nothing written to the forge.
func TestCallArgumentEdges(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const refused = `forge_create_issue failed: invalid_argument: `
	for _, c := range []struct {
		name, args, want string
	}{
		{"trailing data", `{"repo":"demo/app","title":"once"} {"title":"twice"}`,
			`arguments must be one JSON object, with nothing after it`},
		{"trailing garbage", `{"repo":"demo/app","title":"x"}]`, `arguments must be one JSON object, with nothing after it`},
		{"invalid UTF-8", "{\"repo\":\"demo/app\",\"title\":\"caf\xe9\"}", `title: not valid UTF-8: byte 0xe9 at byte 3 of the string`},
		{"lone surrogate", `{"repo":"demo/app","title":"a\ud800b"}`,
			`title: contains \\ud800, half of a UTF-16 surrogate pair: escape a character outside the BMP as both halves, e\.g\. \\ud83d\\ude00`},
		{"lone surrogate in a label", `{"repo":"demo/app","title":"x","labels":["\udfff"]}`,
			`labels\[0\]: contains \\udfff, half of a UTF-16 surrogate pair: .*`},
		{"not an object", `["repo"]`, `arguments must be a JSON object, got array`},
		{"truncated", `{"repo":"demo/app"`, `arguments are not valid JSON: unexpected end of input`},
	} {
		argv := e.call("forge_create_issue", c.args)
		argv.want(t, 1, refused+c.want)
		stdin := e.callStdin("forge_create_issue", []byte(c.args))
		if stdin.code != argv.code || stdin.stdout != argv.stdout {
			t.Errorf("%s: stdin and argv differ:\nargv: %v\nstdin: %v", c.name, argv, stdin)
		}
	}
	// A valid pair of escapes is one character, on either path.
	e.callStdin("forge_create_issue", []byte(`{"repo":"demo/app","title":"smile \ud83d\ude00"}`)).
		want(t, 0, `Created issue #1 in demo/app: .*`)
	got := e.call("forge_get_issue", `{"repo":"demo/app","issue_number":1}`).record(t)
	if !strings.Contains(got, "smile 😀") {
		t.Errorf("the surrogate pair did not arrive as one character:\n%s", got)
	}
	// Nothing else was written.
	list := e.call("forge_list_issues", `{"repo":"demo/app","state":"all"}`).record(t)
	if n := strings.Count(list, "# issues["); n != 1 {
		t.Errorf("%d issues on the forge, want only the valid one:\n%s", n, list)
	}
}

// TestMCPArgumentText: the MCP server decodes tool arguments with the same
// decoder, so a lone surrogate or invalid UTF-8 in them is a tool failure
// naming the parameter, and nothing is written.
func TestMCPArgumentText(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cs := e.mcpSession()
	wantCall(t, cs, "forge_create_issue", `{"repo":"demo/app","title":"a\ud800"}`, true,
		`forge_create_issue failed: invalid_argument: title: contains \\ud800, half of a UTF-16 surrogate pair: .*`)
	wantCall(t, cs, "forge_create_issue", "{\"repo\":\"demo/app\",\"title\":\"x\",\"body\":\"\xff\"}", true,
		`forge_create_issue failed: invalid_argument: body: not valid UTF-8: byte 0xff at byte 0 of the string`)
	wantCall(t, cs, "forge_list_issues", `{"repo":"demo/app","state":"all"}`, false, `(?s).*issues: none`)
}
