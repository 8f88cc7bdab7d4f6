package args

import "strconv"

// The functions below decode one parameter of o each, named by its model
// name, into the Go type of the proto field. Absent (or null) parameters
// yield the zero value and, when p is Required, a "missing required
// parameter" problem. The plural forms decode a JSON array.

func String(o *Object, name string, p Presence) string { return field(o, name, p, parseString) }
func Bool(o *Object, name string, p Presence) bool     { return field(o, name, p, parseBool) }
func Int32(o *Object, name string, p Presence) int32   { return field(o, name, p, parseInt32) }
func Int64(o *Object, name string, p Presence) int64   { return field(o, name, p, parseInt64) }
func Uint32(o *Object, name string, p Presence) uint32 { return field(o, name, p, parseUint32) }
func Uint64(o *Object, name string, p Presence) uint64 { return field(o, name, p, parseUint64) }
func Float32(o *Object, name string, p Presence) float32 {
	return field(o, name, p, parseFloat32)
}
func Float64(o *Object, name string, p Presence) float64 {
	return field(o, name, p, parseFloat64)
}

func Strings(o *Object, name string, p Presence) []string { return list(o, name, p, parseString) }
func Bools(o *Object, name string, p Presence) []bool     { return list(o, name, p, parseBool) }
func Int32s(o *Object, name string, p Presence) []int32   { return list(o, name, p, parseInt32) }
func Int64s(o *Object, name string, p Presence) []int64   { return list(o, name, p, parseInt64) }
func Uint32s(o *Object, name string, p Presence) []uint32 { return list(o, name, p, parseUint32) }
func Uint64s(o *Object, name string, p Presence) []uint64 { return list(o, name, p, parseUint64) }
func Float32s(o *Object, name string, p Presence) []float32 {
	return list(o, name, p, parseFloat32)
}
func Float64s(o *Object, name string, p Presence) []float64 {
	return list(o, name, p, parseFloat64)
}

// Enum decodes a string that must be one of the model names in values
// (e.g. "request_changes" for VERDICT_REQUEST_CHANGES).
func Enum[T ~int32](o *Object, name string, p Presence, values map[string]T) T {
	return field(o, name, p, enum(values))
}

// Enums decodes an array of model names of values.
func Enums[T ~int32](o *Object, name string, p Presence, values map[string]T) []T {
	return list(o, name, p, enum(values))
}

// Ptr decodes a proto3 optional scalar: nil when absent, so the message
// keeps "not set" apart from the zero value. get is one of the functions
// above, e.g. args.Ptr(o, "limit", args.Uint32).
func Ptr[T any](o *Object, name string, get func(*Object, string, Presence) T) *T {
	if !o.Has(name) {
		return nil
	}
	v := get(o, name, Optional)
	return &v
}

// EnumPtr decodes a proto3 optional enum: nil when absent.
func EnumPtr[T ~int32](o *Object, name string, values map[string]T) *T {
	if !o.Has(name) {
		return nil
	}
	v := Enum(o, name, Optional, values)
	return &v
}

// Message decodes a JSON object with the parameter names names into a
// message with decode, which reads the fields from the nested Object (whose
// problems carry the path, e.g. "review.body"). Absent yields nil.
func Message[T any](o *Object, name string, p Presence, decode func(*Object) T, names ...string) T {
	var zero T
	raw, ok := o.get(name)
	if !ok {
		if p == Required {
			o.fail(o.param(name), "missing required parameter")
		}
		return zero
	}
	n := o.nested(o.param(name), raw, names)
	if n == nil {
		return zero
	}
	return decode(n)
}

// Messages decodes a JSON array of objects, each like Message; problems
// carry the item's path, e.g. "comments[2].body".
func Messages[T any](o *Object, name string, p Presence, decode func(*Object) T, names ...string) []T {
	raw := field(o, name, p, array)
	if raw == nil {
		return nil
	}
	out := make([]T, 0, count(raw))
	items(raw, func(i int, item []byte) {
		var v T
		if n := o.nested(o.param(name)+"["+strconv.Itoa(i)+"]", item, names); n != nil {
			v = decode(n)
		}
		out = append(out, v)
	})
	return out
}
