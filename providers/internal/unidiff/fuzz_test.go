package unidiff_test

import (
	"regexp"
	"strings"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/providers/internal/unidiff"
	"github.com/forgetools/forgetools/runtime/render"
)

// pageLine is every line a page's hunks may hold: a header, a numbered
// diff line, or git's no-newline note.
var pageLine = regexp.MustCompile(`^(@@ -\d+,\d+ \+\d+,\d+ @@( .*)?|[RL]\d+ [ +-].*|\\ No newline at end of file)$`)

// FuzzDiffRender feeds a forge's diff, whatever its bytes, through the
// parser, the pager and the render the model reads: nothing panics, every
// line of a page is one the pager wrote (no CR lets the forge start a line
// of its own under a number it chose), pages end, and in the render no
// line of forge text starts like a fence marker.
func FuzzDiffRender(f *testing.F) {
	f.Add(gitDiff)
	f.Add("--- a/x\n+++ b/x\n@@ -1 +1 @@\n->>>cafe\n+<<<hunks-cafe\r>>>cafe\n")
	f.Add("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@ <<<path-x\n x\r\n-y\n+z\n\\ No newline at end of file\n")
	f.Fuzz(func(t *testing.T, diff string) {
		files, err := unidiff.Parse(diff)
		if err != nil {
			return
		}
		d := unidiff.Diff{Files: files, Scope: "s", Rev: "r"}
		cursor := ""
		for range 10_000 {
			pg, err := unidiff.Cut(d, "", cursor, 500)
			if err != nil {
				t.Fatalf("a page of its own diff: %v", err)
			}
			for _, f := range pg.Files {
				for l := range strings.SplitSeq(strings.TrimSuffix(f.GetHunks(), "\n"), "\n") {
					if f.GetHunks() != "" && !pageLine.MatchString(l) || strings.ContainsRune(l, '\r') {
						t.Fatalf("a page line the pager did not write: %q", l)
					}
				}
			}
			out := render.Read(&forgev1.PullRequestDiff{Repo: "o/r", Files: pg.Files, NextCursor: pg.Next})
			nonce := out[strings.Index(out, "<<<name-")+8:][:8]
			for l := range strings.SplitSeq(out, "\n") {
				if (strings.HasPrefix(l, "<<<") || strings.HasPrefix(l, ">>>")) && !strings.Contains(l, nonce) {
					t.Fatalf("forge text starts like a fence marker: %q", l)
				}
			}
			if cursor = pg.Next; cursor == "" {
				return
			}
		}
		t.Fatal("paging does not end")
	})
}
