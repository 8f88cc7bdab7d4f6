package github

import (
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/github/githubtest"
	"github.com/forgetools/forgetools/providers/kit"
)

// A 5,000-line file of 2 MB reads whole on GitHub (from its blob, past
// the contents API's 1 MB), so the window knows its line count and lines
// 4,000 to 4,100 are reachable.
func TestReadFileWholeToTheCap(t *testing.T) {
	srv, p := stateful(t)
	line := strings.Repeat("y", 399) + "\n"
	content := strings.Repeat(line, 5000)
	srv.Commit(helloRepo, "main", "Big", githubtest.File{Path: "big.txt", Content: content})
	got, err := p.ReadFile(ctx, noCall, &gatewayv1.ReadFileRequest{Repo: helloRepo, Path: "big.txt", Ref: "main"})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetTruncated() || got.GetContent() != content {
		t.Fatalf("truncated %v, %d bytes of %d", got.GetTruncated(), len(got.GetContent()), len(content))
	}
	if err := kit.Window(got, 4000, 4100); err != nil {
		t.Fatal(err)
	}
	if got.GetTotalLines() != 5000 || got.GetContent() != strings.Repeat(line, 101) || got.GetNextStartLine() != 4101 {
		t.Errorf("window: total %d, %d bytes, next %d", got.GetTotalLines(), len(got.GetContent()), got.GetNextStartLine())
	}
}

// A hostile contents answer naming a large file's blob by a path is
// refused before anything else is requested.
func TestReadFileLargeHostileBlobName(t *testing.T) {
	f := newFake(t, contentsRead("data/big.csv", "main", fixtureWith(t, "content_large.json", "sha", "../../../user")))
	_, err := f.provider(t).ReadFile(ctx, noCall, &gatewayv1.ReadFileRequest{Repo: hello, Path: "data/big.csv", Ref: "main"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, `names its blob "../../../user", which is not a sha`)
}
