package toolsnaps_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/runtime"
)

// The guards below state issue 2's contract for the generated surface
// directly, so a snapshot regenerated with a lost bound or a flipped
// approval still fails review in a test, not only in a reader's eyes.

// readTools and writeTools are the ten tools in table order, as issue 2
// names and classifies them; laterReads are the read tools added after
// them (issue 15), at the end of the table.
var (
	readTools  = []string{"forge_get_issue", "forge_get_pull_request", "forge_list_issues"}
	writeTools = []string{
		"forge_comment_on_issue", "forge_comment_on_pull_request", "forge_submit_review",
		"forge_create_issue", "forge_create_pull_request", "forge_subscribe", "forge_unsubscribe",
	}
	laterReads = []string{"forge_get_events"}
)

// schema is the part of a generated JSON Schema the guards read.
type schema struct {
	Type                 string             `json:"type"`
	Properties           map[string]*schema `json:"properties"`
	Required             []string           `json:"required"`
	AdditionalProperties *bool              `json:"additionalProperties"`
	Items                *schema            `json:"items"`
	Enum                 []string           `json:"enum"`
	Pattern              string             `json:"pattern"`
	MinLength            *int               `json:"minLength"`
	MaxLength            *int               `json:"maxLength"`
	Minimum              *float64           `json:"minimum"`
	Maximum              *float64           `json:"maximum"`
	MaxItems             *int               `json:"maxItems"`
}

func toolSchema(t *testing.T, tool *runtime.Tool) *schema {
	t.Helper()
	var s schema
	if err := json.Unmarshal([]byte(tool.InputSchema), &s); err != nil {
		t.Fatalf("%s: input schema is not JSON: %v", tool.Name, err)
	}
	return &s
}

func TestToolNames(t *testing.T) {
	var got []string
	for _, tool := range gatewayv1tools.ForgeTools.Tools {
		got = append(got, tool.Name)
	}
	if want := slices.Concat(readTools, writeTools, laterReads); !slices.Equal(got, want) {
		t.Errorf("tool names:\n got %v\nwant %v", got, want)
	}
}

func TestToolApprovalAndHints(t *testing.T) {
	for _, tool := range gatewayv1tools.ForgeTools.Tools {
		want := runtime.ApprovalWrite
		if slices.Contains(readTools, tool.Name) || slices.Contains(laterReads, tool.Name) {
			want = runtime.ApprovalRead
		}
		if tool.Approval != want {
			t.Errorf("%s: approval %s, want %s", tool.Name, tool.Approval, want)
		}
		if tool.Hints.ReadOnly != (tool.Approval == runtime.ApprovalRead) {
			t.Errorf("%s: %s tool with readOnlyHint=%v", tool.Name, tool.Approval, tool.Hints.ReadOnly)
		}
		if tool.Approval == runtime.ApprovalRead && (tool.Hints.Destructive || !tool.Hints.Idempotent) {
			t.Errorf("%s: a read must be non-destructive and idempotent, hints %+v", tool.Name, tool.Hints)
		}
		if !tool.Hints.OpenWorld {
			t.Errorf("%s: every forge tool reaches an external forge; openWorldHint is false", tool.Name)
		}
	}
}

func TestIdempotencyKeyOnlyOnCreates(t *testing.T) {
	var got []string
	for _, tool := range gatewayv1tools.ForgeTools.Tools {
		if tool.IdempotencyKey {
			got = append(got, tool.Name)
		}
	}
	if want := []string{"forge_create_issue", "forge_create_pull_request"}; !slices.Equal(got, want) {
		t.Errorf("tools carrying the idempotency key: %v, want %v", got, want)
	}
}

