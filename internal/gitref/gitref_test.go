package gitref

import (
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// Each rule, and the fragment of the refusal that names it.
var refused = []struct{ ref, rule string }{
	{"", "empty"},
	{strings.Repeat("a", MaxBytes+1), "bytes long"},
	{"a\xffb", "UTF-8"},
	{"@", `"@"`},
	{"-f", `starts with "-"`},
	{"/main", `starts with "/"`},
	{"main/", `ends with "/"`},
	{"main.", `ends with "."`},
	{"a//b", `"//"`},
	{"../../other/repo/git/refs", `".."`},
	{"a..b", `".."`},
	{"main@{1}", `"@{"`},
	{"a\x00b", "control character"},
	{"a\tb", "control character"},
	{"a\x7fb", "control character"},
	{"a b", `' '`},
	{"main~1", `'~'`},
	{"main^", `'^'`},
	{"owner:main", `':'`},
	{"ma?n", `'?'`},
	{"ma*n", `'*'`},
	{"ma[n", `'['`},
	{`a\b`, `'\\'`},
	{"%2e%2e/x", `'%'`},
	{"main#x", `'#'`},
	{".hidden", `".hidden" starts with "."`},
	{"feature/.x", `".x" starts with "."`},
	{"./main", `"." starts with "."`},
	{"main.lock", `ends with ".lock"`},
	{"a.lock/b", `"a.lock" ends with ".lock"`},
}

// Names git takes, and so does the gateway.
var accepted = []string{
	"main", "HEAD", "v1.2.3", "feature/fix-crash", "refs/heads/main", "refs/tags/v1", "a@b", "a.b.c", "lock", "a.locked",
	"release-2026", "héllo/wörld", "0123456789abcdef0123456789abcdef01234567",
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "abc1234", "_x", "a+b", "a=b", "a,b",
	strings.Repeat("a", MaxBytes),
}

func TestRefused(t *testing.T) {
	for _, c := range refused {
		if got := Problem(c.ref); !strings.Contains(got, c.rule) {
			t.Errorf("Problem(%q) = %q, want it to name %s", c.ref, got, c.rule)
		}
	}
}

func TestAccepted(t *testing.T) {
	for _, ref := range accepted {
		if got := Problem(ref); got != "" {
			t.Errorf("Problem(%q) = %q, want accepted", ref, got)
		}
	}
}

// urlSafe: an accepted ref, put into a request path as every provider
// does, resolves to a path that still ends in the ref itself, under the
// repository: no segment of it is "." or "..", and neither the query nor
// a fragment starts inside it.
func urlSafe(t *testing.T, ref string) {
	base, _ := url.Parse("https://forge.example/api/v1/")
	rel, err := url.Parse("repos/o/r/commits/" + ref)
	if err != nil {
		return // the client refuses it before any request
	}
	got := base.ResolveReference(rel)
	if got.RawQuery != "" || got.Fragment != "" || got.Path != "/api/v1/repos/o/r/commits/"+ref {
		t.Fatalf("Problem(%q) accepted a ref that resolves to %q (query %q, fragment %q)", ref, got.Path, got.RawQuery, got.Fragment)
	}
}

// FuzzGitRef: an accepted ref breaks none of git's rules checked here
// independently, and stays inside the URL path it is put in.
func FuzzGitRef(f *testing.F) {
	for _, c := range refused {
		f.Add(c.ref)
	}
	for _, ref := range accepted {
		f.Add(ref)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		if Problem(ref) != "" {
			return
		}
		if ref == "" || len(ref) > MaxBytes || strings.ContainsAny(ref, forbidden) || strings.Contains(ref, "..") || strings.Contains(ref, "@{") {
			t.Fatalf("Problem(%q) accepted it", ref)
		}
		for _, part := range strings.Split(ref, "/") {
			if part == "" || strings.HasPrefix(part, ".") || strings.HasSuffix(part, ".lock") {
				t.Fatalf("Problem(%q) accepted component %q", ref, part)
			}
		}
		urlSafe(t, ref)
	})
}

// git agrees: on every case above and every seed of the fuzz corpus, git
// check-ref-format --allow-onelevel accepts what Problem accepts and
// refuses what it refuses, except for the rules this package adds (a
// leading "-", which git cannot even be asked about; "%" and "#"; the
// length bound; invalid UTF-8, which a proto string never is).
func TestGitAgrees(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("this test needs the git command (apt-get install git): %v", err)
	}
	refs := append([]string{}, accepted...)
	for _, c := range refused {
		refs = append(refs, c.ref)
	}
	refs = append(refs, seeds(t)...)
	for _, ref := range refs {
		why := Problem(ref)
		extra := strings.HasPrefix(ref, "-") || strings.ContainsAny(ref, "%#") || len(ref) > MaxBytes || !utf8.ValidString(ref)
		if ref == "" || strings.ContainsRune(ref, 0) || (extra && why != "") {
			continue // not a command-line argument, or refused by a rule of ours
		}
		err := exec.Command(gitBin, "check-ref-format", "--allow-onelevel", ref).Run()
		gitOK := err == nil
		if _, exit := err.(*exec.ExitError); err != nil && !exit {
			t.Fatalf("git check-ref-format: %v", err)
		}
		if gitOK != (why == "") {
			t.Errorf("ref %q: git accepts = %v, Problem = %q", ref, gitOK, why)
		}
	}
}

// seeds reads the fuzz corpus's string seeds.
func seeds(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzGitRef", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no seed corpus under testdata/fuzz/FuzzGitRef: %v", err)
	}
	var out []string
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) != 2 || lines[0] != "go test fuzz v1" || !strings.HasPrefix(lines[1], "string(") {
			t.Fatalf("%s is not a one-string seed", name)
		}
		s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "string("), ")"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, s)
	}
	return out
}
