package subscriptions_test

import (
	"context"
	"strings"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/subscriptions"
	"github.com/forgetools/forgetools/toolserver"
)

// wholeFile is a provider that, like every forge provider, reads a file
// whole up to its cap and knows nothing of line ranges.
type wholeFile struct {
	gatewayv1handler.UnimplementedForgeHandler
	text string
	cut  bool
}

func (wholeFile) Ref() *forgev1.ForgeRef {
	return &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB}
}

func (w wholeFile) ReadFile(context.Context, toolserver.Call, *gatewayv1.ReadFileRequest) (*forgev1.FileContent, error) {
	return &forgev1.FileContent{Path: "f.txt", Content: w.text, Truncated: w.cut, Size: uint64(len(w.text))}, nil
}

// The wrapper every configured forge is served through cuts the range a
// call asks for, whichever provider read the file: one that cannot range
// (GitHub's, this session) ranges all the same.
func TestReadFileRangeForAnyProvider(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 10; i++ {
		b.WriteString(strings.Repeat("x", i) + "\n")
	}
	p := subscriptions.Serve(wholeFile{text: b.String()}, nil)
	s, ok := p.(gatewayv1handler.ForgeRepositoryHandler)
	if !ok {
		t.Fatal("the wrapper does not serve the repository arms")
	}
	start, end := uint32(3), uint32(4)
	f, err := s.ReadFile(context.Background(), toolserver.Call{}, &gatewayv1.ReadFileRequest{Repo: "a/b", Path: "f.txt", StartLine: &start, EndLine: &end})
	if err != nil {
		t.Fatal(err)
	}
	if f.GetContent() != "xxx\nxxxx\n" || f.GetStartLine() != 3 || f.GetEndLine() != 4 || f.GetTotalLines() != 10 || f.GetNextStartLine() != 5 {
		t.Errorf("lines 3-4: %v", f)
	}
	// Past the end: the caller's mistake, in-band.
	past := uint32(11)
	_, err = s.ReadFile(context.Background(), toolserver.Call{}, &gatewayv1.ReadFileRequest{Repo: "a/b", Path: "f.txt", StartLine: &past})
	if e, ok := toolserver.AsError(err); !ok || !strings.Contains(e.Message, "past the end") {
		t.Errorf("past the end: %v", err)
	}
}
