package export

import (
	"github.com/forgetools/forgetools/runtime/internal/jsonobj"
	"slices"
	"strings"
)

// phrase says in words what a keyword strict mode (or a schema root)
// cannot carry demands; ok is false when it has no plain wording, and the
// caller falls back to the keyword as JSON.
func phrase(k string, v any) (string, bool) {
	switch k {
	case "not":
		n, _ := v.(*jsonobj.Object)
		if text := notText(n); text != "" {
			return text, true
		}
	case "allOf":
		var parts []string
		list, _ := v.([]any)
		for _, item := range list {
			o, _ := item.(*jsonobj.Object)
			text := partText(o)
			if text == "" {
				return "", false
			}
			parts = append(parts, text)
		}
		return strings.Join(parts, "; "), len(parts) > 0
	case "oneOf":
		if names := presence(v); names != nil {
			return "exactly one of " + strings.Join(names, ", ") + " must be given", true
		}
	case "contentEncoding":
		if v == "base64" {
			return "base64", true
		}
	case "examples":
		list, _ := v.([]any)
		var vals []string
		for _, x := range list {
			vals = append(vals, jsonText(x))
		}
		return "e.g. " + strings.Join(vals, ", "), len(vals) > 0
	case "deprecated":
		return "deprecated", v == true
	}
	return "", false
}

// partText phrases one allOf entry: a pattern, or a not.
func partText(o *jsonobj.Object) string {
	if o == nil || len(o.Keys) != 1 {
		return ""
	}
	switch o.Keys[0] {
	case "pattern":
		return "must match " + jsonText(o.Vals["pattern"])
	case "not":
		return notText(o.Obj("not"))
	}
	return ""
}

// notText phrases {"not": ...}: an excluded value, range or pattern, or a
// presence constraint (at most one of a oneof's parameters).
func notText(n *jsonobj.Object) string {
	if n == nil {
		return ""
	}
	if e := notEnum(n); e != "" {
		return "must not be " + e
	}
	if names := presenceNot(n); names != nil {
		return "at most one of " + strings.Join(names, ", ") + " may be given"
	}
	if len(n.Keys) == 1 {
		switch n.Keys[0] {
		case "const":
			return "must not be " + jsonText(n.Vals["const"])
		case "pattern":
			return "must not match " + jsonText(n.Vals["pattern"])
		}
	}
	var lo, hi string
	for _, k := range n.Keys {
		switch k {
		case "minimum":
			lo = "from " + jsonText(n.Vals[k])
		case "exclusiveMinimum":
			lo = "above " + jsonText(n.Vals[k])
		case "maximum":
			hi = "to " + jsonText(n.Vals[k])
		case "exclusiveMaximum":
			hi = "below " + jsonText(n.Vals[k])
		default:
			return ""
		}
	}
	if lo != "" && hi != "" {
		return "must not be " + lo + " " + hi
	}
	return ""
}

// presence reads [{"required": [a]}, {"required": [b]}, ...]: the names.
func presence(v any) []string {
	list, _ := v.([]any)
	var names []string
	for _, item := range list {
		o, _ := item.(*jsonobj.Object)
		if o == nil || len(o.Keys) != 1 || o.Keys[0] != "required" {
			return nil
		}
		for _, n := range o.Strings("required") {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return names
}

// presenceNot reads {"required": [a, b]} or {"anyOf": [{"required": [a,
// b]}, ...]} under a not: the names of which at most one may be given.
func presenceNot(n *jsonobj.Object) []string {
	if len(n.Keys) != 1 {
		return nil
	}
	switch n.Keys[0] {
	case "required":
		return n.Strings("required")
	case "anyOf":
		return presence(n.Vals["anyOf"])
	}
	return nil
}

// combinators are the keywords some APIs refuse at the root of a tool's
// input schema (Anthropic: oneOf, allOf, anyOf; OpenAI likewise, and not).
var combinators = []string{"oneOf", "anyOf", "allOf", "not"}

// rootSafe returns schema with the combinators at its root phrased into its
// description instead (the generator states them in the tool description
// too); schema itself when it has none.
func rootSafe(schema string) []byte {
	v, err := jsonobj.Parse([]byte(schema))
	root, ok := v.(*jsonobj.Object)
	if err != nil || !ok || !slices.ContainsFunc(combinators, func(k string) bool { _, has := root.Get(k); return has }) {
		return []byte(schema)
	}
	var notes []string
	for _, k := range combinators {
		if val, has := root.Get(k); has {
			if text, ok := phrase(k, val); ok {
				notes = append(notes, text)
			} else {
				notes = append(notes, k+": "+jsonText(val))
			}
			root.Del(k)
		}
	}
	note(root, notes)
	out, err := root.MarshalJSON()
	if err != nil {
		return []byte(schema)
	}
	return out
}

// note appends notes to s's description, in parentheses.
func note(s *jsonobj.Object, notes []string) {
	if len(notes) == 0 {
		return
	}
	desc := strings.TrimSpace(s.Str("description"))
	if desc != "" {
		desc += " "
	}
	s.Set("description", desc+"("+strings.Join(notes, "; ")+")")
}
