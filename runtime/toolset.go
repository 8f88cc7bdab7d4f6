package runtime

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// Approver decides whether a write or push call may run. A non-nil error
// refuses the call; the model reads it as the tool's failure. The default
// approves every call: the headless agent case.
type Approver interface {
	Approve(ctx context.Context, req ApprovalRequest) error
}

// ApprovalRequest is one call awaiting approval: decoded, validated and
// through the text policy, so what is approved is exactly what is sent.
// Tool is the arm's flat tool, in either shape.
type ApprovalRequest struct {
	Tool *Tool
	Args Args
	// Approval and ActionClass are the tool's, from the table: a policy
	// keys on them ("never auto-approve push", "comms:external is fine").
	Approval    Approval
	ActionClass string
	// Risk is the tool's risk, raised to RiskHigh when the call names a
	// force push or a history rewrite (Escalations says where).
	Risk Risk
	// Escalations are the reasons Risk is above the tool's own, one per
	// finding, e.g. `message: "push --force" (a force push)`.
	Escalations []string
	// Via is the grouped tool the model called ("forge_issue"), "" for a
	// flat call. Tool, Approval, ActionClass and Risk are still the
	// action's own: a grouped tool never lends its strictest approval to
	// a read, nor hides a push behind a group's name.
	Via string
}

// ApproverFunc adapts a function to Approver.
type ApproverFunc func(ctx context.Context, req ApprovalRequest) error

// Approve calls f.
func (f ApproverFunc) Approve(ctx context.Context, req ApprovalRequest) error {
	return f(ctx, req)
}

// TextPolicy sees every agent-authored text parameter before a call leaves
// the process (param is its path, e.g. "comments[2].body"). It returns the
// text to send (the same, or a rewrite) or an error that rejects the call.
type TextPolicy interface {
	Check(ctx context.Context, tool *Tool, param string, text string) (string, error)
}

// TextPolicyFunc adapts a function to TextPolicy.
type TextPolicyFunc func(ctx context.Context, tool *Tool, param string, text string) (string, error)

// Check calls f.
func (f TextPolicyFunc) Check(ctx context.Context, tool *Tool, param string, text string) (string, error) {
	return f(ctx, tool, param, text)
}

// Option configures a Toolset.
type Option func(*config)

type config struct {
	narrow   bool // WithForges was given
	forges   []Forge
	readOnly bool
	allow    []string
	deny     []string
	approver Approver
	policy   TextPolicy
	shape    Shape
	aliases  bool // WithAliases
}

// WithReadOnly drops every write and push tool.
func WithReadOnly() Option { return func(c *config) { c.readOnly = true } }

// WithAllow keeps only the named tools. A grouped tool's name
// ("forge_issue") names all its actions. Repeated calls add names.
func WithAllow(names ...string) Option {
	return func(c *config) { c.allow = append(c.allow, names...) }
}

// WithDeny drops the named tools, or a grouped tool's actions. Repeated
// calls add names.
func WithDeny(names ...string) Option {
	return func(c *config) { c.deny = append(c.deny, names...) }
}

// WithApprover asks a for every write and push call.
func WithApprover(a Approver) Option { return func(c *config) { c.approver = a } }

// WithTextPolicy applies p to every agent-authored text parameter.
func WithTextPolicy(p TextPolicy) Option { return func(c *config) { c.policy = p } }

// Toolset is a table's tools after filtering, bound to a broker.
type Toolset struct {
	table    *Table
	broker   *Broker
	tools    []*Tool
	byName   map[string]*Tool
	dropped  map[string]string // in the table, filtered out: why, in a sentence
	approver Approver
	policy   TextPolicy
	// dispatch is the table's dispatch message, for the descriptors of
	// the tools' requests; nil when the table's procedure is not linked.
	dispatch protoreflect.MessageDescriptor
	// narrowed is what WithForges changed; nil for the full vocabulary.
	narrowed *narrowing
	// groups are the grouped tools by name (ShapeGrouped).
	groups map[string]*group
	// mentions matches those flat names in text the model reads, for
	// Instructions to rename as renameMentions did the tools.
	mentions *regexp.Regexp
	// aliases maps each earlier name of a tool the toolset has to it;
	// listAliases is WithAliases.
	aliases     map[string]*Tool
	listAliases bool
}

