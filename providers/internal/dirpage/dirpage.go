// Package dirpage pages a directory listing the way every forge's
// forge_list_dir does: at most the entries the renderer shows per page, a
// next_cursor while more follow, and the directory's entry count on every
// page of a directory that takes more than one. The forges' directory
// APIs answer a directory whole (GitHub's and Gitea's contents, a git
// tree) or in pages of their own size (GitLab), so the page is cut here,
// once for all of them.
package dirpage

import (
	"strconv"
	"strings"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/toolserver"
)

// Size is a page's entries: what the renderer shows of a listing.
var Size = shown.Of(&forgev1.DirListing{}, "entries")

// prefix marks a cursor as a directory offset, so a cursor of another list
// (or a made-up one) is refused rather than read as a number.
const prefix = "entry:"

// Offset reads a cursor: "" is the first page.
func Offset(cursor string) (int, error) {
	if cursor == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(cursor, prefix))
	if !strings.HasPrefix(cursor, prefix) || err != nil || n < 0 {
		return 0, toolserver.InvalidArgument("cursor %q is not a next_cursor forge_list_dir gave; omit it for the first page", cursor)
	}
	return n, nil
}

// Cut keeps the page of out's entries that cursor names, sets
// next_cursor when entries follow it and, when the directory takes more
// than one page, entries_total to its count. A cursor past the end is
// refused, naming the count.
func Cut(out *forgev1.DirListing, cursor string) error {
	off, err := Offset(cursor)
	if err != nil {
		return err
	}
	all := len(out.Entries)
	if off > all || off == all && off > 0 {
		return toolserver.InvalidArgument("cursor %q is past the directory's %d entries (it changed since, or the cursor is not one forge_list_dir gave)", cursor, all)
	}
	end := min(off+Size, all)
	out.Entries = out.Entries[off:end]
	if off > 0 || end < all {
		out.EntriesTotal = uint32(all)
	}
	if end < all {
		out.NextCursor = prefix + strconv.Itoa(end)
	}
	return nil
}
