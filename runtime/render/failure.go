package render

import (
	"strconv"
	"strings"
)

// maxFailureMessage is how many runes of a flattened failure message the
// model reads; the code before it says what kind of failure it was.
const maxFailureMessage = 500

// Failure is the one line a failed tool call reads as:
//
//	<tool> failed: <attr(code)>: <flat(message) cut at 500>[; retry after Nms]
//
// The retry hint appears only when retryAfterMs > 0, so the model can back
// off a rate-limited forge deliberately instead of hammering it.
func Failure(tool, code, message string, retryAfterMs uint64) string {
	var b strings.Builder
	b.WriteString(tool)
	b.WriteString(" failed: ")
	b.WriteString(Attr(code))
	b.WriteString(": ")
	b.WriteString(cut(Flat(message), maxFailureMessage))
	if retryAfterMs > 0 {
		b.WriteString("; retry after ")
		b.WriteString(strconv.FormatUint(retryAfterMs, 10))
		b.WriteString("ms")
	}
	return b.String()
}

// ProtocolViolation is the failure for a result whose arm is not the one the
// tool expects (got "" = no arm at all). Arm names come from the table and
// the result descriptor, but pass through Attr like any attribute.
func ProtocolViolation(tool, expected, got string) string {
	if got == "" {
		got = "none"
	} else {
		got = Attr(got)
	}
	return tool + " failed: protocol violation: expected result " + Attr(expected) + ", got " + got
}
