// Package giteareal runs a real Gitea server for tests: the binary
// scripts/test builds from Gitea's Go module at a pinned version
// (scripts/gitea.sh), started on a free loopback port with SQLite in a
// temporary directory, its users and access tokens made with Gitea's own
// CLI, stopped by its pid. The suites that hold the Gitea provider to the
// real server (tests/giteareal) use it, so what they assert is what Gitea
// does, not what a fake written beside the provider believes.
//
// Like PostgreSQL: with FORGETOOLS_REQUIRE_GITEA=1 (scripts/test sets it)
// a missing binary or a server that does not start fails the test;
// without it the test is skipped, saying why. Only tests import it.
package giteareal

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const (
	// Version is the Gitea release scripts/gitea.sh builds.
	Version = "v1.27.3"
	// EnvBinary names the Gitea binary; unset = build/gitea/VERSION/gitea
	// under the module root.
	EnvBinary = "FORGETOOLS_GITEA"
	// EnvRequire makes a missing Gitea a failure instead of a skip.
	EnvRequire = "FORGETOOLS_REQUIRE_GITEA"
	// startTimeout bounds how long Gitea may take to answer after start
	// (its first start runs every migration). It detects a hang.
	startTimeout = 120 * time.Second
)

// Server is one running Gitea.
type Server struct {
	// URL is its root, http://127.0.0.1:PORT/ (ROOT_URL).
	URL string
	// Host is "127.0.0.1:PORT", the forge coordinate's host.
	Host string
	bin  string
	dir  string
	ini  string
	cmd  *exec.Cmd
	done chan struct{}
	log  *bytes.Buffer
	mu   sync.Mutex
}

// Binary is the Gitea binary's path, or why there is none.
func Binary() (string, error) {
	if p := os.Getenv(EnvBinary); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %v", EnvBinary, p, err)
		}
		return p, nil
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	p := filepath.Join(root, "build", "gitea", Version, "gitea")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("no Gitea %s binary at %s (scripts/test builds it: bash scripts/gitea.sh; or set %s)", Version, p, EnvBinary)
	}
	return p, nil
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// unavailable skips tb, or fails it under FORGETOOLS_REQUIRE_GITEA=1.
func unavailable(tb testing.TB, why string) {
	tb.Helper()
	if os.Getenv(EnvRequire) == "1" {
		tb.Fatalf("the real Gitea is required (%s=1) but unavailable: %s", EnvRequire, why)
	}
	tb.Skipf("no real Gitea: %s (set %s=1 to make this a failure)", why, EnvRequire)
}

var (
	shared    *Server
	sharedErr error
	sharedMu  sync.Mutex
)

// Shared is the package's one Gitea, started on first use; StopShared
// (from TestMain) stops it. A test that cannot have it is skipped, or
// failed under FORGETOOLS_REQUIRE_GITEA=1.
func Shared(tb testing.TB) *Server {
	tb.Helper()
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if shared == nil && sharedErr == nil {
		shared, sharedErr = Start()
	}
	if sharedErr != nil {
		unavailable(tb, sharedErr.Error())
	}
	return shared
}

// StopShared stops the shared server, if one was started.
func StopShared() {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if shared != nil {
		shared.Stop()
		shared = nil
	}
}

// Start starts a Gitea in a new temporary directory and waits until its
// API answers.
func Start() (*Server, error) {
	bin, err := Binary()
	if err != nil {
		return nil, err
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("Gitea needs git on PATH: %v", err)
	}
	dir, err := os.MkdirTemp("", "giteareal-")
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s := &Server{
		URL: fmt.Sprintf("http://127.0.0.1:%d/", port), Host: fmt.Sprintf("127.0.0.1:%d", port),
		bin: bin, dir: dir, ini: filepath.Join(dir, "app.ini"), done: make(chan struct{}), log: &bytes.Buffer{},
	}
	if err := os.WriteFile(s.ini, []byte(s.appINI(port)), 0o600); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s.cmd = exec.Command(bin, "web", "--config", s.ini, "--work-path", dir)
	s.cmd.Dir = dir
	s.cmd.Env = s.env()
	s.cmd.Stdout, s.cmd.Stderr = s.logWriter(), s.logWriter()
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	go func() { s.cmd.Wait(); close(s.done) }()
	if err := s.waitReady(); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// appINI is the configuration (its options and templates, which a build
// without bindata reads from disk, beside the binary): installed (INSTALL_LOCK), SQLite, loopback
// only, nothing fetched from outside (OFFLINE_MODE), no mail, no SSH, no
// cron, issues indexed in the database (synchronously, so a list sees an
// issue as soon as it is created), Actions on.
func (s *Server) appINI(port int) string {
	user := "root"
	if u := os.Getenv("USER"); u != "" {
		user = u
	}
	if os.Getuid() == 0 {
		user = "root"
	}
	secret := randomHex(32)
	return fmt.Sprintf(`APP_NAME = forgetools test
RUN_MODE = prod
RUN_USER = %[1]s
WORK_PATH = %[2]s
I_AM_BEING_UNSAFE_RUNNING_AS_ROOT = true

[database]
DB_TYPE = sqlite3
PATH = %[2]s/gitea.db
SQLITE_JOURNAL_MODE = WAL

[repository]
ROOT = %[2]s/repos

[server]
PROTOCOL = http
HTTP_ADDR = 127.0.0.1
HTTP_PORT = %[3]d
ROOT_URL = %[4]s
DOMAIN = 127.0.0.1
DISABLE_SSH = true
START_SSH_SERVER = false
OFFLINE_MODE = true
LFS_START_SERVER = false
APP_DATA_PATH = %[2]s/data
STATIC_ROOT_PATH = %[7]s

[security]
INSTALL_LOCK = true
SECRET_KEY = %[5]s
INTERNAL_TOKEN = %[6]s
PASSWORD_HASH_ALGO = pbkdf2_hi

[oauth2]
ENABLED = false

[service]
DISABLE_REGISTRATION = true
REQUIRE_SIGNIN_VIEW = false
DEFAULT_KEEP_EMAIL_PRIVATE = false
ENABLE_NOTIFY_MAIL = false

[mailer]
ENABLED = false

[indexer]
ISSUE_INDEXER_TYPE = db
REPO_INDEXER_ENABLED = false

[queue]
TYPE = immediate

[cron]
ENABLED = false

[cron.update_checker]
ENABLED = false

[actions]
ENABLED = true

[session]
PROVIDER = memory

[cache]
ADAPTER = memory

[log]
MODE = file
LEVEL = Warn
ROOT_PATH = %[2]s/log

[api]
MAX_RESPONSE_ITEMS = 50
`, user, s.dir, port, s.URL, secret, "ftr"+randomHex(40), filepath.Dir(s.bin))
}

func (s *Server) env() []string {
	env := []string{"HOME=" + s.dir, "GITEA_WORK_DIR=" + s.dir, "USER=root"}
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "PATH=") || strings.HasPrefix(kv, "TMPDIR=") {
			env = append(env, kv)
		}
	}
	return env
}

