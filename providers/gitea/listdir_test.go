package gitea_test

import (
	"context"
	"fmt"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/internal/providertest"
)

// forge_list_dir without a ref is one request a page: the contents
// answer names the default branch in each entry's url. Its cursors are
// bound to the directory and ref.
func TestListDirPagesOneRequestEach(t *testing.T) {
	s := fake(t, false)
	files := map[string]string{}
	for i := range 450 {
		files[fmt.Sprintf("big/f%03d.txt", i)] = "x"
		files[fmt.Sprintf("other/f%03d.txt", i)] = "y"
	}
	s.AddRepo("acme/many", "trunk", files)
	p := provider(t, s, false, 0)
	providertest.DirPages(t, providertest.DirForge{
		ListDir: func(ctx context.Context, req *gatewayv1.ListDirRequest) (*forgev1.DirListing, error) {
			return p.ListDir(ctx, noCall, req)
		},
		Requests: func() int { return len(s.Requests()) },
	}, "acme/many", "big", "other", 450, "trunk")
}
