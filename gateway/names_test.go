package gateway

import (
	"regexp"
	"strings"
	"testing"
)

// The patterns validName and validRepo were written from, kept as their
// specification.
var (
	nameSpec    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	segmentSpec = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,100}$`)
)

func repoSpec(repo string) bool {
	if strings.Count(repo, "/") >= maxSegments {
		return false
	}
	for seg := range strings.SplitSeq(repo, "/") {
		if seg == "." || seg == ".." || !segmentSpec.MatchString(seg) {
			return false
		}
	}
	return true
}

// FuzzNames holds the hand-written name and repository checks to the
// patterns: same verdict on every string (more seeds in testdata/fuzz).
func FuzzNames(f *testing.F) {
	for _, s := range []string{
		"alice-1", "a", "", "-a", "a b", strings.Repeat("n", 64), strings.Repeat("n", 65),
		"acme/web", "group/sub/name", "ENG", "a//b", "./x", "x/..", "a/", "/a",
		strings.Repeat("r", 100) + "/x", strings.Repeat("r", 101), strings.Repeat("0/", maxSegments-1) + "0",
		strings.Repeat("0/", maxSegments) + "0", "a%2fb", "caf\u00e9", "a\x00b", "a\nb",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validName(s), nameSpec.MatchString(s); got != want {
			t.Errorf("validName(%q) = %v, the pattern says %v", s, got, want)
		}
		if got, want := validRepo(s), repoSpec(s); got != want {
			t.Errorf("validRepo(%q) = %v, the pattern says %v", s, got, want)
		}
	})
}
