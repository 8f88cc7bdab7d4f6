package runtime

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/forgetools/forgetools/runtime/internal/jsonobj"
)

// Bound keywords a union widens rather than drops: the smallest lower
// bound and the largest upper bound of the variants.
var (
	lowerBounds = []string{"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"}
	upperBounds = []string{"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"}
)

// loosest is one parameter's schema for a grouped tool whose actions
// define it as variants: what every variant accepts, it accepts. A
// keyword every variant states alike is kept; differing enums are joined,
// differing bounds widened; any other keyword that differs or that a
// variant lacks is left out (accepting more), because the action's own
// decoder and validator hold the call to that action's exact rules. The
// description is the first variant's that has one: a parameter is
// described once.
func loosest(variants []*jsonobj.Object) *jsonobj.Object {
	if len(variants) == 1 {
		return variants[0]
	}
	out := jsonobj.New()
	var keys []string
	for _, v := range variants {
		for _, k := range v.Keys {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	for _, k := range keys {
		if k == "description" {
			for _, v := range variants {
				if d := v.Str(k); d != "" {
					out.Set(k, d)
					break
				}
			}
			continue
		}
		vals := make([]any, 0, len(variants))
		for _, v := range variants {
			if val, ok := v.Get(k); ok {
				vals = append(vals, val)
			}
		}
		if len(vals) < len(variants) {
			continue
		}
		switch {
		case allEqual(vals):
			out.Set(k, vals[0])
		case k == "enum":
			if joined, ok := joinEnums(vals); ok {
				out.Set(k, joined)
			}
		case slices.Contains(lowerBounds, k):
			if n, ok := extreme(vals, func(a, b float64) bool { return a < b }); ok {
				out.Set(k, n)
			}
		case slices.Contains(upperBounds, k):
			if n, ok := extreme(vals, func(a, b float64) bool { return a > b }); ok {
				out.Set(k, n)
			}
		}
	}
	return out
}

func allEqual(vals []any) bool {
	first, err := json.Marshal(vals[0])
	if err != nil {
		return false
	}
	for _, v := range vals[1:] {
		b, err := json.Marshal(v)
		if err != nil || !bytes.Equal(first, b) {
			return false
		}
	}
	return true
}

// joinEnums is every value of the enums, in first-seen order.
func joinEnums(vals []any) ([]any, bool) {
	var out []any
	for _, v := range vals {
		list, ok := v.([]any)
		if !ok {
			return nil, false
		}
		for _, e := range list {
			if !slices.ContainsFunc(out, func(o any) bool { return allEqual([]any{o, e}) }) {
				out = append(out, e)
			}
		}
	}
	return out, true
}

// extreme is the value of vals that wins under better; false if one is not
// a number.
func extreme(vals []any, better func(a, b float64) bool) (json.Number, bool) {
	var best json.Number
	var bestF float64
	for i, v := range vals {
		n, ok := v.(json.Number)
		if !ok {
			return "", false
		}
		f, err := n.Float64()
		if err != nil {
			return "", false
		}
		if i == 0 || better(f, bestF) {
			best, bestF = n, f
		}
	}
	return best, true
}

// capKeywords are the limits a grouped schema leaves to its actions:
// string patterns and size caps guard the forge and the gateway, not the
// model's choice of arguments, and stating them once per parameter per
// group would cost more than the grouping saves. The action's validator
// still enforces each, in the words the flat tool's call gets.
var capKeywords = []string{"pattern", "maxLength", "maxItems", "maxProperties"}

// typeLimits are integer bounds that only restate a proto type's range
// (int32, uint32, the JSON-safe integer, int64, uint64).
var typeLimits = []string{
	"2147483647", "-2147483648", "4294967295", "9007199254740991", "-9007199254740991",
	"9223372036854775807", "-9223372036854775808", "18446744073709551615",
}

// relax removes the caps and the type-range bounds from a parameter's
// schema, in its nested items, properties and alternatives too.
func relax(s *jsonobj.Object) {
	if s == nil {
		return
	}
	for _, k := range capKeywords {
		s.Del(k)
	}
	for _, k := range []string{"minimum", "maximum"} {
		if n, ok := s.Vals[k].(json.Number); ok && slices.Contains(typeLimits, string(n)) {
			s.Del(k)
		}
	}
	relax(s.Obj("items"))
	if props := s.Obj("properties"); props != nil {
		for _, k := range props.Keys {
			relax(props.Obj(k))
		}
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		list, _ := s.Vals[k].([]any)
		for _, v := range list {
			sub, _ := v.(*jsonobj.Object)
			relax(sub)
		}
	}
}
