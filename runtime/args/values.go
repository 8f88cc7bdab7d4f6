package args

import (
	"cmp"
	"encoding/base64"
	"errors"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// A parser turns one JSON value into T, or says what was wrong with it
// ("expected an integer, got string").
type parser[T any] func(raw []byte) (T, string)

// field decodes the named parameter of o with parse. An absent parameter
// yields the zero value, and a problem when it is required.
func field[T any](o *Object, name string, p Presence, parse parser[T]) T {
	var zero T
	raw, ok := o.get(name)
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
	raw := field(o, name, p, array)
	if raw == nil {
		return nil
	}
	var stack [16][]byte // most lists: no allocation for the elements
	elems := elements(raw, stack[:0])
	out := make([]T, len(elems))
	for i, item := range elems {
		v, msg := parse(item)
		if msg != "" {
			o.fail(o.param(name)+"["+strconv.Itoa(i)+"]", msg)
		}
		out[i] = v
	}
	return out
}

// array passes the text of a JSON array through.
func array(raw []byte) ([]byte, string) {
	if k := kind(raw); k != "array" {
		return nil, "expected an array, got " + k
	}
	return raw, ""
}

func parseString(raw []byte) (string, string) {
	if k := kind(raw); k != "string" {
		return "", "expected a string, got " + k
	}
	if msg := textProblem(raw); msg != "" {
		return "", msg
	}
	return unquote(raw), ""
}

func parseBool(raw []byte) (bool, string) {
	if k := kind(raw); k != "boolean" {
		return false, "expected a boolean, got " + k
	}
	return raw[0] == 't', ""
}

// signed and unsigned accept a JSON number that is an integer in the range
// of the proto field: 3 and 3.0 and 3e0 alike, never 3.5.
func signed[T int32 | int64](hi int64) parser[T] {
	return func(raw []byte) (T, string) {
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
	return func(raw []byte) (T, string) {
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

func integer(raw []byte) (neg bool, mag uint64, problem string) {
	if k := kind(raw); k != "number" {
		return false, 0, "expected an integer, got " + k
	}
	if neg, mag, ok := plainInteger(raw); ok {
		return neg, mag, ""
	}
	neg, mag, frac, big := parseInteger(string(raw))
	switch {
	case frac:
		return false, 0, "expected an integer, got " + clip(string(raw))
	case big:
		return false, 0, tooBig + clip(string(raw))
	}
	return neg, mag, ""
}

// The two ways a number can be out of its type's range: beyond any
// integer type, or outside this one.
const (
	tooBig     = "out of range: "
	rangeLead  = "expected an integer from "
	rangeGotAt = ", got "
)

func outOfRange(raw []byte, lo, hi string) string {
	return rangeLead + lo + " to " + hi + rangeGotAt + clip(string(raw))
}

// rangeProblem recognises a message made by outOfRange or for a number
// too big for any type, and returns the number it quotes.
func rangeProblem(msg string) (got string, ok bool) {
	if v, ok := strings.CutPrefix(msg, tooBig); ok {
		return v, true
	}
	if strings.HasPrefix(msg, rangeLead) {
		if i := strings.LastIndex(msg, rangeGotAt); i >= 0 {
			return msg[i+len(rangeGotAt):], true
		}
	}
	return "", false
}

func float(bits int) parser[float64] {
	return func(raw []byte) (float64, string) {
		if k := kind(raw); k != "number" {
			return 0, "expected a number, got " + k
		}
		f, err := strconv.ParseFloat(string(raw), bits)
		if err != nil {
			return 0, tooBig + clip(string(raw))
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
	// A float32 takes what its range holds, judged on the value as JSON
	// (double) reads it, as a schema's maximum is: no rounding into range.
	parseFloat32 = func(raw []byte) (float32, string) {
		f, msg := float(64)(raw)
		if msg == "" && math.Abs(f) > math.MaxFloat32 {
			msg = tooBig + clip(string(raw))
		}
		return float32(f), msg
	}
)

// enum accepts a string naming one of values. The error lists the names in
// the enum's declaration order, so the model sees the same list as in the
// schema.
func enum[T ~int32](values map[string]T) parser[T] {
	return func(raw []byte) (T, string) {
		if len(raw) > 1 && raw[0] == '"' {
			// A literal without escapes is its own text: no copy needed
			// to look it up.
			if v, ok := values[string(raw[1:len(raw)-1])]; ok {
				return v, ""
			}
		}
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

// parseBytes reads standard base64 with padding. Go's decoder skips line
// breaks; the schema's pattern does not allow them, so neither does this.
func parseBytes(raw []byte) ([]byte, string) {
	s, msg := parseString(raw)
	if msg != "" {
		return nil, msg
	}
	const want = "expected base64 (RFC 4648, with = padding)"
	if strings.ContainsAny(s, "\r\n") {
		return nil, want + ", got a line break in " + quote(s)
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, want + ", got " + quote(s)
	}
	return b, ""
}

// parseTimestamp reads an RFC 3339 time. RFC 3339 lets T and Z be lower
// case; Go's parser wants them upper case.
func parseTimestamp(raw []byte) (*timestamppb.Timestamp, string) {
	s, msg := parseString(raw)
	if msg != "" {
		return nil, msg
	}
	const want = "expected an RFC 3339 time such as 2024-05-01T12:00:00Z"
	norm := []byte(s)
	if len(norm) > 10 && norm[10] == 't' {
		norm[10] = 'T'
	}
	if n := len(norm); n > 0 && norm[n-1] == 'z' {
		norm[n-1] = 'Z'
	}
	t, err := time.Parse(time.RFC3339Nano, string(norm))
	if err != nil {
		why := ""
		var pe *time.ParseError
		if errors.As(err, &pe) && pe.Message != "" {
			why = " (" + strings.TrimPrefix(pe.Message, ": ") + ")"
		}
		return nil, want + ", got " + quote(s) + why
	}
	return timestamppb.New(t), ""
}

// durationText is a google.protobuf.Duration as protojson writes it.
var durationText = regexp.MustCompile(`^(-?)([0-9]+)(?:\.([0-9]{1,9}))?s$`)

// maxDurationSeconds is the range of google.protobuf.Duration: about
// 10,000 years either way.
const maxDurationSeconds = 315576000000

func parseDuration(raw []byte) (*durationpb.Duration, string) {
	s, msg := parseString(raw)
	if msg != "" {
		return nil, msg
	}
	m := durationText.FindStringSubmatch(s)
	if m == nil {
		return nil, "expected a duration in seconds such as 1.5s or 300s, got " + quote(s)
	}
	secs, err := strconv.ParseInt(m[2], 10, 64)
	if err != nil || secs > maxDurationSeconds {
		return nil, "expected a duration of at most 315576000000s (10,000 years), got " + quote(s)
	}
	nanos := int64(0)
	if m[3] != "" {
		nanos, _ = strconv.ParseInt(m[3]+strings.Repeat("0", 9-len(m[3])), 10, 32)
	}
	if m[1] == "-" {
		secs, nanos = -secs, -nanos
	}
	return &durationpb.Duration{Seconds: secs, Nanos: int32(nanos)}, ""
}
