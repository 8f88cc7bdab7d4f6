// Package unidiff reads unified diffs (git's "diff --git" output, or one
// file's hunks as GitLab gives them) into files of hunks whose lines carry
// their old and new line numbers, and cuts them into the pages
// forge_get_pull_request_diff and forge_compare return (page.go), each line
// written with the side and number forge_submit_review takes for it
// (render.go). Every forge reads its diffs through it, and GitHub's
// review-comment lines are read from it too (anchors.go).
//
// A diff is forge content and may be hostile: the parser counts each
// hunk's lines from its header, so a removed line that reads "--- a/x" or
// "diff --git" stays a line of its hunk, and it refuses a header it cannot
// read rather than guessing numbers.
package unidiff

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
)

// File is one changed file of a diff.
type File struct {
	// Path is the file's path after the change; OldPath its path before a
	// rename or copy (else empty). A deleted file's Path is its old path.
	Path, OldPath string
	// Status is added, modified, deleted, renamed or copied.
	Status               string
	Additions, Deletions int
	Binary               bool
	// TooLarge: the forge gave no hunks for the file because of its size.
	TooLarge bool
	Hunks    []Hunk
}

// Hunk is one "@@" section of a file's diff.
type Hunk struct {
	// Section is the text after the header's closing "@@" (git's function
	// context), without its leading space.
	Section string
	Lines   []Line
}

// Line is one line of a hunk. Old and New are the line's position on each
// side: for a context line both are its numbers, for a removed line Old is
// its number and New the new-side line it sits before, for an added line
// New is its number and Old the old-side line it sits before.
type Line struct {
	Op       byte // '+', '-' or ' '
	Old, New int
	Text     string
	// NoNewline: "\ No newline at end of file" followed the line.
	NoNewline bool
}

// Statuses.
const (
	Added    = "added"
	Modified = "modified"
	Deleted  = "deleted"
	Renamed  = "renamed"
	Copied   = "copied"
)

// maxLine bounds a hunk's start and length: no file has a billion lines,
// and the counting that follows must not overflow.
const maxLine = 1 << 30

// Parse reads a git diff: files headed "diff --git a/x b/y" (or bare
// "--- a/x" / "+++ b/y" pairs) and their extended headers, then hunks.
func Parse(diff string) ([]File, error) {
	p := parser{lines: splitLines(diff)}
	var files []File
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		switch {
		case strings.HasPrefix(l, "diff --git "):
			f, err := p.file()
			if err != nil {
				return nil, err
			}
			files = append(files, f)
		case strings.HasPrefix(l, "--- ") && p.i+1 < len(p.lines) && strings.HasPrefix(p.lines[p.i+1], "+++ "):
			f, err := p.file()
			if err != nil {
				return nil, err
			}
			files = append(files, f)
		default:
			// Text before the first file (a commit message in a patch,
			// an "index" line of a format this does not know) shows
			// nothing.
			p.i++
		}
	}
	return files, nil
}

// ParseHunks reads one file's hunks, the "@@" sections and nothing else
// (GitLab's per-file diff), and counts its additions and deletions.
func ParseHunks(patch string) ([]Hunk, int, int, error) {
	p := parser{lines: splitLines(patch)}
	var f File
	for p.i < len(p.lines) {
		if !strings.HasPrefix(p.lines[p.i], "@@") {
			if strings.HasPrefix(p.lines[p.i], "Binary files ") {
				return nil, 0, 0, nil
			}
			return nil, 0, 0, fmt.Errorf("line %d of the patch is outside any hunk", p.i+1)
		}
		if err := p.hunk(&f); err != nil {
			return nil, 0, 0, err
		}
	}
	return f.Hunks, f.Additions, f.Deletions, nil
}

// splitLines splits on LF, dropping the one after the last line.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

type parser struct {
	lines []string
	i     int
}

// file reads one file: its header lines up to the first hunk or the next
// file, then its hunks.
func (p *parser) file() (File, error) {
	f := File{Status: Modified}
	var gitA, gitB string
	if rest, ok := strings.CutPrefix(p.lines[p.i], "diff --git "); ok {
		gitA, gitB = splitGitPaths(rest)
		p.i++
	}
	var minus, plus string
	var haveMinus, havePlus bool
header:
	for ; p.i < len(p.lines); p.i++ {
		l := p.lines[p.i]
		switch {
		case strings.HasPrefix(l, "@@"), strings.HasPrefix(l, "diff --git "):
			break header
		case strings.HasPrefix(l, "--- "):
			if haveMinus {
				break header // the next bare file
			}
			minus, haveMinus = headerPath(l[4:]), true
		case strings.HasPrefix(l, "+++ "):
			plus, havePlus = headerPath(l[4:]), true
		case strings.HasPrefix(l, "new file mode"):
			f.Status = Added
		case strings.HasPrefix(l, "deleted file mode"):
			f.Status = Deleted
		case strings.HasPrefix(l, "rename from "):
			f.Status, f.OldPath = Renamed, unquote(l[len("rename from "):])
		case strings.HasPrefix(l, "rename to "):
			f.Path = unquote(l[len("rename to "):])
		case strings.HasPrefix(l, "copy from "):
			f.Status, f.OldPath = Copied, unquote(l[len("copy from "):])
		case strings.HasPrefix(l, "copy to "):
			f.Path = unquote(l[len("copy to "):])
		case strings.HasPrefix(l, "Binary files "), l == "GIT binary patch":
			f.Binary = true
		}
	}
	switch {
	case f.Path != "":
	case havePlus && plus != "":
		f.Path = plus
	case haveMinus && minus != "":
		f.Path = minus
	default:
		f.Path = cmp.Or(gitB, gitA)
	}
	if haveMinus && minus == "" && f.Status == Modified {
		f.Status = Added // "--- /dev/null" without a mode line
	}
	if havePlus && plus == "" {
		f.Status = Deleted
		f.Path = cmp.Or(minus, gitA, f.Path)
	}
	if f.Path == "" {
		return File{}, fmt.Errorf("line %d: a file header names no path", p.i)
	}
	for p.i < len(p.lines) && strings.HasPrefix(p.lines[p.i], "@@") {
		if err := p.hunk(&f); err != nil {
			return File{}, err
		}
	}
	return f, nil
}

