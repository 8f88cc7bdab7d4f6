package runtime_test

import (
	"strings"
	"testing"

	"github.com/forgetools/forgetools/runtime"
)

func names(ts *runtime.Toolset) string {
	var n []string
	for _, t := range ts.Tools() {
		n = append(n, t.Name)
	}
	return strings.Join(n, ",")
}

func TestToolsetFilters(t *testing.T) {
	tests := []struct {
		name string
		opts []runtime.Option
		want []string
	}{
		{"all", nil, allTools},
		{"read-only drops writes", []runtime.Option{runtime.WithReadOnly()}, []string{"forge_get_issue", "forge_get_pull_request", "forge_list_issues", "forge_get_events"}},
		{"allow keeps table order", []runtime.Option{runtime.WithAllow("forge_submit_review", "forge_get_issue")}, []string{"forge_get_issue", "forge_submit_review"}},
		{"deny", []runtime.Option{runtime.WithDeny("forge_create_issue", "forge_subscribe")}, without("forge_create_issue", "forge_subscribe")},
		{"allow then deny", []runtime.Option{runtime.WithAllow("forge_get_issue", "forge_create_issue"), runtime.WithDeny("forge_create_issue")}, []string{"forge_get_issue"}},
		{"allow accumulates", []runtime.Option{runtime.WithAllow("forge_unsubscribe"), runtime.WithAllow("forge_subscribe")}, []string{"forge_subscribe", "forge_unsubscribe"}},
		{"read-only with allowed reads", []runtime.Option{runtime.WithReadOnly(), runtime.WithAllow("forge_list_issues")}, []string{"forge_list_issues"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts, err := runtime.NewToolset(testTable(), runtime.NewBroker(nil), tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := names(ts), strings.Join(tc.want, ","); got != want {
				t.Errorf("tools %s, want %s", got, want)
			}
			for _, name := range allTools {
				got, ok := ts.Lookup(name)
				if ok != strings.Contains(","+strings.Join(tc.want, ",")+",", ","+name+",") || (ok && got.Name != name) {
					t.Errorf("Lookup(%s) = %v, %v; filtered tools must not be found", name, got, ok)
				}
			}
		})
	}
}

func TestToolsetRejectsBadFilters(t *testing.T) {
	valid := "valid tools: " + strings.Join(allTools, ", ")
	tests := []struct {
		name string
		opts []runtime.Option
		want string
	}{
		{"unknown allow", []runtime.Option{runtime.WithAllow("forge_get_isue")}, `unknown tool "forge_get_isue"; ` + valid},
		{"unknown deny", []runtime.Option{runtime.WithDeny("get_issue")}, `unknown tool "get_issue"; ` + valid},
		{"write allowed in read-only", []runtime.Option{runtime.WithReadOnly(), runtime.WithAllow("forge_create_issue")}, "forge_create_issue is a write tool and the toolset is read-only"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runtime.NewToolset(testTable(), runtime.NewBroker(nil), tc.opts...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want one containing %q", err, tc.want)
			}
		})
	}
	dup := testTable()
	dup.Tools = append(dup.Tools, dup.Tools[0])
	if _, err := runtime.NewToolset(dup, runtime.NewBroker(nil)); err == nil || !strings.Contains(err.Error(), "defines forge_get_issue twice") {
		t.Errorf("duplicate tool: err %v", err)
	}
	if _, err := runtime.NewToolset(nil, runtime.NewBroker(nil)); err == nil {
		t.Error("nil table accepted")
	}
	if _, err := runtime.NewToolset(testTable(), nil); err == nil {
		t.Error("nil broker accepted")
	}
}

func TestToolsetInstructions(t *testing.T) {
	ts, err := runtime.NewToolset(testTable(), runtime.NewBroker(nil), runtime.WithReadOnly())
	if err != nil {
		t.Fatal(err)
	}
	if ts.Instructions() != testTable().Instructions || ts.Instructions() == "" || ts.Name() != "forge" {
		t.Errorf("instructions %q, name %q", ts.Instructions(), ts.Name())
	}
}
