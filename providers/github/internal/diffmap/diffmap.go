// Package diffmap reads which lines of a file a pull request's diff shows,
// from the unified diff "patch" GitHub gives for each changed file: the
// lines an inline review comment can be anchored to. On the RIGHT side
// those are the new file's added and context lines; on the LEFT, the old
// file's deleted and context lines. GitHub refuses a review whose comment
// names any other line (422 "Line could not be resolved").
package diffmap

import (
	"strconv"
	"strings"
)

// Lines are the line numbers a diff shows, per side.
type Lines struct {
	Left, Right map[int]bool
}

// Shows reports whether the diff shows line on side ("LEFT" or "RIGHT").
func (l Lines) Shows(side string, line int) bool {
	if side == "LEFT" {
		return l.Left[line]
	}
	return l.Right[line]
}

// Parse reads one file's patch: hunks headed "@@ -a[,b] +c[,d] @@", then
// lines starting ' ' (context), '-' (deleted) or '+' (added); anything else
// ("\ No newline at end of file") shows no line.
func Parse(patch string) Lines {
	l := Lines{Left: map[int]bool{}, Right: map[int]bool{}}
	old, nu := 0, 0
	in := false
	for line := range strings.SplitSeq(patch, "\n") {
		if strings.HasPrefix(line, "@@") {
			old, nu, in = hunkStart(line)
			continue
		}
		if !in || line == "" {
			continue
		}
		switch line[0] {
		case ' ':
			l.Left[old], l.Right[nu] = true, true
			old, nu = old+1, nu+1
		case '-':
			l.Left[old] = true
			old++
		case '+':
			l.Right[nu] = true
			nu++
		}
	}
	return l
}

// hunkStart reads "@@ -a[,b] +c[,d] @@ ..." as the first old and new line.
func hunkStart(header string) (old, nu int, ok bool) {
	f := strings.Fields(header)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return 0, 0, false
	}
	start := func(s string) (int, bool) {
		n, err := strconv.Atoi(strings.SplitN(s[1:], ",", 2)[0])
		return n, err == nil && n >= 0 && n <= maxLine
	}
	old, ok1 := start(f[1])
	nu, ok2 := start(f[2])
	return old, nu, ok1 && ok2
}

// maxLine bounds a hunk's start: no file has a billion lines, and the
// counting that follows must not overflow.
const maxLine = 1 << 30
