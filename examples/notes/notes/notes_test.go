package notes_test

import (
	"context"
	"encoding/json"
	"go/parser"
	"go/token"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/runtime"
	"github.com/forgetools/forgetools/runtime/export"
	"github.com/forgetools/forgetools/toolserver"

	"example.com/notes/gen/notes/v1/notesv1handler"
	"example.com/notes/gen/notes/v1/notesv1tools"
	"example.com/notes/notes"
)

// toolset runs the notes tools the way an agent runtime would: through
// the forgetools runtime (decode, validate, build), a broker and the
// gateway in-process, to the notes service.
func toolset(t *testing.T) *runtime.Toolset {
	t.Helper()
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	st, err := store.Open(ctx, ":memory:", store.Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc, err := gateway.New(gateway.Config{
		Tables: []*toolserver.Table{notesv1handler.NotesTable},
		Forges: []gateway.Forge{{Provider: notes.New("notes.example")}},
		Accounts: []gateway.Account{{
			Name: "alice", AgentHandle: "agent-7", OwnerHandle: "owner-a",
			Scope: []string{"team/*"}, Sessions: []string{"s1"},
		}},
		Store:  st,
		Logger: log,
	})
	if err != nil {
		t.Fatal(err)
	}
	transport := runtime.TransportFunc(svc.Transport(gateway.Identity{Account: "alice", Session: "s1"}))
	ts, err := runtime.NewToolset(notesv1tools.NotesTools, runtime.NewBroker(transport))
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func call(ts *runtime.Toolset, name, args string) runtime.Result {
	return ts.Execute(context.Background(), runtime.Call{ID: "call-" + name, Name: name, Args: json.RawMessage(args)})
}

func TestNotesThroughTheRuntimeAndGateway(t *testing.T) {
	ts := toolset(t)

	res := call(ts, "notes_add", `{"notebook": "team/ideas", "text": "Ship the notes tools.", "remind_at": "2030-01-02T09:00:00Z", "labels": {"area": "agents"}}`)
	if res.IsError || res.Text != "Added note n1 to team/ideas" {
		t.Fatalf("notes_add = %+v", res)
	}
	call(ts, "notes_add", `{"notebook": "team/ideas", "text": "Then the docs."}`)

	res = call(ts, "notes_list", `{"notebook": "team/ideas", "limit": 1}`)
	if res.IsError || !strings.Contains(res.Text, "Then the docs.") || strings.Contains(res.Text, "Ship the notes tools.") {
		t.Fatalf("notes_list = %+v", res)
	}

	for _, tc := range []struct{ name, tool, args, want string }{
		{"outside the account's scope", "notes_add", `{"notebook": "other/ideas", "text": "x"}`,
			"notes_add failed: permission_denied: "},
		{"blank in Unicode terms", "notes_add", `{"notebook": "team/ideas", "text": "\u00a0\u3000"}`,
			"notes_add failed: invalid_argument: text: must not be blank"},
		{"a time that is not RFC 3339", "notes_add", `{"notebook": "team/ideas", "text": "x", "remind_at": "tomorrow"}`,
			`notes_add failed: invalid_argument: remind_at: expected an RFC 3339 time such as 2024-05-01T12:00:00Z, got "tomorrow"`},
		{"a label name against its rule", "notes_add", `{"notebook": "team/ideas", "text": "x", "labels": {"Area": "y"}}`,
			"notes_add failed: invalid_argument: labels[\"Area\"]: "},
		{"an unknown notebook", "notes_list", `{"notebook": "team/empty"}`,
			"notes_list failed: not_found: notebook team/empty has no notes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := call(ts, tc.tool, tc.args)
			if !res.IsError || !strings.HasPrefix(res.Text, tc.want) {
				t.Errorf("%s = %+v, want a failure starting %q", tc.tool, res, tc.want)
			}
		})
	}
}

// The tools export like the forge's: here, for an Anthropic request.
func TestNotesExport(t *testing.T) {
	req := export.Anthropic(toolset(t))
	if len(req.Tools) != 2 || req.Tools[0].Name != "notes_add" || !strings.Contains(req.System[0].Text, "team/notebook") {
		t.Fatalf("export = %+v", req)
	}
	var schema struct {
		Properties map[string]struct {
			Type          string         `json:"type"`
			Format        string         `json:"format"`
			PropertyNames map[string]any `json:"propertyNames"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(req.Tools[0].InputSchema, &schema); err != nil {
		t.Fatal(err)
	}
	if p := schema.Properties["remind_at"]; p.Type != "string" || p.Format != "date-time" {
		t.Errorf("remind_at = %+v, want an RFC 3339 string", p)
	}
	if p := schema.Properties["labels"]; p.Type != "object" || p.PropertyNames["pattern"] != "^[a-z]+$" {
		t.Errorf("labels = %+v, want a map with its key pattern", p)
	}
}

// The generated server side of a table that names no forge type names none
// either: the contract (handler) and the options vocabulary are all it
// builds on.
func TestGeneratedServerSideNamesNoForgeType(t *testing.T) {
	files, err := filepath.Glob("../gen/notes/v1/notesv1handler/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no generated handler files (%v): run buf generate first", err)
	}
	for _, path := range files {
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.Contains(p, "/gen/forgetools/gateway/") || strings.Contains(p, "/gen/forgetools/forge/") {
				t.Errorf("%s imports the forge type package %s", path, p)
			}
		}
	}
}
