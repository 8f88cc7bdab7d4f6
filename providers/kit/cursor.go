package kit

import (
	"crypto/sha256"
	"encoding/base64"
	"math"
	"regexp"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/forgetools/forgetools/toolserver"
)

// Cursors issues and reads the next_cursor of one list arm's pages, bound
// to the query they were issued for. A cursor is the agent's to pass back
// and so untrusted: it is "<query>.<position>", the query a hash of the
// arm and every field of its request but cursor (and the fields named
// free), so that a cursor passed with other filters, another repository or
// another page size, which would silently skip or repeat items, is
// refused instead; the position is the provider's (a page number, the key
// of the last item shown, a forge's own cursor), read back strictly.
type Cursors struct {
	tool  string
	query string
}

// CursorMax is the longest cursor the request fields take (their max_len).
const CursorMax = 64

// queryLen is how many characters of the query hash a cursor carries: 60
// bits, enough that two queries of one agent never collide by accident (a
// forged one gains nothing: the repository is scoped by the gateway, and a
// position is read strictly).
const queryLen = 10

// position is what a provider may put in a cursor: a forge's own cursors
// (Linear's are UUIDs) and decimal keys.
var position = regexp.MustCompile(`^[A-Za-z0-9_:=-]+$`)

// CursorsFor binds the cursors of tool (the arm's tool name, which the
// refusals name) to req, a list request with a string field cursor. Fields
// named free may change between pages without breaking the position: a
// keyset cursor's page size.
func CursorsFor(tool string, req proto.Message, free ...string) Cursors {
	m := proto.Clone(req).ProtoReflect()
	fields := m.Descriptor().Fields()
	for _, name := range append(free, "cursor") {
		if fd := fields.ByName(protoreflect.Name(name)); fd != nil {
			m.Clear(fd)
		}
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m.Interface())
	if err != nil {
		// A request that unmarshalled cannot fail to marshal; binding it
		// to its type alone still refuses other arms' cursors.
		b = nil
	}
	sum := sha256.Sum256(append([]byte(tool+"\x00"+string(m.Descriptor().FullName())+"\x00"), b...))
	return Cursors{tool: tool, query: base64.RawURLEncoding.EncodeToString(sum[:])[:queryLen]}
}

// Next is the cursor of the page at position pos; "" (the last page) when
// pos is "". A position that would not make a cursor the request fields
// take (a forge's cursor too long or in other characters) is an error: the
// forge answered something the provider cannot page through.
func (c Cursors) Next(pos string) (string, error) {
	if pos == "" {
		return "", nil
	}
	cur := c.query + "." + pos
	if len(cur) > CursorMax || !position.MatchString(pos) {
		return "", toolserver.Unavailable("the forge named its next page %q, which %s cannot pass back as a cursor", pos, c.tool)
	}
	return cur, nil
}

// Position reads a cursor back: "" for none (the first page), else the
// position it was issued with. A cursor this query did not issue is
// refused, saying what to do instead.
func (c Cursors) Position(cursor string) (string, error) {
	if cursor == "" {
		return "", nil
	}
	query, pos, ok := strings.Cut(cursor, ".")
	if !ok || len(query) != queryLen || pos == "" || !position.MatchString(pos) || len(cursor) > CursorMax {
		return "", toolserver.InvalidArgument("cursor %q is not a next_cursor %s gave; omit it for the first page", cursor, c.tool)
	}
	if query != c.query {
		return "", toolserver.InvalidArgument("cursor %q is not one %s gave for these arguments: pass it with the same arguments as the call that returned it (only cursor changes), or omit it for the first page", cursor, c.tool)
	}
	return pos, nil
}

// Key reads a cursor whose position is a positive decimal key (a page
// number, the number or id of the last item shown), written as Key issues
// it: 0 for none. The key is at most max.
func (c Cursors) Key(cursor string, max int64) (int64, error) {
	pos, err := c.Position(cursor)
	if err != nil || pos == "" {
		return 0, err
	}
	n, err := strconv.ParseInt(pos, 10, 64)
	if err != nil || n < 1 || n > max || strconv.FormatInt(n, 10) != pos {
		return 0, toolserver.InvalidArgument("cursor %q is not a next_cursor %s gave; omit it for the first page", cursor, c.tool)
	}
	return n, nil
}

// NextKey is the cursor of the page at key n; "" when n is 0.
func (c Cursors) NextKey(n int64) string {
	if n <= 0 {
		return ""
	}
	return c.query + "." + strconv.FormatInt(n, 10)
}

// Page reads a cursor whose position is a forge's page number, as
// NextKey issued it: 1 (the first page) for none. Bind the page size
// (leave "limit" out of free): a page number means nothing at another.
func (c Cursors) Page(cursor string) (int64, error) {
	n, err := c.Key(cursor, math.MaxInt32)
	return max(n, 1), err
}
