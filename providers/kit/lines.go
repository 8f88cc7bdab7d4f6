package kit

import (
	"strings"
	"unicode/utf8"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// MaxWindowBytes is the most text one forge_read_file answer carries: the
// render budget of FileContent.content, so what the gateway sends is shown
// whole.
const MaxWindowBytes = 100_000

// Window cuts a file a provider read to the lines a forge_read_file call
// asked for (start and end are 1-based and inclusive; 0 = unset), at most
// MaxWindowBytes of whole lines, and says where the file goes on
// (NextStartLine) and how many lines it has. It runs once, after whichever
// provider read the file, so every forge slices alike.
//
// Lines end at "\n", which stays with its line: a CRLF ending is never
// split, and since "\n" is never part of a multi-byte character, neither
// is a character. Only a single line longer than MaxWindowBytes is cut
// inside, on a character boundary; the rest of that line is not reachable
// by line.
//
// The provider may have cut the text itself (f.Truncated, at its own read
// cap): then the file's line count is unknown (TotalLines stays 0), only
// the whole lines read are served, and a range past them is refused as
// not implemented, saying where that forge's read stops.
func Window(f *forgev1.FileContent, start, end uint32) error {
	ranged := start != 0 || end != 0
	if f.GetBinary() {
		if ranged {
			return toolserver.InvalidArgument("%s is a binary file: it has no lines", f.GetPath())
		}
		return nil
	}
	if end != 0 && end < start {
		return toolserver.InvalidArgument("end_line %d is before start_line %d", end, start)
	}
	text, providerCut := f.GetContent(), f.GetTruncated()
	lines := lineStarts(text)
	n, whole := len(lines), len(lines) // lines read; those read whole
	if providerCut && !strings.HasSuffix(text, "\n") && n > 0 {
		whole-- // the last one read was cut short
	}
	if !providerCut {
		f.TotalLines = uint32(n)
	}
	if !ranged && !providerCut && len(text) <= MaxWindowBytes {
		return nil // the whole file, as read
	}
	start = max(start, 1)
	if end == 0 {
		end = ^uint32(0)
	}
	first := int(start) - 1
	switch {
	case n == 0 && start == 1:
		return nil // an empty file has no lines to cut
	case first >= n && providerCut:
		return toolserver.NotImplemented("this forge's provider reads only the first %d bytes of %s (%d whole lines); line %d is past them",
			len(text), f.GetPath(), whole, start)
	case first >= n:
		return toolserver.InvalidArgument("start_line %d is past the end of %s, which has %d lines", start, f.GetPath(), n)
	}
	// Whole lines from first, within the budget and the range asked for.
	from := lines[first]
	last, to := first, from
	for limit := int(min(uint64(end), uint64(whole))); last < limit; last++ {
		next := lineEnd(text, lines, last)
		if next-from > MaxWindowBytes {
			break
		}
		to = next
	}
	cut := false
	if last == first {
		// The first line is longer than the budget, or is all the
		// provider read of it: as much of it as fits.
		to, cut = from+charCut(text[from:lineEnd(text, lines, first)], MaxWindowBytes), true
		last++
	}
	f.Content = text[from:to]
	f.StartLine, f.EndLine, f.NextStartLine = start, uint32(last), 0
	if last < n || providerCut {
		// Past the provider's read, asking says why it cannot be had.
		f.NextStartLine = uint32(last) + 1
	}
	// Truncated: the answer stops short of what was asked.
	f.Truncated = cut || (f.NextStartLine != 0 && uint64(last) < uint64(end))
	return nil
}

// lineStarts is the byte offset where each line of text starts.
func lineStarts(text string) []int {
	if text == "" {
		return nil
	}
	starts := []int{0}
	for i := 0; ; {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 || i+j+1 == len(text) {
			return starts
		}
		i += j + 1
		starts = append(starts, i)
	}
}

// lineEnd is the offset just past line i (its "\n" included).
func lineEnd(text string, starts []int, i int) int {
	if i+1 < len(starts) {
		return starts[i+1]
	}
	return len(text)
}

// charCut is how many bytes of s, at most n, end on a character boundary
// and not between a "\r" and its "\n".
func charCut(s string, n int) int {
	if len(s) <= n {
		return len(s)
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	if n > 0 && s[n-1] == '\r' && s[n] == '\n' {
		n--
	}
	return n
}
