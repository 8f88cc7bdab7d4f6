package github

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/forgetools/forgetools/providers/discovery"
)

// Discovery walks every page of /user/repos (kit.Every), and the caller's
// error stops the walk where it fails, with no page read past it.
func TestRepositoriesReadsEveryPage(t *testing.T) {
	srv, p := stateful(t)
	for i := range 2*maxPerPage + 5 {
		srv.AddRepo(fmt.Sprintf("acme/r%03d", i), "main")
	}
	pages := func() (n int) {
		for _, r := range srv.Requests() {
			if r.Path == "/user/repos" {
				n++
			}
		}
		return n
	}
	var found []discovery.Repository
	if err := p.Repositories(context.Background(), func(r discovery.Repository) error { found = append(found, r); return nil }); err != nil {
		t.Fatal(err)
	}
	// Hello-World too, sorted after acme/.
	if len(found) != 2*maxPerPage+6 || found[0].Repo != "acme/r000" || found[len(found)-1].Repo != "octocat/Hello-World" || pages() != 3 {
		t.Fatalf("found %d repositories (%v ... %v) in %d pages", len(found), found[0], found[len(found)-1], pages())
	}
	stop := errors.New("enough")
	n, before := 0, pages()
	err := p.Repositories(context.Background(), func(discovery.Repository) error {
		if n++; n == maxPerPage+1 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != maxPerPage+1 || pages()-before != 2 {
		t.Errorf("stopped walk: %v after %d repositories, %d pages", err, n, pages()-before)
	}
}
