package attribution

import "strings"

// matchHeader reports whether line is a well-formed header and returns its
// three values. It is the grammar in the package doc written out by hand,
// byte by byte, because Parse runs on every body of every read result
// (every comment of an issue) and a regular expression with three
// submatches costs several times as much. The test FuzzMatchHeader holds
// it to the equivalent regular expression on arbitrary input.
//
// Every choice below is forced, so no backtracking is needed: each run of
// blanks is followed by a non-blank literal, and a value's characters
// exclude the backtick that closes it.
func matchHeader(line string) (agent, owner, session string, ok bool) {
	s := line
	for i := 0; i < 3 && strings.HasPrefix(s, " "); i++ {
		s = s[1:]
	}
	if s, ok = literal(s, ">"); !ok {
		return "", "", "", false
	}
	if s, ok = words(blanks(s), "forgetools", "agent"); !ok {
		return "", "", "", false
	}
	if agent, s, ok = code(s); !ok {
		return "", "", "", false
	}
	if s, ok = someBlanks(s); !ok {
		return "", "", "", false
	}
	if s, ok = words(s, "on", "behalf", "of"); !ok {
		return "", "", "", false
	}
	if owner, s, ok = code(s); !ok {
		return "", "", "", false
	}
	if s, ok = literal(s, ","); !ok {
		return "", "", "", false
	}
	if s, ok = words(blanks(s), "session"); !ok {
		return "", "", "", false
	}
	if session, s, ok = code(s); !ok {
		return "", "", "", false
	}
	if blanks(s) != "" {
		return "", "", "", false
	}
	return agent, owner, session, true
}

// words removes each of ws from the front of s, each followed by at least
// one space or tab.
func words(s string, ws ...string) (string, bool) {
	for _, w := range ws {
		var ok bool
		if s, ok = literal(s, w); !ok {
			return s, false
		}
		if s, ok = someBlanks(s); !ok {
			return s, false
		}
	}
	return s, true
}

// literal removes word from the front of s.
func literal(s, word string) (string, bool) {
	if !strings.HasPrefix(s, word) {
		return s, false
	}
	return s[len(word):], true
}

// blanks removes a run of spaces and tabs (perhaps empty) from the front
// of s.
func blanks(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return s[i:]
}

// someBlanks removes a run of at least one space or tab.
func someBlanks(s string) (string, bool) {
	t := blanks(s)
	return t, len(t) < len(s)
}

// code reads a backtick-quoted value from the front of s: a letter or
// digit, then at most 99 more of letters, digits and "._:-".
func code(s string) (value, rest string, ok bool) {
	s, ok = literal(s, "`")
	if !ok {
		return "", s, false
	}
	n := 0
	for n < len(s) && valueByte(s[n], n == 0) {
		n++
	}
	if n == 0 || n > 100 || n == len(s) || s[n] != '`' {
		return "", s, false
	}
	return s[:n], s[n+1:], true
}

func valueByte(c byte, first bool) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	case first:
		return false
	}
	return c == '.' || c == '_' || c == ':' || c == '-'
}