// hunk reads one hunk: its header, then exactly the lines it counts.
func (p *parser) hunk(f *File) error {
	at := p.i + 1
	old, oldN, nu, newN, section, ok := hunkHeader(p.lines[p.i])
	if !ok || oldN > 0 && old < 1 || newN > 0 && nu < 1 {
		// A side that holds lines starts at line 1 at least.
		return fmt.Errorf("line %d: malformed hunk header", at)
	}
	p.i++
	h := Hunk{Section: section}
	// A side of length 0 starts at the line before it ("-0,0" for a new
	// file), so the next line of that side is start+1.
	if oldN == 0 {
		old++
	}
	if newN == 0 {
		nu++
	}
	for oldN > 0 || newN > 0 {
		if p.i >= len(p.lines) {
			return fmt.Errorf("line %d: the hunk ends early", at)
		}
		l := p.lines[p.i]
		op := byte(' ') // an empty line is an empty context line
		if l != "" {
			op = l[0]
		}
		switch {
		case op == ' ' && oldN > 0 && newN > 0:
			oldN, newN = oldN-1, newN-1
		case op == '-' && oldN > 0:
			oldN--
			f.Deletions++
		case op == '+' && newN > 0:
			newN--
			f.Additions++
		case op == '\\' && len(h.Lines) > 0:
			h.Lines[len(h.Lines)-1].NoNewline = true
			p.i++
			continue
		default:
			return fmt.Errorf("line %d: the hunk at line %d has a line it does not count", p.i+1, at)
		}
		text := ""
		if l != "" {
			text = l[1:]
		}
		h.Lines = append(h.Lines, Line{Op: op, Old: old, New: nu, Text: text})
		if op != '+' {
			old++
		}
		if op != '-' {
			nu++
		}
		p.i++
	}
	if p.i < len(p.lines) && strings.HasPrefix(p.lines[p.i], `\`) && len(h.Lines) > 0 {
		h.Lines[len(h.Lines)-1].NoNewline = true
		p.i++
	}
	f.Hunks = append(f.Hunks, h)
	return nil
}

// hunkHeader reads "@@ -a[,b] +c[,d] @@[ section]".
func hunkHeader(l string) (old, oldN, nu, newN int, section string, ok bool) {
	rest, found := strings.CutPrefix(l, "@@ -")
	if !found {
		return
	}
	ranges, section, found := strings.Cut(rest, " @@")
	if !found {
		return
	}
	section = strings.TrimPrefix(section, " ")
	o, n, found := strings.Cut(ranges, " +")
	if !found {
		return
	}
	var ok1, ok2 bool
	old, oldN, ok1 = hunkRange(o)
	nu, newN, ok2 = hunkRange(n)
	return old, oldN, nu, newN, section, ok1 && ok2
}

// hunkRange reads "start[,length]"; a missing length is 1.
func hunkRange(s string) (start, n int, ok bool) {
	a, b, hasLen := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil || start < 0 || start > maxLine {
		return 0, 0, false
	}
	n = 1
	if hasLen {
		if n, err = strconv.Atoi(b); err != nil || n < 0 || n > maxLine {
			return 0, 0, false
		}
	}
	return start, n, true
}

// headerPath reads the path of a "---" or "+++" line: "" for /dev/null,
// else the path without its a/ or b/ prefix and any tab-separated date.
func headerPath(s string) string {
	if strings.HasPrefix(s, `"`) {
		s = unquote(s)
	} else if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	if s == "/dev/null" {
		return ""
	}
	if len(s) > 2 && (s[:2] == "a/" || s[:2] == "b/") {
		return s[2:]
	}
	return s
}

// splitGitPaths reads the paths of "diff --git a/x b/y". Unquoted paths
// may hold spaces, so the line is split where both halves name the same
// path when it is not a rename (the only case with no other header to
// take the path from: a binary file or a mode change).
func splitGitPaths(rest string) (a, b string) {
	if strings.HasPrefix(rest, `"`) {
		if q, err := strconv.QuotedPrefix(rest); err == nil {
			return headerPath(q), headerPath(strings.TrimPrefix(rest[len(q):], " "))
		}
	}
	if len(rest)%2 == 1 {
		half := (len(rest) - 1) / 2
		if rest[half] == ' ' && len(rest) > 4 && rest[2:half] == rest[half+3:] {
			return rest[2:half], rest[half+3:]
		}
	}
	if i := strings.Index(rest, " b/"); i >= 0 {
		return headerPath(rest[:i]), headerPath(rest[i+1:])
	}
	return "", ""
}

// unquote reads a path git wrote C-quoted ("a/t\303\251st"), else returns
// it as it is.
func unquote(s string) string {
	if !strings.HasPrefix(s, `"`) {
		return s
	}
	if q, err := strconv.QuotedPrefix(s); err == nil {
		if u, err := strconv.Unquote(q); err == nil {
			return u
		}
	}
	return s
}
