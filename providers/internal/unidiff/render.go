package unidiff

import (
	"strconv"
	"strings"
)

// How a line reads on a page: the side and number forge_submit_review
// takes for it, then the unified diff's own line. A removed line is on
// the LEFT at its old number ("L7 -gone"); added and context lines are on
// the RIGHT at their new number ("R12 +new", "R13  same"). The number is
// the renderer's, the rest of the line the forge's: the line cannot move
// its own number, because the number comes first and a line ends at LF.
const noNewline = "\\ No newline at end of file\n"

// Side is the side forge_submit_review takes for l: LEFT for a removed
// line, RIGHT for the others.
func (l Line) Side() string {
	if l.Op == '-' {
		return "LEFT"
	}
	return "RIGHT"
}

// Number is the line number forge_submit_review takes for l on its Side.
func (l Line) Number() int {
	if l.Op == '-' {
		return l.Old
	}
	return l.New
}

// appendLine appends l as a page shows it.
func appendLine(b []byte, l Line) []byte {
	b = append(b, l.Side()[0])
	b = strconv.AppendInt(b, int64(l.Number()), 10)
	b = append(b, ' ', l.Op)
	b = appendText(b, l.Text)
	b = append(b, '\n')
	if l.NoNewline {
		b = append(b, noNewline...)
	}
	return b
}

// appendHeader appends the "@@ -a,b +c,d @@ section" header of a run of
// a hunk's lines, counted from those lines, so a hunk cut across pages
// heads each part with the range it shows.
func appendHeader(b []byte, lines []Line, section string) []byte {
	var oldN, newN int
	for _, l := range lines {
		if l.Op != '+' {
			oldN++
		}
		if l.Op != '-' {
			newN++
		}
	}
	start := func(at, n int) int {
		if n == 0 {
			return at - 1 // an empty side starts at the line before
		}
		return at
	}
	b = append(b, "@@ -"...)
	b = strconv.AppendInt(b, int64(start(lines[0].Old, oldN)), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(oldN), 10)
	b = append(b, " +"...)
	b = strconv.AppendInt(b, int64(start(lines[0].New, newN)), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(newN), 10)
	b = append(b, " @@"...)
	if section != "" {
		b = append(b, ' ')
		b = appendText(b, section)
	}
	return append(b, '\n')
}

// appendText appends forge text of one line. The renderer reads a CR as a
// line break, so a CR inside the line would start a line the forge wrote
// under a number it chose ("x\rR99 +y"); it is written as the marker the
// renderer uses for a hidden character. A CR ending the line (a CRLF file)
// would end it anyway and is dropped.
func appendText(b []byte, s string) []byte {
	body := strings.TrimSuffix(s, "\r")
	for i := strings.IndexByte(body, '\r'); i >= 0; i = strings.IndexByte(body, '\r') {
		b = append(b, body[:i]...)
		b = append(b, "<U+000D>"...)
		body = body[i+1:]
	}
	return append(b, body...)
}
