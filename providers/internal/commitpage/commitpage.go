// Package commitpage is forge_list_commits' cursor, one for every forge:
// the commit the first page was read from (so the pages of one listing
// never shift when the branch moves on meanwhile), how many commits the
// pages before showed, and the page size they were cut at. Providers read
// the next page from that commit at that offset; a cursor they did not
// issue is refused, never read as something else.
package commitpage

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/forgetools/forgetools/toolserver"
)

// DefaultSize is a page's commits when the call gives no limit.
const DefaultSize = 30

// maxSize is the largest page a call may ask for (the request's bound).
const maxSize = 100

// Cursor is where a page starts.
type Cursor struct {
	// Head is the commit the listing reads from (hex); "" on the first
	// page, which reads from the ref asked for.
	Head string
	// Offset is how many commits the pages before showed.
	Offset int
	// Size is the page size.
	Size int
}

// Parse reads a request's cursor and limit: "" is the first page, of
// limit commits (DefaultSize when nil). A later page keeps the size the
// first was cut at, so a limit that differs is refused.
func Parse(cursor string, limit *uint32) (Cursor, error) {
	size := DefaultSize
	if limit != nil {
		size = int(*limit)
	}
	if size < 1 || size > maxSize {
		return Cursor{}, toolserver.InvalidArgument("limit %d is outside 1 to %d", size, maxSize)
	}
	if cursor == "" {
		return Cursor{Size: size}, nil
	}
	bad := toolserver.InvalidArgument("cursor %q is not a next_cursor forge_list_commits gave; omit it for the first page", cursor)
	parts := strings.Split(strings.TrimPrefix(cursor, "c"), ".")
	if !strings.HasPrefix(cursor, "c") || len(parts) != 3 {
		return Cursor{}, bad
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(parts[0])
	if err != nil || (len(raw) != 20 && len(raw) != 32) {
		return Cursor{}, bad
	}
	off, err1 := strconv.Atoi(parts[1])
	was, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil || off < 1 || was < 1 || was > maxSize || strconv.Itoa(off) != parts[1] || strconv.Itoa(was) != parts[2] {
		return Cursor{}, bad
	}
	if limit != nil && size != was {
		return Cursor{}, toolserver.InvalidArgument("this cursor continues pages of %d commits: leave limit out, or pass %d", was, was)
	}
	return Cursor{Head: hex.EncodeToString(raw), Offset: off, Size: was}, nil
}

// Next is the cursor of the page after one of c's that started at head
// (the commit the listing reads from) and showed shown commits.
func (c Cursor) Next(head string, shown int) (string, error) {
	raw, err := hex.DecodeString(head)
	if err != nil || (len(raw) != 20 && len(raw) != 32) {
		return "", fmt.Errorf("commit id %q is not a sha", head)
	}
	return "c" + base64.RawURLEncoding.EncodeToString(raw) + "." + strconv.Itoa(c.Offset+shown) + "." + strconv.Itoa(c.Size), nil
}
