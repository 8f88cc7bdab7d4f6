package breaking_test

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/runtime/export"
	"github.com/forgetools/forgetools/runtime/export/breaking"
)

// snapshots is the committed tool surface the cases edit: real schemas,
// so the classifier is tested on what the generator emits.
const snapshots = "../../../tests/toolsnaps"

func surface(t *testing.T) []export.Definition {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(snapshots, "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no snapshots in %s: %v", snapshots, err)
	}
	files := map[string][]byte{}
	for _, n := range names {
		if files[n], err = os.ReadFile(n); err != nil {
			t.Fatal(err)
		}
	}
	defs, err := breaking.ParseSnapshots(files)
	if err != nil {
		t.Fatal(err)
	}
	return defs
}

// edit returns defs with tool changed by f, which may edit the Definition
// and its decoded input schema.
func edit(t *testing.T, defs []export.Definition, tool string, f func(d *export.Definition, s map[string]any)) []export.Definition {
	t.Helper()
	out := slices.Clone(defs)
	i := slices.IndexFunc(out, func(d export.Definition) bool { return d.Name == tool })
	if i < 0 {
		t.Fatalf("no tool %s in the snapshots", tool)
	}
	var s map[string]any
	if err := json.Unmarshal(out[i].InputSchema, &s); err != nil {
		t.Fatal(err)
	}
	f(&out[i], s)
	raw, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	out[i].InputSchema = raw
	return out
}

// param is the schema at a parameter path ("comments[].path").
func param(t *testing.T, s map[string]any, path string) map[string]any {
	t.Helper()
	for _, name := range strings.Split(path, ".") {
		items := strings.HasSuffix(name, "[]")
		p, ok := s["properties"].(map[string]any)[strings.TrimSuffix(name, "[]")].(map[string]any)
		if !ok {
			t.Fatalf("no parameter %s in %v", path, s)
		}
		s = p
		if items {
			s = s["items"].(map[string]any)
		}
	}
	return s
}

func addRequired(s map[string]any, name string) {
	s["required"] = append(s["required"].([]any), name)
}

