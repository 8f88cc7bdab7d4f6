package kit_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// numbered is n lines "line <i> <pad>\n", each at least width bytes.
func numbered(n, width int) (string, []string) {
	var b strings.Builder
	var lines []string
	for i := 1; i <= n; i++ {
		l := fmt.Sprintf("line %d ", i)
		l += strings.Repeat("x", max(width-len(l)-1, 0)) + "\n"
		lines = append(lines, l)
		b.WriteString(l)
	}
	return b.String(), lines
}

func window(t *testing.T, text string, providerCut bool, start, end uint32) *forgev1.FileContent {
	t.Helper()
	f := &forgev1.FileContent{Path: "f.txt", Content: text, Truncated: providerCut}
	if err := kit.Window(f, start, end); err != nil {
		t.Fatalf("Window(%d, %d): %v", start, end, err)
	}
	return f
}

func code(err error) toolserver.Code {
	if e, ok := toolserver.AsError(err); ok {
		return e.Code
	}
	return -1
}

func TestWindowRange(t *testing.T) {
	text, lines := numbered(5000, 40) // 200 kB: over the budget
	f := window(t, text, false, 4000, 4100)
	if want := strings.Join(lines[3999:4100], ""); f.Content != want {
		t.Fatalf("lines 4000-4100: got %d bytes starting %q, want %d bytes starting %q", len(f.Content), f.Content[:20], len(want), want[:20])
	}
	if f.StartLine != 4000 || f.EndLine != 4100 || f.TotalLines != 5000 || f.NextStartLine != 4101 || f.Truncated {
		t.Errorf("start %d end %d total %d next %d truncated %v", f.StartLine, f.EndLine, f.TotalLines, f.NextStartLine, f.Truncated)
	}
	// The last lines: nothing follows.
	f = window(t, text, false, 4990, 0)
	if f.EndLine != 5000 || f.NextStartLine != 0 || f.Truncated || f.Content != strings.Join(lines[4989:], "") {
		t.Errorf("to the end: end %d next %d truncated %v", f.EndLine, f.NextStartLine, f.Truncated)
	}
	// An end past the file is the file's end.
	if f = window(t, text, false, 5000, 9000); f.EndLine != 5000 || f.Content != lines[4999] {
		t.Errorf("end past the file: end %d content %q", f.EndLine, f.Content)
	}
}

func TestWindowWholeFile(t *testing.T) {
	f := window(t, "a\nb\nc", false, 0, 0)
	if f.Content != "a\nb\nc" || f.TotalLines != 3 || f.StartLine != 0 || f.EndLine != 0 || f.NextStartLine != 0 || f.Truncated {
		t.Errorf("small file unranged: %+v", f)
	}
	if f = window(t, "a\nb\nc\n", false, 2, 2); f.Content != "b\n" || f.TotalLines != 3 || f.NextStartLine != 3 {
		t.Errorf("line 2: %+v", f)
	}
	if f = window(t, "", false, 1, 0); f.Content != "" || f.TotalLines != 0 {
		t.Errorf("empty file: %+v", f)
	}
}

// Reading a large file from line 1 on, by next_start_line, gives back every
// byte once: no gap, no repeat, every answer within the budget, no CRLF or
// character split.
func TestWindowReachesEveryLine(t *testing.T) {
	var b strings.Builder
	for i := range 30000 {
		// Lines of varied length, CRLF endings, two- and three-byte
		// characters, so cuts land everywhere.
		fmt.Fprintf(&b, "%d é€ %s\r\n", i, strings.Repeat("ü", i%37))
	}
	text := b.String()
	if len(text) < 5*kit.MaxWindowBytes {
		t.Fatalf("file is only %d bytes", len(text))
	}
	var got strings.Builder
	pages := 0
	for next := uint32(0); ; pages++ {
		f := window(t, text, false, next, 0)
		if len(f.Content) > kit.MaxWindowBytes || !utf8.ValidString(f.Content) || !strings.HasSuffix(f.Content, "\r\n") {
			t.Fatalf("page %d: %d bytes, valid %v, ends %q", pages, len(f.Content), utf8.ValidString(f.Content), f.Content[len(f.Content)-2:])
		}
		if f.TotalLines != 30000 {
			t.Fatalf("total lines %d", f.TotalLines)
		}
		got.WriteString(f.Content)
		if f.NextStartLine == 0 {
			if f.Truncated {
				t.Error("last page says truncated")
			}
			break
		}
		if !f.Truncated || f.NextStartLine != f.EndLine+1 {
			t.Fatalf("page %d: end %d next %d truncated %v", pages, f.EndLine, f.NextStartLine, f.Truncated)
		}
		next = f.NextStartLine
	}
	if got.String() != text {
		t.Errorf("pages joined are %d bytes, the file %d", got.Len(), len(text))
	}
	t.Logf("%d bytes in %d pages", len(text), pages+1)
}