type lockedWriter struct{ s *Server }

func (w lockedWriter) Write(p []byte) (int, error) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	if w.s.log.Len() < 1<<20 {
		w.s.log.Write(p)
	}
	return len(p), nil
}

func (s *Server) logWriter() io.Writer { return lockedWriter{s} }

// Log is what Gitea printed to its standard streams.
func (s *Server) Log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

func (s *Server) waitReady() error {
	deadline := time.Now().Add(startTimeout)
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			return fmt.Errorf("gitea exited before answering: %s", tail(s.Log()))
		default:
		}
		resp, err := http.Get(s.URL + "api/v1/version")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("gitea did not answer within %s: %s", startTimeout, tail(s.Log()))
}

func tail(s string) string {
	if len(s) > 2000 {
		s = s[len(s)-2000:]
	}
	return strings.TrimSpace(s)
}

// Stop ends the server by its pid (its process group: Gitea starts git
// children) and removes its directory.
func (s *Server) Stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(20 * time.Second):
			syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
			<-s.done
		}
	}
	os.RemoveAll(s.dir)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func randomHex(n int) string {
	b := make([]byte, n/2)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// cli runs a Gitea CLI command against the server's configuration.
func (s *Server) cli(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.bin, append(args, "--config", s.ini, "--work-path", s.dir)...)
	cmd.Dir = s.dir
	cmd.Env = s.env()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("gitea %s: %v: %s %s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	return strings.TrimSpace(out.String()), nil
}

// User is a Gitea account and an access token for it.
type User struct {
	Name, Email, Token string
}

// CreateUser makes a user with Gitea's CLI and an access token carrying
// every scope (what the token may do is then what the user may do: the
// permission tests vary the user, not the token).
func (s *Server) CreateUser(name string, admin bool) (User, error) {
	u := User{Name: name, Email: name + "@example.com"}
	args := []string{"admin", "user", "create", "--username", name, "--email", u.Email,
		"--password", "pw-" + randomHex(16), "--must-change-password=false"}
	if admin {
		args = append(args, "--admin")
	}
	if _, err := s.cli(args...); err != nil {
		return User{}, err
	}
	tok, err := s.cli("admin", "user", "generate-access-token", "--username", name,
		"--token-name", "forgetools-"+randomHex(6), "--scopes", "all", "--raw")
	if err != nil {
		return User{}, err
	}
	if fields := strings.Fields(tok); len(fields) > 0 {
		tok = fields[len(fields)-1]
	}
	u.Token = tok
	return u, nil
}

// APIError is a non-2xx answer of Gitea's API.
type APIError struct {
	Status int
	Body   string
}

func (e *APIError) Error() string { return fmt.Sprintf("gitea answered %d: %s", e.Status, e.Body) }

// API sends one request to Gitea's v1 API as token (path below /api/v1,
// e.g. "/repos/o/r"), with in as its JSON body when not nil, and decodes
// a 2xx answer into out when not nil.
func (s *Server) API(token, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.URL+"api/v1"+path, body)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "token "+token)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return &APIError{Status: resp.StatusCode, Body: strings.TrimSpace(string(raw))}
	}
	if out != nil && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			return fmt.Errorf("%s %s: decoding %q: %v", method, path, raw, err)
		}
	}
	return nil
}
