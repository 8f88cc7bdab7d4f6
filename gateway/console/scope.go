package console

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/forgetools/forgetools/gateway/scopeedit"
	"github.com/forgetools/forgetools/gateway/store"
)

// scopeRow is one account on the scope page.
type scopeRow struct {
	Account
	// Stored: Scope is the store's, the configured scope is ignored.
	Stored bool
}

// scopeView is the scope page: every account's effective scope and, when
// it can be edited, the log of changes.
type scopeView struct {
	Accounts []scopeRow
	Editable bool
	Log      []store.ScopeChange
}

// Bounds of what a page shows: the newest scope changes, and the first
// repositories each forge lists.
const (
	scopeLogLimit = 200
	discoverLimit = 200
)

func (c *Console) scopePage(w http.ResponseWriter, r *http.Request, s session) {
	c.renderScope(w, r, s, http.StatusOK, r.URL.Query().Get("done"), "")
}

// renderScope shows the scope page with a notice or an error.
func (c *Console) renderScope(w http.ResponseWriter, r *http.Request, s session, status int, notice, failure string) {
	p := c.page(s, "Scope of each account")
	p.Notice, p.Error = notice, failure
	view := scopeView{Editable: c.opts.Scopes != nil}
	for _, a := range c.opts.Accounts {
		row := scopeRow{Account: a}
		if c.opts.Scopes != nil {
			sc, err := c.opts.Scopes.Scope(r.Context(), a.Name)
			if err != nil {
				c.log.Error("console could not read a scope", "account", a.Name, "cause", err.Error())
				p.Error = "The scope of " + a.Name + " could not be read: " + err.Error()
				row.Scope = nil
			} else {
				row.Scope, row.Stored = sc.Entries, sc.Stored
			}
		}
		view.Accounts = append(view.Accounts, row)
	}
	if c.opts.Scopes != nil {
		changes, err := c.opts.Scopes.Log(r.Context(), "")
		if err != nil {
			p.Error = "The scope log could not be read: " + err.Error()
		}
		for i := len(changes) - 1; i >= 0 && len(view.Log) < scopeLogLimit; i-- {
			view.Log = append(view.Log, changes[i])
		}
	}
	p.Data = view
	c.render(w, status, "scope.html", p)
}

// scopeChange adds or removes the posted entry of the posted account,
// logged under the signed-in operator's name.
func (c *Console) scopeChange(action string) func(http.ResponseWriter, *http.Request, session) {
	return func(w http.ResponseWriter, r *http.Request, s session) {
		if c.opts.Scopes == nil {
			http.NotFound(w, r)
			return
		}
		account, entry := r.PostFormValue("account"), r.PostFormValue("entry")
		_, err := c.opts.Scopes.Change(r.Context(), action, account, entry, s.operator)
		switch {
		case errors.Is(err, scopeedit.ErrInvalid):
			c.renderScope(w, r, s, http.StatusBadRequest, "", err.Error())
			return
		case errors.Is(err, scopeedit.ErrUnchanged):
			c.renderScope(w, r, s, http.StatusConflict, "", err.Error())
			return
		case err != nil:
			c.log.Error("console could not change a scope", "account", account, "cause", err.Error())
			c.renderScope(w, r, s, http.StatusInternalServerError, "", "The scope could not be changed: "+err.Error())
			return
		}
		c.log.Info("operator changed a scope in the console", "operator", s.operator, "account", account, "action", action, "entry", entry)
		done := "Added " + entry + " to the scope of " + account + "."
		if action == store.ScopeRemove {
			done = "Removed " + entry + " from the scope of " + account + "."
		}
		http.Redirect(w, r, "/scope?done="+url.QueryEscape(done), http.StatusSeeOther)
	}
}

// discoverView is the discovery page: what each forge's credential
// reaches, and the accounts an entry can be added to.
type discoverView struct {
	Listings []scopeedit.Listing
	Accounts []string
	Limit    int
}

func (c *Console) discoverPage(w http.ResponseWriter, r *http.Request, s session) {
	p := c.page(s, "Repositories the forges reach")
	if c.opts.Scopes == nil {
		p.Error = "No store is configured, so scopes cannot be edited here."
		c.render(w, http.StatusOK, "discover.html", p)
		return
	}
	view := discoverView{Listings: c.opts.Scopes.Discover(r.Context(), discoverLimit), Limit: discoverLimit}
	for _, a := range c.opts.Accounts {
		view.Accounts = append(view.Accounts, a.Name)
	}
	p.Data = view
	c.render(w, http.StatusOK, "discover.html", p)
}
