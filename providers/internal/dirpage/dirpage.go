// Package dirpage pages a directory listing the way every forge's
// forge_list_dir does: at most the entries the renderer shows per page, a
// next_cursor while more follow, and the directory's entry count on every
// page of a directory that takes more than one. The forges' directory
// APIs answer a directory whole (GitHub's and Gitea's contents, a git
// tree) or in pages of their own size (GitLab), so the page is cut here,
// once for all of them.
package dirpage

import (
	"math"
	"net/url"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// Size is a page's entries: what the renderer shows of a listing.
var Size = shown.Of(&forgev1.DirListing{}, "entries")

// DefaultRef is the ref a listing names when the forge read its default
// branch without saying which branch that is (GitLab's tree): HEAD, which
// git and the forges resolve to the default branch, and which no branch
// can be named.
const DefaultRef = "HEAD"

// tool names the arm in a refused cursor.
const tool = "forge_list_dir"

// Page is the page of a listing its request's cursor names. The cursor
// is bound to the request's repository, path and ref (kit.Cursors), so
// one issued for another directory or ref, which would read at an offset
// of a listing it was not counted in, is refused; it is read before the
// forge is asked, so a refused cursor costs no request.
type Page struct {
	cur    kit.Cursors
	cursor string
	off    int
}

// PageOf reads req's cursor: the first page for none.
func PageOf(req *gatewayv1.ListDirRequest) (Page, error) {
	cur := kit.CursorsFor(tool, req)
	off, err := cur.Key(req.GetCursor(), math.MaxInt32)
	return Page{cur: cur, cursor: req.GetCursor(), off: int(off)}, err
}

// Cut keeps the page's entries of out (the whole directory), sets
// next_cursor when entries follow it and, when the directory takes more
// than one page, entries_total to its count. A cursor past the end (the
// directory shrank) is refused, naming the count.
func (p Page) Cut(out *forgev1.DirListing) error {
	all := len(out.Entries)
	if p.off >= all && p.off > 0 {
		return toolserver.InvalidArgument("cursor %q is past the directory's %d entries (it changed since); omit it for the first page", p.cursor, all)
	}
	end := min(p.off+Size, all)
	out.Entries = out.Entries[p.off:end]
	if p.off > 0 || end < all {
		out.EntriesTotal = uint32(all)
	}
	if end < all {
		out.NextCursor = p.cur.NextKey(int64(end))
	}
	return nil
}

// Cut reads req's cursor and keeps that page of out: PageOf and Page.Cut
// in one, for a forge that is asked nothing (the local forge).
func Cut(out *forgev1.DirListing, req *gatewayv1.ListDirRequest) error {
	page, err := PageOf(req)
	if err != nil {
		return err
	}
	return page.Cut(out)
}

// RefOf is the ref a contents url names in its query
// (".../contents/<path>?ref=<ref>"), "" for none. GitHub and Gitea name
// the ref they read in every entry's url, the default branch's name when
// none was asked for, so a listing says which branch it read without a
// second request for the repository.
func RefOf(contentsURL string) string {
	u, err := url.Parse(contentsURL)
	if err != nil {
		return ""
	}
	return u.Query().Get("ref")
}