// TestSchemaBounds checks every bound issue 2 lists, per parameter.
func TestSchemaBounds(t *testing.T) {
	type check func(t *testing.T, tool string, s *schema)
	// Checks by parameter name; a parameter present on a tool gets its
	// check, and expect below says which tools must have which.
	checks := map[string]check{
		"repo":            nonBlank,
		"subscription_id": nonBlank,
		"title":           nonBlank,
		"head_ref":        nonBlank,
		"issue_number":    positive,
		"pull_number":     positive,
		"number":          positive,
		"state":           enum("open", "closed", "all"),
		"verdict":         enum("approve", "request_changes", "comment"),
		"kind":            enum("issue", "pull_request"),
		"forge_provider":  enum("github", "gitlab", "gitea", "forgejo", "linear", "local"),
		"forge_host":      hostName,
		"limit":           between(1, 100),
		"after":           between(0, 9007199254740991),
		"labels":          nonBlankItems,
		"comments":        reviewComments,
		"draft":           typed("boolean"),
		"base_ref":        optionalText,
	}
	// body is non-blank on comments, optional on creates and reviews (the
	// review's "required unless approve" is CEL, stated in its description).
	body := map[string]check{
		"forge_comment_on_issue":        nonBlank,
		"forge_comment_on_pull_request": nonBlank,
		"forge_submit_review":           optionalText,
		"forge_create_issue":            optionalText,
		"forge_create_pull_request":     optionalText,
	}
	// params and required: every tool's exact parameter list and required
	// set. forge_unsubscribe addresses a subscription, not a repository
	// (Compass unsubscribeParameters), so it is the one tool without repo.
	expect := map[string]struct{ params, required []string }{
		"forge_get_issue":               {[]string{"repo", "issue_number"}, []string{"repo", "issue_number"}},
		"forge_get_pull_request":        {[]string{"repo", "pull_number"}, []string{"repo", "pull_number"}},
		"forge_list_issues":             {[]string{"repo", "state", "labels", "limit"}, []string{"repo"}},
		"forge_comment_on_issue":        {[]string{"repo", "issue_number", "body"}, []string{"repo", "issue_number", "body"}},
		"forge_comment_on_pull_request": {[]string{"repo", "pull_number", "body"}, []string{"repo", "pull_number", "body"}},
		"forge_submit_review":           {[]string{"repo", "pull_number", "verdict", "body", "comments"}, []string{"repo", "pull_number", "verdict"}},
		"forge_create_issue":            {[]string{"repo", "title", "body", "labels"}, []string{"repo", "title"}},
		"forge_create_pull_request":     {[]string{"repo", "title", "body", "head_ref", "base_ref", "draft"}, []string{"repo", "title", "head_ref"}},
		"forge_subscribe":               {[]string{"repo", "kind", "number"}, []string{"repo", "kind", "number"}},
		"forge_unsubscribe":             {[]string{"subscription_id"}, []string{"subscription_id"}},
		// Without a subscription it reads every subscription of the caller.
		"forge_get_events": {[]string{"subscription_id", "after", "limit"}, nil},
	}
	for _, tool := range gatewayv1tools.ForgeTools.Tools {
		t.Run(tool.Name, func(t *testing.T) {
			s := toolSchema(t, tool)
			want, ok := expect[tool.Name]
			if !ok {
				t.Fatalf("no expected parameters for %s", tool.Name)
			}
			if s.Type != "object" || s.AdditionalProperties == nil || *s.AdditionalProperties {
				t.Errorf("want a closed object (additionalProperties: false), got type %q additionalProperties %v", s.Type, s.AdditionalProperties)
			}
			// The selector is on every tool, optional, after the arm's own
			// parameters.
			params := slices.Concat(want.params, []string{"forge_provider", "forge_host"})
			if got := sortedKeys(s.Properties); !slices.Equal(got, sorted(params)) {
				t.Errorf("parameters %v, want %v", got, sorted(params))
			}
			if !slices.Equal(s.Required, want.required) {
				t.Errorf("required %v, want %v", s.Required, want.required)
			}
			for _, name := range sortedKeys(s.Properties) {
				p := s.Properties[name]
				c := checks[name]
				if name == "body" {
					c = body[tool.Name]
				}
				if c == nil {
					t.Errorf("%s: no bound check for this parameter; add one", name)
					continue
				}
				t.Run(name, func(t *testing.T) { c(t, tool.Name, p) })
			}
		})
	}
}

func sorted(s []string) []string { return slices.Sorted(slices.Values(s)) }

func typed(want string) func(*testing.T, string, *schema) {
	return func(t *testing.T, _ string, s *schema) {
		if s.Type != want {
			t.Errorf("type %q, want %q", s.Type, want)
		}
	}
}

