package runtime

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/forgetools/forgetools/runtime/args"
	"github.com/forgetools/forgetools/runtime/schema"
)

// actionParam is the parameter a grouped tool dispatches on; the plugin
// refuses a request parameter of that name in a grouped arm.
const actionParam = "action"

// group is one tool of the grouped shape: the tool the model sees, and
// the flat tools its actions run.
type group struct {
	tool    *Tool
	actions []*Tool          // in table order; Tool.Action names each
	params  []string         // every parameter the grouped tool takes
	values  map[string]int32 // action name -> index in actions
	// dropped says, by action, why the table's actions of the group that
	// the toolset filtered out are not offered.
	dropped map[string]string
}

// newGroup composes the grouped tool of g from its members, the toolset's
// tools that name g (after filtering and narrowing, so a read-only toolset
// composes from the read actions only). It is built here, not in the
// plugin, because what a group holds depends on those options.
//
// The input schema is the union of the members' parameters, each described
// once; a parameter the actions bound differently takes the loosest of
// their bounds, since the action's own decoder and validator check the
// exact ones. The top-level required list is what every action requires;
// what one action requires beyond that is stated on its line of the
// description and enforced by its decoder.
func newGroup(table *Table, g Group, members []*Tool) (*group, error) {
	gr := &group{actions: members, params: []string{actionParam}, values: map[string]int32{}, dropped: map[string]string{}}
	for i, m := range members {
		gr.values[m.Action] = int32(i)
	}
	input, required, common, err := compose(members)
	if err != nil {
		return nil, err
	}
	gr.params = input.Properties.Names()
	gr.tool = &Tool{
		Name:        table.GroupTool(g.Name),
		Title:       g.Title,
		Description: groupDescription(g, members, required, common),
		InputSchema: func() *schema.Schema { s, _, _, _ := compose(members); return s },
		Group:       g.Name,
	}
	gr.strictest()
	return gr, nil
}

// compose is the grouped tool's input schema, from new values of its
// members' schemas; and what each member requires, and what all do.
func compose(members []*Tool) (input *schema.Schema, required [][]string, common []string, err error) {
	var order []string
	variants := map[string][]*schema.Schema{}
	for _, m := range members {
		s, err := objectSchema(m)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, p := range s.Properties {
			if _, seen := variants[p.Name]; !seen {
				order = append(order, p.Name)
			}
			variants[p.Name] = append(variants[p.Name], p.Schema)
		}
		required = append(required, s.Required)
	}
	common = slices.Clone(required[0])
	for _, r := range required[1:] {
		common = slices.DeleteFunc(common, func(p string) bool { return !slices.Contains(r, p) })
	}
	names := make([]any, len(members))
	for i, m := range members {
		names[i] = m.Action
	}
	props := schema.Properties{{Name: actionParam, Schema: &schema.Schema{Type: schema.Types{"string"}, Enum: names}}}
	for _, name := range order {
		p := loosest(variants[name])
		relax(p)
		props = append(props, schema.Property{Name: name, Schema: p})
	}
	input = &schema.Schema{
		Type:                 schema.Types{"object"},
		Properties:           props,
		Required:             append([]string{actionParam}, common...),
		AdditionalProperties: schema.False,
	}
	return input, required, common, nil
}

// strictest gives the grouped tool the strictest approval and risk of its
// actions, and hints that hold for all of them: an approval policy or an
// MCP client keyed on the grouped tool never under-rates it. The Approver
// still sees each call's own action (ApprovalRequest).
func (gr *group) strictest() {
	t := gr.tool
	t.Hints = Hints{ReadOnly: true, Idempotent: true}
	classes := map[string]bool{}
	for _, m := range gr.actions {
		t.Approval = max(t.Approval, m.Approval)
		t.Risk = max(t.Risk, m.Risk)
		t.Hints.ReadOnly = t.Hints.ReadOnly && m.Hints.ReadOnly
		t.Hints.Idempotent = t.Hints.Idempotent && m.Hints.Idempotent
		t.Hints.Destructive = t.Hints.Destructive || m.Hints.Destructive
		t.Hints.OpenWorld = t.Hints.OpenWorld || m.Hints.OpenWorld
		classes[m.ActionClass] = true
	}
	// One action class only when every action shares it; a policy keyed
	// on a class reads it from the action's ApprovalRequest otherwise.
	if len(classes) == 1 {
		t.ActionClass = gr.actions[0].ActionClass
	}
}

// groupDescription is the group's sentence and the sentences several
// actions share (the attribution rule, say), once; then one line per
// action: its name, what it requires beyond the schema's required list,
// and the rest of its own description (which carries the rules the schema
// cannot express).
func groupDescription(g Group, members []*Tool, required [][]string, common []string) string {
	own := make([][]string, len(members))
	uses := map[string]int{}
	for i, m := range members {
		own[i] = sentences(m.Description)
		for _, s := range slices.Compact(slices.Sorted(slices.Values(own[i]))) {
			uses[s]++
		}
	}
	lead := []string{}
	if g.Description != "" {
		lead = append(lead, g.Description)
	}
	for _, ss := range own {
		for _, s := range ss {
			if uses[s] > 1 && !slices.Contains(lead, s) {
				lead = append(lead, s)
			}
		}
	}
	var b strings.Builder
	b.WriteString(strings.Join(append(lead, "Actions:"), " "))
	for i, m := range members {
		b.WriteString("\n- ")
		b.WriteString(m.Action)
		if extra := slices.DeleteFunc(slices.Clone(required[i]), func(p string) bool { return slices.Contains(common, p) }); len(extra) > 0 {
			b.WriteString(" (requires ")
			b.WriteString(strings.Join(extra, ", "))
			b.WriteByte(')')
		}
		rest := slices.DeleteFunc(own[i], func(s string) bool { return uses[s] > 1 })
		if len(rest) > 0 {
			b.WriteString(": ")
			b.WriteString(strings.Join(rest, " "))
		}
	}
	return b.String()
}

// sentences splits a description after each ". " that a capital letter
// follows: the unit generated descriptions are written in.
func sentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i+2 < len(text); i++ {
		if text[i] == '.' && text[i+1] == ' ' && 'A' <= text[i+2] && text[i+2] <= 'Z' {
			out = append(out, text[start:i+1])
			start = i + 2
		}
	}
	if rest := strings.TrimSpace(text[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

// objectSchema is a new value of a tool's input schema, which must be an
// object schema with properties.
func objectSchema(t *Tool) (*schema.Schema, error) {
	var s *schema.Schema
	if t.InputSchema != nil {
		s = t.InputSchema()
	}
	if s == nil || s.Properties == nil {
		return nil, fmt.Errorf("%s: the input schema is not an object schema", t.Name)
	}
	return s, nil
}

// resolve reads a grouped call's action and returns its tool and the
// arguments less the action, for the tool's own decoder. The union of the
// parameters is checked first, so a misspelt key is named against every
// parameter the grouped tool takes.
func (gr *group) resolve(data []byte) (*Tool, []byte, error) {
	o, err := args.Parse(data, gr.params...)
	var i int32
	if err == nil {
		i = args.Enum(o, actionParam, args.Required, gr.values)
		err = o.Err()
	}
	if err != nil {
		// An action the filters dropped gets its reason rather than the
		// union's or the enum's words: its parameters may be missing from
		// the union, and it is not misspelt.
		if action, ok := args.StringOf(data, actionParam); ok && gr.dropped[action] != "" {
			return nil, nil, errors.New(gr.dropped[action])
		}
		return nil, nil, err
	}
	return gr.actions[i], args.Without(data, actionParam), nil
}
