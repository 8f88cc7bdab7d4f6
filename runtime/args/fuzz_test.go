package args

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// FuzzDecode feeds arbitrary bytes to a decoder shaped like the generated
// ones: it must never panic, must accept only a valid JSON object, and must
// report every refusal as non-empty, parameter-scoped Errors.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"repo":"acme/widgets","number":3,"verdict":"approve"}`))
	f.Add([]byte(`{"repo":"\ud83d\ude00","number":1,"labels":["\ud800"]}`))
	f.Add([]byte("{\"repo\":\"a\xffb\",\"number\":1}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := decode(data)
		if err != nil {
			var errs Errors
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("err %v is %T, want non-empty Errors", err, err)
			}
			for _, e := range errs {
				if e.Message == "" {
					t.Fatalf("empty problem in %q", err)
				}
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q as %+v", data, req)
		}
		var m map[string]any
		if json.Unmarshal(data, &m) != nil {
			t.Fatalf("accepted a non-object %q", data)
		}
		for key := range m {
			if !strings.Contains(","+strings.Join(params, ",")+",", ","+key+",") {
				t.Fatalf("accepted unknown key %q", key)
			}
		}
		// Nothing was silently replaced: every U+FFFD decoded was in the
		// input, as UTF-8 or as an escape.
		texts := append([]string{req.Repo}, req.Labels...)
		for _, c := range req.Comments {
			texts = append(texts, c.Path)
		}
		decoded := strings.Count(strings.Join(texts, ""), "\uFFFD")
		given := strings.Count(string(data), "\uFFFD") + strings.Count(strings.ToLower(string(data)), `\ufffd`)
		if decoded > given {
			t.Fatalf("accepted %q with %d replacement characters the input did not contain", data, decoded-given)
		}
	})
}

var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// FuzzParseInteger checks the exact integer reader against math/big on every
// JSON number literal whose exponent math/big can afford.
func FuzzParseInteger(f *testing.F) {
	f.Add("3.0")
	f.Fuzz(func(t *testing.T, lit string) {
		if !jsonNumber.MatchString(lit) || len(lit) > 200 {
			return
		}
		neg, mag, frac, huge := parseInteger(lit)
		if pn, pm, ok := plainInteger([]byte(lit)); ok && (pn != neg || pm != mag || frac || huge) {
			t.Fatalf("plainInteger(%q) = %v %d, parseInteger %v %d frac=%v big=%v", lit, pn, pm, neg, mag, frac, huge)
		}
		if i := strings.IndexAny(lit, "eE"); i >= 0 && len(lit)-i > 4 {
			return // exponent beyond ±999: too costly for big.Rat, covered by unit tests
		}
		r, ok := new(big.Rat).SetString(lit)
		if !ok {
			t.Fatalf("big.Rat rejects %q", lit)
		}
		switch {
		case !r.IsInt():
			if !frac {
				t.Fatalf("%q is fractional, parseInteger says neg=%v mag=%d big=%v", lit, neg, mag, huge)
			}
		case r.Num().CmpAbs(new(big.Int).SetUint64(^uint64(0))) > 0:
			if !huge {
				t.Fatalf("%q exceeds uint64, parseInteger says mag=%d frac=%v", lit, mag, frac)
			}
		default:
			want := new(big.Int).Abs(r.Num())
			if frac || huge || mag != want.Uint64() || neg != (r.Sign() < 0) {
				t.Fatalf("%q = %s, parseInteger says neg=%v mag=%d frac=%v big=%v", lit, r.RatString(), neg, mag, frac, huge)
			}
		}
	})
}

