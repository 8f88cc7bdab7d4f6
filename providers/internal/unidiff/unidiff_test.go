package unidiff_test

import (
	"fmt"
	"strings"
	"testing"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/providers/internal/unidiff"
	"github.com/forgetools/forgetools/toolserver"
)

// gitDiff has each kind of change git writes: a modification whose
// removed lines read like file headers, an added file without a final
// newline, a deletion, a rename with an edit, a pure rename, a binary file
// and a mode change.
const gitDiff = `diff --git a/main.go b/main.go
index 1111111..2222222 100644
--- a/main.go
+++ b/main.go
@@ -1,5 +1,4 @@ package main
 package main
--- a/evil
-+++ b/evil
+diff --git a/x b/x
 
 func main() {}
@@ -10,2 +10,3 @@ func tail() {
 a
+b
 c
diff --git a/new.txt b/new.txt
new file mode 100644
index 0000000..3333333
--- /dev/null
+++ b/new.txt
@@ -0,0 +1,2 @@
+one
+two
\ No newline at end of file
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
index 4444444..0000000
--- a/gone.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
diff --git a/old name.go b/new name.go
similarity index 90%
rename from old name.go
rename to new name.go
index 5555555..6666666 100644
--- a/old name.go
+++ b/new name.go
@@ -3,1 +3,1 @@
-x
+y
diff --git a/a.go b/b.go
similarity index 100%
rename from a.go
rename to b.go
diff --git a/logo with space.png b/logo with space.png
index 7777777..8888888 100644
Binary files a/logo with space.png and b/logo with space.png differ
diff --git a/run.sh b/run.sh
old mode 100644
new mode 100755
`

func TestParseGitDiff(t *testing.T) {
	files, err := unidiff.Parse(gitDiff)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		path, old, status string
		add, del          int
		binary            bool
		hunks             int
	}
	wants := []want{
		{"main.go", "", "modified", 2, 2, false, 2},
		{"new.txt", "", "added", 2, 0, false, 1},
		{"gone.txt", "", "deleted", 0, 1, false, 1},
		{"new name.go", "old name.go", "renamed", 1, 1, false, 1},
		{"b.go", "a.go", "renamed", 0, 0, false, 0},
		{"logo with space.png", "", "modified", 0, 0, true, 0},
		{"run.sh", "", "modified", 0, 0, false, 0},
	}
	if len(files) != len(wants) {
		t.Fatalf("got %d files, want %d: %+v", len(files), len(wants), files)
	}
	for i, w := range wants {
		f := files[i]
		got := want{f.Path, f.OldPath, f.Status, f.Additions, f.Deletions, f.Binary, len(f.Hunks)}
		if got != w {
			t.Errorf("file %d: got %+v, want %+v", i, got, w)
		}
	}
	// The removed lines that read like headers are lines of the hunk, on
	// the left at their old numbers; the added one on the right.
	h := files[0].Hunks[0]
	var got []string
	for _, l := range h.Lines {
		got = append(got, fmt.Sprintf("%s%d%c%s", l.Side()[:1], l.Number(), l.Op, l.Text))
	}
	wantLines := []string{"R1 package main", "L2--- a/evil", "L3-+++ b/evil", "R2+diff --git a/x b/x", "R3 ", "R4 func main() {}"}
	if strings.Join(got, "|") != strings.Join(wantLines, "|") {
		t.Errorf("hunk lines:\n got %q\nwant %q", got, wantLines)
	}
	if h.Section != "package main" {
		t.Errorf("section %q", h.Section)
	}
	if second := files[0].Hunks[1].Lines; second[1].Op != '+' || second[1].New != 11 || second[2].Old != 11 || second[2].New != 12 {
		t.Errorf("second hunk numbers: %+v", second)
	}
	if nl := files[1].Hunks[0].Lines; !nl[1].NoNewline || nl[0].New != 1 || nl[1].New != 2 {
		t.Errorf("added file lines: %+v", nl)
	}
	if del := files[2].Hunks[0].Lines[0]; del.Side() != "LEFT" || del.Number() != 1 {
		t.Errorf("deleted line: %+v", del)
	}
}

