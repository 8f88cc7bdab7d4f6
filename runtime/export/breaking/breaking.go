// Package breaking compares two tool surfaces as a model sees them (the
// export.Definition of every tool: name, approval, hints and input schema)
// and classifies each difference as breaking or compatible.
//
// buf breaking guards the wire; this guards the model. A call a model
// learned from the old surface must still be accepted by the new one: a
// removed tool or parameter, a newly required parameter, a tightened bound,
// a removed enum value or a raised approval break it; an added tool or
// optional parameter, a loosened bound, an added enum value, a rename that
// keeps the old name as an alias, or new prose do not. Whatever the
// classifier does not understand is reported as breaking, never dropped.
//
// Every Change has a stable Key, so a release can declare the breaks it
// means (Declare) and a check can fail on the rest.
package breaking

import (
	"cmp"
	"encoding/json"
	"slices"

	"github.com/forgetools/forgetools/runtime/export"
)

// Change is one difference between the old and the new surface.
type Change struct {
	// Tool is the tool's name on the old surface (the new one for an added
	// tool).
	Tool string
	// Param is the parameter's path in the input schema ("comments[].path"
	// for a field of an array's items, "labels{}" for a map's values); ""
	// for the tool itself or the schema root.
	Param string
	// Kind names the difference ("removed", "maxLength-tightened",
	// "enum-removed:closed"); it is the last part of Key.
	Kind string
	// Breaking is whether a call valid against the old surface may be
	// refused, or mean something else, on the new one.
	Breaking bool
	// Declared is set by Declare on a breaking change a release accepts.
	Declared bool
	// Message says what changed, for people.
	Message string
}

// Key identifies the change stably across runs: "tool:kind" or
// "tool:param:kind". A declared-breaks file lists keys.
func (c Change) Key() string {
	if c.Param == "" {
		return c.Tool + ":" + c.Kind
	}
	return c.Tool + ":" + c.Param + ":" + c.Kind
}

// String is the change as one report line: its class, the tool, the
// message and, for a break, the key that would declare it.
func (c Change) String() string {
	class := "compatible"
	switch {
	case c.Declared:
		class = "breaking (declared)"
	case c.Breaking:
		class = "breaking"
	}
	line := class + ": " + c.Tool + ": " + c.Message
	if c.Breaking {
		line += " [" + c.Key() + "]"
	}
	return line
}

// Compare returns every difference from old to new, sorted by tool,
// parameter and kind. Tool names are unique on each side.
func Compare(old, new []export.Definition) []Change {
	byName, byAlias := map[string]export.Definition{}, map[string]export.Definition{}
	for _, d := range new {
		byName[d.Name] = d
		for _, a := range d.Aliases {
			byAlias[a] = d
		}
	}
	var changes []Change
	matched := map[string]bool{}
	for _, o := range old {
		n, ok := byName[o.Name]
		if !ok {
			n, ok = byAlias[o.Name]
			if !ok {
				changes = append(changes, Change{Tool: o.Name, Kind: "tool-removed", Breaking: true,
					Message: "tool removed (or renamed without keeping the old name in aliases)"})
				continue
			}
			changes = append(changes, Change{Tool: o.Name, Kind: "tool-renamed",
				Message: "tool renamed to " + n.Name + ", the old name kept as an alias"})
		}
		matched[n.Name] = true
		changes = append(changes, compareTool(o, n)...)
	}
	for _, n := range new {
		if !matched[n.Name] {
			changes = append(changes, Change{Tool: n.Name, Kind: "tool-added", Message: "tool added"})
		}
	}
	slices.SortStableFunc(changes, func(a, b Change) int {
		return cmp.Or(cmp.Compare(a.Tool, b.Tool), cmp.Compare(a.Param, b.Param),
			cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Message, b.Message))
	})
	return changes
}

// compareTool compares one tool's two versions, reporting under the old
// name: that is the name a caller of the old surface knows.
func compareTool(o, n export.Definition) []Change {
	d := &diff{tool: o.Name}
	for field, texts := range map[string][2]string{
		"title":             {o.Title, n.Title},
		"description":       {o.Description, n.Description},
		"annotations.title": {o.Annotations.Title, n.Annotations.Title},
	} {
		if texts[0] != texts[1] { // prose: no call is refused for it
			d.add("", field+"-changed", false, "%s changed", field)
		}
	}
	d.ranked("approval", approvals, o.Approval, n.Approval)
	d.ranked("risk", risks, o.Risk, n.Risk)
	if o.ActionClass != n.ActionClass {
		// The action class feeds approval policy; a new class may be one a
		// policy refuses.
		d.add("", "action_class-changed", true, "action class changed from %q to %q", o.ActionClass, n.ActionClass)
	}
	h, g := o.Annotations, n.Annotations
	// A hint turning more cautious may stop a client running the tool
	// unattended; turning less cautious stops nothing.
	d.hint("readOnlyHint", h.ReadOnlyHint, g.ReadOnlyHint, true)
	d.hint("destructiveHint", h.DestructiveHint, g.DestructiveHint, false)
	d.hint("idempotentHint", h.IdempotentHint, g.IdempotentHint, true)
	d.hint("openWorldHint", h.OpenWorldHint, g.OpenWorldHint, false)
	for _, a := range o.Aliases {
		if !slices.Contains(n.Aliases, a) && a != n.Name {
			d.add("", "alias-removed:"+a, true, "alias %s removed", a)
		}
	}
	for _, a := range n.Aliases {
		if !slices.Contains(o.Aliases, a) && a != o.Name {
			d.add("", "alias-added:"+a, false, "alias %s added", a)
		}
	}
	d.rootSchema(o.InputSchema, n.InputSchema)
	return d.changes
}

// approvals and risks rank the levels: raising one asks more of whoever
// approves the call, so a call that ran unattended may now wait.
var (
	approvals = []string{"read", "write", "push"}
	risks     = []string{"", "low", "medium", "high"}
)

func (d *diff) ranked(field string, levels []string, o, n string) {
	if o == n {
		return
	}
	oi, ni := slices.Index(levels, o), slices.Index(levels, n)
	switch {
	case oi < 0 || ni < 0:
		d.add("", field+"-changed", true, "%s changed from %q to %q (not a level this check knows)", field, o, n)
	case ni > oi:
		d.add("", field+"-raised", true, "%s raised from %s to %s", field, level(o), level(n))
	default:
		d.add("", field+"-lowered", false, "%s lowered from %s to %s", field, level(o), level(n))
	}
}

func level(s string) string { return cmp.Or(s, "none") }

// hint reports a changed MCP hint; cautious is the hint's cautious value.
func (d *diff) hint(name string, o, n, cautious bool) {
	if o != n {
		d.add("", name+"-changed", n != cautious, "annotation %s changed from %t to %t", name, o, n)
	}
}

// rootSchema decodes and compares the two input schemas; one that does not
// decode to an object is compared as bytes, and any difference breaks.
func (d *diff) rootSchema(o, n json.RawMessage) {
	os, oerr := decodeSchema(o)
	ns, nerr := decodeSchema(n)
	if oerr != nil || nerr != nil {
		if string(o) != string(n) {
			d.add("", "input_schema-changed", true, "input schema changed and is not a JSON object this check can read")
		}
		return
	}
	d.schema("", os, ns)
}