// FuzzScan holds the reader to encoding/json: the same verdict on every
// input, and for a string literal the same decoded text.
func FuzzScan(f *testing.F) {
	for _, s := range []string{`{"a":[1,-0.5e+3,true,null,"x\u00e9\ud83d\ude00"]}`, `"\ud800\u0041"`, `"a` + "\xff" + `b"`,
		`[01]`, `{"a" 1}`, `1.`, `-`, `"\x"`, `[1,]`, ` {} `, `nul`, `"\u12"`, "\"\x1f\"", `{"a":{"b":{}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := open(data)
		defer r.close()
		val, err := r.dec.ReadValue()
		ok := err == nil && !r.rest(data)
		if want := json.Valid(data); ok != want {
			t.Fatalf("reader says valid=%v (%v), encoding/json %v, for %q", ok, err, want, data)
		}
		if !ok || val[0] != '"' {
			return
		}
		var want string
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		if got := unquote(val); got != want {
			t.Fatalf("unquote(%q) = %q, encoding/json %q", val, got, want)
		}
	})
}

// FuzzParseAgrees holds Parse to a reader built on encoding/json's
// (readObject): the same refusals, in the same words but for the syntax
// error, which each phrases in its own tokenizer's words, and the same
// value for every parameter it accepts.
func FuzzParseAgrees(f *testing.F) {
	f.Add([]byte(`{"repo":"r","number":1,"labels":["a"],"limit":null}`))
	f.Add([]byte(`{"r\u0065po":"r","repo":1}`))
	f.Add([]byte(`{"repo":"r","x":null,"x":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := Parse(data, params...)
		if len(bytes.TrimSpace(data)) == 0 {
			if err != nil || len(o.members) != 0 {
				t.Fatalf("empty input: %v", err)
			}
			return
		}
		fields, keys, msg := readObject(data)
		if msg == "" {
			msg = unknownProblem(slices.DeleteFunc(keys, func(k string) bool { return slices.Contains(params, k) }), params)
		} else {
			msg = "arguments " + msg
		}
		const syntax = "arguments are not valid JSON: "
		switch {
		case msg == syntax+"unexpected EOF": // truncated: the one syntax wording kept
			if err == nil || err.Error() != syntax+"unexpected end of input" {
				t.Fatalf("Parse(%q) = %v, want %q", data, err, syntax+"unexpected end of input")
			}
		case strings.HasPrefix(msg, syntax):
			if err == nil || !strings.HasPrefix(err.Error(), syntax) {
				t.Fatalf("Parse(%q) = %v, want %q", data, err, msg)
			}
		case msg != "":
			if err == nil || err.Error() != msg {
				t.Fatalf("Parse(%q) = %v, want %q", data, err, msg)
			}
		case err != nil:
			if json.Valid(data) { // only nesting past the limit may differ
				t.Fatalf("Parse(%q) refused what encoding/json accepts: %v", data, err)
			}
		default:
			if len(o.members) != len(fields) {
				t.Fatalf("Parse(%q) kept %d values, encoding/json %d", data, len(o.members), len(fields))
			}
			for name, raw := range fields {
				got, ok := o.get(name)
				if !ok || !bytes.Equal(bytes.TrimSpace(got), bytes.TrimSpace(raw)) {
					t.Fatalf("Parse(%q): %s = %q, encoding/json %q", data, name, got, raw)
				}
			}
		}
	})
}

// readObject splits one JSON object into its values with encoding/json's
// streaming decoder, rejecting repeated keys and anything after the object.
// It returns every key, and the values without the nulls: null means
// absent. It is the reference Parse is fuzzed against.
func readObject(data []byte) (fields map[string]json.RawMessage, keys []string, problem string) {
	dec := json.NewDecoder(bytes.NewReader(data))
	// A number is a valid JSON value of any size: as a float64 Token
	// would refuse one past its range, which is no syntax error.
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, "are not valid JSON: " + err.Error()
	}
	if tok != json.Delim('{') {
		return nil, nil, "must be a JSON object, got " + kind(data)
	}
	fields = map[string]json.RawMessage{}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, "are not valid JSON: " + err.Error()
		}
		key := tok.(string) // inside an object, Token yields keys as strings
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, "are not valid JSON: " + err.Error()
		}
		if seen[key] {
			return nil, nil, "repeat the key " + strconv.Quote(key)
		}
		seen[key] = true
		keys = append(keys, key)
		if kind(raw) != "null" {
			fields[key] = raw
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, nil, "are not valid JSON: " + err.Error()
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, "must be one JSON object, with nothing after it"
	}
	return fields, keys, ""
}
