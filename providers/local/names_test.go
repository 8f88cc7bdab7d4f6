package local

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// FuzzCheckRepo: a repository the forge accepts yields URLs that parse back
// to exactly the path built from it, with no query or fragment smuggled in;
// one it refuses gets invalid_argument naming it.
func FuzzCheckRepo(f *testing.F) {
	for _, s := range []string{"acme/app", "ENG", "a/b/c", "../x", "acme/app#frag", "o/r?q=1", "o/%2e%2e", "", "a b"} {
		f.Add(s)
	}
	forge := &Forge{baseURL: "https://forge.test/base"}
	f.Fuzz(func(t *testing.T, repo string) {
		err := checkRepo(repo)
		if err != nil {
			pe, ok := toolserver.AsError(err)
			if !ok || pe.Code != optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT || !strings.Contains(pe.Message, strconv.Quote(repo)) {
				t.Fatalf("checkRepo(%q) = %v: want invalid_argument naming the repo", repo, err)
			}
			return
		}
		for _, seg := range strings.Split(repo, "/") {
			if seg == "" || seg == "." || seg == ".." {
				t.Fatalf("checkRepo accepted %q with segment %q", repo, seg)
			}
		}
		raw := forge.commentURL(kindIssue, repo, 7, "42")
		u, perr := url.Parse(raw)
		if perr != nil {
			t.Fatalf("URL %q for accepted repo %q does not parse: %v", raw, repo, perr)
		}
		if u.Path != "/base/"+repo+"/issues/7" || u.RawQuery != "" || u.Fragment != "issuecomment-42" || u.String() != raw {
			t.Fatalf("URL %q for %q parses to path %q query %q fragment %q", raw, repo, u.Path, u.RawQuery, u.Fragment)
		}
	})
}

// FuzzCheckBranch: a refused branch gets invalid_argument naming it and the
// reason; an accepted one contains nothing git forbids in a ref.
func FuzzCheckBranch(f *testing.F) {
	for _, s := range []string{"main", "feature/x", "a..b", "-x", "x.lock", "a b", "@", "a@{1}", "", "x/", ".hidden"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		err := checkBranch("head_ref", ref)
		if err != nil {
			pe, ok := toolserver.AsError(err)
			if !ok || pe.Code != optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT ||
				!strings.HasPrefix(pe.Message, "head_ref "+strconv.Quote(ref)+" is not a valid branch name: ") {
				t.Fatalf("checkBranch(%q) = %v", ref, err)
			}
			return
		}
		if strings.ContainsFunc(ref, func(r rune) bool { return r <= ' ' || r == 0x7f || strings.ContainsRune(`~^:?*[\`, r) }) ||
			strings.Contains(ref, "..") || strings.Contains(ref, "@{") || strings.HasPrefix(ref, "-") {
			t.Fatalf("checkBranch accepted %q", ref)
		}
	})
}

func TestBranchNames(t *testing.T) {
	for ref, ok := range map[string]bool{
		"main": true, "feature/login": true, "release/1.x": true, "fix-123_a": true, "üñí": true, "a.b": true,
		"": false, "@": false, "-x": false, "/x": false, "x/": false, "x.": false, "a..b": false, "a@{1}": false,
		"a//b": false, "a b": false, "a\tb": false, "a~1": false, "a^": false, "a:b": false, "a?": false,
		"a*": false, "a[": false, `a\b`: false, "x.lock": false, "x.lock/y": false, ".hidden": false,
		"a/.b": false, strings.Repeat("x", 256): false, strings.Repeat("x", 255): true,
		// Names that could shadow a sha, HEAD or another ref (issue 19).
		"da39a3ee5e6b4b0d3255bfef95601890afd80709": false, "DA39A3EE": false, "cafe": false, "1234": false,
		"abc": true, "cafe-fix": true, "feature/cafe": true, "HEAD": false, "ORIG_HEAD": false, "FETCH_HEAD": false,
		"head": true, "refs/heads/x": false, "heads/x": false, "tags/v1": false, "remotes/origin/x": false,
		"x/heads/y": true,
	} {
		if got := checkBranch("ref", ref) == nil; got != ok {
			t.Errorf("checkBranch(%q) accepted = %t, want %t", ref, got, ok)
		}
	}
}
