package render

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"strings"
)

// Fence budgets, in output runes. A single artifact's own text gets the
// larger budget; text inside an aggregate item (a comment, a review, one
// issue of a list) gets the smaller one, so a 300-comment pull request or a
// 100-issue list cannot flood the transcript.
const (
	topBudget    = 4000
	nestedBudget = 1000
)

// fence delimits untrusted text with a nonce minted per render. One fence
// holds a run of a record's text fields: each field starts at its own
// marker line, <<<label-nonce, which also ends the field before it, and the
// run ends at >>>nonce. Text cannot write a marker, so it can neither end
// the fence nor pass itself off as another field: it does not know the
// nonce, and a line of it that merely starts like a marker ("<<<" or ">>>"
// and a word character) is neutralised with a backslash, which holds even
// against text that knows the nonce (FuzzFence).
type fence struct{ nonce string }

func newFence() fence {
	var b [4]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return fence{nonce: hex.EncodeToString(b[:])}
}

// open writes the marker line that starts label's text.
func (f fence) open(b *strings.Builder, label string) {
	b.WriteString("<<<")
	b.WriteString(label)
	b.WriteByte('-')
	b.WriteString(f.nonce)
	b.WriteByte('\n')
}

// close writes the marker line that ends the fence.
func (f fence) close(b *strings.Builder) {
	b.WriteString(">>>")
	b.WriteString(f.nonce)
	b.WriteByte('\n')
}

// text writes untrusted text after an open marker: made visible, cut to
// budget runes with a truncation marker inside the fence when cut, each
// line that starts like a marker neutralised, ending with a line break.
// scratch is reused between fields; text returns it grown as needed.
func (f fence) text(b *strings.Builder, scratch []byte, text string, budget int) []byte {
	shown, rest := appendVisible(scratch[:0], text, budget)
	neutralise(b, shown)
	if len(shown) > 0 && shown[len(shown)-1] != '\n' {
		b.WriteByte('\n')
	}
	if rest > 0 {
		b.WriteString("…(truncated, ")
		b.WriteString(strconv.Itoa(rest))
		b.WriteString(" chars)\n")
	}
	return shown
}

// neutralise copies visible text to b, putting a backslash before the
// marker of every line that starts like a fence marker: spaces or tabs,
// then "<<<" or ">>>" immediately followed by a word character. A Markdown
// nested quote (">>> text") does not start like one and survives untouched.
func neutralise(b *strings.Builder, s []byte) {
	start := 0 // of the text not yet written
	for line := 0; line < len(s); {
		i := line
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i+3 < len(s) && (string(s[i:i+3]) == "<<<" || string(s[i:i+3]) == ">>>") && wordBytes[s[i+3]] {
			b.Write(s[start:i])
			b.WriteByte('\\')
			start = i
		}
		next := bytes.IndexByte(s[i:], '\n')
		if next < 0 {
			break
		}
		line = i + next + 1
	}
	b.Write(s[start:])
}
