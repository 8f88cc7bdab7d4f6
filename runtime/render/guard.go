// Package render turns forge results into the text a model reads.
//
// Its doctrine is "constrain, don't escape": a value that reaches the model
// outside a fence must fit a shape the renderer chose (a token, a URL, an
// owner/name slug) or it is replaced by Malformed. Untrusted text (titles,
// bodies) is never shaped; it goes inside a per-render random-nonce fence
// that it cannot close. Everything here is pure and safe on any input.
package render

import (
	"net/url"
	"regexp"
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

var (
	attrShape = regexp.MustCompile(`^[\w.:-]+$`)
	// The RFC 3986 unreserved and reserved characters plus '%', minus the
	// quote: no whitespace, quotes, angle brackets, backslashes or anything
	// outside printable ASCII can ride inside a URL the model reads.
	urlShape = regexp.MustCompile(`^https?://[A-Za-z0-9\-._~:/?#\[\]@!$&()*+,;=%]+$`)
	// One or more path segments: GitHub owner/name, GitLab group/sub/name,
	// or a bare Linear team key such as ENG.
	slugShape = regexp.MustCompile(`^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*$`)
	// A name people chose: letters, digits and symbols (emoji) from any
	// script, single spaces and a little punctuation, starting and ending
	// with a letter, digit or symbol. No comma (names are listed
	// comma-separated), no quotes, brackets, backticks or line breaks.
	nameShape = regexp.MustCompile(`^[\p{L}\p{N}\p{So}](?:[\p{L}\p{N}\p{M}\p{So}._:/#&+'@-]| [\p{L}\p{N}\p{M}\p{So}._:/#&+'@-])*$`)
)

// Name passes a short name people chose, such as a label ("good first
// issue", "🐛 bug") or a display name ("Ada Lovelace"), at most 100 bytes;
// anything else is Malformed. Wider than Attr (spaces, any script), it still
// cannot carry a line break, a fence marker or markup.
func Name(s string) string {
	if len(s) > maxNameLen || !utf8.ValidString(s) || !nameShape.MatchString(s) {
		return Malformed
	}
	return s
}

// Attr passes a short token (number, state, id, handle) that matches
// ^[\w.:-]+$ and is at most 256 bytes; anything else is Malformed.
func Attr(s string) string {
	if len(s) > maxAttrLen || !attrShape.MatchString(s) {
		return Malformed
	}
	return s
}

// URL passes an absolute http(s) URL with a host, no user information (a URL
// must never carry a credential into a transcript) and only URL characters,
// at most 2048 bytes; anything else is Malformed.
func URL(s string) string {
	if len(s) > maxURLLen || !urlShape.MatchString(s) {
		return Malformed
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.User != nil {
		return Malformed
	}
	return s
}

// Slug passes an owner/name repository path (any number of segments, for
// nested groups) or a bare key such as a Linear team key; "." and ".."
// segments and values over 256 bytes are Malformed.
func Slug(s string) string {
	if len(s) > maxSlugLen || !slugShape.MatchString(s) {
		return Malformed
	}
	for _, seg := range strings.Split(s, "/") {
		if seg == "." || seg == ".." {
			return Malformed
		}
	}
	return s
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
	k := strings.ToLower(strings.TrimSpace(s))
	k = strings.NewReplacer("-", "_", " ", "_").Replace(k)
	k = strings.TrimPrefix(k, "verdict_")
	if v, ok := verdicts[k]; ok {
		return v
	}
	return Attr(k)
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
			b.WriteString(marker(r))
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
