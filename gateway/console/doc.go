// Package console is the operator's web console, served by the gateway
// (forgetools serve --console ADDR): the queue of parked calls with what
// each would do (the diff of a file write, the pull request, head sha,
// reviews and checks of a merge, the text of a text), approve and deny with
// a reason, the audit of what agents created, and each account's scope.
//
// It is a boundary of its own, built for a hostile neighbourhood:
//
//   - Only operator tokens sign in, never an agent's: the tokens are compared
//     in constant time (over their SHA-256 digests, so their length does not
//     leak either), and an agent's bearer token is refused and logged.
//   - A session is a random id in an HttpOnly, SameSite=Strict cookie (Secure
//     under TLS); the token itself is never stored, echoed or put on a page.
//   - Every POST needs a same-origin Origin (or, without one, Referer)
//     header, and every POST of a signed-in session the session's CSRF token
//     from its form. On a loopback listener the Host header must name a
//     loopback address too, which defeats DNS rebinding.
//   - Pages are server-rendered with html/template, so forge content (which
//     is attacker-written) is escaped wherever it lands; a Content Security
//     Policy without script sources backs that up. There is no JavaScript.
//
// Sessions live in the process: a restart or another replica means signing
// in again. Decisions go through the gateway's approval API, so a decision
// made here is the same as one made with forgetools approvals.
package console
