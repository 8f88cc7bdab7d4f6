// Package layering_test guards the shape of the code: imports point one way
// (the rule table in rules_test.go: providers are leaf adapters, the
// subscriptions tier sits below the gateway, the contract below every
// tier, the server tier never links the agent runtime), and no
// hand-written gateway code names an arm of the table, so per-arm code
// cannot creep back into the chokepoint.
package layering_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

const module = "github.com/forgetools/forgetools"

// No hand-written (non-test) file under gateway/ names a type of the
// table: the envelopes, their arm wrappers or an arm's request message.
// The gateway reads each arm's policy from the generated toolserver.Table.
func TestGatewayNamesNoArm(t *testing.T) {
	forbidden := tableTypes(gatewayv1.File_forgetools_gateway_v1_agent_gateway_proto.Messages().ByName("ForgeCallRequest"))
	checked := 0
	err := filepath.WalkDir("../../gateway", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for _, hit := range armReferences(t, path, src, forbidden) {
			t.Errorf("%s names %s: per-arm code belongs in the proto (options) and the generated handler package", hit.pos, hit.name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Fatalf("checked only %d files under gateway/", checked)
	}
}

// The check finds what it is meant to find.
func TestArmReferencesAreFound(t *testing.T) {
	forbidden := tableTypes(gatewayv1.File_forgetools_gateway_v1_agent_gateway_proto.Messages().ByName("ForgeCallRequest"))
	src := `package gateway
import gw "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
func f(r *gw.ForgeCallRequest) *gw.CreateIssueRequest {
	_ = gw.ForgeCallRequest_GetIssue{}
	_ = gw.ErrorCode_ERROR_CODE_INTERNAL // allowed: the error contract
	return nil
}`
	var names []string
	for _, hit := range armReferences(t, "x.go", []byte(src), forbidden) {
		names = append(names, hit.name)
	}
	if got := strings.Join(names, " "); got != "ForgeCallRequest CreateIssueRequest ForgeCallRequest_GetIssue" {
		t.Fatalf("found %q", got)
	}
}

// tableTypes lists the Go names of the dispatch envelope, its result, the
// arm wrappers of both oneofs and the arm request messages.
func tableTypes(dispatch protoreflect.MessageDescriptor) map[string]bool {
	out := map[string]bool{}
	result := gatewayv1.File_forgetools_gateway_v1_agent_gateway_proto.Messages().ByName("ForgeCallResult")
	for _, md := range []protoreflect.MessageDescriptor{dispatch, result} {
		out[string(md.Name())] = true
		for i := range md.Oneofs().Len() {
			fields := md.Oneofs().Get(i).Fields()
			for j := range fields.Len() {
				f := fields.Get(j)
				out[string(md.Name())+"_"+goName(string(f.Name()))] = true
				if md == dispatch && f.Message() != nil {
					out[string(f.Message().Name())] = true
				}
			}
		}
	}
	return out
}

// goName is protoc-gen-go's CamelCase of a field name.
func goName(field string) string {
	var b strings.Builder
	for _, part := range strings.Split(field, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

type hit struct{ pos, name string }

// armReferences finds selectors pkg.Name where pkg imports the gateway's
// message package and Name is forbidden.
func armReferences(t *testing.T, path string, src []byte, forbidden map[string]bool) []hit {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	if ast.IsGenerated(f) {
		return nil
	}
	local := map[string]bool{}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if p != module+"/gen/forgetools/gateway/v1" {
			continue
		}
		name := "gatewayv1"
		if imp.Name != nil {
			name = imp.Name.Name
		}
		local[name] = true
	}
	var hits []hit
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); ok && local[id.Name] && forbidden[sel.Sel.Name] {
			hits = append(hits, hit{fset.Position(sel.Pos()).String(), sel.Sel.Name})
		}
		return true
	})
	return hits
}
