// Package gitref holds a branch, tag or commit name an agent gives to the
// rules git itself applies to ref names (git check-ref-format
// --allow-onelevel), plus the few a forge's URL needs, so the gateway
// refuses up front, for every forge, a ref no repository can hold. Every
// provider puts refs into request paths (contents/{path}?ref=,
// commits/{ref}, compare/{base}...{head}, branches/{name}); an HTTP
// client that resolves the path against the API root turns "../" into a
// climb out of the repository, so a ref that is not a ref must never reach
// one.
//
// The rules are written from git's documentation of check-ref-format; the
// code is this package's own. A commit id (7 to 64 hex digits) passes as
// it is: it is a valid one-level name.
package gitref

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxBytes bounds a ref: the longest component a file system stores is
// 255 bytes, and no forge takes a longer branch name.
const MaxBytes = 255

// forbidden are the characters git refuses anywhere in a ref name
// (space, ~ ^ : ? * [ \), and the two a URL reads as its own: "%" (an
// escape a server may decode into "../") and "#" (a fragment, cutting the
// path).
const forbidden = " ~^:?*[\\%#"

// Problem says which rule ref breaks, or "" when it is a name git (and
// every forge's URL) accepts. An empty ref is left to the caller: an
// omitted ref means the default branch.
func Problem(ref string) string {
	switch {
	case ref == "":
		return "it is empty"
	case len(ref) > MaxBytes:
		return fmt.Sprintf("it is %d bytes long; at most %d", len(ref), MaxBytes)
	case !utf8.ValidString(ref):
		return "it is not valid UTF-8"
	case ref == "@":
		return `it is "@", which git reads as HEAD`
	case strings.Contains(ref, ".."):
		return `it contains ".."`
	case strings.Contains(ref, "@{"):
		return `it contains "@{"`
	case strings.Contains(ref, "//"):
		return `it contains "//"`
	case strings.HasPrefix(ref, "-"):
		return `it starts with "-", which git would read as an option`
	case strings.HasPrefix(ref, "/"):
		return `it starts with "/"`
	case strings.HasSuffix(ref, "/"):
		return `it ends with "/"`
	case strings.HasSuffix(ref, "."):
		return `it ends with "."`
	}
	for _, r := range ref {
		switch {
		case r < 0x20 || r == 0x7f:
			return fmt.Sprintf("it contains the control character %q", r)
		case strings.ContainsRune(forbidden, r):
			return fmt.Sprintf("it contains %q (git refuses space and ~^:?*[\\ in a ref; %% and # would change the URL)", r)
		}
	}
	for _, part := range strings.Split(ref, "/") {
		switch {
		case strings.HasPrefix(part, "."):
			return fmt.Sprintf("its component %q starts with \".\"", part)
		case strings.HasSuffix(part, ".lock"):
			return fmt.Sprintf("its component %q ends with \".lock\"", part)
		}
	}
	return ""
}