func TestCompare(t *testing.T) {
	base := surface(t)
	cases := []struct {
		name string
		edit func(t *testing.T) []export.Definition
		// want is every change expected, key → breaking.
		want map[string]bool
	}{
		{"unchanged", func(*testing.T) []export.Definition { return base }, map[string]bool{}},
		{"rename", func(t *testing.T) []export.Definition {
			return edit(t, base, "forge_get_issue", func(d *export.Definition, _ map[string]any) { d.Name = "forge_fetch_issue" })
		}, map[string]bool{"forge_get_issue:tool-removed": true, "forge_fetch_issue:tool-added": false}},
		{"rename keeping an alias", func(t *testing.T) []export.Definition {
			return edit(t, base, "forge_get_issue", func(d *export.Definition, _ map[string]any) {
				d.Name, d.Aliases = "forge_fetch_issue", []string{"forge_get_issue"}
			})
		}, map[string]bool{"forge_get_issue:tool-renamed": false}},
		{"tool removed", func(t *testing.T) []export.Definition {
			return slices.DeleteFunc(slices.Clone(base), func(d export.Definition) bool { return d.Name == "forge_rerun_ci" })
		}, map[string]bool{"forge_rerun_ci:tool-removed": true}},
		{"parameter removed", func(t *testing.T) []export.Definition {
			return edit(t, base, "forge_get_issue", func(_ *export.Definition, s map[string]any) {
				delete(s["properties"].(map[string]any), "forge_host")
			})
		}, map[string]bool{"forge_get_issue:forge_host:removed": true}},
		{"bounds tightened", func(t *testing.T) []export.Definition {
			return edit(t, base, "forge_list_issues", func(_ *export.Definition, s map[string]any) {
				param(t, s, "assignee")["maxLength"] = 50
				param(t, s, "limit")["minimum"] = 2
				param(t, s, "labels")["minItems"] = 1
			})
		}, map[string]bool{
			"forge_list_issues:assignee:maxLength-tightened": true,
			"forge_list_issues:limit:minimum-tightened":      true,
			"forge_list_issues:labels:minItems-tightened":    true,
		}},
		{"bounds loosened", func(t *testing.T) []export.Definition {
			return edit(t, base, "forge_list_issues", func(_ *export.Definition, s map[string]any) {
				param(t, s, "assignee")["maxLength"] = 200
				delete(param(t, s, "limit"), "maximum")
				param(t, s, "labels")["minItems"] = 0 // the absent bound, stated
			})
		}, map[string]bool{
			"forge_list_issues:assignee:maxLength-loosened": false,
			"forge_list_issues:limit:maximum-loosened":      false,
			"forge_list_issues:labels:minItems-restated":    false,
		}},
		{"optional parameter added", func(t *testing.T) []export.Definition {
			return edit(t, base, "forge_get_issue", func(_ *export.Definition, s map[string]any) {
				s["properties"].(map[string]any)["comments_limit"] = map[string]any{"type": "integer", "minimum": 0}
			})
		}, map[string]bool{"forge_get_issue:comments_limit:added": false}},
		{"required parameter added", func(t *testing.T) []export.Definition {
			return edit(t, base, "forge_get_issue", func(_ *export.Definition, s map[string]any) {
				s["properties"].(map[string]any)["reason"] = map[string]any{"type": "string"}
				addRequired(s, "reason")
			})
		}, map[string]bool{"forge_get_issue:reason:added-required": true}},
		{"optional became required", func(t *testing.T) []export.Definition {
			return edit(t, base, "forge_list_issues", func(_ *export.Definition, s map[string]any) { addRequired(s, "state") })
		}, map[string]bool{"forge_list_issues:state:now-required": true}},
		{"required became optional", func(t *testing.T) []export.Definition {
			return edit(t, base, "forge_get_issue", func(_ *export.Definition, s map[string]any) { s["required"] = []any{"repo"} })
		}, map[string]bool{"forge_get_issue:issue_number:now-optional": false}},
		{"enum value respelled", func(t *testing.T) []export.Definition {
			return edit(t, base, "forge_list_issues", func(_ *export.Definition, s map[string]any) {
				param(t, s, "state")["enum"] = []any{"open", "closed", "any"}
			})
		}, map[string]bool{"forge_list_issues:state:enum-removed:all": true, "forge_list_issues:state:enum-added:any": false}},
		{"approval raised, hint less read-only", func(t *testing.T) []export.Definition {
			return edit(t, base, "forge_get_issue", func(d *export.Definition, _ map[string]any) {
				d.Approval, d.Annotations.ReadOnlyHint = "write", false
			})
		}, map[string]bool{"forge_get_issue:approval-raised": true, "forge_get_issue:readOnlyHint-changed": true}},
		{"approval lowered", func(t *testing.T) []export.Definition {
			return edit(t, base, "forge_merge_pull_request", func(d *export.Definition, _ map[string]any) { d.Approval = "read" })
		}, map[string]bool{"forge_merge_pull_request:approval-lowered": false}},
		{"prose", func(t *testing.T) []export.Definition {
			return edit(t, base, "forge_list_issues", func(d *export.Definition, s map[string]any) {
				d.Description += " Newest first."
				d.Title = "List the issues"
				param(t, s, "state")["description"] = "Which issues."
			})
		}, map[string]bool{
			"forge_list_issues:description-changed":       false,
			"forge_list_issues:title-changed":             false,
			"forge_list_issues:state:description-changed": false,
		}},
		{"nested parameter", func(t *testing.T) []export.Definition {
			return edit(t, base, "forge_submit_review", func(_ *export.Definition, s map[string]any) {
				item := param(t, s, "comments[]")
				param(t, s, "comments[].path")["maxLength"] = 512
				delete(item["properties"].(map[string]any), "side")
				addRequired(item, "side")
				param(t, s, "comments[].body")["pattern"] = `\S`
			})
		}, map[string]bool{
			"forge_submit_review:comments[].path:maxLength-tightened": true,
			"forge_submit_review:comments[].side:removed":             true,
			"forge_submit_review:comments[].body:pattern-changed":     true,
		}},
		{"type and object closed", func(t *testing.T) []export.Definition {
			return edit(t, base, "forge_list_issues", func(_ *export.Definition, s map[string]any) {
				param(t, s, "limit")["type"] = "number" // integer is a number: loosened
				param(t, s, "assignee")["type"] = []any{"string", "null"}
				param(t, s, "since")["type"] = "integer"
				delete(param(t, s, "since"), "format")
				param(t, s, "labels")["items"].(map[string]any)["additionalProperties"] = false
			})
		}, map[string]bool{
			"forge_list_issues:limit:type-loosened":                  false,
			"forge_list_issues:assignee:type-loosened":               false,
			"forge_list_issues:since:type-changed":                   true,
			"forge_list_issues:since:format-removed":                 false,
			"forge_list_issues:labels[]:additionalProperties-closed": true,
		}},
		{"schema root", func(t *testing.T) []export.Definition {
			return edit(t, base, "forge_get_issue", func(_ *export.Definition, s map[string]any) {
				s["additionalProperties"] = true
				s["description"] = "Issue lookup."
			})
		}, map[string]bool{
			"forge_get_issue:input_schema.additionalProperties-opened": false,
			"forge_get_issue:input_schema.description-changed":         false,
		}},
		{"keywords the check does not model", func(t *testing.T) []export.Definition {
			return edit(t, base, "forge_get_events", func(_ *export.Definition, s map[string]any) {
				p := param(t, s, "subscription_id")
				p["anyOf"].([]any)[1].(map[string]any)["maxLength"] = 100
				param(t, s, "limit")["default"] = 20
				param(t, s, "limit")["exclusiveMinimum"] = true // draft-04 spelling, not a number
			})
		}, map[string]bool{
			"forge_get_events:subscription_id:anyOf-changed":  true,
			"forge_get_events:limit:default-changed":          true,
			"forge_get_events:limit:exclusiveMinimum-changed": true,
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := map[string]bool{}
			for _, ch := range breaking.Compare(base, c.edit(t)) {
				if _, dup := got[ch.Key()]; dup {
					t.Errorf("key %s reported twice", ch.Key())
				}
				got[ch.Key()] = ch.Breaking
			}
			if !maps.Equal(got, c.want) {
				t.Errorf("changes (key: breaking):\n got %v\nwant %v", got, c.want)
			}
		})
	}
}

