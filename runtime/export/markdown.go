package export

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/forgetools/forgetools/charset"
	"github.com/forgetools/forgetools/runtime"
	"github.com/forgetools/forgetools/runtime/schema"
)

// Markdown describes every tool of ts for humans: the toolset instructions,
// a summary table, then per tool its approval, MCP hints, description and a
// parameter table (type, required, bounds) read from its input schema.
// docs/tools.md is this document for the generated forge toolset.
func Markdown(ts *runtime.Toolset) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s tools\n\n", ts.Name())
	command := "forgetools tools --format markdown"
	if ts.Shape() == runtime.ShapeGrouped {
		command += " --shape grouped"
	}
	b.WriteString("<!-- Generated from the proto annotations by `" + command + "`. Do not edit. -->\n\n")
	if ts.Instructions() != "" {
		// One instruction per line in the table; one paragraph each here.
		b.WriteString(strings.ReplaceAll(strings.TrimSpace(ts.Instructions()), "\n", "\n\n") + "\n\n")
	}
	b.WriteString("| Tool | Approval | Summary |\n|---|---|---|\n")
	for _, t := range ts.Tools() {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s |\n", t.Name, t.Name, t.Approval, cell(firstSentence(t.Description)))
	}
	for _, t := range ts.Tools() {
		if t.InputSchema == nil {
			return "", fmt.Errorf("%s: no input schema", t.Name)
		}
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n", t.Name, t.Description)
		fmt.Fprintf(&b, "- Approval: %s%s\n- Hints: %s\n\n", t.Approval, governance(t), hints(t.Hints))
		rows := params(t.InputSchema(), "")
		if len(rows) == 0 {
			b.WriteString("No parameters.\n")
			continue
		}
		b.WriteString("| Parameter | Type | Required | Bounds | Description |\n|---|---|---|---|---|\n")
		for _, r := range rows {
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", r.name, r.typ, r.required, cell(r.bounds), cell(r.desc))
		}
	}
	return b.String(), nil
}

// governance is the risk and action class an Approver sees, when the table
// gives them: " (risk high, action class vcs:push)".
func governance(t *runtime.Tool) string {
	var parts []string
	if t.Risk != runtime.RiskUnspecified {
		parts = append(parts, "risk "+t.Risk.String())
	}
	if t.ActionClass != "" {
		parts = append(parts, "action class "+t.ActionClass)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func hints(h runtime.Hints) string {
	var on []string
	for _, x := range []struct {
		set  bool
		name string
	}{{h.ReadOnly, "read-only"}, {h.Destructive, "destructive"}, {h.Idempotent, "idempotent"}, {h.OpenWorld, "open-world"}} {
		if x.set {
			on = append(on, x.name)
		}
	}
	if len(on) == 0 {
		return "none"
	}
	return strings.Join(on, ", ")
}

type row struct{ name, typ, required, bounds, desc string }

// params lists an object schema's properties, descending into object items
// of arrays as "comments[].path".
func params(s *schema.Schema, prefix string) []row {
	var rows []row
	for _, prop := range s.Properties {
		k, p := prop.Name, prop.Schema
		req := "no"
		if slices.Contains(s.Required, k) {
			req = "yes"
		}
		rows = append(rows, row{name: prefix + k, typ: typeOf(p), required: req, bounds: bounds(p), desc: p.Description})
		if p.Items != nil && p.Items.Properties != nil {
			rows = append(rows, params(p.Items, prefix+k+"[].")...)
		}
		if p.Properties != nil {
			rows = append(rows, params(p, prefix+k+".")...)
		}
	}
	return rows
}

func typeOf(p *schema.Schema) string {
	t := strings.Join(p.Type, " or ")
	if t == "array" && p.Items != nil && len(p.Items.Type) == 1 {
		return "array of " + p.Items.Type[0]
	}
	if t == "" {
		return "any"
	}
	return t
}

// bounds states a property's constraints; for arrays, its items' too.
func bounds(p *schema.Schema) string {
	var out []string
	if p.Enum != nil {
		var vals []string
		for _, v := range p.Enum {
			if str, ok := v.(string); ok {
				vals = append(vals, "`"+str+"`")
			} else {
				vals = append(vals, "`"+jsonText(v)+"`")
			}
		}
		out = append(out, "one of "+strings.Join(vals, ", "))
	}
	if n := lengthNote(p); n != "" {
		out = append(out, n)
	}
	switch pat := p.Pattern; {
	case pat == "":
	case charset.IsNonBlank(pat):
		out = append(out, "not blank")
	default:
		out = append(out, "pattern `"+pat+"`")
	}
	if p.Const != nil {
		out = append(out, "always `"+jsonText(p.Const)+"`")
	}
	if n := notEnum(p.Not); n != "" {
		out = append(out, "not "+n)
	}
	if p.Default != nil {
		out = append(out, "default `"+jsonText(p.Default)+"`")
	}
	if p.Format != "" {
		out = append(out, "format "+p.Format)
	}
	out = append(out, rangeNote(string(p.Minimum), string(p.Maximum), "")...)
	if p.ExclusiveMinimum != "" {
		out = append(out, "> "+string(p.ExclusiveMinimum))
	}
	if p.ExclusiveMaximum != "" {
		out = append(out, "< "+string(p.ExclusiveMaximum))
	}
	out = append(out, rangeNote(size(p.MinItems), size(p.MaxItems), " items")...)
	if p.UniqueItems {
		out = append(out, "unique items")
	}
	if p.Items != nil && p.Items.Properties == nil {
		if ib := bounds(p.Items); ib != "" {
			out = append(out, "each item: "+ib)
		}
	}
	return strings.Join(out, "; ")
}

// size is a size bound's digits; "" when unset.
func size(n *uint64) string {
	if n == nil {
		return ""
	}
	return strconv.FormatUint(*n, 10)
}

func rangeNote(lo, hi, unit string) []string {
	switch {
	case lo != "" && hi != "":
		return []string{lo + "-" + hi + unit}
	case lo != "":
		return []string{">= " + lo + unit}
	case hi != "":
		return []string{"<= " + hi + unit}
	}
	return nil
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return strings.TrimSpace(s)
}