func TestParseRefusesWhatItCannotNumber(t *testing.T) {
	for name, diff := range map[string]string{
		"bad header":      "--- a/x\n+++ b/x\n@@ -1,x +1 @@\n x\n",
		"short hunk":      "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n x\n",
		"uncounted line":  "--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n+y\n+z\n",
		"huge start":      "--- a/x\n+++ b/x\n@@ -1 +99999999999 @@\n-x\n+y\n",
		"no path at all":  "diff --git \n@@ -1 +1 @@\n-x\n+y\n",
		"header as hunks": "--- a/x\n+++ b/x\n@@ -1 +1\n-x\n+y\n",
	} {
		if files, err := unidiff.Parse(diff); err == nil {
			t.Errorf("%s: parsed %+v, want an error", name, files)
		}
	}
}

func TestParseHunks(t *testing.T) {
	hunks, add, del, err := unidiff.ParseHunks("@@ -1,2 +1,2 @@\n-a\n+b\n c\n")
	if err != nil || len(hunks) != 1 || add != 1 || del != 1 {
		t.Fatalf("got %+v %d %d %v", hunks, add, del, err)
	}
	if _, _, _, err := unidiff.ParseHunks("not a hunk\n"); err == nil {
		t.Error("text outside a hunk parsed")
	}
}

// A CR inside a line would let the forge start a line of its own under a
// number it chose once the renderer reads the CR as a line break.
func TestCarriageReturnCannotForgeALine(t *testing.T) {
	files, err := unidiff.Parse("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\r\n+new\rR99 +forged\r\n")
	if err != nil {
		t.Fatal(err)
	}
	pg, err := unidiff.Cut(unidiff.Diff{Files: files}, "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := "@@ -1,1 +1,1 @@\nL1 -old\nR1 +new<U+000D>R99 +forged\n"
	if got := pg.Files[0].GetHunks(); got != want {
		t.Errorf("hunks:\n got %q\nwant %q", got, want)
	}
}

// bigDiff is n files of lines hunks each (one removed and one added line
// per pair, so both sides count).
func bigDiff(nFiles, lines int) string {
	var b strings.Builder
	for f := range nFiles {
		fmt.Fprintf(&b, "diff --git a/f%d b/f%d\n--- a/f%d\n+++ b/f%d\n@@ -1,%d +1,%d @@ func f%d()\n", f, f, f, f, lines, lines, f)
		for i := range lines {
			fmt.Fprintf(&b, "-old %d %d\n+new %d %d\n", f, i, f, i)
		}
	}
	return b.String()
}

// Paging reads every line exactly once, in order, each under a header
// that counts the lines it heads, within the budget, and the last page
// says so.
func TestPagesCoverEveryLineOnce(t *testing.T) {
	files, err := unidiff.Parse(bigDiff(7, 90))
	if err != nil {
		t.Fatal(err)
	}
	d := unidiff.Diff{Files: files, Scope: "s", Rev: "r"}
	const budget = 1500
	var seen []string
	cursor, pages := "", 0
	for {
		pg, err := unidiff.Cut(d, "", cursor, budget)
		if err != nil {
			t.Fatalf("page %d: %v", pages, err)
		}
		pages++
		size := 0
		for _, f := range pg.Files {
			size += len(f.GetHunks())
			seen = append(seen, checkHunks(t, f.GetPath(), f.GetHunks())...)
		}
		if size > budget {
			t.Errorf("page %d holds %d bytes of hunks, over the budget %d", pages, size, budget)
		}
		if pg.Changed != 7 {
			t.Errorf("page %d: changed %d", pages, pg.Changed)
		}
		if cursor = pg.Next; cursor == "" {
			break
		}
		if pages > 1000 {
			t.Fatal("paging does not end")
		}
	}
	var want []string
	for f := range 7 {
		for i := range 90 {
			want = append(want, fmt.Sprintf("f%d L%d old %d %d", f, i+1, f, i), fmt.Sprintf("f%d R%d new %d %d", f, i+1, f, i))
		}
	}
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Errorf("the pages did not show every line once in order: %d lines seen, %d wanted", len(seen), len(want))
	}
	if pages < 10 {
		t.Errorf("only %d pages: the budget was not applied", pages)
	}
}

