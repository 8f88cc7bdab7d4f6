package rest

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// MaxFileText caps the text of a file forge_read_file reads; the rest is
// cut and the result says truncated. The gateway side cuts what was read
// to the lines asked for (kit.Window), so every line below the cap is
// reachable; base64 in a JSON answer, it stays below MaxResponseBytes.
const MaxFileText = 8 << 20

// MaxLogTail is how much of a failed CI job's log forge_get_ci_run
// returns: its end, where the failure usually is.
const MaxLogTail = 8 << 10

// FileText is a file's content as the tools return it: text up to
// MaxFileText bytes (cut on a character boundary), or nothing for a
// binary file (a NUL byte, or not UTF-8).
func FileText(raw []byte) (text string, binary, truncated bool) {
	if bytes.IndexByte(raw, 0) >= 0 || !utf8.Valid(raw) {
		return "", true, false
	}
	if len(raw) <= MaxFileText {
		return string(raw), false, false
	}
	cut := MaxFileText
	for cut > 0 && !utf8.RuneStart(raw[cut]) {
		cut--
	}
	return string(raw[:cut]), false, true
}

// LogTail is the end of a job log, at most MaxLogTail bytes, starting at a
// line boundary, with anything that is not UTF-8 dropped.
func LogTail(log []byte) string {
	if len(log) > MaxLogTail {
		log = log[len(log)-MaxLogTail:]
		if i := bytes.IndexByte(log, '\n'); i >= 0 && i < len(log)-1 {
			log = log[i+1:]
		}
	}
	return strings.ToValidUTF8(strings.TrimRight(string(log), "\n"), "")
}
