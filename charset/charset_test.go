package charset_test

import (
	"testing"

	"github.com/forgetools/forgetools/charset"
)

func TestPatternWords(t *testing.T) {
	for pattern, want := range map[string]string{
		`^[\w./-]+$`:          "must be non-empty and contain only letters, digits, '-', '.', '/' and '_'",
		`^[A-Za-z0-9.:-]*$`:   "may contain only letters, digits, '-', '.' and ':'",
		`^[\w-]+$`:            "must be non-empty and contain only letters, digits, '-' and '_'",
		`^[0-9]+$`:            "must be non-empty and contain only digits",
		`^[a-z]+$`:            "must be non-empty and contain only 'a' to 'z'", // lower case only: not "letters"
		`^[A-Za-z]*$`:         "may contain only letters",
		`^[^/]+$`:             "must match the pattern ^[^/]+$", // a negated class is every other character
		`^[0-9A-Fa-f]{7,64}$`: "must be 7 to 64 characters, only digits, 'A' to 'F' and 'a' to 'f'",
		`^[\w./-]{1,200}$`:    "must be 1 to 200 characters, only letters, digits, '-', '.', '/' and '_'",
		`^[\w.:-]{0,253}$`:    "may be at most 253 characters, only letters, digits, '-', '.', ':' and '_'",
		`^[0-9]{4,}$`:         "must be at least 4 characters, only digits",
		`^([0-9a-f]{7,64})?$`: "must match the pattern ^([0-9a-f]{7,64})?$",
		`[\w]+`:               "must match the pattern [\\w]+",    // unanchored
		`^[\w ]+$`:            "must match the pattern ^[\\w ]+$", // a space is not said in words
		`^[é]+$`:              "must match the pattern ^[é]+$",
		charset.NonBlank:      "must match the pattern " + charset.NonBlank,
		`^(`:                  "must match the pattern ^(",
	} {
		if got := charset.PatternWords(pattern); got != want {
			t.Errorf("PatternWords(%q) = %q, want %q", pattern, got, want)
		}
	}
}
