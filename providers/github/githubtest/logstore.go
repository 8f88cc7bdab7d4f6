package githubtest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The log store is where GitHub's job-logs endpoint redirects to: another
// host (Azure blob storage behind GitHub's documented log hosts) serving
// each log at a short-lived signed URL. The fake runs it as a second
// server; LogHost names it in the redirect, so a test can make it look like
// GitHub's real log host. It serves byte ranges (a client asks for a log's
// tail), refuses a bad signature, and refuses a request that carries an
// Authorization header: GitHub's token has no business at a storage host.
// Its requests are recorded and take injections like the API's.

// logPrefix is the path every log URL starts with.
const logPrefix = "/actions-results/"

func (s *Server) startLogStore(tls bool) {
	h := http.HandlerFunc(s.serveLog)
	if tls {
		s.logs = httptest.NewTLSServer(h)
	} else {
		s.logs = httptest.NewServer(h)
	}
}

// LogURL is the signed download URL of a job's log, as the logs endpoint
// redirects to it.
func (s *Server) LogURL(jobID int64) string {
	u, _ := url.Parse(s.logs.URL)
	u.Host = s.logHost + ":" + u.Port()
	u.Path = fmt.Sprintf("%sjob-logs/%d.txt", logPrefix, jobID)
	u.RawQuery = url.Values{"sv": {"2021-12-02"}, "sr": {"b"}, "sp": {"r"}, "sig": {logSignature(jobID)}}.Encode()
	return u.String()
}

func logSignature(jobID int64) string { return hashOf("log", strconv.FormatInt(jobID, 10))[:32] }

// LogStoreURL is the log store's own address (scheme://127.0.0.1:port),
// for a test that routes LogHost's name to it.
func (s *Server) LogStoreURL() string { return s.logs.URL }

func (s *Server) serveLog(w http.ResponseWriter, r *http.Request) {
	if resp, injected := s.Receive(r, r.URL.Path, nil); injected {
		s.Reply(w, r, resp)
		return
	}
	refuse := func(status int, code, message string) {
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(status)
		fmt.Fprintf(w, `<?xml version="1.0" encoding="utf-8"?><Error><Code>%s</Code><Message>%s</Message></Error>`, code, message)
	}
	name, ok := strings.CutPrefix(r.URL.Path, logPrefix+"job-logs/")
	id, err := strconv.ParseInt(strings.TrimSuffix(name, ".txt"), 10, 64)
	switch {
	case !ok || err != nil || r.Method != http.MethodGet:
		refuse(http.StatusNotFound, "BlobNotFound", "The specified blob does not exist.")
		return
	case r.Header.Get("Authorization") != "":
		refuse(http.StatusBadRequest, "InvalidAuthenticationInfo", "Authentication information is not given in the correct format.")
		return
	case r.URL.Query().Get("sig") != logSignature(id):
		refuse(http.StatusForbidden, "AuthenticationFailed", "Signature did not match.")
		return
	}
	s.Lock()
	_, _, j := s.job(strconv.FormatInt(id, 10))
	var log string
	if j != nil {
		log = j.Log
	}
	s.Unlock()
	if j == nil {
		refuse(http.StatusNotFound, "BlobNotFound", "The specified blob does not exist.")
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	http.ServeContent(w, r, "job-logs.txt", time.Time{}, strings.NewReader(log))
}
