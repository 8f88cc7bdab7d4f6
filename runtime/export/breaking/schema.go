package breaking

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"reflect"
)

// diff collects the changes of one tool.
type diff struct {
	tool    string
	changes []Change
}

func (d *diff) add(param, kind string, breaking bool, format string, args ...any) {
	d.changes = append(d.changes, Change{Tool: d.tool, Param: param, Kind: kind, Breaking: breaking,
		Message: fmt.Sprintf(format, args...)})
}

// at reports a change to the schema at path: a parameter's, or the root's,
// whose kinds are prefixed so they cannot collide with the tool's own
// (the tool's description is not the schema's).
func (d *diff) at(path, kind string, breaking bool, format string, args ...any) {
	subject := "parameter " + path
	if path == "" {
		subject, kind = "input schema", "input_schema."+kind
	}
	d.add(path, kind, breaking, subject+": "+format, args...)
}

// prose reports a changed annotation, which no validator reads.
func (d *diff) prose(path, kw string, o, n any) {
	if !reflect.DeepEqual(o, n) {
		d.at(path, kw+"-changed", false, "%s changed", kw)
	}
}

func decodeSchema(raw json.RawMessage) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // bounds compare exactly, and print as written
	var s map[string]any
	if err := dec.Decode(&s); err != nil {
		return nil, err
	}
	if s == nil {
		return nil, errors.New("input schema is null")
	}
	return s, nil
}

// bound is how a numeric keyword bounds: lower ones tighten upward, upper
// ones downward. An absent count bound below (minLength and the like) is
// 0; any other absent bound is none.
type bound struct{ lower, count bool }

var (
	bounds = map[string]bound{
		"minimum": {lower: true}, "exclusiveMinimum": {lower: true},
		"minLength": {true, true}, "minItems": {true, true}, "minProperties": {true, true}, "minContains": {true, true},
		"maximum": {}, "exclusiveMaximum": {}, "maxLength": {}, "maxItems": {}, "maxProperties": {}, "maxContains": {},
	}
	// constraints restrict when added or changed and relax when removed.
	constraints = map[string]bool{"pattern": true, "format": true, "const": true,
		"multipleOf": true, "uniqueItems": true}
	// annotations are prose a validator ignores.
	annotations = map[string]bool{"description": true, "title": true, "examples": true, "$comment": true}
)

// schema compares the schema at path keyword by keyword. Keywords this
// check does not model (anyOf, not, default, ...) break on any change.
func (d *diff) schema(path string, o, n map[string]any) {
	d.object(path, o, n)
	for _, kw := range sortedUnion(maps.Keys(o), maps.Keys(n)) {
		ov, oin := o[kw]
		nv, nin := n[kw]
		b, isBound := bounds[kw]
		switch {
		case kw == "properties" || kw == "required":
			// compared together by object
		case annotations[kw]:
			d.prose(path, kw, ov, nv)
		case kw == "type":
			d.types(path, ov, nv, oin, nin)
		case kw == "enum":
			d.enum(path, ov, nv, oin, nin)
		case kw == "items":
			d.sub(path, kw, path+"[]", ov, nv, oin, nin)
		case kw == "additionalProperties":
			d.additional(path, ov, nv, oin, nin)
		case isBound:
			d.bound(path, kw, b, ov, nv, oin, nin)
		case constraints[kw]:
			d.constraint(path, kw, ov, nv, oin, nin)
		default:
			d.unknown(path, kw, ov, nv)
		}
	}
}

func (d *diff) unknown(path, kw string, o, n any) {
	if !reflect.DeepEqual(o, n) {
		d.at(path, kw+"-changed", true, "%s changed from %s to %s (a keyword this check does not model)", kw, show(o), show(n))
	}
}

func (d *diff) constraint(path, kw string, o, n any, oin, nin bool) {
	switch {
	case reflect.DeepEqual(o, n):
	case !nin:
		d.at(path, kw+"-removed", false, "%s %s removed", kw, show(o))
	case !oin:
		d.at(path, kw+"-added", true, "%s %s added", kw, show(n))
	default:
		d.at(path, kw+"-changed", true, "%s changed from %s to %s", kw, show(o), show(n))
	}
}

func (d *diff) bound(path, kw string, b bound, o, n any, oin, nin bool) {
	ob, ook := number(o, oin, b.count)
	nb, nok := number(n, nin, b.count)
	if !ook || !nok {
		d.unknown(path, kw, o, n)
		return
	}
	c, lower := compareBounds(ob, nb, b.lower), b.lower
	switch {
	case c == 0 && oin == nin:
	case c == 0:
		d.at(path, kw+"-restated", false, "%s from %s to %s, the same bound", kw, show(o), show(n))
	case (c > 0) == lower:
		d.at(path, kw+"-tightened", true, "%s tightened from %s to %s", kw, show(o), show(n))
	default:
		d.at(path, kw+"-loosened", false, "%s loosened from %s to %s", kw, show(o), show(n))
	}
}

// number reads a bound; nil is unbounded. An absent count bound (minLength
// and the like) is 0, which is no bound either.
func number(v any, present, zeroIfAbsent bool) (*big.Rat, bool) {
	if !present {
		if zeroIfAbsent {
			return new(big.Rat), true
		}
		return nil, true
	}
	num, ok := v.(json.Number)
	if !ok {
		return nil, false
	}
	return new(big.Rat).SetString(num.String())
}

// compareBounds is the sign of n - o, nil being unbounded: below for a
// lower bound, above for an upper one.
func compareBounds(o, n *big.Rat, lower bool) int {
	unbounded := 1 // an absent upper bound is above every value
	if lower {
		unbounded = -1
	}
	switch {
	case o == nil && n == nil:
		return 0
	case o == nil:
		return -unbounded
	case n == nil:
		return unbounded
	}
	return n.Cmp(o)
}
