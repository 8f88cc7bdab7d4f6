package gateway

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"strings"
)

// Identity is who a call is made for. It comes from the connection the call
// arrived on (the session's Unix socket, or the bearer token on TCP), never
// from the request.
type Identity struct {
	Account     string
	Session     string
	AgentHandle string
	OwnerHandle string
}

type identityKey struct{}

// WithIdentity binds id to ctx; listeners call it for each connection.
func WithIdentity(ctx context.Context, id Identity) context.Context {
	return context.WithValue(ctx, identityKey{}, id)
}

// IdentityFrom returns the identity bound to ctx, if any.
func IdentityFrom(ctx context.Context) (Identity, bool) {
	id, ok := ctx.Value(identityKey{}).(Identity)
	return id, ok && id.Account != ""
}

// CallerFrom is the account and session of the identity bound to ctx, as
// the tiers below the gateway ask for it (subscriptions/feed's Handler),
// which name no gateway type.
func CallerFrom(ctx context.Context) (account, session string, ok bool) {
	id, ok := IdentityFrom(ctx)
	return id.Account, id.Session, ok
}

// Sessions returns the identity of every configured socket session, in
// configuration order.
func (s *Service) Sessions() []Identity {
	return append([]Identity(nil), s.cfg.sessions...)
}

// SessionIdentity returns the identity of one configured socket session,
// e.g. for an in-process caller that acts as that session.
func (s *Service) SessionIdentity(session string) (Identity, bool) {
	for _, id := range s.cfg.sessions {
		if id.Session == session {
			return id, true
		}
	}
	return Identity{}, false
}

// Authenticate maps a bearer token to its identity. It compares digests in
// constant time against every configured token, so neither the result nor
// the time taken says how close a wrong token came.
func (s *Service) Authenticate(token string) (Identity, bool) {
	d := sha256.Sum256([]byte(token))
	var found Identity
	match := 0
	for _, e := range s.cfg.tokens {
		if subtle.ConstantTimeCompare(d[:], e.digest[:]) == 1 {
			found = e.id
			match = 1
		}
	}
	return found, match == 1 && token != ""
}

// HasTokens reports whether any account has a bearer token, so a TCP
// listener can say at start that it would refuse every call.
func (s *Service) HasTokens() bool { return len(s.cfg.tokens) > 0 }

// Peer is who may connect to a session's socket, by the credentials of the
// connecting process (SO_PEERCRED): its user id, its group id, or both. A
// nil field allows any value. Without a Peer, any process that can open the
// socket file may connect; it is 0600 in a 0700 directory, so that means
// the processes of the gateway's own user.
type Peer struct {
	UID, GID *uint32
}

// Allows reports whether a process running as uid and gid may connect.
func (p Peer) Allows(uid, gid uint32) bool {
	return (p.UID == nil || *p.UID == uid) && (p.GID == nil || *p.GID == gid)
}

// String names what the rule allows: "uid 1001, gid 20".
func (p Peer) String() string {
	var parts []string
	if p.UID != nil {
		parts = append(parts, fmt.Sprintf("uid %d", *p.UID))
	}
	if p.GID != nil {
		parts = append(parts, fmt.Sprintf("gid %d", *p.GID))
	}
	return strings.Join(parts, ", ")
}

// SessionPeer returns the peer rule of a socket session, if it has one.
func (s *Service) SessionPeer(session string) (Peer, bool) {
	p, ok := s.cfg.peers[session]
	return p, ok
}

type refusalKey struct{}

// WithRefusal marks ctx's connection as refused by its listener, for
// reason (a peer credential check failed): the handler answers every call
// on it with Connect permission_denied and reason, and binds no identity.
func WithRefusal(ctx context.Context, reason string) context.Context {
	return context.WithValue(ctx, refusalKey{}, reason)
}

// refusalFrom is the reason ctx's connection was refused, or "".
func refusalFrom(ctx context.Context) string {
	r, _ := ctx.Value(refusalKey{}).(string)
	return r
}
