package runtime

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/forgetools/forgetools/runtime/schema"
)

// This file is a toolset in the grouped shape; group.go is one group.

// group offers the toolset's tools in the grouped shape: one tool per
// group with actions left after filtering, in the table's group order,
// then the tools in no group as they are. A group whose actions were all
// filtered out disappears, and Filtered says why.
func (t *Toolset) group() error {
	members := map[string][]*Tool{}
	var rest []*Tool
	for _, tool := range t.tools {
		if tool.Group == "" {
			rest = append(rest, tool)
			continue
		}
		if !slices.ContainsFunc(t.table.Groups, func(g Group) bool { return g.Name == tool.Group }) {
			return fmt.Errorf("%s names group %q, which table %q does not define", tool.Name, tool.Group, t.table.Name)
		}
		members[tool.Group] = append(members[tool.Group], tool)
	}
	t.groups = map[string]*group{}
	var tools []*Tool
	byName := map[string]*Tool{}
	for _, def := range t.table.Groups {
		name := t.table.GroupTool(def.Name)
		if len(members[def.Name]) == 0 {
			t.dropped[name] = t.emptyGroup(name, def)
			continue
		}
		g, err := newGroup(t.table, def, members[def.Name])
		if err != nil {
			return err
		}
		for _, tool := range t.table.Tools {
			if why := t.dropped[tool.Name]; tool.Group == def.Name && why != "" {
				g.dropped[tool.Action] = "action " + tool.Action + " is not enabled in this toolset"
				if why == readOnlyRefusal(tool) {
					g.dropped[tool.Action] = "action " + tool.Action + " is a " + tool.Approval.String() + " action and the toolset is read-only"
				}
			}
		}
		t.groups[name] = g
		tools = append(tools, g.tool)
		byName[name] = g.tool
		for _, a := range g.actions {
			// Still callable by its flat name: a client written for the
			// flat shape, or the MCP server's event resources, run the
			// same tool with the same checks.
			byName[a.Name] = a
		}
	}
	for _, tool := range rest {
		tools = append(tools, tool)
		byName[tool.Name] = tool
	}
	t.tools, t.byName = tools, byName
	t.renameMentions()
	return nil
}

// renameMentions rewrites, in every tool's description and schema, each
// mention of a flat tool the grouped shape offers as an action: the model
// has no forge_read_file to call, it has forge_repo's action read_file
// ("action read_file" inside forge_repo itself).
func (t *Toolset) renameMentions() {
	var flat []string
	for _, g := range t.groups {
		for _, a := range g.actions {
			flat = append(flat, regexp.QuoteMeta(a.Name))
		}
	}
	if len(flat) == 0 {
		return
	}
	slices.Sort(flat) // the same pattern every run (t.groups is a map)
	t.mentions = regexp.MustCompile(`\b(` + strings.Join(flat, "|") + `)\b`)
	for i, tool := range t.tools {
		desc, mentioned := t.rename(tool.Description, tool.Group), t.mentioned(tool)
		if desc == tool.Description && !mentioned {
			continue
		}
		c := *tool // the table's tools are shared: never edit one in place
		c.Description = desc
		if mentioned {
			c.InputSchema = func() *schema.Schema {
				s := tool.InputSchema()
				s.Walk(func(sub *schema.Schema) { sub.Description = t.rename(sub.Description, tool.Group) })
				return s
			}
		}
		t.tools[i] = &c
		if t.byName[c.Name] == tool {
			t.byName[c.Name] = &c
		}
		if g := t.groups[c.Name]; g != nil {
			g.tool = &c
		}
	}
}

// mentioned reports whether a description in tool's schema names a flat
// tool that rename rewrites.
func (t *Toolset) mentioned(tool *Tool) bool {
	found := false
	tool.InputSchema().Walk(func(sub *schema.Schema) { found = found || t.rename(sub.Description, tool.Group) != sub.Description })
	return found
}

// rename rewrites the flat names in text read inside group in ("" for
// the instructions or a tool in no group).
func (t *Toolset) rename(text, in string) string {
	if t.mentions == nil {
		return text
	}
	return t.mentions.ReplaceAllStringFunc(text, func(name string) string {
		action := t.byName[name] // group() keeps each action under its flat name
		if action.Group == in {
			return "action " + action.Action
		}
		return t.table.GroupTool(action.Group) + " action " + action.Action
	})
}

// emptyGroup says why a group has no tool in this toolset: read-only mode
// dropped every action, or the filters did.
func (t *Toolset) emptyGroup(name string, g Group) string {
	readOnly := true
	strictest := ApprovalRead
	for _, tool := range t.table.Tools {
		if tool.Group == g.Name {
			strictest = max(strictest, tool.Approval)
			readOnly = readOnly && t.dropped[tool.Name] == readOnlyRefusal(tool)
		}
	}
	if readOnly {
		return name + " has only " + strictest.String() + " actions and the toolset is read-only"
	}
	return name + " is not enabled in this toolset"
}