// nonBlank: a string with at least one non-space character, and a length cap.
func nonBlank(t *testing.T, _ string, s *schema) {
	if s.Type != "string" || s.Pattern != `\S` || s.MaxLength == nil {
		t.Errorf("want a non-blank capped string (pattern \\S, maxLength), got type %q pattern %q maxLength %v", s.Type, s.Pattern, s.MaxLength)
	}
}

// optionalText: may be empty or blank, but capped.
func optionalText(t *testing.T, _ string, s *schema) {
	if s.Type != "string" || s.Pattern != "" || s.MinLength != nil || s.MaxLength == nil {
		t.Errorf("want an optional capped string, got type %q pattern %q minLength %v maxLength %v", s.Type, s.Pattern, s.MinLength, s.MaxLength)
	}
}

func positive(t *testing.T, _ string, s *schema) {
	if s.Type != "integer" || s.Minimum == nil || *s.Minimum != 1 {
		t.Errorf("want an integer >= 1, got type %q minimum %v", s.Type, s.Minimum)
	}
}

func between(lo, hi float64) func(*testing.T, string, *schema) {
	return func(t *testing.T, _ string, s *schema) {
		if s.Type != "integer" || s.Minimum == nil || *s.Minimum != lo || s.Maximum == nil || *s.Maximum != hi {
			t.Errorf("want an integer %v..%v, got type %q minimum %v maximum %v", lo, hi, s.Type, s.Minimum, s.Maximum)
		}
	}
}

func enum(values ...string) func(*testing.T, string, *schema) {
	return func(t *testing.T, _ string, s *schema) {
		if s.Type != "string" || !slices.Equal(s.Enum, values) {
			t.Errorf("want string enum %v, got type %q enum %v", values, s.Type, s.Enum)
		}
	}
}

// hostName: a host with an optional port, nothing that could carry a
// scheme, path or user info.
func hostName(t *testing.T, _ string, s *schema) {
	if s.Type != "string" || s.Pattern != "^[A-Za-z0-9.:-]*$" || s.MaxLength == nil || *s.MaxLength != 253 {
		t.Errorf("want a host name (pattern ^[A-Za-z0-9.:-]*$, maxLength 253), got type %q pattern %q maxLength %v", s.Type, s.Pattern, s.MaxLength)
	}
}

func nonBlankItems(t *testing.T, tool string, s *schema) {
	if s.Type != "array" || s.MaxItems == nil || s.Items == nil {
		t.Fatalf("want a capped array, got type %q maxItems %v items %v", s.Type, s.MaxItems, s.Items)
	}
	nonBlank(t, tool, s.Items)
}

// reviewComments: items {path non-blank, line >= 1, side LEFT|RIGHT, body
// non-blank}, path, line and body required, nothing else accepted.
func reviewComments(t *testing.T, tool string, s *schema) {
	if s.Type != "array" || s.MaxItems == nil || s.Items == nil {
		t.Fatalf("want a capped array, got type %q maxItems %v items %v", s.Type, s.MaxItems, s.Items)
	}
	item := s.Items
	if item.Type != "object" || item.AdditionalProperties == nil || *item.AdditionalProperties {
		t.Errorf("items: want a closed object, got type %q additionalProperties %v", item.Type, item.AdditionalProperties)
	}
	if want := []string{"path", "line", "body"}; !slices.Equal(item.Required, want) {
		t.Errorf("items: required %v, want %v", item.Required, want)
	}
	if got := strings.Join(sortedKeys(item.Properties), ","); got != "body,line,path,side" {
		t.Fatalf("items: properties %s, want body,line,path,side", got)
	}
	nonBlank(t, tool, item.Properties["path"])
	positive(t, tool, item.Properties["line"])
	enum("LEFT", "RIGHT")(t, tool, item.Properties["side"])
	nonBlank(t, tool, item.Properties["body"])
}

// The one rule JSON Schema cannot express (the review's CEL rule) must
// reach the model through the description instead.
func TestCELRuleInDescription(t *testing.T) {
	const rule = "Body is required unless verdict is approve."
	if !strings.Contains(gatewayv1tools.ForgeSubmitReviewTool.Description, rule) {
		t.Errorf("forge_submit_review description lacks %q:\n%s", rule, gatewayv1tools.ForgeSubmitReviewTool.Description)
	}
}
