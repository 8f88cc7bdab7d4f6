package generator

import (
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
)

// toolGroup is one ToolsetOptions.groups entry: in the grouped shape, the
// tool "<toolset>_<name>" whose actions are the arms naming it.
type toolGroup struct {
	name, title, description string
	index                    int // in ToolsetOptions.groups, for refusals
}

// groups reads the toolset's groups, then checks each arm's group, action
// and aliases against them and against every other tool name: a grouped
// tool, a flat tool and an alias share one namespace, since the runtime
// looks a call up by name whichever shape and spelling it uses.
func (r *reader) groups(ts *toolset, opts *optionsv1.ToolsetOptions) {
	at := func(i int) []int32 {
		return append(optionPath(oneofProto, optionsv1.E_Toolset, "groups"), int32(i))
	}
	byName := map[string]*toolGroup{}
	for i, g := range opts.GetGroups() {
		gr := &toolGroup{name: g.GetName(), title: g.GetTitle(), description: g.GetDescription(), index: i}
		switch {
		case !toolsetNameShape.MatchString(gr.name):
			r.problems.add(ts.oneof.Desc, at(i), "group name %q must be lower snake case, e.g. \"issue\"", gr.name)
			continue
		case byName[gr.name] != nil:
			r.problems.add(ts.oneof.Desc, at(i), "group %q is defined twice", gr.name)
			continue
		case !toolNameShape.MatchString(groupTool(ts.name, gr.name)):
			r.problems.add(ts.oneof.Desc, at(i), "group %q: tool name %q must be 1-64 of [a-zA-Z0-9_-]", gr.name, groupTool(ts.name, gr.name))
			continue
		}
		byName[gr.name] = gr
		ts.groups = append(ts.groups, gr)
	}

	// names maps every name a call may use to what holds it.
	names := map[string]string{}
	for _, g := range ts.groups {
		names[groupTool(ts.name, g.name)] = "group " + quoted(g.name)
	}
	for _, t := range ts.tools {
		if holder, taken := names[t.name]; taken {
			r.problems.add(t.arm.Desc, toolPath("name"), "%s: tool name is also the grouped tool of %s", t.name, holder)
		}
		names[t.name] = "tool " + t.name
	}
	used := map[string]bool{}
	actions := map[[2]string]*tool{}
	for _, t := range ts.tools {
		gname, action := t.opts.GetGroup(), t.opts.GetAction()
		switch {
		case gname == "" && action == "":
		case gname == "" || action == "":
			r.problems.add(t.arm.Desc, toolPath("group"), "%s: group %q and action %q go together: set both or neither", t.name, gname, action)
		case byName[gname] == nil:
			r.problems.add(t.arm.Desc, toolPath("group"), "%s: group %q is not defined by the toolset (ToolsetOptions.groups)", t.name, gname)
		case !toolsetNameShape.MatchString(action) || action == actionParam:
			r.problems.add(t.arm.Desc, toolPath("action"), "%s: action %q must be lower snake case, e.g. \"get\", and not %q", t.name, action, actionParam)
		case actions[[2]string{gname, action}] != nil:
			r.problems.add(t.arm.Desc, toolPath("action"), "%s: group %q has the action %q already (on %s)", t.name, gname, action, actions[[2]string{gname, action}].name)
		default:
			actions[[2]string{gname, action}] = t
			used[gname] = true
			r.actionParam(t)
		}
		for i, alias := range t.opts.GetAliases() {
			where := append(toolPath("aliases"), int32(i))
			switch holder, taken := names[alias]; {
			case !toolNameShape.MatchString(alias):
				r.problems.add(t.arm.Desc, where, "%s: alias %q must be 1-64 of [a-zA-Z0-9_-]", t.name, alias)
			case taken:
				r.problems.add(t.arm.Desc, where, "%s: alias %q is taken by %s", t.name, alias, holder)
			default:
				names[alias] = "an alias of " + t.name
			}
		}
	}
	for _, g := range ts.groups {
		if !used[g.name] {
			r.problems.add(ts.oneof.Desc, at(g.index), "group %q has no actions: no arm names it in (tool).group", g.name)
		}
	}
}

// actionParam is the parameter a grouped tool dispatches on.
const actionParam = "action"

// actionParam refuses an arm in a group whose request has a parameter
// named like the grouped tool's own.
func (r *reader) actionParam(t *tool) {
	if t.obj == nil {
		return
	}
	for _, p := range t.obj.params {
		if p.name == actionParam {
			r.problems.add(p.field.Desc, nil, "%s: parameter %q collides with the grouped tool's action parameter", t.name, actionParam)
		}
	}
}

// groupTool is the grouped tool's name: "forge" + "issue" = "forge_issue".
func groupTool(toolset, group string) string { return toolset + "_" + group }
