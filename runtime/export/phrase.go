package export

import (
	"reflect"
	"slices"
	"strings"

	"github.com/forgetools/forgetools/runtime/schema"
)

// combinatorNote says in words what the combinator k ("not", "allOf",
// "oneOf", "anyOf") of s demands, for a target that cannot carry it
// (strict mode, a schema root); the keyword as JSON when it has no plain
// wording.
func combinatorNote(k string, s *schema.Schema) string {
	switch k {
	case "not":
		if text := notText(s.Not); text != "" {
			return text
		}
		return "not: " + jsonText(s.Not)
	case "allOf":
		var parts []string
		for _, o := range s.AllOf {
			text := partText(o)
			if text == "" {
				return "allOf: " + jsonText(s.AllOf)
			}
			parts = append(parts, text)
		}
		if len(parts) > 0 {
			return strings.Join(parts, "; ")
		}
		return "allOf: " + jsonText(s.AllOf)
	case "oneOf":
		if names := presence(s.OneOf); names != nil {
			return "exactly one of " + strings.Join(names, ", ") + " must be given"
		}
		return "oneOf: " + jsonText(s.OneOf)
	}
	return k + ": " + jsonText(s.AnyOf)
}

// has reports whether s sets the combinator k.
func has(s *schema.Schema, k string) bool {
	switch k {
	case "not":
		return s.Not != nil
	case "allOf":
		return s.AllOf != nil
	case "oneOf":
		return s.OneOf != nil
	}
	return s.AnyOf != nil
}

// only reports whether s sets some keyword and nothing but what clear
// clears: a schema of that one keyword.
func only(s *schema.Schema, clear func(*schema.Schema)) bool {
	if s == nil || reflect.ValueOf(*s).IsZero() {
		return false
	}
	c := *s
	clear(&c)
	return reflect.ValueOf(c).IsZero()
}

// partText phrases one allOf entry: a pattern, or a not.
func partText(o *schema.Schema) string {
	switch {
	case only(o, func(c *schema.Schema) { c.Pattern = "" }):
		return "must match " + jsonText(o.Pattern)
	case only(o, func(c *schema.Schema) { c.Not = nil }):
		return notText(o.Not)
	}
	return ""
}

// notText phrases {"not": ...}: an excluded value, range or pattern, or a
// presence constraint (at most one of a oneof's parameters).
func notText(n *schema.Schema) string {
	if n == nil {
		return ""
	}
	if e := notEnum(n); e != "" {
		return "must not be " + e
	}
	if names := presenceNot(n); names != nil {
		return "at most one of " + strings.Join(names, ", ") + " may be given"
	}
	switch {
	case only(n, func(c *schema.Schema) { c.Const = nil }):
		return "must not be " + jsonText(n.Const)
	case only(n, func(c *schema.Schema) { c.Pattern = "" }):
		return "must not match " + jsonText(n.Pattern)
	case !only(n, func(c *schema.Schema) { c.Minimum, c.ExclusiveMinimum, c.Maximum, c.ExclusiveMaximum = "", "", "", "" }):
		return ""
	}
	var lo, hi string
	switch {
	case n.Minimum != "":
		lo = "from " + string(n.Minimum)
	case n.ExclusiveMinimum != "":
		lo = "above " + string(n.ExclusiveMinimum)
	}
	switch {
	case n.Maximum != "":
		hi = "to " + string(n.Maximum)
	case n.ExclusiveMaximum != "":
		hi = "below " + string(n.ExclusiveMaximum)
	}
	if lo != "" && hi != "" {
		return "must not be " + lo + " " + hi
	}
	return ""
}

// presence reads [{"required": [a]}, {"required": [b]}, ...]: the names.
func presence(list []*schema.Schema) []string {
	var names []string
	for _, o := range list {
		if !only(o, func(c *schema.Schema) { c.Required = nil }) {
			return nil
		}
		for _, n := range o.Required {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return names
}

// presenceNot reads {"required": [a, b]} or {"anyOf": [{"required": [a,
// b]}, ...]} under a not: the names of which at most one may be given.
func presenceNot(n *schema.Schema) []string {
	switch {
	case only(n, func(c *schema.Schema) { c.Required = nil }):
		return n.Required
	case only(n, func(c *schema.Schema) { c.AnyOf = nil }):
		return presence(n.AnyOf)
	}
	return nil
}

// combinators are the keywords some APIs refuse at the root of a tool's
// input schema (Anthropic: oneOf, allOf, anyOf; OpenAI likewise, and not).
var combinators = []string{"oneOf", "anyOf", "allOf", "not"}

// rootSafe returns the schema with the combinators at its root phrased
// into its description instead (the generator states them in the tool
// description too).
func rootSafe(s *schema.Schema) []byte {
	if !slices.ContainsFunc(combinators, func(k string) bool { return has(s, k) }) {
		return s.JSON()
	}
	root := *s // only root fields are reassigned below
	var notes []string
	for _, k := range combinators {
		if has(&root, k) {
			notes = append(notes, combinatorNote(k, &root))
		}
	}
	root.OneOf, root.AnyOf, root.AllOf, root.Not = nil, nil, nil, nil
	note(&root, notes)
	return []byte(jsonText(&root))
}

// note appends notes to s's description, in parentheses.
func note(s *schema.Schema, notes []string) {
	if len(notes) == 0 {
		return
	}
	desc := strings.TrimSpace(s.Description)
	if desc != "" {
		desc += " "
	} else {
		s.AddedLast("description")
	}
	s.Description = desc + "(" + strings.Join(notes, "; ") + ")"
}
