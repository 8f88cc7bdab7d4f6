package toolsnaps_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/forgetools/forgetools/charset"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/runtime"
)

// The guards below state issue 2's and issue 9's contracts for the
// generated surface directly, so a snapshot regenerated with a lost bound or a flipped
// approval still fails review in a test, not only in a reader's eyes.

// governance is what each tool must declare, in table order: the ten of
// issue 2, then issue 9's, then issue 15's forge_get_events. An approval policy keys on these, so they are
// written here, not read from the table, and a proto edit that turns a push
// into a write fails until this list agrees.
type governance struct {
	approval    runtime.Approval
	actionClass string
	risk        runtime.Risk
	destructive bool
}

var (
	read  = governance{runtime.ApprovalRead, "repo:read", runtime.RiskLow, false}
	comms = governance{runtime.ApprovalWrite, "comms:external", runtime.RiskMedium, false}
	watch = governance{runtime.ApprovalWrite, "repo:read", runtime.RiskLow, false}
	ci    = governance{runtime.ApprovalWrite, "ci:trigger", runtime.RiskMedium, false}
	push  = governance{runtime.ApprovalPush, "vcs:push", runtime.RiskHigh, false}
	// overwrite is a push that may replace what is there (an update, a
	// merge): MCP's destructiveHint.
	overwrite = governance{runtime.ApprovalPush, "vcs:push", runtime.RiskHigh, true}
)

var tools = []struct {
	name string
	gov  governance
}{
	{"forge_get_issue", read},
	{"forge_get_pull_request", read},
	{"forge_get_pull_request_diff", read},
	{"forge_compare", read},
	{"forge_list_issues", read},
	{"forge_list_comments", read},
	{"forge_comment_on_issue", comms},
	{"forge_comment_on_pull_request", comms},
	{"forge_submit_review", comms},
	{"forge_list_review_threads", read},
	{"forge_reply_to_review_thread", comms},
	{"forge_resolve_review_thread", comms},
	{"forge_create_issue", comms},
	{"forge_create_pull_request", comms},
	{"forge_update_pull_request", comms},
	{"forge_subscribe", watch},
	{"forge_unsubscribe", governance{runtime.ApprovalWrite, "repo:read", runtime.RiskLow, true}},
	{"forge_get_repo", read},
	{"forge_search_code", read},
	{"forge_search_issues", read},
	{"forge_read_file", read},
	{"forge_list_commits", read},
	{"forge_list_dir", read},
	{"forge_list_pull_requests", read},
	{"forge_list_ci_runs", read},
	{"forge_get_ci_run", read},
	{"forge_update_issue", comms},
	{"forge_create_branch", push},
	{"forge_write_file", overwrite},
	{"forge_commit_files", overwrite},
	{"forge_merge_pull_request", overwrite},
	{"forge_trigger_ci", ci},
	{"forge_rerun_ci", ci},
	{"forge_get_events", read},
}

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
	MinItems             *int               `json:"minItems"`
	Format               string             `json:"format"`
	AnyOf                []*schema          `json:"anyOf"`
}

func toolSchema(t *testing.T, tool *runtime.Tool) *schema {
	t.Helper()
	var s schema
	if err := json.Unmarshal(tool.InputSchema().JSON(), &s); err != nil {
		t.Fatalf("%s: input schema is not JSON: %v", tool.Name, err)
	}
	return &s
}