// A line longer than the budget is cut on a character boundary, never
// between its "\r" and "\n"; the next line is next.
func TestWindowLongLine(t *testing.T) {
	long := strings.Repeat("€", kit.MaxWindowBytes/3+10) + "\r\n"
	f := window(t, long+"short\n", false, 1, 0)
	if !f.Truncated || f.EndLine != 1 || f.NextStartLine != 2 || len(f.Content) > kit.MaxWindowBytes || !utf8.ValidString(f.Content) {
		t.Errorf("long line: %d bytes, end %d next %d truncated %v", len(f.Content), f.EndLine, f.NextStartLine, f.Truncated)
	}
	// A cut that would fall between "\r" and "\n" keeps neither.
	crlf := strings.Repeat("a", kit.MaxWindowBytes-1) + "\r\n" + "tail"
	if f = window(t, crlf, false, 1, 1); !strings.HasSuffix(f.Content, "a") || len(f.Content) != kit.MaxWindowBytes-1 {
		t.Errorf("CR at the cut: %d bytes ending %q", len(f.Content), f.Content[len(f.Content)-1:])
	}
}

// A provider that cut the file itself (at its 8 MiB read cap): whole lines
// only, no total, and a line past the read is refused as not implemented.
func TestWindowProviderCut(t *testing.T) {
	text, lines := numbered(3000, 40)
	read := text[:50_020] // mid-line 1251
	f := window(t, read, true, 1000, 1100)
	if f.Content != strings.Join(lines[999:1100], "") || f.TotalLines != 0 || f.Truncated {
		t.Errorf("inside the read: total %d truncated %v", f.TotalLines, f.Truncated)
	}
	f = window(t, read, true, 1200, 0)
	if f.EndLine != 1250 || f.NextStartLine != 1251 || !f.Truncated || !strings.HasSuffix(f.Content, lines[1249]) {
		t.Errorf("to the read's end: end %d next %d truncated %v", f.EndLine, f.NextStartLine, f.Truncated)
	}
	f = window(t, read, true, 1251, 0) // the partial line, as much as was read
	if f.Content != read[strings.LastIndexByte(read, '\n')+1:] || !f.Truncated || f.NextStartLine != 1252 {
		t.Errorf("partial line: %q next %d truncated %v", f.Content, f.NextStartLine, f.Truncated)
	}
	err := kit.Window(&forgev1.FileContent{Path: "f.txt", Content: read, Truncated: true}, 1252, 0)
	if code(err) != optionsv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED || !strings.Contains(err.Error(), "50020 bytes") {
		t.Errorf("past the read: %v", err)
	}
}

func TestWindowRefuses(t *testing.T) {
	for name, c := range map[string]struct {
		f          *forgev1.FileContent
		start, end uint32
	}{
		"past the end":   {&forgev1.FileContent{Content: "a\nb\n"}, 3, 0},
		"end before":     {&forgev1.FileContent{Content: "a\nb\n"}, 2, 1},
		"binary, ranged": {&forgev1.FileContent{Binary: true, Size: 10}, 1, 0},
		"empty, line 2":  {&forgev1.FileContent{}, 2, 0},
	} {
		if err := kit.Window(c.f, c.start, c.end); code(err) != optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT {
			t.Errorf("%s: %v, want invalid_argument", name, err)
		}
	}
	// A binary file read whole is left as the provider said.
	f := &forgev1.FileContent{Binary: true, Size: 10}
	if err := kit.Window(f, 0, 0); err != nil || f.TotalLines != 0 {
		t.Errorf("binary unranged: %v %+v", err, f)
	}
}
