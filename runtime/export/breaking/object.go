package breaking

import (
	"encoding/json"
	"iter"
	"maps"
	"reflect"
	"slices"
)

// object compares properties and required together: whether a parameter
// is new decides whether its being required is a new requirement.
func (d *diff) object(path string, o, n map[string]any) {
	op, ook := o["properties"].(map[string]any)
	np, nok := n["properties"].(map[string]any)
	or, rok := stringSet(o["required"])
	nr, qok := stringSet(n["required"])
	if !ook && o["properties"] != nil || !nok && n["properties"] != nil {
		d.unknown(path, "properties", o["properties"], n["properties"])
		return
	}
	if !rok || !qok {
		d.unknown(path, "required", o["required"], n["required"])
		return
	}
	for _, name := range sortedUnion(maps.Keys(op), maps.Keys(np), maps.Keys(or), maps.Keys(nr)) {
		child := join(path, name)
		ov, oin := op[name]
		nv, nin := np[name]
		switch {
		case oin && !nin:
			d.add(child, "removed", true, "parameter %s removed", child)
			continue
		case !oin && nin && nr[name]:
			d.add(child, "added-required", true, "parameter %s added as required", child)
		case !oin && nin:
			d.add(child, "added", false, "parameter %s added (optional)", child)
		case !or[name] && nr[name]:
			d.add(child, "now-required", true, "parameter %s became required", child)
		case or[name] && !nr[name]:
			d.add(child, "now-optional", false, "parameter %s became optional", child)
		}
		if oin && nin {
			d.sub(path, name, child, ov, nv, true, true)
		}
	}
}

// sub compares a subschema (a property, items, a map's values) at child.
// Present on one side only, a subschema constrains where there was none.
func (d *diff) sub(path, kw, child string, o, n any, oin, nin bool) {
	os, ook := o.(map[string]any)
	ns, nok := n.(map[string]any)
	switch {
	case ook && nok:
		d.schema(child, os, ns)
	case oin && !nin && ook:
		d.at(path, kw+"-removed", false, "%s schema removed", kw)
	case !oin && nin && nok:
		d.at(path, kw+"-added", true, "%s schema added", kw)
	default: // boolean schemas and the like
		d.unknown(path, kw, o, n)
	}
}

// additional compares additionalProperties: open (absent or true), closed
// (false) or a schema for the values of a map.
func (d *diff) additional(path string, o, n any, oin, nin bool) {
	const kw = "additionalProperties"
	open := func(v any, in bool) bool { return !in || v == true }
	valid := func(v any, in bool) bool {
		_, isBool := v.(bool)
		_, isSchema := v.(map[string]any)
		return !in || isBool || isSchema
	}
	switch {
	case !valid(o, oin) || !valid(n, nin):
		d.unknown(path, kw, o, n)
	case open(o, oin) && open(n, nin):
	case o == false && n == false:
	case open(n, nin) || o == false:
		d.at(path, kw+"-opened", false, "%s opened from %s to %s", kw, show(o), show(n))
	case n == false || open(o, oin):
		d.at(path, kw+"-closed", true, "%s closed from %s to %s", kw, show(o), show(n))
	default:
		d.sub(path, kw, path+"{}", o, n, oin, nin)
	}
}

// types compares type, a name or a list of names; integer is a number.
func (d *diff) types(path string, o, n any, oin, nin bool) {
	ot, ook := stringSet(o)
	nt, nok := stringSet(n)
	switch {
	case reflect.DeepEqual(o, n):
	case !ook || !nok:
		d.unknown(path, "type", o, n)
	case !nin:
		d.at(path, "type-removed", false, "type %s removed", show(o))
	case !oin:
		d.at(path, "type-added", true, "type %s added", show(n))
	case allows(nt, ot):
		d.at(path, "type-loosened", false, "type loosened from %s to %s", show(o), show(n))
	default:
		d.at(path, "type-changed", true, "type changed from %s to %s", show(o), show(n))
	}
}

func allows(types, of map[string]bool) bool {
	for t := range of {
		if !types[t] && !(t == "integer" && types["number"]) {
			return false
		}
	}
	return true
}

// enum compares the allowed values one by one.
func (d *diff) enum(path string, o, n any, oin, nin bool) {
	ov, ook := o.([]any)
	nv, nok := n.([]any)
	switch {
	case reflect.DeepEqual(o, n):
	case oin && !ook || nin && !nok:
		d.unknown(path, "enum", o, n)
	case !nin:
		d.at(path, "enum-lifted", false, "enum removed (was %s)", show(o))
	case !oin:
		d.at(path, "enum-imposed", true, "enum %s added where any value was allowed", show(n))
	default:
		for _, v := range ov {
			if !slices.ContainsFunc(nv, func(w any) bool { return reflect.DeepEqual(v, w) }) {
				d.at(path, "enum-removed:"+plain(v), true, "enum value %s removed", show(v))
			}
		}
		for _, v := range nv {
			if !slices.ContainsFunc(ov, func(w any) bool { return reflect.DeepEqual(v, w) }) {
				d.at(path, "enum-added:"+plain(v), false, "enum value %s added", show(v))
			}
		}
	}
}

// stringSet reads a name or a list of names; nil is the empty set.
func stringSet(v any) (map[string]bool, bool) {
	set := map[string]bool{}
	switch v := v.(type) {
	case nil:
	case string:
		set[v] = true
	case []any:
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			set[s] = true
		}
	default:
		return nil, false
	}
	return set, true
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// sortedUnion is the names of all seqs, sorted and once each: the
// report's order.
func sortedUnion(seqs ...iter.Seq[string]) []string {
	var names []string
	for _, seq := range seqs {
		names = slices.AppendSeq(names, seq)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// show renders a schema value for a message: JSON, "none" when absent.
func show(v any) string {
	if v == nil {
		return "none"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return string(b)
}

// plain is an enum value as a key part: a string as it is, else JSON.
func plain(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return show(v)
}
