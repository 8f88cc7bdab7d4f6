package local_test

import (
	"context"
	"fmt"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/internal/providertest"
	"github.com/forgetools/forgetools/providers/local"
)

// forge_list_dir pages a 450-entry directory of the default branch with
// cursors bound to the directory and ref, as on every other forge.
func TestListDirPagesAndBindsCursors(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		push := alice
		push.PushToDefaultBranch = true
		req := &gatewayv1.CommitFilesRequest{Repo: "acme/app", Branch: "main", Message: "many files"}
		for i := range 450 {
			req.Files = append(req.Files,
				&gatewayv1.FileChange{Path: fmt.Sprintf("big/f%03d.txt", i), Content: "x"},
				&gatewayv1.FileChange{Path: fmt.Sprintf("other/f%03d.txt", i), Content: "y"})
		}
		if _, err := f.CommitFiles(ctx, push, req); err != nil {
			t.Fatal(err)
		}
		providertest.DirPages(t, providertest.DirForge{
			ListDir: func(ctx context.Context, req *gatewayv1.ListDirRequest) (*forgev1.DirListing, error) {
				return f.ListDir(ctx, alice, req)
			},
		}, "acme/app", "big", "other", 450, "main")
	})
}
