package export

import (
	"fmt"
	"github.com/forgetools/forgetools/runtime/internal/jsonobj"
	"strings"

	"github.com/forgetools/forgetools/runtime"
	"github.com/forgetools/forgetools/vocab"
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
		v, err := jsonobj.Parse([]byte(t.InputSchema))
		schema, ok := v.(*jsonobj.Object)
		if err != nil || !ok {
			return "", fmt.Errorf("%s: input schema is not a JSON object: %v", t.Name, err)
		}
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n", t.Name, t.Description)
		fmt.Fprintf(&b, "- Approval: %s%s\n- Hints: %s\n\n", t.Approval, governance(t), hints(t.Hints))
		rows := params(schema, "")
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
func params(s *jsonobj.Object, prefix string) []row {
	props := s.Obj("properties")
	if props == nil {
		return nil
	}
	required := s.Strings("required")
	var rows []row
	for _, k := range props.Keys {
		p, ok := props.Vals[k].(*jsonobj.Object)
		if !ok {
			continue
		}
		req := "no"
		for _, r := range required {
			if r == k {
				req = "yes"
			}
		}
		rows = append(rows, row{name: prefix + k, typ: typeOf(p), required: req, bounds: bounds(p), desc: p.Str("description")})
		if items := p.Obj("items"); items != nil && items.Obj("properties") != nil {
			rows = append(rows, params(items, prefix+k+"[].")...)
		}
		if p.Obj("properties") != nil {
			rows = append(rows, params(p, prefix+k+".")...)
		}
	}
	return rows
}

func typeOf(p *jsonobj.Object) string {
	t := p.Str("type")
	if list := p.Strings("type"); t == "" && len(list) > 0 {
		t = strings.Join(list, " or ")
	}
	if t == "array" {
		if items := p.Obj("items"); items != nil && items.Str("type") != "" {
			return "array of " + items.Str("type")
		}
	}
	if t == "" {
		return "any"
	}
	return t
}

// bounds states a property's constraints; for arrays, its items' too.
func bounds(p *jsonobj.Object) string {
	var out []string
	if enum, ok := p.Vals["enum"].([]any); ok {
		var vals []string
		for _, v := range enum {
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
	switch pat := p.Str("pattern"); {
	case pat == "":
	case vocab.IsNonBlank(pat):
		out = append(out, "not blank")
	default:
		out = append(out, "pattern `"+pat+"`")
	}
	if c, ok := p.Get("const"); ok {
		out = append(out, "always `"+jsonText(c)+"`")
	}
	if n := notEnum(p.Obj("not")); n != "" {
		out = append(out, "not "+n)
	}
	if d, ok := p.Get("default"); ok {
		out = append(out, "default `"+jsonText(d)+"`")
	}
	if f := p.Str("format"); f != "" {
		out = append(out, "format "+f)
	}
	out = append(out, rangeNote(p, "minimum", "maximum", "")...)
	if v, ok := p.Get("exclusiveMinimum"); ok {
		out = append(out, "> "+jsonText(v))
	}
	if v, ok := p.Get("exclusiveMaximum"); ok {
		out = append(out, "< "+jsonText(v))
	}
	out = append(out, rangeNote(p, "minItems", "maxItems", " items")...)
	if p.Vals["uniqueItems"] == true {
		out = append(out, "unique items")
	}
	if items := p.Obj("items"); items != nil && items.Obj("properties") == nil {
		if ib := bounds(items); ib != "" {
			out = append(out, "each item: "+ib)
		}
	}
	return strings.Join(out, "; ")
}

func rangeNote(p *jsonobj.Object, loKey, hiKey, unit string) []string {
	lo, hasLo := p.Get(loKey)
	hi, hasHi := p.Get(hiKey)
	switch {
	case hasLo && hasHi:
		return []string{jsonText(lo) + "-" + jsonText(hi) + unit}
	case hasLo:
		return []string{">= " + jsonText(lo) + unit}
	case hasHi:
		return []string{"<= " + jsonText(hi) + unit}
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
