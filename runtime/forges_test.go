package runtime_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/runtime"
)

// schemaOf is the part of a narrowed schema these tests read.
type narrowedSchema struct {
	Properties map[string]struct {
		Enum    []string `json:"enum"`
		Default string   `json:"default"`
	} `json:"properties"`
}

func narrowedTool(t *testing.T, ts *runtime.Toolset, name string) narrowedSchema {
	t.Helper()
	tool, ok := ts.Lookup(name)
	if !ok {
		t.Fatalf("no %s", name)
	}
	var s narrowedSchema
	if err := json.Unmarshal(tool.InputSchema().JSON(), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestWithForges(t *testing.T) {
	github := runtime.Forge{Provider: "github", Host: "github.com"}
	ghe := runtime.Forge{Provider: "github", Host: "ghe.example.com"}
	linear := runtime.Forge{Provider: "linear", Host: "linear.app", Default: true}
	for _, tc := range []struct {
		name           string
		forges         []runtime.Forge
		providers      []string // forge_provider's enum; nil = not offered
		def            string
		hosts          []string // forge_host's enum; nil = not offered
		instructions   []string // lines that must be there
		noInstructions []string // lines that must not
	}{
		{name: "one forge", forges: []runtime.Forge{github},
			instructions:   []string{`repo is "owner/name".`, "Operate only on the repositories"},
			noInstructions: []string{"Linear", "forge_provider", "forge_host"}},
		{name: "linear alone", forges: []runtime.Forge{linear},
			instructions:   []string{"On Linear, repo is the team key"},
			noInstructions: []string{`repo is "owner/name".`, "forge_provider"}},
		{name: "two providers", forges: []runtime.Forge{github, linear},
			providers: []string{"github", "linear"}, def: "linear",
			instructions:   []string{`repo is "owner/name".`, "On Linear", "Omit forge_provider for the default forge."},
			noInstructions: []string{"forge_host"}},
		{name: "two hosts", forges: []runtime.Forge{github, ghe},
			providers: []string{"github"}, def: "github", hosts: []string{"github.com", "ghe.example.com"},
			instructions:   []string{"forge_host picks an instance", "Omit forge_provider"},
			noInstructions: []string{"Linear"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts, err := runtime.NewToolset(testTable(), runtime.NewBroker(nil), runtime.WithForges(tc.forges...))
			if err != nil {
				t.Fatal(err)
			}
			for _, tool := range ts.Tools() {
				s := narrowedTool(t, ts, tool.Name)
				p, hasP := s.Properties["forge_provider"]
				h, hasH := s.Properties["forge_host"]
				if hasP != (tc.providers != nil) || !slices.Equal(p.Enum, tc.providers) || p.Default != tc.def {
					t.Errorf("%s: forge_provider %v (offered %v), want %v default %q", tool.Name, p, hasP, tc.providers, tc.def)
				}
				if hasH != (tc.hosts != nil) || !slices.Equal(h.Enum, tc.hosts) {
					t.Errorf("%s: forge_host %v (offered %v), want %v", tool.Name, h, hasH, tc.hosts)
				}
			}
			ins := ts.Instructions()
			for _, want := range tc.instructions {
				if !strings.Contains(ins, want) {
					t.Errorf("instructions lack %q:\n%s", want, ins)
				}
			}
			for _, not := range tc.noInstructions {
				if strings.Contains(ins, not) {
					t.Errorf("instructions mention %q:\n%s", not, ins)
				}
			}
		})
	}
	// The generated table keeps the full vocabulary.
	if !strings.Contains(gatewayv1tools.ForgeGetIssueTool.InputSchema().String(), `"gitlab"`) {
		t.Error("narrowing changed the generated table")
	}
}

// The decoder refuses what a narrowed schema no longer offers, naming what
// it does.
func TestWithForgesDecoder(t *testing.T) {
	rec := &recorder{reply: answer(issueResult)}
	one, _ := newToolset(t, rec, runtime.WithForges(runtime.Forge{Provider: "github", Host: "github.com"}))
	two, _ := newToolset(t, rec, runtime.WithForges(runtime.Forge{Provider: "github", Host: "github.com"}, runtime.Forge{Provider: "linear", Host: "linear.app"}))
	for _, tc := range []struct {
		ts         *runtime.Toolset
		args, want string
	}{
		{one, `{"repo":"a/b","issue_number":1,"forge_provider":"github"}`,
			`forge_get_issue failed: invalid_argument: unknown parameter "forge_provider"; valid parameters: repo, issue_number`},
		{two, `{"repo":"a/b","issue_number":1,"forge_provider":"gitlab"}`,
			`forge_get_issue failed: invalid_argument: forge_provider: expected one of github, linear, got "gitlab"`},
		{two, `{"repo":"a/b","issue_number":1,"forge_provider":"linear","forge_host":"linear.app"}`,
			`forge_get_issue failed: invalid_argument: unknown parameter "forge_host"; valid parameters: repo, issue_number, forge_provider`},
	} {
		got := tc.ts.Execute(context.Background(), runtime.Call{ID: "c", Name: "forge_get_issue", Args: []byte(tc.args)})
		if got.Text != tc.want || !got.IsError {
			t.Errorf("%s:\n got %q\nwant %q", tc.args, got.Text, tc.want)
		}
	}
	if len(rec.reqs) != 0 {
		t.Fatal("a refused selector reached the transport")
	}
	if got := two.Execute(context.Background(), runtime.Call{ID: "c", Name: "forge_get_issue", Args: []byte(`{"repo":"a/b","issue_number":1,"forge_provider":"linear"}`)}); len(rec.reqs) != 1 {
		t.Errorf("a served provider did not reach the transport: %+v", got)
	}
}

func TestWithForgesRefusesUnknownProviders(t *testing.T) {
	for _, forges := range [][]runtime.Forge{{{Provider: "bitbucket"}}, {}} {
		if _, err := runtime.NewToolset(testTable(), runtime.NewBroker(nil), runtime.WithForges(forges...)); err == nil {
			t.Errorf("WithForges(%v) accepted", forges)
		}
	}
}
