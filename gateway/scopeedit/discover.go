package scopeedit

import (
	"context"
	"errors"
	"time"

	"github.com/forgetools/forgetools/providers/discovery"
)

// Forge is one configured forge a discovery list can ask.
type Forge struct {
	// Where names the forge for a person: "github/ghe.example.com".
	Where string
	// Prefix turns a listed repository into a scope entry for this
	// forge: "" on the default forge, "HOST:" on any other (an entry
	// without a forge covers the default forge only).
	Prefix string
	Lister discovery.Lister
	// Redact, if set, takes every credential out of an error's text
	// before anyone sees it.
	Redact func(string) string
}

// Reachable is one repository a forge's credential reaches.
type Reachable struct {
	Repo       string
	Permission string
	// Entry is the scope entry that grants it.
	Entry string
}

// Listing is what one forge listed: at most the limit asked for, More
// when it had more.
type Listing struct {
	Forge string
	Repos []Reachable
	More  bool
	// Error says why the forge could not list (credentials redacted).
	Error string
}

// errEnough stops a listing at the limit.
var errEnough = errors.New("enough")

// ListTimeout bounds how long one forge may take to list, so a forge that
// hangs leaves the others' lists and the page usable.
const ListTimeout = 30 * time.Second

// Discover lists, forge by forge, the first limit repositories each
// forge's credential reaches, in the forge's order.
func (e *Editor) Discover(ctx context.Context, limit int) []Listing {
	out := make([]Listing, 0, len(e.Forges))
	for _, f := range e.Forges {
		l := Listing{Forge: f.Where}
		fctx, cancel := context.WithTimeout(ctx, ListTimeout)
		err := f.Lister.Repositories(fctx, func(r discovery.Repository) error {
			if len(l.Repos) == limit {
				l.More = true
				return errEnough
			}
			l.Repos = append(l.Repos, Reachable{Repo: r.Repo, Permission: r.Permission, Entry: f.Prefix + r.Repo})
			return nil
		})
		cancel()
		if err != nil && !errors.Is(err, errEnough) {
			l.Error = err.Error()
			if f.Redact != nil {
				l.Error = f.Redact(l.Error)
			}
		}
		out = append(out, l)
	}
	return out
}
