// Package attribution writes and reads the owner header: the one line the
// gateway puts at the top of every body it writes to a forge, saying which
// agent wrote it, on whose behalf, and in which session.
//
// # Grammar
//
// The header is the first line of the body, followed by a blank line:
//
//	header  = "> forgetools agent " code " on behalf of " code ", session " code
//	code    = "`" value "`"
//	value   = (ALPHA / DIGIT) *99(ALPHA / DIGIT / "." / "_" / ":" / "-")
//
// for example
//
//	> forgetools agent `claude-7` on behalf of `alice`, session `s-42`
//
// It is plain Markdown so that every renderer shows it the same way: a
// blockquote line on GitHub, GitLab, Gitea and Linear, with the handles in
// code spans so no renderer turns them into @-mentions (which would notify
// the owner on every write), links or emphasis. Not an HTML comment: GitHub
// hides those, but editors that do not keep raw HTML (Linear's) may drop the
// header or show it as text, and a hidden header is no audit trail for the
// people reading the forge. The blank line after it stops the blockquote
// swallowing the body's first paragraph (Markdown's lazy continuation).
//
// # Reading it back
//
// Parse accepts the header only as the first non-blank line, tolerating what
// forges do to stored text: CRLF line ends, a byte-order mark, up to three
// spaces of indentation, and runs of spaces or tabs between the words. Anyone
// can type this grammar into a forge body, so what Parse returns is a claim,
// never an authenticated identity.
//
// Strip is deliberately looser than Parse: it removes any leading line that
// merely looks like a header, so an agent cannot slip a near-miss lookalike
// past the gateway's own stamp.
package attribution

import (
	"fmt"
	"regexp"
	"strings"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

// valuePattern is one handle or session id: safe inside a code span (no
// backtick), and within the renderer's attr shape (^[\w.:-]+$).
const valuePattern = `[A-Za-z0-9][A-Za-z0-9._:-]{0,99}`

var (
	valueRE = regexp.MustCompile(`^` + valuePattern + `$`)

	// lookalikeRE is any line that reads as an attribution header to a
	// person: quoted or not, any case, behind invisible characters,
	// whatever follows.
	lookalikeRE = regexp.MustCompile(`(?i)^[\s>\x{FEFF}\x{200B}-\x{200D}\x{2060}*_]*forgetools[\s*_]+agent\b.*\bon\s+behalf\s+of\b`)
)

// ValidValue reports whether s can be an agent handle, owner handle or
// session id in a header.
func ValidValue(s string) bool { return valueRE.MatchString(s) }

// Header renders a's header line (without a line end).
func Header(a *forgev1.Attribution) (string, error) {
	for _, f := range []struct{ name, v string }{
		{"agent handle", a.GetAgentHandle()},
		{"owner handle", a.GetOwnerHandle()},
		{"session id", a.GetSessionId()},
	} {
		if !ValidValue(f.v) {
			return "", fmt.Errorf("%s %q must be 1-100 letters, digits, '.', '_', ':' or '-', starting with a letter or digit", f.name, f.v)
		}
	}
	return fmt.Sprintf("> forgetools agent `%s` on behalf of `%s`, session `%s`",
		a.GetAgentHandle(), a.GetOwnerHandle(), a.GetSessionId()), nil
}

// Stamp returns body with any header-like lines the agent wrote at its top
// removed and a's header put there instead.
func Stamp(a *forgev1.Attribution, body string) (string, error) {
	h, err := Header(a)
	if err != nil {
		return "", err
	}
	rest := trimBlankLines(Strip(body))
	if rest == "" {
		return h, nil
	}
	return h + "\n\n" + rest, nil
}

// Strip removes every header-like line at the top of body (with the blank
// lines that follow each). A body that does not start with one is returned
// unchanged.
func Strip(body string) string {
	for {
		line, rest, ok := firstLine(body)
		if !ok || !lookalikeRE.MatchString(line) {
			return body
		}
		body = trimBlankLines(rest)
	}
}

// Parse reads the header at the top of body. It returns the claimed
// attribution and the body without the header, or nil and body unchanged
// when body does not start with a well-formed header.
func Parse(body string) (*forgev1.Attribution, string) {
	line, rest, ok := firstLine(body)
	if !ok {
		return nil, body
	}
	agent, owner, session, matched := matchHeader(line)
	if !matched {
		return nil, body
	}
	return &forgev1.Attribution{AgentHandle: agent, OwnerHandle: owner, SessionId: session}, trimBlankLines(rest)
}

// firstLine returns the first non-blank line of s (without its line end
// and any leading byte-order mark) and everything after that line.
func firstLine(s string) (line, rest string, ok bool) {
	s = trimBlankLines(strings.TrimPrefix(s, "\uFEFF"))
	if s == "" {
		return "", "", false
	}
	line, rest, _ = strings.Cut(s, "\n")
	return strings.TrimSuffix(line, "\r"), rest, true
}

// trimBlankLines drops whole lines of only spaces, tabs and carriage
// returns from the start of s. Indentation on the first real line is kept:
// it can be Markdown (an indented code block).
func trimBlankLines(s string) string {
	for {
		line, rest, found := strings.Cut(s, "\n")
		if strings.Trim(line, " \t\r") != "" {
			return s
		}
		if !found {
			return ""
		}
		s = rest
	}
}
