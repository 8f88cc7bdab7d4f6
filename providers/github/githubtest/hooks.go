package githubtest

import (
	"bytes"
	"cmp"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

// Repository webhooks, as GitHub delivers them: a POST of the event's JSON
// payload with X-GitHub-Event, X-GitHub-Delivery (a GUID), X-GitHub-Hook-ID
// and X-Hub-Signature-256 (sha256= and the hex HMAC-SHA256 of the body
// under the hook's secret), from a GitHub-Hookshot user agent. A new hook
// is pinged. The engine delivers at once, after the change that caused
// the event, and keeps every delivery so a test can redeliver one; this
// file is GitHub's payloads and headers.

// hook is a repository webhook as the model holds it.
type hook = forgemodel.Hook

// Delivery is one webhook delivery the fake made.
type Delivery = forgefake.Delivery

// AddHook installs a webhook on a repository, sending every event to url
// signed with secret, and pings it. It returns the ping's delivery.
func (s *Server) AddHook(fullName, url, secret string) Delivery {
	s.Lock()
	r := s.mustRepo(fullName)
	h := &hook{ID: s.ID(), URL: url, Secret: secret}
	r.Hooks = append(r.Hooks, h)
	s.emitTo(h, "ping", map[string]any{
		"zen": "Keep it logically awesome.", "hook_id": h.ID,
		"hook": map[string]any{
			"type": "Repository", "id": h.ID, "name": "web", "active": true, "events": []string{"*"},
			"config": map[string]any{"content_type": "json", "insecure_ssl": "0", "url": url},
		},
		"repository": s.repoJSON(r), "sender": s.userJSON(owner(r)),
	})
	s.Unlock()
	return s.Flush()[0]
}

// Redeliver sends a delivery again, id and all, as GitHub's "Redeliver"
// button does.
func (s *Server) Redeliver(id string) Delivery {
	d, ok := s.Engine.Redeliver(id)
	if !ok {
		panic(fmt.Sprintf("githubtest: no delivery %s", id))
	}
	return d
}

// emit queues an event for every hook of r; the lock is held. The
// payload is marshalled now, so it shows the state the change left.
func (s *Server) emit(r *repo, event string, payload map[string]any) {
	payload["repository"] = s.repoJSON(r)
	for _, h := range r.Hooks {
		s.emitTo(h, event, payload)
	}
}

func (s *Server) emitTo(h *hook, event string, payload map[string]any) {
	var b bytes.Buffer
	if err := newEncoder(&b).Encode(payload); err != nil {
		panic(err)
	}
	s.Emit(h, event, b.Bytes())
}

// deliveryID is GitHub's delivery GUID; the lock is held.
func (s *Server) deliveryID(h *hook, n int) string {
	return fmt.Sprintf("%08x-%04x-11ef-8e3c-%012x", s.ID(), h.ID%0x10000, n)
}

// sign sets GitHub's headers on a delivery.
func sign(req *http.Request, d Delivery) {
	mac := hmac.New(sha256.New, []byte(d.Hook.Secret))
	mac.Write(d.Body)
	req.Header.Set("User-Agent", "GitHub-Hookshot/8e03811")
	req.Header.Set("X-GitHub-Event", d.Event)
	req.Header.Set("X-GitHub-Delivery", d.ID)
	req.Header.Set("X-GitHub-Hook-ID", fmt.Sprint(d.Hook.ID))
	req.Header.Set("X-GitHub-Hook-Installation-Target-Type", "repository")
	req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(mac.Sum(nil)))
}

// payload is an event body: the action and its objects (the repository
// is added by emit).
func (s *Server) payload(action, sender string, members ...any) map[string]any {
	p := map[string]any{"sender": s.userJSON(sender)}
	if action != "" {
		p["action"] = action
	}
	for i := 0; i+1 < len(members); i += 2 {
		p[members[i].(string)] = members[i+1]
	}
	return p
}

// itemEvent is the issues or pull_request event of an action on it.
func (s *Server) itemEvent(r *repo, it *item, action, sender string, members ...any) {
	if it.Pull == nil {
		s.emit(r, "issues", s.payload(action, sender, append([]any{"issue", s.issueJSON(r, it)}, members...)...))
		return
	}
	s.emit(r, "pull_request", s.payload(action, sender,
		append([]any{"number", it.Number, "pull_request", s.pullJSON(r, it)}, members...)...))
}

// checkRunEvent is a check_run event with the pull requests of its commit.
func (s *Server) checkRunEvent(r *repo, it *item, c *checkRun, action string) {
	head := r.PullHead(it.Pull)
	run := s.checkRunJSON(r, head, c)
	pr := map[string]any{
		"url": s.api("/repos/%s/pulls/%d", r.Path, it.Number), "id": it.Pull.ID, "number": it.Number,
		"head": map[string]any{"ref": it.Pull.Head, "sha": head},
		"base": map[string]any{"ref": it.Pull.Base, "sha": cmp.Or(r.Branches[it.Pull.Base], strings.Repeat("b", 40))},
	}
	payload, _ := json.Marshal(run)
	var m map[string]any
	_ = json.Unmarshal(payload, &m)
	m["pull_requests"] = []any{pr}
	s.emit(r, "check_run", s.payload(action, "github-actions[bot]", "check_run", m))
}
