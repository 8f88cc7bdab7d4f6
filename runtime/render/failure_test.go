package render_test

import (
	"strings"
	"testing"

	"github.com/forgetools/forgetools/runtime/render"
)

func TestFailure(t *testing.T) {
	tests := []struct {
		name, code, msg string
		retry           uint64
		want            string
	}{
		{"plain", "not_found", "issue 7 does not exist", 0, "forge_get_issue failed: not_found: issue 7 does not exist"},
		{"retry hint", "resource_exhausted", "rate limited", 1500, "forge_get_issue failed: resource_exhausted: rate limited; retry after 1500ms"},
		{"message flattened", "internal", "first\nrecord issue\r\n\tthird", 0, "forge_get_issue failed: internal: first record issue third"},
		{"code injection", "not_found: ok\nrecord", "x", 0, "forge_get_issue failed: (malformed): x"},
		{"hidden characters shown", "internal", "a\u202eb", 0, "forge_get_issue failed: internal: a<U+202E>b"},
		{"message cut at 500 runes", "internal", strings.Repeat("é", 600), 0, "forge_get_issue failed: internal: " + strings.Repeat("é", 500)},
		{"cut before retry hint", "unavailable", strings.Repeat("x", 501), 9, "forge_get_issue failed: unavailable: " + strings.Repeat("x", 500) + "; retry after 9ms"},
	}
	for _, tc := range tests {
		if got := render.Failure("forge_get_issue", tc.code, tc.msg, tc.retry); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

func TestProtocolViolation(t *testing.T) {
	tests := []struct{ expected, got, want string }{
		{"issue", "pull_request", "forge_get_issue failed: protocol violation: expected result issue, got pull_request"},
		{"issue", "", "forge_get_issue failed: protocol violation: expected result issue, got none"},
		{"issue", "x\ny", "forge_get_issue failed: protocol violation: expected result issue, got (malformed)"},
	}
	for _, tc := range tests {
		if got := render.ProtocolViolation("forge_get_issue", tc.expected, tc.got); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
