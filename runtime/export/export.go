// Package export renders a Toolset's tool list in the shapes model APIs
// take: MCP tools/list, OpenAI function tools (Chat Completions plain and
// strict, and the Responses API), Anthropic tools, and Markdown for humans. Each export is a function of a
// Toolset, so read-only mode and allow/deny filters apply to it, and each
// carries the toolset instructions once: MCP beside the tools, OpenAI and
// Anthropic as a system-prompt block, shaped so the JSON can be merged into
// a request body as it is.
package export

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/forgetools/forgetools/runtime"
)

// MCPList is the MCP tools/list result, with the server instructions (which
// MCP sends in the initialize result) alongside.
type MCPList struct {
	Instructions string    `json:"instructions,omitempty"`
	Tools        []MCPTool `json:"tools"`
}

// MCPTool is one MCP tool definition.
type MCPTool struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations MCPAnnotations  `json:"annotations"`
}

// MCPAnnotations are the MCP behaviour hints, all stated explicitly: MCP's
// defaults (destructive and open-world when absent) would misdescribe a
// read tool.
type MCPAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	DestructiveHint bool   `json:"destructiveHint"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   bool   `json:"openWorldHint"`
}

// MCP returns ts's tools as an MCP tools/list result.
func MCP(ts *runtime.Toolset) MCPList {
	out := MCPList{Instructions: ts.Instructions(), Tools: []MCPTool{}}
	for _, t := range ts.Tools() {
		out.Tools = append(out.Tools, MCPTool{
			Name:        t.Name,
			Title:       t.Title,
			Description: t.Description,
			InputSchema: t.InputSchema().JSON(),
			Annotations: annotations(t),
		})
	}
	return out
}

func annotations(t *runtime.Tool) MCPAnnotations {
	return MCPAnnotations{
		Title:           t.Title,
		ReadOnlyHint:    t.Hints.ReadOnly,
		DestructiveHint: t.Hints.Destructive,
		IdempotentHint:  t.Hints.Idempotent,
		OpenWorldHint:   t.Hints.OpenWorld,
	}
}

// Definition is one tool with everything a reviewer needs to see when its
// contract changes: the tool snapshots (tests/toolsnaps) and
// `forgetools tools --format json` use this shape.
type Definition struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description"`
	Approval    string `json:"approval"`
	// Risk and ActionClass are what an Approver sees besides the approval.
	Risk        string          `json:"risk,omitempty"`
	ActionClass string          `json:"action_class,omitempty"`
	Annotations MCPAnnotations  `json:"annotations"`
	InputSchema json.RawMessage `json:"input_schema"`
	// Aliases are the tool's earlier names, which still run it: a rename
	// that keeps the old name as an alias breaks no caller.
	Aliases []string `json:"aliases,omitempty"`
}

// Define returns t's Definition.
func Define(t *runtime.Tool) Definition {
	d := Definition{
		Name:        t.Name,
		Title:       t.Title,
		Description: t.Description,
		Approval:    t.Approval.String(),
		ActionClass: t.ActionClass,
		Annotations: annotations(t),
		InputSchema: t.InputSchema().JSON(),
		Aliases:     t.Aliases,
	}
	if t.Risk != runtime.RiskUnspecified {
		d.Risk = t.Risk.String()
	}
	return d
}

// Definitions returns the Definition of every tool of ts.
func Definitions(ts *runtime.Toolset) []Definition {
	out := []Definition{}
	for _, t := range ts.Tools() {
		out = append(out, Define(t))
	}
	return out
}

// OpenAIRequest is the part of a Chat Completions request body the toolset
// supplies: a system message with the instructions, and the tools.
type OpenAIRequest struct {
	Messages []OpenAIMessage `json:"messages,omitempty"`
	Tools    []OpenAITool    `json:"tools"`
}

// OpenAIMessage is a chat message.
type OpenAIMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// OpenAITool is a Chat Completions function tool.
type OpenAITool struct {
	Type     string         `json:"type"`
	Function OpenAIFunction `json:"function"`
}

// OpenAIFunction is a function tool's definition.
type OpenAIFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict,omitempty"`
}

