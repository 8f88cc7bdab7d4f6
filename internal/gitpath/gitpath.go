// Package gitpath holds a path inside a repository to the rules git
// itself applies before it stores or checks out a path (read-cache.c's
// verify_path with core.protectNTFS and core.protectHFS on, as they are by
// default where it matters), so the gateway refuses up front, for every
// forge, a path no clone could check out safely: a ".git" that some file
// system would take for the repository's own (".GIT", ".git.", ".git ",
// "GIT~1", ".g\u200cit"), a ".gitmodules" look-alike, "..", empty
// components and absolute paths.
//
// The rules are written from git's documented behaviour (is_ntfs_dotgit,
// is_ntfs_dotgitmodules, is_hfs_dotgit and next_hfs_char in git's path.c
// and utf8.c); the code is this package's own.
package gitpath

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Problem says why git would refuse p as a path in a repository, or ""
// when it would not. It checks every component of p.
func Problem(p string) string {
	switch {
	case p == "":
		return "it is empty"
	case strings.HasPrefix(p, "/"):
		return "it starts with /; paths are from the repository root"
	case !utf8.ValidString(p):
		return "it is not valid UTF-8"
	case strings.ContainsRune(p, '\\'):
		// NTFS reads a backslash as a separator, so "a\.git" is a .git.
		return `it contains "\"`
	}
	for _, c := range p {
		if c < 0x20 || c == 0x7f {
			return fmt.Sprintf("it contains %q", c)
		}
	}
	for _, part := range strings.Split(p, "/") {
		if why := componentProblem(part); why != "" {
			return fmt.Sprintf("its component %q %s", part, why)
		}
	}
	return ""
}

func componentProblem(part string) string {
	switch {
	case part == "":
		return `is empty ("//" or a trailing "/")`
	case part == "." || part == "..":
		return "is . or .., which git never stores"
	case isDotGit(part):
		return "would be taken for the repository's .git directory (git refuses .git in any case, with trailing dots or spaces, its short name GIT~1 and with the characters HFS+ ignores)"
	case part != ".gitmodules" && isDotGitmodules(part):
		return "would be taken for .gitmodules on NTFS or HFS+ (git refuses its look-alikes)"
	}
	return ""
}

// isDotGit is git's .git test under both protections.
func isDotGit(part string) bool {
	return isNTFSDotGit(part) || isHFSDot(part, "git")
}

// isDotGitmodules is git's .gitmodules test under both protections.
func isDotGitmodules(part string) bool {
	return isNTFSDot(part, "gitmodules", "gi7eba") || isHFSDot(part, "gitmodules")
}

// isNTFSDotGit: ".git" or its 8.3 short name "git~1", in any case,
// followed by nothing but dots and spaces (which NTFS drops) up to the
// end or an alternate data stream (":").
func isNTFSDotGit(part string) bool {
	lower := asciiLower(part)
	var rest string
	switch {
	case strings.HasPrefix(lower, ".git"):
		rest = lower[len(".git"):]
	case strings.HasPrefix(lower, "git~1"):
		rest = lower[len("git~1"):]
	default:
		return false
	}
	return onlyDotsAndSpaces(rest)
}

// isNTFSDot is git's test for a look-alike of "."+name on NTFS: the name
// itself in any case, its short name (the first six letters, "~" and 1 to
// 4), or the fallback short name NTFS makes from a hash (prefix, six
// characters at most, then "~" and digits), each followed by nothing but
// dots and spaces up to the end or a ":".
func isNTFSDot(part, name, shortPrefix string) bool {
	lower := asciiLower(part)
	if strings.HasPrefix(lower, "."+name) {
		return onlyDotsAndSpaces(lower[len(name)+1:])
	}
	if len(lower) >= 8 && lower[:6] == name[:6] && lower[6] == '~' && lower[7] >= '1' && lower[7] <= '4' {
		return onlyDotsAndSpaces(lower[8:])
	}
	// The fallback: up to six characters of shortPrefix, "~", a digit
	// 1-9, then digits, eight characters in all.
	if len(lower) < 8 {
		return false
	}
	tilde := strings.IndexByte(lower[:8], '~')
	if tilde < 1 || tilde > 6 || lower[:tilde] != shortPrefix[:tilde] || lower[tilde+1] < '1' || lower[tilde+1] > '9' {
		return false
	}
	for _, c := range lower[tilde+2 : 8] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return onlyDotsAndSpaces(lower[8:])
}

// onlyDotsAndSpaces: rest is what NTFS drops from a name's end, up to the
// end or an alternate data stream.
func onlyDotsAndSpaces(rest string) bool {
	for _, c := range rest {
		switch c {
		case ':':
			return true
		case '.', ' ':
		default:
			return false
		}
	}
	return true
}

// isHFSDot: "."+name in any ASCII case once the code points HFS+ ignores
// are dropped.
func isHFSDot(part, name string) bool {
	var b strings.Builder
	for _, c := range part {
		if hfsIgnored(c) {
			continue
		}
		if c >= utf8.RuneSelf {
			return false // name is ASCII: a letter beyond it is no match
		}
		b.WriteRune(c)
	}
	return strings.EqualFold(b.String(), "."+name)
}

// hfsIgnored are the code points HFS+ leaves out of a name when it
// compares names (zero-width joiners and non-joiners, directional marks
// and overrides, the deprecated format characters, the byte-order mark).
func hfsIgnored(c rune) bool {
	switch {
	case c >= 0x200c && c <= 0x200f, c >= 0x202a && c <= 0x202e, c >= 0x206a && c <= 0x206f, c == 0xfeff:
		return true
	}
	return false
}

// asciiLower lowers ASCII letters only, as git does: a Unicode case
// mapping (the Kelvin sign to "k") is no file system's.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
