// Package render turns forge results into the text a model reads.
//
// Its doctrine is "constrain, don't escape": a value that reaches the model
// outside a fence must fit a shape the renderer chose (a token, a URL, an
// owner/name slug) or it is replaced by Malformed. Untrusted text (titles,
// bodies) is never shaped; it goes inside a per-render random-nonce fence
// that it cannot close. Everything here is pure and safe on any input.
package render

import (
	"bytes"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Malformed replaces a value that fails its guard. It is never escaped or
// repaired: a value the model cannot trust is not shown at all.
const Malformed = "(malformed)"

// Guard bounds. A value longer than its bound is malformed rather than cut:
// half a URL is a different URL.
const (
	maxAttrLen = 256
	maxURLLen  = 2048
	maxSlugLen = 256
	maxNameLen = 100
)

// The guards below check their shapes with byte and rune tests rather than
// regular expressions: they run for every attribute of every record, and
// FuzzGuardsMatchRegexps holds each to the expression it was first written
// as (kept in that test).

// class is a set of ASCII bytes.
type class [256]bool

func newClass(sets ...string) *class {
	var c class
	for _, set := range sets {
		for i := 0; i < len(set); i++ {
			c[set[i]] = true
		}
	}
	return &c
}

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

var (
	// attrBytes is [\w.:-].
	attrBytes = newClass(alnum, "_.:-")
	// urlBytes is the RFC 3986 unreserved and reserved characters plus '%',
	// minus the quote: no whitespace, quotes, angle brackets, backslashes
	// or anything outside printable ASCII can ride inside a URL the model
	// reads.
	urlBytes = newClass(alnum, "-._~:/?#[]@!$&()*+,;=%")
	// wordBytes is \w, what follows "<<<" or ">>>" in a fence marker.
	wordBytes = newClass(alnum, "_")
	// slugBytes is one path segment's characters.
	slugBytes = newClass(alnum, "_.-")
	// hostBytes is a host name a URL can be vouched for without url.Parse.
	hostBytes = newClass(alnum, ".-")
	// nameMarks is the punctuation a name may carry besides letters, digits,
	// marks and symbols.
	nameMarks = newClass("._:/#&+'@-")
)

// all reports whether s is non-empty and every byte of it is in c.
func (c *class) all(s string) bool {
	for i := 0; i < len(s); i++ {
		if !c[s[i]] {
			return false
		}
	}
	return s != ""
}

// Name passes a short name people chose, such as a label ("good first
// issue", "🐛 bug") or a display name ("Ada Lovelace"), at most 100 bytes;
// anything else is Malformed. Wider than Attr (spaces, any script), it still
// cannot carry a line break, a fence marker or markup: it starts with a
// letter, digit or symbol (So) from any script, and goes on with those,
// combining marks and a little punctuation (no comma: names are listed
// comma-separated; no quotes, brackets or backticks), with single spaces
// between them.
func Name(s string) string {
	if len(s) > maxNameLen || s == "" || !utf8.ValidString(s) {
		return Malformed
	}
	first, space := true, false
	for _, r := range s {
		switch {
		case first:
			if !unicode.In(r, unicode.L, unicode.N, unicode.So) {
				return Malformed
			}
			first = false
		case r == ' ':
			if space {
				return Malformed
			}
			space = true
			continue
		case r < utf8.RuneSelf && nameMarks[r],
			unicode.In(r, unicode.L, unicode.N, unicode.M, unicode.So):
		default:
			return Malformed
		}
		space = false
	}
	if space {
		return Malformed
	}
	return s
}

// Attr passes a short token (number, state, id, handle) that matches
// ^[\w.:-]+$ and is at most 256 bytes; anything else is Malformed.
func Attr(s string) string {
	if len(s) > maxAttrLen || !attrBytes.all(s) {
		return Malformed
	}
	return s
}

// URL passes an absolute http(s) URL with a host, no user information (a URL
// must never carry a credential into a transcript) and only URL characters,
// at most 2048 bytes; anything else is Malformed.
func URL(s string) string {
	rest, ok := strings.CutPrefix(s, "https://")
	if !ok {
		rest, ok = strings.CutPrefix(s, "http://")
	}
	if !ok || len(s) > maxURLLen || !urlBytes.all(rest) {
		return Malformed
	}
	if plainURL(rest) {
		return s
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.User != nil {
		return Malformed
	}
	return s
}

// plainURL vouches for the common URL without url.Parse: no percent
// escapes anywhere, and an authority (up to the first '/', '?' or '#') that
// is a host of letters, digits, dots and hyphens with an optional numeric
// port. Anything else (user information, IP literals, escapes) is left to
// url.Parse.
func plainURL(rest string) bool {
	if strings.IndexByte(rest, '%') >= 0 {
		return false
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	host, port, hasPort := strings.Cut(rest[:end], ":")
	if !hostBytes.all(host) {
		return false
	}
	for i := 0; hasPort && i < len(port); i++ {
		if port[i] < '0' || port[i] > '9' {
			return false
		}
	}
	return true
}

// Slug passes an owner/name repository path (any number of segments, for
// nested groups) or a bare key such as a Linear team key; "." and ".."
// segments and values over 256 bytes are Malformed.
func Slug(s string) string {
	if len(s) > maxSlugLen {
		return Malformed
	}
	for rest := s; ; {
		seg, more, found := strings.Cut(rest, "/")
		if !slugBytes.all(seg) || seg == "." || seg == ".." {
			return Malformed
		}
		if !found {
			return s
		}
		rest = more
	}
}

// verdicts maps forge spellings of a review state onto the tool vocabulary,
// so the model never reads a verdict its own schema would reject. GitHub
// says APPROVED, CHANGES_REQUESTED, COMMENTED; Gitea and Forgejo say
// REQUEST_CHANGES and COMMENT; the proto enum says VERDICT_*.
var verdicts = map[string]string{
	"approve":           "approve",
	"approved":          "approve",
	"request_changes":   "request_changes",
	"changes_requested": "request_changes",
	"request_change":    "request_changes",
	"comment":           "comment",
	"commented":         "comment",
}

// Verdict normalises a review verdict onto the tool vocabulary (approve,
// request_changes, comment) and passes anything else (dismissed, pending)
// lowercased through Attr.
func Verdict(s string) string {
	// An ASCII spelling is folded in place, without allocating; any other
	// takes Unicode lowercasing and trimming (KELVIN SIGN lowercases to k).
	var buf [32]byte
	if t := strings.Trim(s, " \t\n\v\f\r"); len(t) <= len(buf) && isASCII(s) {
		k := buf[:len(t)]
		for i := range len(t) {
			switch c := t[i]; {
			case c >= 'A' && c <= 'Z':
				k[i] = c + 'a' - 'A'
			case c == '-' || c == ' ':
				k[i] = '_'
			default:
				k[i] = c
			}
		}
		if v, ok := verdicts[string(bytes.TrimPrefix(k, []byte("verdict_")))]; ok {
			return v
		}
		return Attr(string(bytes.TrimPrefix(k, []byte("verdict_"))))
	}
	k := strings.ToLower(strings.TrimSpace(s))
	k = strings.NewReplacer("-", "_", " ", "_").Replace(k)
	k = strings.TrimPrefix(k, "verdict_")
	if v, ok := verdicts[k]; ok {
		return v
	}
	return Attr(k)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Flat puts text on one line: every run of whitespace and control
// characters (newlines included) becomes one space, hidden characters become
// visible markers, and the ends are trimmed. Invalid UTF-8 becomes U+FFFD.
func Flat(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	prev := rune(0)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		next, _ := utf8.DecodeRuneInString(s[i+size:])
		i += size
		switch {
		case unicode.IsSpace(r) || unicode.In(r, unicode.Cc, unicode.Zl, unicode.Zp):
			space = b.Len() > 0
		case isHidden(prev, r, next):
			flushSpace(&b, &space)
			b.Write(appendMarker(nil, r))
		default:
			flushSpace(&b, &space)
			b.WriteRune(r)
		}
		prev = r
	}
	return b.String()
}

func flushSpace(b *strings.Builder, pending *bool) {
	if *pending {
		b.WriteByte(' ')
		*pending = false
	}
}

// cut returns at most n runes of s.
func cut(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}
