package render

import (
	"crypto/rand"
	"encoding/hex"
	"regexp"
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

// fence delimits untrusted text with a nonce minted per render. Text cannot
// close a fence whose nonce it cannot know; lines that merely look like a
// fence marker are neutralised too, so a forged marker never reads as one.
type fence struct{ nonce string }

func newFence() fence {
	var b [4]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return fence{nonce: hex.EncodeToString(b[:])}
}

func (f fence) open(label string) string  { return "<<<" + label + "-" + f.nonce }
func (f fence) close(label string) string { return ">>>" + label + "-" + f.nonce }

// forgedMarker matches a line that starts like a fence marker: "<<<" or
// ">>>" immediately followed by a word character. A Markdown nested quote
// (">>> text") does not match and survives untouched.
var forgedMarker = regexp.MustCompile(`(?m)^([ \t]*)(<<<|>>>)(\w)`)

// write appends label's fenced text: the open marker, the text made visible
// and cut to budget runes, a truncation marker inside the fence when cut,
// and the close marker, each on its own line.
func (f fence) write(b *strings.Builder, label, text string, budget int) {
	shown, rest := visiblePrefix(text, budget)
	shown = forgedMarker.ReplaceAllString(shown, `$1\$2$3`)
	b.WriteString(f.open(label))
	b.WriteByte('\n')
	b.WriteString(shown)
	if shown != "" && !strings.HasSuffix(shown, "\n") {
		b.WriteByte('\n')
	}
	if rest > 0 {
		b.WriteString("…(truncated, ")
		b.WriteString(strconv.Itoa(rest))
		b.WriteString(" chars)\n")
	}
	b.WriteString(f.close(label))
	b.WriteByte('\n')
}
