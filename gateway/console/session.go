package console

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"sync"
	"time"
)

// cookieName is the session cookie's name; under TLS the __Host- prefix
// also pins it to this host and path with Secure set.
func (c *Console) cookieName() string {
	if c.opts.Secure {
		return "__Host-forgetools_console"
	}
	return "forgetools_console"
}

// session is one signed-in operator.
type session struct {
	operator string
	csrf     string
	expires  time.Time
}

// sessions are kept by the SHA-256 of their cookie value, so a memory
// dump or a log of the map never holds a usable cookie.
type sessions struct {
	ttl time.Duration
	mu  sync.Mutex
	m   map[[sha256.Size]byte]session
}

func newSessions(ttl time.Duration) *sessions {
	return &sessions{ttl: ttl, m: map[[sha256.Size]byte]session{}}
}

// randomToken is 32 random bytes, URL-safe.
func randomToken() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

func (s *sessions) create(operator string) (cookie string, sess session) {
	cookie = randomToken()
	sess = session{operator: operator, csrf: randomToken(), expires: time.Now().Add(s.ttl)}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	for k, v := range s.m { // drop the expired while here
		if now.After(v.expires) {
			delete(s.m, k)
		}
	}
	s.m[sha256.Sum256([]byte(cookie))] = sess
	return cookie, sess
}

func (s *sessions) get(cookie string) (session, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := sha256.Sum256([]byte(cookie))
	v, ok := s.m[k]
	if ok && time.Now().After(v.expires) {
		delete(s.m, k)
		return session{}, false
	}
	return v, ok
}

func (s *sessions) drop(cookie string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, sha256.Sum256([]byte(cookie)))
}

// operator returns the name of the operator whose token this is. Every
// operator's digest is compared, in constant time, whatever matches.
func (c *Console) operator(token string) (string, bool) {
	d := sha256.Sum256([]byte(token))
	name, found := "", 0
	for _, o := range c.operators {
		if subtle.ConstantTimeCompare(d[:], o.digest[:]) == 1 {
			name, found = o.name, 1
		}
	}
	return name, found == 1
}

func (c *Console) signinPage(w http.ResponseWriter, r *http.Request) {
	c.render(w, http.StatusOK, "signin.html", page{Title: "Sign in"})
}

// signin exchanges an operator token for a session cookie. The token is
// read from the form body only (never a query string, which ends up in
// logs and history) and never written back.
func (c *Console) signin(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 8<<10)
	token := r.PostFormValue("token")
	name, ok := c.operator(token)
	if !ok {
		if token != "" && c.opts.IsAgentToken != nil && c.opts.IsAgentToken(token) {
			c.log.Warn("console refused a sign-in with an agent's bearer token: only operator tokens sign in", "remote", r.RemoteAddr)
		} else {
			c.log.Warn("console refused a sign-in with a token that is no operator's", "remote", r.RemoteAddr)
		}
		c.render(w, http.StatusUnauthorized, "signin.html", page{Title: "Sign in", Error: "That is not an operator token. Agents' tokens never sign in here."})
		return
	}
	cookie, _ := c.sessions.create(name)
	http.SetCookie(w, &http.Cookie{
		Name: c.cookieName(), Value: cookie, Path: "/", HttpOnly: true, Secure: c.opts.Secure,
		SameSite: http.SameSiteStrictMode, MaxAge: int(c.opts.SessionTTL / time.Second),
	})
	c.log.Info("operator signed in to the console", "operator", name, "remote", r.RemoteAddr)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func (c *Console) signout(w http.ResponseWriter, r *http.Request, s session) {
	if ck, err := r.Cookie(c.cookieName()); err == nil {
		c.sessions.drop(ck.Value)
	}
	http.SetCookie(w, &http.Cookie{Name: c.cookieName(), Value: "", Path: "/", HttpOnly: true, Secure: c.opts.Secure, SameSite: http.SameSiteStrictMode, MaxAge: -1})
	http.Redirect(w, r, "/signin", http.StatusSeeOther)
}

type sessionKey struct{}

// authed admits a signed-in session, and on a POST only with the
// session's CSRF token in the form; anything else goes to the sign-in
// page (GET) or is refused (POST).
func (c *Console) authed(next func(http.ResponseWriter, *http.Request, session)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var s session
		ck, err := r.Cookie(c.cookieName())
		ok := err == nil
		if ok {
			s, ok = c.sessions.get(ck.Value)
		}
		if !ok {
			if r.Method == http.MethodGet {
				http.Redirect(w, r, "/signin", http.StatusSeeOther)
				return
			}
			http.Error(w, "sign in first", http.StatusUnauthorized)
			return
		}
		if r.Method == http.MethodPost {
			r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
			got := r.PostFormValue("csrf")
			if subtle.ConstantTimeCompare([]byte(got), []byte(s.csrf)) != 1 {
				c.log.Warn("console refused a POST without the session's CSRF token", "remote", r.RemoteAddr, "path", r.URL.Path, "operator", s.operator)
				http.Error(w, "refused: the form's CSRF token is missing or wrong; reload the page and try again", http.StatusForbidden)
				return
			}
		}
		next(w, r.WithContext(context.WithValue(r.Context(), sessionKey{}, s)), s)
	})
}