// Every field of a Definition is part of what the model or its host sees,
// so a change to any of them must be reported: a field added to
// export.Definition later fails here until Compare looks at it.
func TestEveryFieldCompared(t *testing.T) {
	base := surface(t)
	d := base[0] // edited one field at a time, through reflection
	var visit func(v reflect.Value, path string)
	visit = func(v reflect.Value, path string) {
		for i := range v.NumField() {
			f, name := v.Field(i), path+v.Type().Field(i).Name
			old := reflect.ValueOf(f.Interface())
			switch {
			case f.Kind() == reflect.Struct:
				visit(f, name+".")
				continue
			case f.Kind() == reflect.String:
				f.SetString(f.String() + "x")
			case f.Kind() == reflect.Bool:
				f.SetBool(!f.Bool())
			case f.Type() == reflect.TypeFor[json.RawMessage]():
				f.SetBytes([]byte(`{"type": "object", "minProperties": 1}`))
			case f.Type() == reflect.TypeFor[[]string]():
				f.Set(reflect.Append(f, reflect.ValueOf("forge_old_name")))
			default:
				t.Fatalf("Definition.%s: a %s this test cannot change; teach it, and Compare", name, f.Type())
			}
			changed := slices.Clone(base)
			changed[0] = d
			if len(breaking.Compare(base, changed)) == 0 {
				t.Errorf("Definition.%s changed, Compare reported nothing", name)
			}
			f.Set(old)
		}
	}
	visit(reflect.ValueOf(&d).Elem(), "")
}
