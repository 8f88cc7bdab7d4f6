package console

import (
	"bytes"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

// page is what every template gets.
type page struct {
	Title    string
	Operator string
	CSRF     string
	Error    string
	Notice   string
	Data     any
}

var funcs = template.FuncMap{
	"when": func(t time.Time) string {
		if t.IsZero() {
			return "-"
		}
		return t.UTC().Format("2006-01-02 15:04:05 UTC")
	},
	"difflines": diffLines,
	// provider spells a forge provider as the tools do ("github").
	"provider": func(p forgev1.ForgeProvider) string {
		return strings.ToLower(strings.TrimPrefix(p.String(), "FORGE_PROVIDER_"))
	},
}

// diffLine is one line of a view with the class that colours it.
type diffLine struct{ Class, Text string }

// diffLines splits an approval's view into lines, marking the lines of a
// diff in it (indented by two spaces, as forgetools approvals show
// prints them) so the page can colour them.
func diffLines(view string) []diffLine {
	var out []diffLine
	for _, line := range strings.Split(strings.TrimSuffix(view, "\n"), "\n") {
		class, l := "", strings.TrimPrefix(line, "  ")
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			class = "file"
		case strings.HasPrefix(l, "+"):
			class = "add"
		case strings.HasPrefix(l, "-"):
			class = "del"
		}
		out = append(out, diffLine{class, line})
	}
	return out
}

// render writes a page whole or not at all: a template failing half-way
// leaves no half page behind.
func (c *Console) render(w http.ResponseWriter, status int, name string, p page) {
	var buf bytes.Buffer
	if err := c.pages.ExecuteTemplate(&buf, name, p); err != nil {
		c.log.Error("console page failed to render", "page", name, "cause", err.Error())
		http.Error(w, "the page failed to render", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

func (c *Console) page(s session, title string) page {
	return page{Title: title, Operator: s.operator, CSRF: s.csrf}
}

func (c *Console) queuePage(w http.ResponseWriter, r *http.Request, s session) {
	p := c.page(s, "Pending approvals")
	p.Notice = r.URL.Query().Get("done")
	if c.opts.Queue == nil {
		p.Error = "This gateway has no approval gate configured: nothing is ever parked."
		c.render(w, http.StatusOK, "queue.html", p)
		return
	}
	items, err := c.opts.Queue.Pending(r.Context())
	if err != nil {
		c.log.Error("console could not list approvals", "cause", err.Error())
		p.Error = "The approvals could not be listed: " + err.Error()
	}
	p.Data = items
	c.render(w, http.StatusOK, "queue.html", p)
}

func (c *Console) approvalPage(w http.ResponseWriter, r *http.Request, s session) {
	p := c.page(s, "Approval")
	if c.opts.Queue == nil {
		http.NotFound(w, r)
		return
	}
	a, err := c.opts.Queue.Show(r.Context(), r.PathValue("id"))
	if errors.Is(err, ErrNotFound) {
		p.Error = "There is no approval " + r.PathValue("id") + "."
		c.render(w, http.StatusNotFound, "approval.html", p)
		return
	}
	if err != nil {
		p.Error = err.Error()
		c.render(w, http.StatusInternalServerError, "approval.html", p)
		return
	}
	p.Title = "Approval " + a.ID
	p.Data = a
	c.render(w, http.StatusOK, "approval.html", p)
}

func (c *Console) approve(w http.ResponseWriter, r *http.Request, s session) {
	id := r.PathValue("id")
	if c.opts.Queue == nil {
		http.NotFound(w, r)
		return
	}
	outcome, err := c.opts.Queue.Approve(r.Context(), id, s.operator)
	if err != nil {
		c.decisionFailed(w, r, s, id, err)
		return
	}
	c.log.Info("operator approved a parked call in the console", "operator", s.operator, "approval", id)
	msg := "Approved " + id + ": the call ran."
	if outcome != "" {
		msg = "Approved " + id + ": " + outcome
	}
	http.Redirect(w, r, "/?done="+url.QueryEscape(msg), http.StatusSeeOther)
}

func (c *Console) deny(w http.ResponseWriter, r *http.Request, s session) {
	id := r.PathValue("id")
	if c.opts.Queue == nil {
		http.NotFound(w, r)
		return
	}
	reason := strings.TrimSpace(r.PostFormValue("reason"))
	if reason == "" {
		c.decisionFailed(w, r, s, id, errors.New("a denial needs a reason: the agent reads it"))
		return
	}
	if err := c.opts.Queue.Deny(r.Context(), id, s.operator, reason); err != nil {
		c.decisionFailed(w, r, s, id, err)
		return
	}
	c.log.Info("operator denied a parked call in the console", "operator", s.operator, "approval", id)
	http.Redirect(w, r, "/?done="+url.QueryEscape("Denied "+id+"."), http.StatusSeeOther)
}

// decisionFailed shows the approval again with what went wrong.
func (c *Console) decisionFailed(w http.ResponseWriter, r *http.Request, s session, id string, cause error) {
	p := c.page(s, "Approval "+id)
	p.Error = cause.Error()
	status := http.StatusConflict
	if errors.Is(cause, ErrNotFound) {
		status = http.StatusNotFound
	}
	if a, err := c.opts.Queue.Show(r.Context(), id); err == nil {
		p.Data = a
	}
	c.render(w, status, "approval.html", p)
}

// auditView is the audit page: what operators decided and what agents
// created.
type auditView struct {
	Decided []Approval
	Created []store.Ownership
}

// auditLimit is how many of the newest ownership records the audit page
// shows.
const auditLimit = 200

func (c *Console) auditPage(w http.ResponseWriter, r *http.Request, s session) {
	p := c.page(s, "Audit")
	if c.opts.Audit == nil {
		p.Error = "No store is configured."
		c.render(w, http.StatusOK, "audit.html", p)
		return
	}
	records, err := c.opts.Audit(r.Context(), store.AuditFilter{Account: r.URL.Query().Get("account")})
	if err != nil {
		p.Error = "The audit could not be read: " + err.Error()
	}
	// Newest first, and only the last auditLimit.
	rows := make([]store.Ownership, 0, min(len(records), auditLimit))
	for i := len(records) - 1; i >= 0 && len(rows) < auditLimit; i-- {
		rows = append(rows, records[i])
	}
	view := auditView{Created: rows}
	if c.opts.Queue != nil {
		if view.Decided, err = c.opts.Queue.Decided(r.Context()); err != nil {
			p.Error = "The decisions could not be read: " + err.Error()
		}
	}
	p.Data = view
	c.render(w, http.StatusOK, "audit.html", p)
}
