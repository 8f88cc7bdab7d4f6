package args

import (
	"encoding/json"
	"errors"
	"math/big"
	"regexp"
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
