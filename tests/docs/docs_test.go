// Package docs_test holds the documentation to what the code does: the Go
// version go.mod states, links that stay inside the repository, client
// configurations the CLI accepts and socket paths that are the ones serve
// creates. A doc that drifts from the code fails here.
package docs_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/internal/cli"
	"github.com/forgetools/forgetools/internal/config"
)

// root is the repository root, from this package's directory.
const root = "../.."

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docs are the Markdown files a reader follows.
func docs(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "CONTRIBUTING.md", "SECURITY.md"}
	more, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range more {
		files = append(files, strings.TrimPrefix(m, root+"/"))
	}
	return files
}

func TestGoVersionIsGoMods(t *testing.T) {
	want := regexp.MustCompile(`(?m)^go (\S+)$`).FindStringSubmatch(read(t, "go.mod"))
	if want == nil {
		t.Fatal("go.mod states no go version")
	}
	readme := read(t, "README.md")
	mentions := regexp.MustCompile(`Go (1\.\d+(?:\.\d+)?)`).FindAllStringSubmatch(readme, -1)
	if len(mentions) == 0 {
		t.Fatal("the README names no Go version")
	}
	for _, m := range mentions {
		if m[1] != want[1] {
			t.Errorf("README says Go %s, go.mod says go %s", m[1], want[1])
		}
	}
}

var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestLinksStayInTheRepository: every relative link resolves to a file of
// the repository, and nothing points outside it.
func TestLinksStayInTheRepository(t *testing.T) {
	abs, _ := filepath.Abs(root)
	for _, doc := range docs(t) {
		text := read(t, doc)
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			link := strings.SplitN(m[1], "#", 2)[0]
			if link == "" || strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			target, _ := filepath.Abs(filepath.Join(root, filepath.Dir(doc), link))
			if !strings.HasPrefix(target, abs+string(filepath.Separator)) {
				t.Errorf("%s links outside the repository: %s", doc, m[1])
				continue
			}
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s links to %s, which does not exist", doc, m[1])
			}
		}
	}
	if arch := read(t, "docs/architecture.md"); strings.Contains(arch, "shared/") || strings.Contains(arch, "DESIGN.md") {
		t.Error("docs/architecture.md refers to a design document outside the repository")
	}
}

// run runs the CLI in-process and returns its exit code and output.
func run(args ...string) (int, string) {
	var out bytes.Buffer
	code := cli.Main(args, strings.NewReader(""), &out, &out)
	return code, out.String()
}

// TestClientConfigs: every ready client configuration parses, starts
// forgetools with flags it accepts, and is exactly what docs/clients.md
// shows for that client.
func TestClientConfigs(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(root, "examples", "clients", "*.json"))
	if err != nil || len(files) < 4 {
		t.Fatalf("client configurations: %v, %v", files, err)
	}
	guide := read(t, "docs/clients.md")
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cfg struct {
			MCPServers map[string]server `json:"mcpServers"`
			Servers    map[string]server `json:"servers"`
		}
		if err := json.Unmarshal(raw, &cfg); err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		servers := cfg.MCPServers
		if servers == nil {
			servers = cfg.Servers
		}
		if len(servers) == 0 {
			t.Errorf("%s configures no server", f)
		}
		for name, s := range servers {
			switch {
			case s.Command == "forgetools":
				if code, out := run(append(slices.Clone(s.Args), "--help")...); code != 0 {
					t.Errorf("%s: server %s: forgetools %v is refused:\n%s", f, name, s.Args, out)
				}
			case s.Type == "http" && strings.HasSuffix(s.URL, "/mcp") && strings.HasPrefix(s.Headers["Authorization"], "Bearer "):
			default:
				t.Errorf("%s: server %s neither runs forgetools nor reaches an MCP HTTP endpoint with a bearer token: %+v", f, name, s)
			}
		}
		if !strings.Contains(filepath.Base(f), "http") && !strings.Contains(guide, string(bytes.TrimSpace(raw))) {
			t.Errorf("docs/clients.md does not show %s as it is", f)
		}
	}
	for _, client := range []string{"## Claude Desktop", "## Claude Code", "## VS Code", "## Cursor"} {
		if !strings.Contains(guide, client) {
			t.Errorf("docs/clients.md has no %q section", client)
		}
	}
}

type server struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
}

// socketURL is a socket path as docs show it; "<socket_dir>/<session>.sock"
// is the pattern itself, not a path.
var socketURL = regexp.MustCompile(`unix://([^\s"'<` + "`" + `]+\.sock)`)

// TestSocketPaths: every socket path the docs and --help examples show is
// one serve creates: a default session in the default data directory, or a
// session of examples/forgetools.yaml in its socket_dir.
func TestSocketPaths(t *testing.T) {
	dataDir := "$HOME/.local/share/forgetools"
	def := config.Default(dataDir)
	valid := map[string]bool{}
	for _, dir := range []string{def.SocketDir, strings.Replace(def.SocketDir, "$HOME", "~", 1)} {
		for _, session := range append(sessionNames(def.Accounts[0].Sessions), "agent") { // agent: the --github setup's session
			valid[filepath.Join(dir, session+".sock")] = true
		}
	}
	example, err := config.Load(filepath.Join(root, "examples", "forgetools.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range example.Accounts {
		for _, s := range a.Sessions {
			valid[filepath.Join(example.SocketDir, s.Name+".sock")] = true
		}
	}

	texts := map[string]string{}
	for _, doc := range docs(t) {
		texts[doc] = read(t, doc)
	}
	for _, cmd := range []string{"serve", "mcp", "call", "tools", "audit", "demo"} {
		_, out := run(cmd, "--help")
		texts["forgetools "+cmd+" --help"] = out
	}
	seen := 0
	for where, text := range texts {
		for _, m := range socketURL.FindAllStringSubmatch(text, -1) {
			seen++
			if !valid[m[1]] {
				t.Errorf("%s shows the socket %s, which serve never creates (it makes <socket_dir>/<session>.sock)", where, m[1])
			}
		}
	}
	if seen < 3 {
		t.Errorf("only %d socket paths found: the check would prove little", seen)
	}
}

func sessionNames(sessions []config.Session) []string {
	out := make([]string, len(sessions))
	for i, s := range sessions {
		out[i] = s.Name
	}
	return out
}