func TestToolNames(t *testing.T) {
	var got, want []string
	for _, tool := range gatewayv1tools.ForgeTools.Tools {
		got = append(got, tool.Name)
	}
	for _, w := range tools {
		want = append(want, w.name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("tool names:\n got %v\nwant %v", got, want)
	}
}

func TestToolGovernanceAndHints(t *testing.T) {
	for i, tool := range gatewayv1tools.ForgeTools.Tools {
		if i >= len(tools) || tools[i].name != tool.Name {
			t.Fatalf("%s is not in the expected list at %d (TestToolNames says how)", tool.Name, i)
		}
		want := tools[i].gov
		got := governance{tool.Approval, tool.ActionClass, tool.Risk, tool.Hints.Destructive}
		if got != want {
			t.Errorf("%s: approval %s, action class %q, risk %s, destructive %v; want %s, %q, %s, %v", tool.Name,
				got.approval, got.actionClass, got.risk, got.destructive, want.approval, want.actionClass, want.risk, want.destructive)
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

// TestSchemaBounds checks every bound issues 2 and 9 list, per parameter.
func TestSchemaBounds(t *testing.T) {
	type check func(t *testing.T, tool string, s *schema)
	// Checks by parameter name; a parameter present on a tool gets its
	// check, and expect below says which tools must have which.
	checks := map[string]check{
		"repo":              repoName,
		"subscription_id":   nonBlank,
		"title":             nonBlank,
		"head_ref":          nonBlank,
		"branch":            nonBlank,
		"message":           nonBlank,
		"workflow":          nonBlank,
		"issue_number":      positive,
		"pull_number":       positive,
		"number":            positive,
		"milestone":         positive,
		"state":             enum("open", "closed", "all"),
		"state_reason":      enum("completed", "not_planned", "reopened"),
		"status":            enum("queued", "in_progress", "completed", "success", "failure"),
		"method":            enum("merge", "squash", "rebase"),
		"verdict":           enum("approve", "request_changes", "comment"),
		"kind":              enum("issue", "pull_request"),
		"forge_provider":    enum("github", "gitlab", "gitea", "forgejo", "linear", "local"),
		"forge_host":        hostName,
		"limit":             between(1, 100),
		"after":             between(0, 9007199254740991),
		"labels":            nonBlankItems,
		"assignees":         nonBlankItems,
		"comments":          reviewComments,
		"files":             fileChanges,
		"inputs":            ciInputs,
		"draft":             typed("boolean"),
		"failed_only":       typed("boolean"),
		"ready":             typed("boolean"),
		"reviewers":         nonBlankItems,
		"start_line":        between(1, 100000000),
		"end_line":          between(1, 100000000),
		"base_ref":          optionalText,
		"from_ref":          optionalText,
		"base":              optionalText,
		"head":              optionalText,
		"assignee":          optionalText,
		"content":           optionalText,
		"ref":               optionalText,
		"cursor":            optionalText,
		"path":              nonBlank,
		"query":             nonBlank,
		"since":             dateTime,
		"run_id":            token,
		"thread_id":         token,
		"unresolve":         typed("boolean"),
		"expected_sha":      sha(false),
		"expected_head_sha": sha(true),
	}
	// Per tool where one name has two shapes: body is non-blank on
	// comments, optional on creates, reviews (the review's "required unless
	// approve" is CEL, stated in its description) and updates; a directory
	// path may be omitted; trigger_ci's ref is required; an update may
	// leave a state out; get_events' subscription may be empty (all of them).
	overrides := map[string]map[string]check{
		"forge_comment_on_issue":        {"body": nonBlank},
		"forge_get_pull_request_diff":   {"path": optionalText},
		"forge_compare":                 {"path": optionalText, "base": nonBlank, "head": nonBlank},
		"forge_comment_on_pull_request": {"body": nonBlank},
		"forge_reply_to_review_thread":  {"body": nonBlank},
		"forge_submit_review":           {"body": optionalText},
		"forge_create_issue":            {"body": optionalText},
		"forge_create_pull_request":     {"body": optionalText},
		"forge_update_issue":            {"body": optionalText, "state": enum("open", "closed")},
		"forge_update_pull_request":     {"body": optionalText, "state": enum("open", "closed"), "base_ref": nonBlank},
		"forge_list_dir":                {"path": optionalText},
		"forge_list_commits":            {"path": optionalText},
		"forge_trigger_ci":              {"ref": nonBlank},
		"forge_get_events":              {"subscription_id": emptyOrNonBlank},
		"forge_search_code":             {"repo": optionalRepo},
		"forge_search_issues":           {"repo": optionalRepo},
		"forge_commit_files":            {"expected_head_sha": sha(false)},
		"forge_list_comments":           {"kind": enum("issue", "pull_request", "reviews")},
	}
	// params and required: every tool's exact parameter list and required
	// set. forge_unsubscribe addresses a subscription, not a repository
	// (Compass unsubscribeParameters), so it is the one tool without repo.
	expect := map[string]struct{ params, required []string }{
		"forge_get_issue":               {[]string{"repo", "issue_number"}, []string{"repo", "issue_number"}},
		"forge_get_pull_request":        {[]string{"repo", "pull_number"}, []string{"repo", "pull_number"}},
		"forge_get_pull_request_diff":   {[]string{"repo", "pull_number", "path", "cursor"}, []string{"repo", "pull_number"}},
		"forge_compare":                 {[]string{"repo", "base", "head", "path", "cursor"}, []string{"repo", "base", "head"}},
		"forge_list_issues":             {[]string{"repo", "state", "labels", "limit", "assignee", "since", "cursor"}, []string{"repo"}},
		"forge_list_comments":           {[]string{"repo", "kind", "number", "cursor", "limit"}, []string{"repo", "kind", "number"}},
		"forge_comment_on_issue":        {[]string{"repo", "issue_number", "body"}, []string{"repo", "issue_number", "body"}},
		"forge_comment_on_pull_request": {[]string{"repo", "pull_number", "body"}, []string{"repo", "pull_number", "body"}},
		"forge_submit_review":           {[]string{"repo", "pull_number", "verdict", "body", "comments"}, []string{"repo", "pull_number", "verdict"}},
		"forge_list_review_threads":     {[]string{"repo", "pull_number", "cursor"}, []string{"repo", "pull_number"}},
		"forge_reply_to_review_thread":  {[]string{"repo", "pull_number", "thread_id", "body"}, []string{"repo", "pull_number", "thread_id", "body"}},
		"forge_resolve_review_thread":   {[]string{"repo", "pull_number", "thread_id", "unresolve"}, []string{"repo", "pull_number", "thread_id"}},
		"forge_create_issue":            {[]string{"repo", "title", "body", "labels", "assignees", "milestone"}, []string{"repo", "title"}},
		"forge_create_pull_request":     {[]string{"repo", "title", "body", "head_ref", "base_ref", "draft"}, []string{"repo", "title", "head_ref"}},
		"forge_update_pull_request":     {[]string{"repo", "pull_number", "state", "title", "body", "ready", "base_ref", "reviewers"}, []string{"repo", "pull_number"}},
		"forge_subscribe":               {[]string{"repo", "kind", "number"}, []string{"repo", "kind", "number"}},
		"forge_unsubscribe":             {[]string{"subscription_id"}, []string{"subscription_id"}},
		"forge_get_repo":                {[]string{"repo"}, []string{"repo"}},
		"forge_search_code":             {[]string{"repo", "query", "ref", "cursor"}, []string{"query"}},
		"forge_search_issues":           {[]string{"repo", "query", "state", "kind", "cursor"}, []string{"query"}},
		"forge_read_file":               {[]string{"repo", "path", "ref", "start_line", "end_line"}, []string{"repo", "path"}},
		"forge_list_dir":                {[]string{"repo", "path", "ref", "cursor"}, []string{"repo"}},
		"forge_list_commits":            {[]string{"repo", "ref", "path", "since", "cursor", "limit"}, []string{"repo"}},
		"forge_list_pull_requests":      {[]string{"repo", "state", "base", "head", "limit", "cursor"}, []string{"repo"}},
		"forge_list_ci_runs":            {[]string{"repo", "ref", "status", "limit", "cursor"}, []string{"repo"}},
		"forge_get_ci_run":              {[]string{"repo", "run_id"}, []string{"repo", "run_id"}},
		"forge_update_issue":            {[]string{"repo", "issue_number", "state", "state_reason", "title", "body", "labels", "assignees"}, []string{"repo", "issue_number"}},
		"forge_create_branch":           {[]string{"repo", "branch", "from_ref"}, []string{"repo", "branch"}},
		"forge_write_file":              {[]string{"repo", "branch", "path", "content", "message", "expected_sha"}, []string{"repo", "branch", "path", "message"}},
		"forge_commit_files":            {[]string{"repo", "branch", "files", "message", "expected_head_sha"}, []string{"repo", "branch", "files", "message"}},
		"forge_merge_pull_request":      {[]string{"repo", "pull_number", "method", "expected_head_sha"}, []string{"repo", "pull_number", "expected_head_sha"}},
		"forge_trigger_ci":              {[]string{"repo", "workflow", "ref", "inputs"}, []string{"repo", "workflow", "ref"}},
		"forge_rerun_ci":                {[]string{"repo", "run_id", "failed_only"}, []string{"repo", "run_id"}},
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
				if o, ok := overrides[tool.Name][name]; ok {
					c = o
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
	if s.Type != "string" || s.Pattern != charset.NonBlank || s.MaxLength == nil {
		t.Errorf("want a non-blank capped string (pattern %s, maxLength), got type %q pattern %q maxLength %v", charset.NonBlank, s.Type, s.Pattern, s.MaxLength)
	}
}

// repoName: a repository or team key, in the characters every forge
// allows in one (nested groups included), at most 200 of them (a bound
// the pattern may carry itself).
func repoName(t *testing.T, _ string, s *schema) {
	matches(t, s, map[string]bool{"acme/widgets": true, "ENG": true, "group/sub.group/my_app-2": true,
		strings.Repeat("r", 200): true, strings.Repeat("r", 201): false,
		"": false, " ": false, "acme/my widgets": false, "acme/widgets?tab=1": false, "https://github.com/acme/widgets": false})
}

// optionalRepo: a search's repository, which may be left out (every
// repository in the scope) but is otherwise a repoName.
func optionalRepo(t *testing.T, _ string, s *schema) {
	matches(t, s, map[string]bool{"acme/widgets": true, "ENG": true, "": true,
		strings.Repeat("r", 200): true, strings.Repeat("r", 201): false,
		" ": false, "acme/my widgets": false, "acme/widgets?tab=1": false, "https://github.com/acme/widgets": false})
}

// matches checks a string schema by what it accepts: its pattern and its
// length bounds (counted in characters), against want.
func matches(t *testing.T, s *schema, want map[string]bool) {
	t.Helper()
	re, err := regexp.Compile(s.Pattern)
	if s.Type != "string" || err != nil || s.Pattern == "" {
		t.Fatalf("want a string with a pattern, got type %q pattern %q (%v)", s.Type, s.Pattern, err)
	}
	for v, ok := range want {
		n := utf8.RuneCountInString(v)
		got := re.MatchString(v) && (s.MaxLength == nil || n <= *s.MaxLength) && (s.MinLength == nil || n >= *s.MinLength)
		if got != ok {
			t.Errorf("%q accepted: %v, want %v (pattern %q, maxLength %v)", clip(v), got, ok, s.Pattern, s.MaxLength)
		}
	}
	if !want[strings.Repeat("r", 201)] && !want[strings.Repeat("h", 254)] && s.MaxLength == nil && !strings.Contains(s.Pattern, "}") {
		t.Errorf("pattern %q carries no length bound and there is no maxLength", s.Pattern)
	}
}

func clip(v string) string {
	if len(v) > 20 {
		return fmt.Sprintf("%s…(%d)", v[:20], len(v))
	}
	return v
}

// emptyOrNonBlank: an address whose empty value means "all of them"
// (IGNORE_IF_ZERO_VALUE): empty, or else non-blank and capped.
func emptyOrNonBlank(t *testing.T, tool string, s *schema) {
	if s.Type != "string" || len(s.AnyOf) != 2 || s.AnyOf[0].MaxLength == nil || *s.AnyOf[0].MaxLength != 0 {
		t.Fatalf("want a string that is empty or else non-blank, got type %q anyOf %v", s.Type, s.AnyOf)
	}
	nonBlank(t, tool, &schema{Type: s.Type, Pattern: s.AnyOf[1].Pattern, MaxLength: s.AnyOf[1].MaxLength})
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
// scheme, path or user info, at most 253 characters.
func hostName(t *testing.T, _ string, s *schema) {
	matches(t, s, map[string]bool{"": true, "github.com": true, "ghe.example.com:8443": true,
		strings.Repeat("h", 253): true, strings.Repeat("h", 254): false,
		"https://ghe.example.com": false, "user@ghe.example.com": false, "ghe.example.com/api": false, "bad host": false})
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

// fileChanges: items {path non-blank, content capped, expected_sha, delete},
// path required, nothing else accepted; at least one, at most a capped
// number.
func fileChanges(t *testing.T, tool string, s *schema) {
	if s.Type != "array" || s.MaxItems == nil || s.MinItems == nil || *s.MinItems != 1 || s.Items == nil {
		t.Fatalf("want a capped, non-empty array, got type %q minItems %v maxItems %v items %v", s.Type, s.MinItems, s.MaxItems, s.Items)
	}
	item := s.Items
	if item.Type != "object" || item.AdditionalProperties == nil || *item.AdditionalProperties {
		t.Errorf("items: want a closed object, got type %q additionalProperties %v", item.Type, item.AdditionalProperties)
	}
	if want := []string{"path"}; !slices.Equal(item.Required, want) {
		t.Errorf("items: required %v, want %v", item.Required, want)
	}
	if got := strings.Join(sortedKeys(item.Properties), ","); got != "content,delete,expected_sha,path" {
		t.Fatalf("items: properties %s, want content,delete,expected_sha,path", got)
	}
	nonBlank(t, tool, item.Properties["path"])
	optionalText(t, tool, item.Properties["content"])
	sha(false)(t, tool, item.Properties["expected_sha"])
	typed("boolean")(t, tool, item.Properties["delete"])
}

// dateTime: an RFC 3339 time, as the standard format (a Timestamp field).
func dateTime(t *testing.T, _ string, s *schema) {
	if s.Type != "string" || s.Format != "date-time" {
		t.Errorf("want a date-time string, got type %q format %q", s.Type, s.Format)
	}
}

// token: an id such as a CI run id: non-empty, no spaces or slashes.
func token(t *testing.T, _ string, s *schema) {
	if s.Type != "string" || s.Pattern != "^[\\w.:-]+$" || s.MaxLength == nil {
		t.Errorf("want an id token (pattern ^[\\w.:-]+$, maxLength), got type %q pattern %q maxLength %v", s.Type, s.Pattern, s.MaxLength)
	}
}

// sha: a hex object id of 7 to 64 digits; optional ones may be empty.
func sha(required bool) func(*testing.T, string, *schema) {
	return func(t *testing.T, _ string, s *schema) {
		re, err := regexp.Compile(s.Pattern)
		if s.Type != "string" || err != nil || s.MaxLength == nil || *s.MaxLength != 64 {
			t.Fatalf("want a sha (pattern, maxLength 64), got type %q pattern %q (%v) maxLength %v", s.Type, s.Pattern, err, s.MaxLength)
		}
		for v, ok := range map[string]bool{"": !required, "abc1234": true, strings.Repeat("f", 40): true, "abc123": false, "xyz1234": false, "HEAD": false} {
			if re.MatchString(v) != ok {
				t.Errorf("pattern %q matches %q: %v, want %v", s.Pattern, v, !ok, ok)
			}
		}
	}
}

// ciInputs: items {name (a key), value (capped)}, name required, nothing
// else accepted.
func ciInputs(t *testing.T, _ string, s *schema) {
	if s.Type != "array" || s.MaxItems == nil || s.Items == nil {
		t.Fatalf("want a capped array, got type %q maxItems %v items %v", s.Type, s.MaxItems, s.Items)
	}
	item := s.Items
	if item.Type != "object" || item.AdditionalProperties == nil || *item.AdditionalProperties ||
		!slices.Equal(item.Required, []string{"name"}) || strings.Join(sortedKeys(item.Properties), ",") != "name,value" {
		t.Fatalf("items: want a closed object {name, value} requiring name, got %+v", item)
	}
	if n := item.Properties["name"]; n.Pattern != "^[\\w-]+$" || n.MaxLength == nil {
		t.Errorf("items.name: want a key (pattern ^[\\w-]+$, maxLength), got pattern %q maxLength %v", n.Pattern, n.MaxLength)
	}
	if v := item.Properties["value"]; v.Type != "string" || v.MaxLength == nil {
		t.Errorf("items.value: want a capped string, got %+v", v)
	}
}

// The rules JSON Schema cannot express (the CEL rules) must reach the model
// through the description instead.
func TestCELRuleInDescription(t *testing.T) {
	for tool, rule := range map[*runtime.Tool]string{
		gatewayv1tools.ForgeSubmitReviewTool: "Body is required unless verdict is approve.",
		gatewayv1tools.ForgeUpdateIssueTool:  "Give at least one field to change.",
	} {
		if !strings.Contains(tool.Description, rule) {
			t.Errorf("%s description lacks %q:\n%s", tool.Name, rule, tool.Description)
		}
	}
}

// Every tool has a title for people (MCP annotations.title), distinct and
// short, beside the model-facing name.
func TestEveryToolHasATitle(t *testing.T) {
	seen := map[string]string{}
	for _, tool := range gatewayv1tools.ForgeTools.Tools {
		switch {
		case tool.Title == "" || len(tool.Title) > 40:
			t.Errorf("%s: title %q, want one of 1-40 bytes", tool.Name, tool.Title)
		case seen[tool.Title] != "":
			t.Errorf("%s and %s share the title %q", seen[tool.Title], tool.Name, tool.Title)
		}
		seen[tool.Title] = tool.Name
	}
}
