package runtime

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"

	"github.com/forgetools/forgetools/runtime/schema"
)

// Bound keywords a union widens rather than drops: the smallest lower
// bound and the largest upper bound of the variants (Schema field names).
var (
	lowerBounds = []string{"Minimum", "ExclusiveMinimum", "MinLength", "MinItems", "MinProperties"}
	upperBounds = []string{"Maximum", "ExclusiveMaximum", "MaxLength", "MaxItems", "MaxProperties"}
)

// loosest is one parameter's schema for a grouped tool whose actions
// define it as variants: what every variant accepts, it accepts. A
// keyword every variant states alike is kept; differing enums are joined,
// differing bounds widened; any other keyword that differs or that a
// variant lacks is left out (accepting more), because the action's own
// decoder and validator hold the call to that action's exact rules. The
// description is the first variant's that has one: a parameter is
// described once. The result may share parts of the variants: they are new
// values (Tool.InputSchema), used for this union only.
//
// It walks the keywords as Schema's fields, so a keyword added to Schema
// is unioned by the same rule without a case here.
func loosest(variants []*schema.Schema) *schema.Schema {
	out := &schema.Schema{}
	if len(variants) == 1 {
		return variants[0]
	}
	ov := reflect.ValueOf(out).Elem()
	for i := range ov.NumField() {
		f := ov.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		var vals []reflect.Value
		for _, v := range variants {
			if fv := reflect.ValueOf(v).Elem().Field(i); !fv.IsZero() {
				vals = append(vals, fv)
			}
		}
		switch {
		case f.Name == "Description":
			if len(vals) > 0 {
				out.Description = vals[0].String()
			}
		case len(vals) < len(variants):
		case allEqual(vals):
			ov.Field(i).Set(vals[0])
		case f.Name == "Enum":
			out.Enum = joinEnums(vals)
		case slices.Contains(lowerBounds, f.Name):
			ov.Field(i).Set(extreme(vals, func(a, b float64) bool { return a < b }))
		case slices.Contains(upperBounds, f.Name):
			ov.Field(i).Set(extreme(vals, func(a, b float64) bool { return a > b }))
		}
	}
	return out
}

// allEqual: every value marshals to the same JSON.
func allEqual(vals []reflect.Value) bool {
	first := jsonOf(vals[0].Interface())
	for _, v := range vals[1:] {
		if !bytes.Equal(first, jsonOf(v.Interface())) {
			return false
		}
	}
	return true
}

func jsonOf(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// joinEnums is every value of the enums, in first-seen order.
func joinEnums(vals []reflect.Value) []any {
	var out []any
	for _, v := range vals {
		for _, e := range v.Interface().([]any) {
			if !slices.ContainsFunc(out, func(o any) bool { return bytes.Equal(jsonOf(o), jsonOf(e)) }) {
				out = append(out, e)
			}
		}
	}
	return out
}

// extreme is the value of vals (numbers or sizes) that wins under better.
func extreme(vals []reflect.Value, better func(a, b float64) bool) reflect.Value {
	var best reflect.Value
	var bestF float64
	for i, v := range vals {
		var f float64
		switch n := v.Interface().(type) {
		case json.Number:
			f, _ = strconv.ParseFloat(string(n), 64)
		case *uint64:
			f = float64(*n)
		}
		if i == 0 || better(f, bestF) {
			best, bestF = v, f
		}
	}
	return best
}

// capKeywords are the limits a grouped schema leaves to its actions:
// string patterns and size caps guard the forge and the gateway, not the
// model's choice of arguments, and stating them once per parameter per
// group would cost more than the grouping saves. The action's validator
// still enforces each, in the words the flat tool's call gets.
func dropCaps(s *schema.Schema) {
	s.Pattern, s.MaxLength, s.MaxItems, s.MaxProperties = "", nil, nil, nil
}

// typeLimits are integer bounds that only restate a proto type's range
// (int32, uint32, the JSON-safe integer, int64, uint64).
var typeLimits = []json.Number{
	"2147483647", "-2147483648", "4294967295", "9007199254740991", "-9007199254740991",
	"9223372036854775807", "-9223372036854775808", "18446744073709551615",
}

// relax removes the caps and the type-range bounds from a parameter's
// schema, in its nested items, properties and alternatives too.
func relax(s *schema.Schema) {
	if s == nil {
		return
	}
	dropCaps(s)
	if slices.Contains(typeLimits, s.Minimum) {
		s.Minimum = ""
	}
	if slices.Contains(typeLimits, s.Maximum) {
		s.Maximum = ""
	}
	relax(s.Items)
	for _, p := range s.Properties {
		relax(p.Schema)
	}
	for _, sub := range slices.Concat(s.AnyOf, s.OneOf, s.AllOf) {
		relax(sub)
	}
}
