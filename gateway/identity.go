package gateway

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
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
