package gateway

import (
	"context"
	"strings"
	"time"

	"google.golang.org/protobuf/reflect/protoreflect"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// A repository's visibility as the flow rules read it. The forge says
// public, private or internal; anything else (the forge cannot say, the
// read failed, a spelling we do not know) is unknown, which the rules read
// the safe way: a repository read from that is unknown counts as private,
// a write target that is unknown counts as public.
const (
	visibilityPublic  = "public"
	visibilityUnknown = "unknown"
)

// Visibility cache lifetimes: a visibility the forge reported is trusted
// for visibilityTTL (an operator making a repository public is seen within
// it); a failed read is retried after unknownTTL, not on every call.
const (
	visibilityTTL = 5 * time.Minute
	unknownTTL    = 30 * time.Second
)

// visibilityCache remembers what forges said about repositories' visibility.
type visibilityCache struct {
	expiring[visibilityKey, string]
}

type visibilityKey struct {
	coordinate
	repo string
}

func (c *visibilityCache) put(k visibilityKey, v string) {
	ttl := visibilityTTL
	if v == visibilityUnknown {
		ttl = unknownTTL
	}
	c.expiring.put(k, v, ttl)
}

func keyOf(ref *forgev1.ForgeRef, repo string) visibilityKey {
	return visibilityKey{coordinate{ref.GetProvider(), strings.ToLower(ref.GetHost())}, strings.ToLower(repo)}
}

// normalVisibility maps a forge's word onto public, private, internal or
// unknown.
func normalVisibility(v string) string {
	switch v = strings.ToLower(strings.TrimSpace(v)); v {
	case "public", "private", "internal":
		return v
	}
	return visibilityUnknown
}

// visibility is repo's visibility on the forge at ref, from the cache or
// through the table's visibility arm, called for o's account.
func (s *Service) visibility(ctx context.Context, o *operation, ref *forgev1.ForgeRef, repo string) string {
	k := keyOf(ref, repo)
	if v, ok := s.flow.visibility.get(k); ok {
		return v
	}
	v := s.readVisibility(ctx, o, ref, repo)
	s.flow.visibility.put(k, v)
	return v
}

func (s *Service) readVisibility(ctx context.Context, o *operation, ref *forgev1.ForgeRef, repo string) string {
	ft := s.flow.tables[o.table]
	if ft == nil || ft.visibility == nil {
		return visibilityUnknown
	}
	p, fe := s.cfg.registry.resolve(ref)
	if fe != nil {
		return visibilityUnknown
	}
	req := ft.visibilityReq.New()
	req.Set(ft.visibilityRepo, protoreflect.ValueOfString(repo))
	c := toolserver.Call{Account: o.acct.Name, Session: o.id.Session, AgentHandle: o.acct.AgentHandle, OwnerHandle: o.acct.OwnerHandle}
	out, err := ft.visibility.Serve(ctx, p, c, req.Interface())
	if err != nil || out == nil {
		return visibilityUnknown
	}
	return s.noteVisibility(out.ProtoReflect(), ref, repo)
}

// noteVisibility caches the visibility a result reports for repo (a
// forge_get_repo the model made does the rules' read for them) and returns
// it; unknown when the result carries none.
func (s *Service) noteVisibility(m protoreflect.Message, ref *forgev1.ForgeRef, repo string) string {
	p := flowPlanOf(m.Descriptor())
	if p.visibility == nil {
		return visibilityUnknown
	}
	v := normalVisibility(m.Get(p.visibility).String())
	s.flow.visibility.put(keyOf(ref, repo), v)
	return v
}
