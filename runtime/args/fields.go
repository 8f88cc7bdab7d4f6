package args

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

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
	var stack [16][]byte // most lists: no allocation for the elements
	elems := elements(raw, stack[:0])
	out := make([]T, len(elems))
	for i, item := range elems {
		if n := o.nested(o.param(name)+"["+strconv.Itoa(i)+"]", item, names); n != nil {
			out[i] = decode(n)
		}
	}
	return out
}

// Bytes decodes standard base64 (RFC 4648, with padding) into bytes.
func Bytes(o *Object, name string, p Presence) []byte { return field(o, name, p, parseBytes) }

// BytesList decodes an array of base64 strings.
func BytesList(o *Object, name string, p Presence) [][]byte { return list(o, name, p, parseBytes) }

// Timestamp decodes an RFC 3339 time ("2024-05-01T12:00:00Z"); nil when
// absent.
func Timestamp(o *Object, name string, p Presence) *timestamppb.Timestamp {
	return field(o, name, p, parseTimestamp)
}

// Timestamps decodes an array of RFC 3339 times.
func Timestamps(o *Object, name string, p Presence) []*timestamppb.Timestamp {
	return list(o, name, p, parseTimestamp)
}

// Duration decodes a duration written as seconds ("1.5s", "-30s"); nil
// when absent.
func Duration(o *Object, name string, p Presence) *durationpb.Duration {
	return field(o, name, p, parseDuration)
}

// Durations decodes an array of durations.
func Durations(o *Object, name string, p Presence) []*durationpb.Duration {
	return list(o, name, p, parseDuration)
}

// Wrapper decodes a wrapper message (google.protobuf.Int32Value, ...) as
// the scalar it holds: get reads the scalar, wrap builds the message.
// Absent (or null) yields nil, which is how a wrapper says "not set":
// args.Wrapper(o, "limit", args.Uint32, wrapperspb.UInt32).
func Wrapper[T any, W any](o *Object, name string, get func(*Object, string, Presence) T, wrap func(T) W) W {
	var zero W
	if !o.Has(name) {
		return zero
	}
	v := get(o, name, Required)
	return wrap(v)
}

// OneOf reports which of a oneof's parameters is given ("" for none). Two
// or more given is a problem: a oneof holds one value.
func OneOf(o *Object, names ...string) string {
	var given []string
	for _, n := range names {
		if o.Has(n) {
			given = append(given, n)
		}
	}
	switch len(given) {
	case 0:
		return ""
	case 1:
		return given[0]
	}
	o.fail(o.path, "at most one of "+strings.Join(names, ", ")+" may be given, got "+strings.Join(given, " and "))
	return ""
}

// Map decodes a JSON object into a map: each property name through key
// (the map's key type), each value through val, one of the functions
// above or MessageValue/EnumValue. Problems name the entry
// (`labels["team"]: expected a string, got number`).
func Map[K comparable, V any](o *Object, name string, p Presence, key func(string) (K, string), val func(*Object, string, Presence) V) map[K]V {
	raw, ok := o.get(name)
	if !ok {
		if p == Required {
			o.fail(o.param(name), "missing required parameter")
		}
		return nil
	}
	path := o.param(name)
	if k := kind(raw); k != "object" {
		o.fail(path, "expected an object, got "+k)
		return nil
	}
	entries := &Object{path: path, errs: o.errs, keyed: true}
	entries.members = entries.inline[:0]
	var keys []string
	repeat := ""
	object(raw, func(lit, v []byte) bool {
		k := unquote(lit)
		if slices.Contains(keys, k) {
			repeat = strconv.Quote(k) // quoted: "" is a key too, so repeat is never ""
			return false
		}
		keys = append(keys, k)
		if v[0] == 'n' {
			o.fail(entries.param(k), "expected a value, got null")
		}
		entries.add(k, v)
		return true
	})
	if repeat != "" {
		o.fail(path, "repeat the key "+repeat)
		return nil
	}
	out := make(map[K]V, len(keys))
	for _, k := range keys {
		if _, ok := entries.get(k); !ok {
			continue // null, reported above
		}
		mk, msg := key(k)
		if msg != "" {
			o.fail(entries.param(k), msg)
			continue
		}
		out[mk] = val(entries, k, Required)
	}
	return out
}

// MessageValue reads a message as a map value, for Map.
func MessageValue[T any](decode func(*Object) T, names ...string) func(*Object, string, Presence) T {
	return func(o *Object, name string, p Presence) T { return Message(o, name, p, decode, names...) }
}

// EnumValue reads an enum model name as a map value, for Map.
func EnumValue[T ~int32](values map[string]T) func(*Object, string, Presence) T {
	return func(o *Object, name string, p Presence) T { return Enum(o, name, p, values) }
}

// The key parsers of Map, one per proto map key type. A JSON property name
// is text: integer keys are decimal (no sign on unsigned ones, no
// exponent), bool keys "true" or "false".
func StringKey(s string) (string, string) { return s, "" }

func BoolKey(s string) (bool, string) {
	switch s {
	case "true":
		return true, ""
	case "false":
		return false, ""
	}
	return false, "expected the key true or false, got " + quote(s)
}

func Int32Key(s string) (int32, string)   { return intKey(s, parseInt32) }
func Int64Key(s string) (int64, string)   { return intKey(s, parseInt64) }
func Uint32Key(s string) (uint32, string) { return intKey(s, parseUint32) }
func Uint64Key(s string) (uint64, string) { return intKey(s, parseUint64) }

func intKey[T any](s string, parse parser[T]) (T, string) {
	var zero T
	if !decimal.MatchString(s) {
		return zero, "expected an integer key, got " + quote(s)
	}
	v, msg := parse([]byte(s))
	if msg != "" {
		return zero, strings.Replace(msg, "an integer", "an integer key", 1)
	}
	return v, ""
}

var decimal = regexp.MustCompile(`^-?[0-9]+$`)
