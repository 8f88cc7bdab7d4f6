package unidiff

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/toolserver"
)

// Budget is how many bytes of hunks and paths a page holds: a long pull
// request is read in pages of about this size (a page goes over only to
// hold one line that is larger by itself), well under the render's cap on
// a file's hunks (100,000 characters).
const Budget = 40_000

// MaxFiles is a page's files: what the renderer shows of them.
var MaxFiles = shown.Of(&forgev1.PullRequestDiff{}, "files")

// fileCost is what a file's record costs on a page besides its paths and
// hunks (its header, attributes and fence markers), so a page of many
// small files stays near the budget too.
const fileCost = 80

// Diff is a whole diff and what it is of.
type Diff struct {
	Files []File
	// Scope names what was diffed: the pull request or the compared refs.
	// A cursor reads only the scope (and path filter) it was issued for.
	Scope string
	// Rev names the commits the diff is between: a cursor issued before a
	// push moved them is refused, not read into a different diff.
	Rev string
}

// Page is one page of a diff.
type Page struct {
	Files []*forgev1.DiffFile
	// Changed is how many files the whole diff changes.
	Changed uint32
	// Next is the cursor of the page after this one; empty on the last.
	Next string
}

// Cut returns the page of d that cursor names ("" = the first), only the
// file path names when path is set, at most budget bytes (Budget when 0).
func Cut(d Diff, path, cursor string, budget int) (Page, error) {
	files := d.Files
	if path != "" {
		files = nil
		for _, f := range d.Files {
			if f.Path == path || f.OldPath == path {
				files = append(files, f)
			}
		}
		if len(files) == 0 {
			return Page{}, toolserver.NotFound("%s is not changed in this diff", path)
		}
	}
	pg, err := cut(sliceOf(files), tag(d.Scope, path), tag(d.Rev), cursor, budget)
	pg.Changed = uint32(len(d.Files))
	return pg, err
}

// source is the files a page is cut from, read as the cut asks for
// them: has says whether the i-th file exists (without reading it, so a
// full page never reads a forge page it will not show), at reads it.
type source struct {
	has func(i int) bool
	at  func(i int) (*File, error)
}

// sliceOf is files, all read.
func sliceOf(files []File) source {
	return source{
		has: func(i int) bool { return i < len(files) },
		at: func(i int) (*File, error) {
			if i >= len(files) {
				return nil, nil
			}
			return &files[i], nil
		},
	}
}

// cut is the page of src that cursor names, its files changed unset.
func cut(src source, scope, rev, cursor string, budget int) (Page, error) {
	if budget <= 0 {
		budget = Budget
	}
	fi, li, err := readCursor(cursor, scope, rev, src)
	if err != nil {
		return Page{}, err
	}
	var pg Page
	used := 0
	var buf []byte
	for ; src.has(fi); fi, li = fi+1, 0 {
		if len(pg.Files) == MaxFiles || len(pg.Files) > 0 && used+fileCost > budget {
			break
		}
		f, err := src.at(fi)
		if err != nil {
			return Page{}, err
		}
		if f == nil {
			break
		}
		cost := fileCost + len(f.Path) + len(f.OldPath)
		if len(pg.Files) > 0 && used+cost > budget {
			break
		}
		used += cost
		var n int
		buf, n = f.appendHunks(buf[:0], li, budget-used, len(pg.Files) == 0)
		if n == 0 && li < f.lineCount() {
			break // not one more line fits: the file starts the next page
		}
		used += len(buf)
		df := f.record()
		df.Hunks = string(buf)
		pg.Files = append(pg.Files, df)
		if li += n; li < f.lineCount() {
			break
		}
	}
	if src.has(fi) {
		pg.Next = "diff." + strconv.Itoa(fi) + "." + strconv.Itoa(li) + "." + scope + "." + rev
	}
	return pg, nil
}

// record is f's record without its hunks.
func (f *File) record() *forgev1.DiffFile {
	return &forgev1.DiffFile{
		Status:       f.Status,
		Additions:    uint32(min(f.Additions, maxLine)),
		Deletions:    uint32(min(f.Deletions, maxLine)),
		Binary:       f.Binary,
		TooLarge:     f.TooLarge,
		Path:         f.Path,
		PreviousPath: f.OldPath,
	}
}

func (f *File) lineCount() int {
	n := 0
	for _, h := range f.Hunks {
		n += len(h.Lines)
	}
	return n
}

// appendHunks appends f's lines from the from-th on, as whole lines while
// they fit in room bytes (one at least when force), each run of a hunk
// under its header. It returns the buffer and how many lines it took.
func (f *File) appendHunks(b []byte, from, room int, force bool) ([]byte, int) {
	taken, pos := 0, 0
	for _, h := range f.Hunks {
		if pos+len(h.Lines) <= from {
			pos += len(h.Lines)
			continue
		}
		lines := h.Lines[max(from-pos, 0):]
		pos += len(h.Lines)
		mark := len(b)
		hdr := appendHeader(nil, lines, h.Section)
		b = append(b, hdr...)
		n := 0
		for _, l := range lines {
			before := len(b)
			b = appendLine(b, l)
			if len(b) > room && !(force && taken == 0 && n == 0) {
				b = b[:before]
				break
			}
			n++
		}
		if n == 0 {
			return b[:mark], taken
		}
		if n < len(lines) {
			// The header counted lines the page does not hold: head the
			// run with the range it shows (never longer than the first).
			body := append([]byte(nil), b[mark+len(hdr):]...)
			b = append(appendHeader(b[:mark], lines[:n], h.Section), body...)
			return b, taken + n
		}
		taken += n
	}
	return b, taken
}

// tag is a short digest of parts, for a cursor to name what it reads.
func tag(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:4])
}

// readCursor reads "diff.<file>.<line>.<scope>.<rev>": which file of src
// and which of its lines the page starts at. Scope and rev are checked
// before any file is read, so a refused cursor costs a forge nothing
// more.
func readCursor(cursor, scope, rev string, src source) (fi, li int, err error) {
	if cursor == "" {
		return 0, 0, nil
	}
	bad := toolserver.InvalidArgument("cursor %q is not a next_cursor this diff gave; omit it for the first page", cursor)
	p := strings.Split(cursor, ".")
	if len(p) != 5 || p[0] != "diff" {
		return 0, 0, bad
	}
	fi, ok1 := index(p[1])
	li, ok2 := index(p[2])
	if !ok1 || !ok2 || p[3] != scope {
		return 0, 0, bad
	}
	if p[4] != rev {
		return 0, 0, toolserver.FailedPrecondition("the diff changed since cursor %q was given (new commits): read it again from the first page", cursor)
	}
	if !src.has(fi) {
		return 0, 0, bad
	}
	f, err := src.at(fi)
	if err != nil {
		return 0, 0, err
	}
	if f == nil || li > f.lineCount() || li == f.lineCount() && li > 0 {
		return 0, 0, bad
	}
	return fi, li, nil
}

// index reads a decimal index as a cursor spells it: digits, no sign, no
// leading zero.
func index(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0 && strconv.Itoa(n) == s && n <= maxLine
}
