package gitlab_test

import (
	"context"
	"fmt"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/internal/providertest"
)

// forge_list_dir without a ref sends no project lookup: the tree is read
// at the default branch, which the listing calls HEAD since GitLab's
// answer does not name it. GitLab serves a tree at most 100 nodes a
// request and the provider reads the directory whole, so a page of the
// 450-entry directory costs five; a small one costs one. Cursors are
// bound to the directory and ref.
func TestListDirPagesWithoutALookup(t *testing.T) {
	s := fake(t)
	files := map[string]string{}
	for i := range 450 {
		files[fmt.Sprintf("big/f%03d.txt", i)] = "x"
		files[fmt.Sprintf("other/f%03d.txt", i)] = "y"
	}
	s.AddProject("acme/many", "trunk", files)
	p := provider(t, s, 0)
	list := func(ctx context.Context, req *gatewayv1.ListDirRequest) (*forgev1.DirListing, error) {
		return p.ListDir(ctx, noCall, req)
	}
	providertest.DirPages(t, providertest.DirForge{ListDir: list, Requests: func() int { return len(s.Requests()) }, MaxRequests: 5},
		"acme/many", "big", "other", 450, "HEAD")
	before := len(s.Requests())
	root, err := list(context.Background(), &gatewayv1.ListDirRequest{Repo: proj})
	if err != nil || root.GetRef() != "HEAD" || len(root.GetEntries()) != 2 {
		t.Fatalf("root of %s: %v, %v", proj, root, err)
	}
	if sent := s.Requests()[before:]; len(sent) != 1 || sent[0].Query.Has("ref") {
		t.Errorf("a small listing sent %v; want one tree request without a ref", sent)
	}
}
