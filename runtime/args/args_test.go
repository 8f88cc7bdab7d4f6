package args

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/internal/testkit"
)

// The fixture mirrors what protoc-gen-forgetools emits for a request with a
// nested list of messages, an enum and a proto3 optional field.
type verdict int32

var verdicts = map[string]verdict{"approve": 1, "request_changes": 2, "comment": 3}

type comment struct {
	Path string
	Line uint64
	Side verdict
}

type request struct {
	Repo     string
	Number   uint64
	Verdict  verdict
	Labels   []string
	Limit    *uint32
	Draft    bool
	Delta    int32
	Offset   int64
	Score    float64
	Comments []*comment
}

var params = []string{"repo", "number", "verdict", "labels", "limit", "draft", "delta", "offset", "score", "comments"}

func decodeComment(o *Object) *comment {
	return &comment{
		Path: String(o, "path", Required),
		Line: Uint64(o, "line", Required),
		Side: Enum(o, "side", Optional, verdicts),
	}
}

func decode(data []byte) (*request, error) {
	o, err := Parse(data, params...)
	if err != nil {
		return nil, err
	}
	req := &request{
		Repo:     String(o, "repo", Required),
		Number:   Uint64(o, "number", Required),
		Verdict:  Enum(o, "verdict", Optional, verdicts),
		Labels:   Strings(o, "labels", Optional),
		Limit:    Ptr(o, "limit", Uint32),
		Draft:    Bool(o, "draft", Optional),
		Delta:    Int32(o, "delta", Optional),
		Offset:   Int64(o, "offset", Optional),
		Score:    Float64(o, "score", Optional),
		Comments: Messages(o, "comments", Optional, decodeComment, "path", "line", "side"),
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	return req, nil
}

func TestDecodeValid(t *testing.T) {
	got, err := decode([]byte(`{
		"repo": "acme/widgets", "number": 3.0, "verdict": "request_changes",
		"labels": ["bug", "p1"], "limit": 0, "draft": true, "delta": -2147483648,
		"offset": -9223372036854775808, "score": 0.5, "verdict": null,
		"comments": [{"path": "a.go", "line": 1e1}, {"path": "b.go", "line": 2, "side": "comment"}]
	}`))
	if err == nil {
		t.Fatalf("a repeated key must be refused, got %+v", got)
	}
	if want := `arguments repeat the key "verdict"`; err.Error() != want {
		t.Fatalf("err = %q, want %q", err, want)
	}

	got, err = decode([]byte(`{
		"repo": "acme/widgets", "number": 3.0, "verdict": "request_changes",
		"labels": ["bug", "p1"], "limit": 0, "draft": true, "delta": -2147483648,
		"offset": -9223372036854775808, "score": 0.5,
		"comments": [{"path": "a.go", "line": 1e1}, {"path": "b.go", "line": 2, "side": "comment"}]
	}`))
	if err != nil {
		t.Fatal(err)
	}
	zero := uint32(0)
	want := &request{
		Repo: "acme/widgets", Number: 3, Verdict: 2, Labels: []string{"bug", "p1"},
		Limit: &zero, Draft: true, Delta: math.MinInt32, Offset: math.MinInt64, Score: 0.5,
		Comments: []*comment{{Path: "a.go", Line: 10}, {Path: "b.go", Line: 2, Side: 3}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

func TestDecodeAbsent(t *testing.T) {
	got, err := decode([]byte(`{"repo": "r", "number": 1, "limit": null, "labels": null, "comments": []}`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Limit != nil || got.Labels != nil {
		t.Fatalf("null must mean absent: limit %v, labels %#v", got.Limit, got.Labels)
	}
	if got.Comments == nil || len(got.Comments) != 0 {
		t.Fatalf("an empty array is given, not absent: %#v", got.Comments)
	}
}

func TestDecodeProblems(t *testing.T) {
	for _, tc := range []struct {
		name, args, want string
	}{
		{"unknown key", `{"repo": "r", "number": 1, "titel": "x"}`,
			`unknown parameter "titel"; valid parameters: repo, number, verdict, labels, limit, draft, delta, offset, score, comments`},
		{"unknown null key", `{"repo": "r", "number": 1, "x": null, "a": 1}`,
			`unknown parameters "a", "x"; valid parameters: repo, number, verdict, labels, limit, draft, delta, offset, score, comments`},
		{"missing required", `{"number": 1}`, `repo: missing required parameter`},
		{"null required", `{"repo": null, "number": 1}`, `repo: missing required parameter`},
		{"empty input", " \n", `repo: missing required parameter; number: missing required parameter`},
		{"string for number", `{"repo": "r", "number": "7"}`, `number: expected an integer, got string`},
		{"fraction", `{"repo": "r", "number": 3.5}`, `number: expected an integer, got 3.5`},
		{"tiny fraction", `{"repo": "r", "number": 3.0000000000000000000001}`,
			`number: expected an integer, got 3.0000000000000000000001`},
		{"negative", `{"repo": "r", "number": -1}`, `number: expected an integer from 0 to 18446744073709551615, got -1`},
		{"uint64 overflow", `{"repo": "r", "number": 18446744073709551616}`, `number: out of range: 18446744073709551616`},
		{"uint32 overflow", `{"repo": "r", "number": 1, "limit": 4294967296}`,
			`limit: expected an integer from 0 to 4294967295, got 4294967296`},
		{"int32 underflow", `{"repo": "r", "number": 1, "delta": -2147483649}`,
			`delta: expected an integer from -2147483648 to 2147483647, got -2147483649`},
		{"huge exponent", `{"repo": "r", "number": 1e400}`, `number: out of range: 1e400`},
		{"number for string", `{"repo": 5, "number": 1}`, `repo: expected a string, got number`},
		{"bool", `{"repo": "r", "number": 1, "draft": "yes"}`, `draft: expected a boolean, got string`},
		{"float", `{"repo": "r", "number": 1, "score": "high"}`, `score: expected a number, got string`},
		{"float overflow", `{"repo": "r", "number": 1, "score": 1e999}`, `score: out of range: 1e999`},
		{"bad enum", `{"repo": "r", "number": 1, "verdict": "APPROVE"}`,
			`verdict: expected one of approve, request_changes, comment, got "APPROVE"`},
		{"list not array", `{"repo": "r", "number": 1, "labels": "bug"}`, `labels: expected an array, got string`},
		{"null item", `{"repo": "r", "number": 1, "labels": ["a", null]}`, `labels[1]: expected a string, got null`},
		{"nested problems", `{"repo": "r", "number": 1, "comments": [{"path": "a", "line": 1, "x": 2}, {"line": -3}, 4]}`,
			`comments[0]: unknown parameter "x"; valid parameters: path, line, side; ` +
				`comments[1].path: missing required parameter; ` +
				`comments[1].line: expected an integer from 0 to 18446744073709551615, got -3; ` +
				`comments[2]: expected an object, got number`},
		{"nested repeat through an escape", `{"repo": "r", "number": 1, "comments": [{"path": "a", "p\u0061th": "b", "line": 1}]}`,
			`comments[0]: repeat the key "path"`},
		{"nested repeat of unknown keys", "{\"repo\": \"r\", \"number\": 1, \"comments\": [{\"path\": \"a\", \"line\": 1, \"\xff\": 1, \"\xfe\": 2}]}",
			"comments[0]: repeat the key \"\ufffd\""},
		{"repeated empty key", `{"": 1, "": 2}`, `arguments repeat the key ""`},
		{"nested repeat of the empty key", `{"repo": "r", "number": 1, "comments": [{"path": "a", "line": 1, "": 1, "": 2}]}`,
			`comments[0]: repeat the key ""`},
		{"nested null is absent", `{"repo": "r", "number": 1, "comments": [{"path": null, "line": 1}]}`,
			`comments[0].path: missing required parameter`},
		{"every problem", `{"repo": 1, "number": true}`, `repo: expected a string, got number; number: expected an integer, got boolean`},
		{"not an object", `["repo"]`, `arguments must be a JSON object, got array`},
		{"not json", `{"repo": }`, `arguments are not valid JSON: invalid character '}' at start of value within "/repo" after offset 9`},
		{"truncated", `{"repo": "r"`, `arguments are not valid JSON: unexpected end of input`},
		{"trailing", `{"repo": "r", "number": 1} {}`, `arguments must be one JSON object, with nothing after it`},
		{"invalid UTF-8", "{\"repo\": \"ab\xffc\", \"number\": 1}", `repo: not valid UTF-8: byte 0xff at byte 2 of the string`},
		{"invalid UTF-8 in a list", "{\"repo\": \"r\", \"number\": 1, \"labels\": [\"ok\", \"\xc3\"]}",
			`labels[1]: not valid UTF-8: byte 0xc3 at byte 0 of the string`},
		{"lone high surrogate", `{"repo": "a\ud800b", "number": 1}`,
			`repo: contains \ud800, half of a UTF-16 surrogate pair: escape a character outside the BMP as both halves, e.g. \ud83d\ude00`},
		{"lone low surrogate", `{"repo": "r", "number": 1, "comments": [{"path": "\uDC00", "line": 1}]}`,
			`comments[0].path: contains \uDC00, half of a UTF-16 surrogate pair: escape a character outside the BMP as both halves, e.g. \ud83d\ude00`},
		{"reversed pair", `{"repo": "\ude00\ud83d", "number": 1}`,
			`repo: contains \ude00, half of a UTF-16 surrogate pair: escape a character outside the BMP as both halves, e.g. \ud83d\ude00`},
		{"high surrogate at the end", `{"repo": "r", "number": 1, "verdict": "\ud83d"}`,
			`verdict: contains \ud83d, half of a UTF-16 surrogate pair: escape a character outside the BMP as both halves, e.g. \ud83d\ude00`},
		{"long value clipped", `{"repo": "r", "number": 1, "verdict": "` + strings.Repeat("x", 100) + `"}`,
			`verdict: expected one of approve, request_changes, comment, got "` + strings.Repeat("x", 40) + `…"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decode([]byte(tc.args))
			if err == nil {
				t.Fatalf("accepted: %+v", got)
			}
			if err.Error() != tc.want {
				t.Fatalf("err = %q\nwant  %q", err, tc.want)
			}
			var errs Errors
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("err is %T, want a non-empty Errors", err)
			}
		})
	}
}

// TestDepth: nesting is limited as json.Valid limits it, over the whole
// document, and the refusal says so.
func TestDepth(t *testing.T) {
	deep := func(n int) []byte {
		return []byte(`{"repo":"r","number":1,"labels":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`)
	}
	if _, err := decode(deep(9999)); err == nil || err.Error() != "labels[0]: expected a string, got array" {
		t.Fatalf("9,999 levels in a value of a 10,000-level document: %v", err)
	}
	_, err := decode(deep(10000))
	if err == nil || !strings.HasPrefix(err.Error(), "arguments are not valid JSON: ") || !strings.Contains(err.Error(), "exceeded max depth") {
		t.Fatalf("10,001 levels: %v", err)
	}
}

func TestEscapes(t *testing.T) {
	got, err := decode([]byte(`{"r\u0065po": "a\u00e9\ud83d\ude00\n\"\/", "number": 1, "verdict": "\u0061pprove"}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "a\u00e9\U0001F600\n\"/"; got.Repo != want || got.Verdict != 1 {
		t.Fatalf("repo %q verdict %d, want %q and approve", got.Repo, got.Verdict, want)
	}
}

// TestDecodeUnicode: text outside the Basic Multilingual Plane arrives as
// UTF-8 or as an escaped surrogate pair, and both decode to the character;
// an escaped backslash before "u" is not an escape.
func TestDecodeUnicode(t *testing.T) {
	got, err := decode([]byte(`{"repo": "😀 \ud83d\ude00 \\ud800 é", "number": 1}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "😀 😀 \\ud800 é"; got.Repo != want {
		t.Fatalf("repo = %q, want %q", got.Repo, want)
	}
}

func TestHas(t *testing.T) {
	o, err := Parse([]byte(`{"forge_host": null, "forge_provider": "github"}`), "forge_provider", "forge_host")
	if err != nil {
		t.Fatal(err)
	}
	if !o.Has("forge_host", "forge_provider") || o.Has("forge_host") {
		t.Fatal("Has must see given parameters and treat null as absent")
	}
	if o.Err() != nil {
		t.Fatalf("Err = %v", o.Err())
	}
}

func TestNoParameters(t *testing.T) {
	_, err := Parse([]byte(`{"x": 1}`))
	if err == nil || err.Error() != `unknown parameter "x"; this tool takes no parameters` {
		t.Fatalf("err = %v", err)
	}
}

func TestParseInteger(t *testing.T) {
	type result struct {
		neg       bool
		mag       uint64
		frac, big bool
	}
	for lit, want := range map[string]result{
		"0":                       {},
		"-0":                      {},
		"0.000e5":                 {},
		"0e99999999999999999999":  {},
		"7":                       {mag: 7},
		"-7":                      {neg: true, mag: 7},
		"3.0":                     {mag: 3},
		"3e0":                     {mag: 3},
		"1.5e1":                   {mag: 15},
		"100e-2":                  {mag: 1},
		"1E+2":                    {mag: 100},
		"0.1":                     {frac: true},
		"1e-400":                  {frac: true},
		"1e-99999999999999999999": {frac: true},
		"18446744073709551615":    {mag: math.MaxUint64},
		"1844674407370955161.5e1": {mag: math.MaxUint64},
		"18446744073709551616":    {big: true},
		"1e20":                    {big: true},
		"1e99999999999999999999":  {big: true},
		"9007199254740993":        {mag: 9007199254740993},
	} {
		neg, mag, frac, big := parseInteger(lit)
		if got := (result{neg, mag, frac, big}); got != want {
			t.Errorf("parseInteger(%q) = %+v, want %+v", lit, got, want)
		}
	}
}

func TestWithout(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"action":"get","repo":"a/b"}`, `{"repo":"a/b"}`},
		{` { "repo" : "a/b" , "action" : "get" , "n" : [1, {"action": 2}] } `, `{"repo":"a/b","n":[1, {"action": 2}]}`},
		{`{"\u0061ction":"get","x":1}`, `{"x":1}`},
		{`{"x":1,"x":2,"action":null}`, `{"x":1,"x":2}`},
		{`{"action":"get"}`, `{}`},
		{``, ``},
		{`[1]`, `[1]`},
		{`{"action":"get"`, `{"action":"get"`},
		{`{"a":1} x`, `{"a":1} x`},
	} {
		if got := string(Without([]byte(tc.in), "action")); got != tc.want {
			t.Errorf("Without(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestStringOf(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{`{"repo":"a/b","action":"get","x":[1,{"action":"open"}]}`, "get", true},
		{`{"\u0061ction":"get"}`, "get", true},
		{`{"ACTION":"open","Action":"open"}`, "", false},
		{`{"action":"get","action":"open"}`, "", false},
		{`{"action":7}`, "", false},
		{`{"action":null}`, "", false},
		{`{"action":"get"`, "", false},
		{`{"action":"get"} {}`, "", false},
		{`["action"]`, "", false},
		{``, "", false},
	} {
		if got, ok := StringOf([]byte(tc.in), "action"); got != tc.want || ok != tc.ok {
			t.Errorf("StringOf(%s) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestAllocs: reading allocates only what the caller keeps (the request,
// the Object, the string), not the names a decoder passes (a variadic
// list the reader must leave on the caller's stack) nor the reader.
func TestAllocs(t *testing.T) {
	data := []byte(`{"repo":"acme/widgets","number":12}`)
	if n := testing.AllocsPerRun(100, func() { _, _ = decode(data) }); n > 3 {
		t.Fatalf("decode allocates %v times a call, want at most 3", n)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = Parse(data, "repo", "number") }); n > 1 {
		t.Fatalf("Parse allocates %v times a call, want at most 1", n)
	}
}

// BenchmarkDecode decodes a call shaped like the generated ones: the cost
// args adds to every tool call, valid and refused.
func BenchmarkDecode(b *testing.B) {
	for _, bc := range []struct{ name, args string }{
		{"small", `{"repo":"acme/widgets","number":12}`},
		{"nested", `{"repo":"acme/widgets","number":3,"verdict":"approve","labels":["bug","p1"],"limit":5,` +
			`"comments":[{"path":"a.go","line":1},{"path":"b.go","line":2,"side":"comment"}]}`},
		{"refused", `{"repo":"acme/widgets","number":"12","titel":"x"}`},
	} {
		data := []byte(bc.args)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			start := testkit.ProcessCPU()
			for b.Loop() {
				_, _ = decode(data)
			}
			// CPU time per op: on a shared machine the neighbours swing
			// wall time far more than it.
			if used := testkit.ProcessCPU() - start; used > 0 {
				b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
			}
		})
	}
}
