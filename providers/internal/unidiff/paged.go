package unidiff

import (
	"fmt"
	"strings"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// Files is where a pull request's diff files come from: all of them at
// once (Whole, a forge that sends the diff in one answer) or a forge page
// at a time (Pages).
type Files interface {
	cut(scope, rev, path, cursor string, budget int) (Page, error)
}

// Whole is a diff's files, all read.
type Whole []File

func (w Whole) cut(scope, rev, path, cursor string, budget int) (Page, error) {
	return Cut(Diff{Files: w, Scope: scope, Rev: rev}, path, cursor, budget)
}

// Pages is a diff whose files the forge lists PerPage to a page, from
// page 1, in the same order every time (GitHub's pulls/{n}/files,
// GitLab's merge request diffs). A render page is cut by bytes, so it
// does not line up with the forge's pages: its cursor names the file it
// starts at, and the page reads only the forge pages from the one holding
// that file to the one holding its last, one or two of them. A path
// filter reads the pages until the path's file (its rename's other side
// included) and then the rest, since the list is in the forge's order,
// not by path.
type Pages struct {
	PerPage, MaxPages int
	// Read reads page (from 1): its files, whether more follow it, and
	// the forge's count of the diff's files, -1 when the forge does not
	// say.
	Read func(page int) (files []File, more bool, total int, err error)
}

func (d Pages) cut(scope, rev, path, cursor string, budget int) (Page, error) {
	if path != "" {
		all, err := d.all()
		if err != nil {
			return Page{}, err
		}
		return Cut(Diff{Files: all, Scope: scope, Rev: rev}, path, cursor, budget)
	}
	sc, rv := tag(scope, path), tag(rev)
	first := 1
	if cursor != "" {
		// The cursor's file names the page to start at; readCursor checks
		// the rest of it.
		if fi, ok := cursorFile(cursor); ok {
			first = fi/d.PerPage + 1
		}
	}
	if first > d.MaxPages {
		return Page{}, toolserver.InvalidArgument("cursor %q is not a next_cursor this diff gave; omit it for the first page", cursor)
	}
	r := &reader{d: d, base: (first - 1) * d.PerPage, next: first, more: true, total: -1}
	pg, err := cut(source{has: r.has, at: r.at}, sc, rv, cursor, budget)
	if err != nil {
		return Page{}, err
	}
	pg.Changed = uint32(r.changed())
	return pg, nil
}

// all reads every page (up to MaxPages).
func (d Pages) all() ([]File, error) {
	var out []File
	for page := 1; page <= d.MaxPages; page++ {
		files, more, _, err := d.Read(page)
		if err != nil {
			return nil, err
		}
		if len(files) > d.PerPage {
			return files, nil // not paged as asked: the whole list
		}
		out = append(out, files...)
		if !more || len(files) == 0 {
			break
		}
	}
	return out, nil
}

// reader reads a Pages diff's pages on demand, from the one holding base.
type reader struct {
	d     Pages
	base  int    // the index of files[0] in the diff
	files []File // the pages read, in order
	next  int    // the page to read next
	more  bool   // the forge has pages after those read
	total int    // the forge's count, -1 if it gave none
}

// has says whether file i exists, reading nothing: a file past those
// read exists while the forge says more pages follow.
func (r *reader) has(i int) bool {
	return i >= r.base && (i < r.base+len(r.files) || r.more && r.next <= r.d.MaxPages)
}

func (r *reader) at(i int) (*File, error) {
	for i >= r.base+len(r.files) && r.more && r.next <= r.d.MaxPages {
		files, more, total, err := r.d.Read(r.next)
		if err != nil {
			return nil, err
		}
		if len(files) > r.d.PerPage {
			// The forge does not page as asked (per_page ignored): its
			// answer is taken as the whole list, which the indexes of
			// the cursors then count from.
			r.base, r.files, r.more = 0, files, false
			break
		}
		r.files = append(r.files, files...)
		r.more = more && len(files) > 0
		r.next++
		if total >= 0 {
			r.total = total
		}
	}
	if i < r.base || i >= r.base+len(r.files) {
		return nil, nil
	}
	return &r.files[i-r.base], nil
}

// changed is how many files the diff changes: the forge's count, else
// those read when the last page was (else as many as are known of, a
// floor).
func (r *reader) changed() int {
	seen := r.base + len(r.files)
	if r.total >= 0 {
		return max(r.total, seen)
	}
	return seen
}

// cursorFile is the file index a diff cursor names, read as strictly as
// readCursor reads it, if it is one.
func cursorFile(cursor string) (int, bool) {
	p := strings.Split(cursor, ".")
	if len(p) != 5 || p[0] != "diff" {
		return 0, false
	}
	return index(p[1])
}

// PullRequest names the pull request a diff is of: the result's fields
// besides the page.
type PullRequest struct {
	Forge      *forgev1.ForgeRef
	Repo       string
	Number     uint64
	Base, Head string
}

// PullRequestDiff is the page of a pull request's diff that path and
// cursor name, as the result every forge returns. Its cursors are bound
// to the pull request and to its base and head commits: one issued
// before a push moved them is refused.
func PullRequestDiff(pr PullRequest, files Files, path, cursor string) (*forgev1.PullRequestDiff, error) {
	scope := fmt.Sprintf("pull %s#%d", pr.Repo, pr.Number)
	pg, err := files.cut(scope, pr.Base+"..."+pr.Head, path, cursor, 0)
	if err != nil {
		return nil, err
	}
	return &forgev1.PullRequestDiff{
		Forge: pr.Forge, Repo: pr.Repo, Number: pr.Number, BaseSha: pr.Base, HeadSha: pr.Head,
		FilesChanged: pg.Changed, NextCursor: pg.Next, Files: pg.Files,
	}, nil
}