// NewToolset builds a toolset over table's tools. Names given to WithAllow
// or WithDeny that the table does not define are an error naming the valid
// tools, and so is allowing a write tool in read-only mode: a filter that
// silently matches nothing is how a deployment ends up with the wrong tools.
func NewToolset(table *Table, broker *Broker, opts ...Option) (*Toolset, error) {
	if table == nil {
		return nil, errors.New("NewToolset: nil table")
	}
	if broker == nil {
		return nil, errors.New("NewToolset: nil broker")
	}
	var c config
	for _, o := range opts {
		o(&c)
	}
	byName, err := names(table)
	if err != nil {
		return nil, err
	}
	c.allow, c.deny = expand(table, c.allow), expand(table, c.deny)
	for _, n := range slices.Concat(c.allow, c.deny) {
		if byName[n] == nil {
			return nil, fmt.Errorf("unknown tool %q; valid tools: %s", n, strings.Join(validNames(table), ", "))
		}
	}
	for _, n := range c.allow {
		if slices.Contains(c.deny, n) {
			return nil, fmt.Errorf("%s is both allowed and excluded: name it in one list only", n)
		}
	}
	if c.readOnly {
		for _, n := range c.allow {
			if byName[n].Approval != ApprovalRead {
				return nil, errors.New(readOnlyRefusal(byName[n]))
			}
		}
	}
	ts := &Toolset{
		table:       table,
		broker:      broker,
		byName:      map[string]*Tool{},
		dropped:     map[string]string{},
		approver:    c.approver,
		policy:      c.policy,
		dispatch:    dispatchOf(table),
		aliases:     map[string]*Tool{},
		listAliases: c.aliases,
	}
	if c.narrow {
		if ts.narrowed, err = narrow(ts.dispatch, c.forges); err != nil {
			return nil, err
		}
	}
	for _, t := range table.Tools {
		if ts.narrowed != nil {
			if t, err = ts.narrowed.tool(t); err != nil {
				return nil, err
			}
		}
		switch {
		case c.readOnly && t.Approval != ApprovalRead:
			ts.dropped[t.Name] = readOnlyRefusal(t)
		case len(c.allow) > 0 && !slices.Contains(c.allow, t.Name), slices.Contains(c.deny, t.Name):
			ts.dropped[t.Name] = t.Name + " is not enabled in this toolset"
		default:
			ts.tools = append(ts.tools, t)
			ts.byName[t.Name] = t
			for _, a := range t.Aliases {
				ts.aliases[a] = t
			}
		}
	}
	if c.shape == ShapeGrouped {
		if err := ts.group(); err != nil {
			return nil, err
		}
	}
	return ts, nil
}

// names indexes a table's tools by name, refusing a name given twice.
func names(table *Table) (map[string]*Tool, error) {
	byName := make(map[string]*Tool, len(table.Tools))
	for _, t := range table.Tools {
		if _, dup := byName[t.Name]; dup {
			return nil, fmt.Errorf("table %q defines %s twice", table.Name, t.Name)
		}
		byName[t.Name] = t
	}
	return byName, nil
}

// validNames are the names a filter may use: every tool's, then every
// grouped tool's.
func validNames(table *Table) []string {
	var out []string
	for _, t := range table.Tools {
		out = append(out, t.Name)
	}
	for _, g := range table.Groups {
		out = append(out, table.GroupTool(g.Name))
	}
	return out
}

// expand replaces each grouped tool's name in a filter list by its
// actions' tool names, so "forge_ci" allows or denies every CI action.
func expand(table *Table, names []string) []string {
	var out []string
	for _, n := range names {
		var members []string
		for _, g := range table.Groups {
			if n != table.GroupTool(g.Name) {
				continue
			}
			for _, t := range table.Tools {
				if t.Group == g.Name {
					members = append(members, t.Name)
				}
			}
		}
		if members == nil {
			members = []string{n}
		}
		for _, m := range members {
			if !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	return out
}

// readOnlyRefusal is the one sentence every surface gives for a write tool
// asked of a read-only toolset.
func readOnlyRefusal(t *Tool) string {
	return t.Name + " is a " + t.Approval.String() + " tool and the toolset is read-only"
}

// Filtered says why a tool of the table was left out of this toolset
// ("forge_create_issue is a write tool and the toolset is read-only"); ""
// for a tool the toolset has or a name the table does not define.
func (t *Toolset) Filtered(name string) string { return t.dropped[name] }

// Refusal says why the toolset cannot run the named tool, in the sentence
// every surface (a tool result, the CLI, MCP) shows; "" when it can.
func (t *Toolset) Refusal(name string) string {
	if _, ok := t.Lookup(name); ok {
		return ""
	}
	if why := t.Filtered(name); why != "" {
		return why
	}
	names := make([]string, len(t.tools))
	for i, tool := range t.tools {
		names[i] = tool.Name
	}
	return "unknown tool; available tools: " + strings.Join(names, ", ")
}

// Tools returns the toolset's tools in table order; with WithAliases, then
// a copy of each flat tool under each of its earlier names.
func (t *Toolset) Tools() []*Tool {
	out := slices.Clone(t.tools)
	if !t.listAliases || t.groups != nil {
		return out
	}
	for _, tool := range t.tools {
		for _, a := range tool.Aliases {
			alias := *tool
			alias.Name, alias.Aliases = a, nil
			alias.Description = "Old name of " + tool.Name + ", which is the same tool. " + tool.Description
			out = append(out, &alias)
		}
	}
	return out
}

// Lookup returns the named tool if this toolset runs it: a tool of Tools,
// a renamed tool by an earlier name (Tool.Aliases), or in the grouped
// shape an action's tool by its flat name.
func (t *Toolset) Lookup(name string) (*Tool, bool) {
	if tool, ok := t.byName[name]; ok {
		return tool, true
	}
	tool, ok := t.aliases[name]
	return tool, ok
}

// Shape is the shape the toolset offers its tools in.
func (t *Toolset) Shape() Shape {
	if t.groups != nil {
		return ShapeGrouped
	}
	return ShapeFlat
}

// Instructions is the toolset-level guidance every export carries once:
// every part of the table's, or for a toolset narrowed with WithForges the
// parts whose conditions hold, one per line; in the grouped shape, with
// the flat tools it names renamed to their grouped actions.
func (t *Toolset) Instructions() string {
	var parts []string
	for _, g := range t.table.Instructions {
		if t.narrowed == nil || t.narrowed.applies(g) {
			parts = append(parts, t.rename(g.Text, ""))
		}
	}
	return strings.Join(parts, "\n")
}

// Name is the table's toolset name, e.g. "forge".
func (t *Toolset) Name() string { return t.table.Name }
