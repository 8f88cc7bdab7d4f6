package gitpath

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Every spelling git refuses under core.protectNTFS and core.protectHFS,
// as a whole path and as a directory on the way to a file.
var refused = []string{
	".git", ".GIT", ".Git", ".git.", ".git..", ".git ", ".git. .", ".git::$INDEX_ALLOCATION", ".git:x",
	"git~1", "GIT~1", "Git~1.", "GIT~1 ",
	".\u200cgit", ".g\u200dit", ".gi\u200et", ".git\u200f", "\ufeff.git", ".G\u202aIT", ".git\u206f",
	".gitmodules.", ".GITMODULES", ".gitmodules ", ".gitmodules:$DATA", "gitmod~1", "GITMOD~4", "gi7eba~1", "GI7EBA~9", "gi7eb~12",
	"gi7e~123", ".gitmodules\u200c", ".\u200dgitmodules",
	"..", ".", "",
}

var accepted = []string{
	"README.md", ".github", ".gitignore", ".gitmodules", ".gitattributes", "git", ".gi", ".gitx", ".git-x", "git~2", "git~1x",
	"x.git", "gitmod~5", "gitmod~1x", "gi7eba~0", "gi7ebax~1", "gi7eba~1x", ".g\u200bit", // U+200B is no HFS ignorable
	"\u212agit", "ſgit", "naïve.txt", "a b", "...", ".git~1", "gi7eba~1~",
}

func TestProblem(t *testing.T) {
	for _, part := range refused {
		for _, p := range []string{part, part + "/config", "src/" + part, "a/" + part + "/b"} {
			if Problem(p) == "" {
				t.Errorf("Problem(%q) accepted it", p)
			}
		}
	}
	for _, part := range accepted {
		for _, p := range []string{part, "src/" + part + "/x"} {
			if why := Problem(p); why != "" {
				t.Errorf("Problem(%q) = %q, want accepted", p, why)
			}
		}
	}
	for _, p := range []string{"/etc/passwd", "a//b", "a/", "a\\b", "a\x00b", "a\nb", "a\x7fb", "\xff"} {
		if Problem(p) == "" {
			t.Errorf("Problem(%q) accepted it", p)
		}
	}
}

// FuzzProblem: an accepted path has no component git could read as .git.
func FuzzProblem(f *testing.F) {
	for _, s := range append(refused, accepted...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if Problem(p) != "" {
			return
		}
		for _, part := range strings.Split(p, "/") {
			trimmed := strings.TrimRight(strings.ToLower(part), ". ")
			if trimmed == ".git" || trimmed == "git~1" || part == "" || part == ".." {
				t.Fatalf("Problem(%q) accepted component %q", p, part)
			}
		}
	})
}

// git agrees: each component, under a directory, is refused by git's own
// verify_path (update-index with both protections on) exactly when
// Problem refuses it. git holds .gitmodules look-alikes to its rules only
// as symlinks, so those are asked about as symlinks; ".gitmodules" itself
// is a file the gateway may write.
func TestGitAgrees(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("this test needs the git command (apt-get install git): %v", err)
	}
	dir := t.TempDir()
	git := func(args ...string) error {
		cmd := exec.Command(gitBin, append([]string{"-c", "core.protectNTFS=true", "-c", "core.protectHFS=true"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
		return cmd.Run()
	}
	if err := git("init", "-q"); err != nil {
		t.Fatal(err)
	}
	const blob = "587be6b4c3f93f93c489c0111bba5596147a26cb" // "x\n"; the index need not hold the object
	for _, part := range append(refused, accepted...) {
		if part == "" || part == "." || part == ".." || part == ".gitmodules" {
			continue
		}
		mode := "100644"
		if lower := strings.ToLower(part); strings.Contains(lower, "mod") || strings.Contains(lower, "7e") {
			mode = "120000"
		}
		p := "d/" + part
		gitRefuses := git("update-index", "--add", "--cacheinfo", mode+","+blob+","+p) != nil
		if weRefuse := Problem(p) != ""; weRefuse != gitRefuses {
			t.Errorf("%q (mode %s): git refuses = %t, Problem refuses = %t", p, mode, gitRefuses, weRefuse)
		}
	}
}