// checkHunks reads a page's hunks back: each header's counts match the
// lines under it, and each line reads "<side><n> <op><text>".
func checkHunks(t *testing.T, path, hunks string) (lines []string) {
	t.Helper()
	var wantOld, wantNew int
	for l := range strings.SplitSeq(strings.TrimSuffix(hunks, "\n"), "\n") {
		if strings.HasPrefix(l, "@@") {
			if wantOld != 0 || wantNew != 0 {
				t.Errorf("%s: a header's counts are %d/%d short", path, wantOld, wantNew)
			}
			var a, b, c, d int
			if _, err := fmt.Sscanf(l, "@@ -%d,%d +%d,%d @@", &a, &b, &c, &d); err != nil {
				t.Fatalf("%s: header %q: %v", path, l, err)
			}
			wantOld, wantNew = b, d
			continue
		}
		num, rest, ok := strings.Cut(l, " ")
		if !ok || len(rest) == 0 {
			t.Fatalf("%s: line %q", path, l)
		}
		switch rest[0] {
		case '-':
			wantOld--
		case '+':
			wantNew--
		default:
			wantOld, wantNew = wantOld-1, wantNew-1
		}
		lines = append(lines, path+" "+num+" "+rest[1:])
	}
	if wantOld != 0 || wantNew != 0 {
		t.Errorf("%s: the last header's counts are %d/%d off", path, wantOld, wantNew)
	}
	return lines
}

func TestCursorIsStrict(t *testing.T) {
	files, _ := unidiff.Parse(bigDiff(3, 50))
	d := unidiff.Diff{Files: files, Scope: "pr 1", Rev: "a..b"}
	first, err := unidiff.Cut(d, "", "", 300)
	if err != nil || first.Next == "" {
		t.Fatalf("first page: %v %q", err, first.Next)
	}
	if _, err := unidiff.Cut(d, "", first.Next, 300); err != nil {
		t.Fatalf("its own cursor: %v", err)
	}
	parts := strings.Split(first.Next, ".")
	for _, c := range []string{
		"x", "diff.0.0", "diff.-1.0." + parts[3] + "." + parts[4], "diff.01.0." + parts[3] + "." + parts[4],
		"diff.9.0." + parts[3] + "." + parts[4], "diff.0.100000." + parts[3] + "." + parts[4],
		"entry:3", first.Next + ".1",
	} {
		if _, err := unidiff.Cut(d, "", c, 300); code(err) != optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT {
			t.Errorf("cursor %q: %v, want invalid_argument", c, err)
		}
	}
	other := d
	other.Scope = "pr 2"
	if _, err := unidiff.Cut(other, "", first.Next, 300); code(err) != optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT {
		t.Errorf("another diff's cursor: %v, want invalid_argument", err)
	}
	if _, err := unidiff.Cut(d, "f1", first.Next, 300); code(err) != optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT {
		t.Errorf("an unfiltered cursor read with a path: %v, want invalid_argument", err)
	}
	moved := d
	moved.Rev = "a..c"
	if _, err := unidiff.Cut(moved, "", first.Next, 300); code(err) != optionsv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION {
		t.Errorf("a cursor from before a push: %v, want failed_precondition", err)
	}
}

func TestPathFilter(t *testing.T) {
	files, _ := unidiff.Parse(gitDiff)
	d := unidiff.Diff{Files: files}
	for _, path := range []string{"new name.go", "old name.go"} {
		pg, err := unidiff.Cut(d, path, "", 0)
		if err != nil || len(pg.Files) != 1 || pg.Files[0].GetPath() != "new name.go" || pg.Files[0].GetPreviousPath() != "old name.go" {
			t.Errorf("%s: %+v %v", path, pg.Files, err)
		}
	}
	if _, err := unidiff.Cut(d, "nowhere.go", "", 0); code(err) != optionsv1.ErrorCode_ERROR_CODE_NOT_FOUND {
		t.Errorf("an unchanged path: %v, want not_found", err)
	}
}

func code(err error) toolserver.Code {
	if e, ok := toolserver.AsError(err); ok {
		return e.Code
	}
	return -1
}
