package args

import (
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
)

// A parser turns one JSON value into T, or says what was wrong with it
// ("expected an integer, got string").
type parser[T any] func(raw json.RawMessage) (T, string)

// field decodes the named parameter of o with parse. An absent parameter
// yields the zero value, and a problem when it is required.
func field[T any](o *Object, name string, p Presence, parse parser[T]) T {
	var zero T
	raw, ok := o.fields[name]
	if !ok {
		if p == Required {
			o.fail(o.param(name), "missing required parameter")
		}
		return zero
	}
	v, msg := parse(raw)
	if msg != "" {
		o.fail(o.param(name), msg)
		return zero
	}
	return v
}

// list decodes the named parameter of o as a JSON array of values parse
// accepts; problems name the item ("labels[2]: expected a string, got
// number").
func list[T any](o *Object, name string, p Presence, parse parser[T]) []T {
	items := field(o, name, p, rawItems)
	if items == nil {
		return nil
	}
	out := make([]T, 0, len(items))
	for i, raw := range items {
		v, msg := parse(raw)
		if msg != "" {
			o.fail(o.param(name)+"["+strconv.Itoa(i)+"]", msg)
		}
		out = append(out, v)
	}
	return out
}

func rawItems(raw json.RawMessage) ([]json.RawMessage, string) {
	if k := kind(raw); k != "array" {
		return nil, "expected an array, got " + k
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil { // unreachable: raw is valid JSON
		return nil, err.Error()
	}
	if items == nil {
		items = []json.RawMessage{} // [] is given, unlike an absent list
	}
	return items, ""
}

func parseString(raw json.RawMessage) (string, string) {
	if k := kind(raw); k != "string" {
		return "", "expected a string, got " + k
	}
	if msg := textProblem(raw); msg != "" {
		return "", msg
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil { // unreachable: raw is valid JSON
		return "", err.Error()
	}
	return s, ""
}

func parseBool(raw json.RawMessage) (bool, string) {
	if k := kind(raw); k != "boolean" {
		return false, "expected a boolean, got " + k
	}
	return raw[0] == 't', ""
}

// signed and unsigned accept a JSON number that is an integer in the range
// of the proto field: 3 and 3.0 and 3e0 alike, never 3.5.
func signed[T int32 | int64](hi int64) parser[T] {
	return func(raw json.RawMessage) (T, string) {
		neg, mag, msg := integer(raw)
		if msg != "" {
			return 0, msg
		}
		switch {
		case !neg && mag <= uint64(hi):
			return T(mag), ""
		case neg && mag <= uint64(hi)+1: // two's complement: |min| = max+1
			return T(-int64(mag)), "" // -int64(1<<63) wraps to MinInt64, as wanted
		}
		return 0, outOfRange(raw, strconv.FormatInt(-hi-1, 10), strconv.FormatInt(hi, 10))
	}
}

func unsigned[T uint32 | uint64](hi uint64) parser[T] {
	return func(raw json.RawMessage) (T, string) {
		neg, mag, msg := integer(raw)
		if msg != "" {
			return 0, msg
		}
		if (neg && mag != 0) || mag > hi {
			return 0, outOfRange(raw, "0", strconv.FormatUint(hi, 10))
		}
		return T(mag), ""
	}
}

func integer(raw json.RawMessage) (neg bool, mag uint64, problem string) {
	if k := kind(raw); k != "number" {
		return false, 0, "expected an integer, got " + k
	}
	neg, mag, frac, big := parseInteger(string(raw))
	switch {
	case frac:
		return false, 0, "expected an integer, got " + clip(string(raw))
	case big:
		return false, 0, "out of range: " + clip(string(raw))
	}
	return neg, mag, ""
}

func outOfRange(raw json.RawMessage, lo, hi string) string {
	return "expected an integer from " + lo + " to " + hi + ", got " + clip(string(raw))
}

func float(bits int) parser[float64] {
	return func(raw json.RawMessage) (float64, string) {
		if k := kind(raw); k != "number" {
			return 0, "expected a number, got " + k
		}
		f, err := strconv.ParseFloat(string(raw), bits)
		if err != nil {
			return 0, "out of range: " + clip(string(raw))
		}
		return f, ""
	}
}

var (
	parseInt32   = signed[int32](math.MaxInt32)
	parseInt64   = signed[int64](math.MaxInt64)
	parseUint32  = unsigned[uint32](math.MaxUint32)
	parseUint64  = unsigned[uint64](math.MaxUint64)
	parseFloat64 = float(64)
	parseFloat32 = func(raw json.RawMessage) (float32, string) {
		f, msg := float(32)(raw)
		return float32(f), msg
	}
)

// enum accepts a string naming one of values. The error lists the names in
// the enum's declaration order, so the model sees the same list as in the
// schema.
func enum[T ~int32](values map[string]T) parser[T] {
	return func(raw json.RawMessage) (T, string) {
		s, msg := parseString(raw)
		if msg != "" {
			return 0, msg
		}
		if v, ok := values[s]; ok {
			return v, ""
		}
		return 0, "expected one of " + joinNames(values) + ", got " + quote(s)
	}
}

func joinNames[T ~int32](values map[string]T) string {
	names := make([]string, 0, len(values))
	for name := range values {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(values[a], values[b]) })
	return strings.Join(names, ", ")
}

// clip shortens a value echoed back in a problem: the model needs to
// recognise it, not to read it back whole.
func clip(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max]) + "…"
}

func quote(s string) string { return strconv.Quote(clip(s)) }
