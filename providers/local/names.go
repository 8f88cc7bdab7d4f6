package local

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/forgetools/forgetools/providers/local/localgit"
	"github.com/forgetools/forgetools/toolserver"
)

// The two kinds of numbered artifact, as stored in local_items.kind.
const (
	kindIssue = "issue"
	kindPull  = "pull"
)

// repoSegment is GitHub's owner and repository alphabet. Holding repository
// names to it keeps every URL this forge mints free of characters that would
// need escaping, so the URL is the repository string as given.
var repoSegment = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

const maxRepoLen = 200

// repoKey is the name a repository is matched by: forges treat owner and
// name case-insensitively, so "Acme/Widgets" and "acme/widgets" are one
// repository. Lowercasing here rather than in SQL keeps SQLite and
// PostgreSQL in agreement (checkRepo admits ASCII only, so ToLower is exact).
func repoKey(repo string) string { return strings.ToLower(repo) }

// checkRepo accepts "owner/name", the shape GitHub, GitLab, Gitea and
// Forgejo share: a repo without a slash is refused naming that shape, as on
// every forge that takes one.
func checkRepo(repo string) error {
	owner, name, ok := strings.Cut(repo, "/")
	ok = ok && len(repo) <= maxRepoLen && validSegment(owner) && validSegment(name)
	if !ok {
		return toolserver.InvalidArgument(`repo %q is not a repository: want "owner/name" (letters, digits, '-', '_' and '.')`, repo)
	}
	return nil
}

func validSegment(s string) bool {
	return repoSegment.MatchString(s) && s != "." && s != ".."
}

const maxBranchLen = 255

// checkBranch applies git check-ref-format's rules for a branch name, so a
// pull request never records a ref no git could push.
func checkBranch(what, ref string) error {
	if why := branchProblem(ref); why != "" {
		return toolserver.InvalidArgument("%s %q is not a valid branch name: %s", what, ref, why)
	}
	return nil
}

func branchProblem(ref string) string {
	switch {
	case ref == "":
		return "it is empty"
	case len(ref) > maxBranchLen:
		return fmt.Sprintf("it is longer than %d bytes", maxBranchLen)
	case ref == "@":
		return `"@" alone is not a branch`
	case strings.HasPrefix(ref, "-"):
		return `it starts with "-"`
	case strings.HasPrefix(ref, "/") || strings.HasSuffix(ref, "/"):
		return `it starts or ends with "/"`
	case strings.HasSuffix(ref, "."):
		return `it ends with "."`
	}
	for _, bad := range []string{"..", "@{", "//"} {
		if strings.Contains(ref, bad) {
			return fmt.Sprintf("it contains %q", bad)
		}
	}
	for _, r := range ref {
		if r < 0x20 || r == 0x7f || r == ' ' || strings.ContainsRune(`~^:?*[\`, r) {
			return fmt.Sprintf("it contains %q", r)
		}
	}
	for _, part := range strings.Split(ref, "/") {
		if strings.HasPrefix(part, ".") || strings.HasSuffix(part, ".lock") {
			return fmt.Sprintf(`its component %q starts with "." or ends with ".lock"`, part)
		}
	}
	return shadowProblem(ref)
}

// minAbbrev is the shortest sha abbreviation git reads (its
// MINIMUM_ABBREV): a branch named with as many hex digits or more could
// be taken for a commit.
const minAbbrev = 4

// shadowProblem refuses a name git would find ambiguous with something
// else it resolves (gitrevisions(7)): a sha or an abbreviation of one,
// HEAD and the other pseudo-refs, or a name that a lookup by git's rules
// finds under refs/ before refs/heads/ ("tags/v1" is refs/tags/v1 first).
func shadowProblem(ref string) string {
	switch {
	case len(ref) >= minAbbrev && localgit.IsHex(ref):
		return "it is all hex digits, so git could take it for a commit sha; add a word (e.g. fix-" + ref + ")"
	case pseudoRef.MatchString(ref):
		return "it is spelled like HEAD or another of git's pseudo-refs"
	}
	for _, prefix := range []string{"refs/", "heads/", "tags/", "remotes/"} {
		if strings.HasPrefix(ref, prefix) {
			return fmt.Sprintf("it starts with %q, so git would look for it outside the branches (refs/%s…) first", prefix, ref)
		}
	}
	return ""
}

// pseudoRef is git's spelling of HEAD, ORIG_HEAD, FETCH_HEAD and the like.
var pseudoRef = regexp.MustCompile(`^[A-Z_]*HEAD$`)

// dbNumber converts a requested number to the database's signed integer; a
// number past its range names nothing that exists.
func dbNumber(n uint64) (int64, bool) {
	if n > math.MaxInt64 {
		return 0, false
	}
	return int64(n), true
}

// itemURL is the artifact's page: BASE/repo/issues/N or BASE/repo/pull/N.
func (f *Forge) itemURL(kind, repo string, number int64) string {
	path := "issues"
	if kind == kindPull {
		path = "pull"
	}
	return f.baseURL + "/" + repo + "/" + path + "/" + strconv.FormatInt(number, 10)
}

func (f *Forge) commentURL(kind, repo string, number int64, id string) string {
	return f.itemURL(kind, repo, number) + "#issuecomment-" + id
}

func (f *Forge) reviewURL(repo string, number int64, id string) string {
	return f.itemURL(kindPull, repo, number) + "#pullrequestreview-" + id
}

func internal(err error) error {
	// PostgreSQL's text type cannot hold U+0000 (SQLSTATE 22021,
	// character_not_in_repertoire): the text came from the caller, so it is
	// their argument that is wrong, whichever write sent it.
	var coded interface{ SQLState() string }
	if errors.As(err, &coded) && coded.SQLState() == "22021" {
		return toolserver.InvalidArgument("text with a NUL character (U+0000) cannot be stored on this forge's PostgreSQL store; remove it")
	}
	return toolserver.Internal("local forge: %v", err)
}

func notFound(kind, repo string, number uint64) error {
	what := "issue or pull request"
	switch kind {
	case kindIssue:
		what = "issue"
	case kindPull:
		what = "pull request"
	}
	return toolserver.NotFound("%s #%d not found in %s", what, number, repo)
}

// wrongKind answers an operation on one kind of artifact addressed to a
// number the other kind holds.
func wrongKind(want, repo string, number uint64) error {
	if want == kindPull {
		return toolserver.NotFound("pull request #%d not found in %s: #%d is an issue", number, repo, number)
	}
	return toolserver.NotFound("issue #%d not found in %s: #%d is a pull request", number, repo, number)
}
