// Package breaking_test runs `forgetools tools --breaking-against` as a
// user does, in-process: against snapshot directories, the committed
// release baseline and git revisions of a real repository, with and
// without declared breaks.
package breaking_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/internal/cli"
)

const (
	baseline = "../../tests/toolsnaps/release"
	declared = baseline + "/declared-breaks"
	// removedLine is what the check says of the parameter withParam adds
	// to the baseline, which the current tools lack.
	removedLine = "breaking: forge_get_issue: parameter include_events removed [forge_get_issue:include_events:removed]"
	removedKey  = "forge_get_issue:include_events:removed"
)

// run runs the CLI and returns its exit code and combined output.
func run(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	code := cli.Main(append([]string{"tools"}, args...), strings.NewReader(""), &out, &out)
	return code, out.String()
}

// copyBaseline copies the committed baseline's snapshots into dir.
func copyBaseline(t *testing.T, dir string) {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(baseline, "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no baseline snapshots in %s: %v", baseline, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, filepath.Base(n)), string(data))
	}
}

// withParam gives forge_get_issue in dir a parameter the generated tool
// does not have: a baseline from which the current tool removed one.
func withParam(t *testing.T, dir string) {
	t.Helper()
	name := filepath.Join(dir, "forge_get_issue.json")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var def map[string]any
	if err := json.Unmarshal(data, &def); err != nil {
		t.Fatal(err)
	}
	props := def["input_schema"].(map[string]any)["properties"].(map[string]any)
	props["include_events"] = map[string]any{"type": "boolean"}
	data, err = json.MarshalIndent(def, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	write(t, name, string(data))
}

func write(t *testing.T, name, data string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCommittedBaselineHolds(t *testing.T) {
	code, out := run(t, "--breaking-against", baseline, "--declared", declared)
	if code != 0 || !strings.Contains(out, "0 breaking (0 declared)") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// The grouped shape has its own baseline; checked against the flat one it
// has lost every flat tool, which the check must say.
func TestGroupedShape(t *testing.T) {
	code, out := run(t, "--shape", "grouped", "--breaking-against", baseline+"/grouped", "--declared", baseline+"/grouped/declared-breaks")
	if code != 0 || !strings.Contains(out, "0 breaking (0 declared)") {
		t.Errorf("grouped against its baseline: exit %d:\n%s", code, out)
	}
	code, out = run(t, "--shape", "grouped", "--breaking-against", baseline)
	if code != 1 || !strings.Contains(out, "[forge_get_issue:tool-removed]") || !strings.Contains(out, "compatible: forge_issue: ") {
		t.Errorf("grouped against the flat baseline: exit %d:\n%s", code, out)
	}
}

func TestRemovedParameterFails(t *testing.T) {
	dir := t.TempDir()
	copyBaseline(t, dir)
	withParam(t, dir)
	code, out := run(t, "--breaking-against", dir)
	if code != 1 || !strings.Contains(out, removedLine+"\n") || !strings.Contains(out, "1 undeclared breaking changes against "+dir) {
		t.Errorf("exit %d, want 1 and %q:\n%s", code, removedLine, out)
	}
	// The same break, read-only: the check applies the command's filters,
	// so every write tool of the baseline is gone too.
	if code, out := run(t, "--breaking-against", dir, "--read-only"); code != 1 || !strings.Contains(out, "forge_write_file:tool-removed") {
		t.Errorf("--read-only: exit %d:\n%s", code, out)
	}
}

func TestDeclaredBreaks(t *testing.T) {
	dir := t.TempDir()
	copyBaseline(t, dir)
	withParam(t, dir)
	decl := filepath.Join(t.TempDir(), "declared-breaks")
	write(t, decl, "# meant\n"+removedKey+"  # events have their own tool\n")
	code, out := run(t, "--breaking-against", dir, "--declared", decl)
	if code != 0 || !strings.Contains(out, "breaking (declared): forge_get_issue: parameter include_events removed") {
		t.Errorf("declared break: exit %d:\n%s", code, out)
	}
	// A declaration matching no break is an error, so the file cannot rot.
	write(t, decl, removedKey+"\nforge_get_issue:repo:removed\n")
	code, out = run(t, "--breaking-against", dir, "--declared", decl)
	if code != 1 || !strings.Contains(out, "stale: forge_get_issue:repo:removed") || !strings.Contains(out, decl+": 1 stale declarations") {
		t.Errorf("stale declaration: exit %d:\n%s", code, out)
	}
}

func TestGitRevision(t *testing.T) {
	repo := t.TempDir()
	copyBaseline(t, filepath.Join(repo, "snaps"))
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "release")
	git("tag", "v1")
	withParam(t, filepath.Join(repo, "snaps"))
	git("commit", "-q", "-am", "a parameter the tools lost")
	// The working tree is not what a revision reads: wipe it.
	if err := os.RemoveAll(filepath.Join(repo, "snaps")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)

	if code, out := run(t, "--breaking-against", "v1", "--snapshots", "snaps"); code != 0 || !strings.Contains(out, "against v1:snaps") {
		t.Errorf("v1: exit %d:\n%s", code, out)
	}
	if code, out := run(t, "--breaking-against", "HEAD", "--snapshots", "./snaps/"); code != 1 || !strings.Contains(out, removedLine) {
		t.Errorf("HEAD: exit %d:\n%s", code, out)
	}
	for args, want := range map[[2]string]string{
		{"v2", "snaps"}:        "--breaking-against v2: not a directory, and not a git revision here",
		{"v1", "tests/snaps"}:  "--breaking-against v1: no directory tests/snaps at that revision",
		{"v1", "."}:            "--breaking-against v1: no snapshots found (no *.json files in v1:.)",
		{"--version", "snaps"}: "--breaking-against --version: not a directory or a git revision",
	} {
		code, out := run(t, "--breaking-against", args[0], "--snapshots", args[1])
		if code == 0 || !strings.Contains(out, want) {
			t.Errorf("%v: exit %d, want an error containing %q:\n%s", args, code, want, out)
		}
	}
}

func TestBadBaselines(t *testing.T) {
	bad := t.TempDir()
	copyBaseline(t, bad)
	write(t, filepath.Join(bad, "forge_get_issue.json"), `{"name": "forge_get_issue", "input_schema": {}, "aproval": "read"}`)
	empty := t.TempDir()
	write(t, filepath.Join(empty, "README"), "not a snapshot")
	for _, c := range []struct{ args, want string }{
		{"--breaking-against " + bad, filepath.Join(bad, "forge_get_issue.json") + `: not a tool definition: json: unknown field "aproval"`},
		{"--breaking-against " + empty, "--breaking-against " + empty + ": no snapshots found"},
		{"--breaking-against " + filepath.Join(empty, "README"), "a file; want a directory of tool snapshots or a git revision"},
		{"--declared " + declared, "--declared and --snapshots need --breaking-against"},
	} {
		code, out := run(t, strings.Fields(c.args)...)
		if code == 0 || !strings.Contains(out, c.want) {
			t.Errorf("%s: exit %d, want an error containing %q:\n%s", c.args, code, c.want, out)
		}
	}
}