// OpenAI returns ts's tools as OpenAI function tools with the generated
// schemas as they are.
func OpenAI(ts *runtime.Toolset) OpenAIRequest {
	out, _ := openAI(ts, false) // only Strict can fail
	return out
}

// OpenAIStrict returns ts's tools as strict-mode OpenAI function tools: each
// schema rewritten to the subset structured outputs accept (see Strict).
func OpenAIStrict(ts *runtime.Toolset) (OpenAIRequest, error) {
	return openAI(ts, true)
}

func openAI(ts *runtime.Toolset, strict bool) (OpenAIRequest, error) {
	out := OpenAIRequest{Messages: openAISystem(ts), Tools: []OpenAITool{}}
	for _, t := range ts.Tools() {
		params, toolStrict := rootSafe(t.InputSchema()), false
		if strict {
			p, err := Strict(t.InputSchema())
			switch {
			case err == nil:
				params, toolStrict = p, true
			case !errors.Is(err, ErrNotStrict):
				return OpenAIRequest{}, fmt.Errorf("%s: %w", t.Name, err)
			}
			// A tool strict mode cannot express (one with a map) goes as a
			// plain function; the others stay strict.
		}
		out.Tools = append(out.Tools, OpenAITool{Type: "function", Function: OpenAIFunction{
			Name: t.Name, Description: t.Description, Parameters: params, Strict: toolStrict,
		}})
	}
	return out, nil
}

func openAISystem(ts *runtime.Toolset) []OpenAIMessage {
	if p := SystemPrompt(ts); p != "" {
		return []OpenAIMessage{{Role: "system", Content: p}}
	}
	return nil
}

// ResponsesRequest is the part of an OpenAI Responses API request body the
// toolset supplies: the instructions and the function tools, which the
// Responses API takes flat (no "function" wrapper).
type ResponsesRequest struct {
	Instructions string          `json:"instructions,omitempty"`
	Tools        []ResponsesTool `json:"tools"`
}

// ResponsesTool is a Responses API function tool.
type ResponsesTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
}

// OpenAIResponses returns ts's tools for the Responses API. Its function
// tools are strict unless a request says otherwise, so every schema is
// rewritten for strict mode (see Strict) and strict is stated explicitly.
func OpenAIResponses(ts *runtime.Toolset) (ResponsesRequest, error) {
	out := ResponsesRequest{Instructions: SystemPrompt(ts), Tools: []ResponsesTool{}}
	for _, t := range ts.Tools() {
		params, err := Strict(t.InputSchema())
		if err != nil {
			return ResponsesRequest{}, fmt.Errorf("%s: %w", t.Name, err)
		}
		out.Tools = append(out.Tools, ResponsesTool{
			Type: "function", Name: t.Name, Description: t.Description, Parameters: params, Strict: true,
		})
	}
	return out, nil
}

// AnthropicRequest is the part of a Messages API request body the toolset
// supplies: a system block with the instructions, and the tools.
type AnthropicRequest struct {
	System []AnthropicText `json:"system,omitempty"`
	Tools  []AnthropicTool `json:"tools"`
}

// AnthropicText is a text content block.
type AnthropicText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// AnthropicTool is a Messages API client tool.
type AnthropicTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Anthropic returns ts's tools as Anthropic tools.
func Anthropic(ts *runtime.Toolset) AnthropicRequest {
	out := AnthropicRequest{Tools: []AnthropicTool{}}
	if p := SystemPrompt(ts); p != "" {
		out.System = []AnthropicText{{Type: "text", Text: p}}
	}
	for _, t := range ts.Tools() {
		out.Tools = append(out.Tools, AnthropicTool{
			Name: t.Name, Description: t.Description, InputSchema: rootSafe(t.InputSchema()),
		})
	}
	return out
}

// SystemPrompt is the toolset instructions as a system-prompt block, headed
// so it reads as one section among the host's own; "" when there are none.
func SystemPrompt(ts *runtime.Toolset) string {
	if ts.Instructions() == "" {
		return ""
	}
	return "# " + ts.Name() + " tools\n\n" + ts.Instructions()
}
