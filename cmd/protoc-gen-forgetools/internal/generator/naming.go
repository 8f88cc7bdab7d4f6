package generator

import (
	"strings"
	"unicode"

	"google.golang.org/protobuf/compiler/protogen"
)

// Every Go identifier the generator emits is named here, so a reader finds
// the scheme in one place: the exported names come from the model-facing
// names in the proto options, the unexported helpers from the Go names of
// the messages and enums they serve.

// tableVar names the *runtime.Table of a toolset: "forge" -> ForgeTools.
func tableVar(toolset string) string { return camel(toolset) + "Tools" }

// toolVar names the *runtime.Tool of a tool: "forge_create_issue" ->
// ForgeCreateIssueTool.
func toolVar(tool string) string { return camel(tool) + "Tool" }

// The per-tool functions: decodeForgeCreateIssue, buildForgeCreateIssue,
// textsForgeCreateIssue.
func decodeFunc(tool string) string { return "decode" + camel(tool) }
func buildFunc(tool string) string  { return "build" + camel(tool) }
func textsFunc(tool string) string  { return "texts" + camel(tool) }

// The per-toolset helpers: unwrapForgeResult, decodeForgeSelector,
// forgeSelector, forgeNoTexts.
func unwrapFunc(toolset string) string         { return "unwrap" + camel(toolset) + "Result" }
func selectorDecodeFunc(toolset string) string { return "decode" + camel(toolset) + "Selector" }
func selectorFunc(toolset string) string       { return lowerFirst(camel(toolset)) + "Selector" }
func noTextsFunc(toolset string) string        { return lowerFirst(camel(toolset)) + "NoTexts" }

// enumNamesVar names the model-name table of an enum:
// IssueStateFilter -> issueStateFilterNames; an enum of another Go package
// is prefixed with its package name (forgev1ForgeProviderNames).
func enumNamesVar(local protogen.GoImportPath, id protogen.GoIdent, pkg protogen.GoPackageName) string {
	return lowerFirst(qualified(local, id, pkg)) + "Names"
}

// messageDecodeFunc and messageTextsFunc name the helpers for a nested
// message: decodeReviewCommentInput, textsReviewCommentInput.
func messageDecodeFunc(local protogen.GoImportPath, id protogen.GoIdent, pkg protogen.GoPackageName) string {
	return "decode" + upperFirst(qualified(local, id, pkg))
}

func messageTextsFunc(local protogen.GoImportPath, id protogen.GoIdent, pkg protogen.GoPackageName) string {
	return "texts" + upperFirst(qualified(local, id, pkg))
}

func qualified(local protogen.GoImportPath, id protogen.GoIdent, pkg protogen.GoPackageName) string {
	if id.GoImportPath == local {
		return id.GoName
	}
	return string(pkg) + id.GoName
}

// camel turns a snake_case (or kebab-case) model name into CamelCase.
func camel(name string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '-' }) {
		b.WriteString(upperFirst(part))
	}
	return b.String()
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// lowerFirst makes a Go name unexported the way Go spells initialisms: a
// leading initialism is lowered whole (CIStatusFilter -> ciStatusFilter,
// URL -> url), not just its first letter (cIStatusFilter). The one rule for
// every name: names from model names are camel-cased word by word, as
// protoc-gen-go names oneof fields (list_ci_runs -> ListCiRuns); names from
// proto messages and enums keep the proto's spelling (ListCIRunsRequest),
// and only their first word changes case when a helper is unexported.
func lowerFirst(s string) string {
	r := []rune(s)
	n := 0 // the leading upper-case run
	for n < len(r) && unicode.IsUpper(r[n]) {
		n++
	}
	if n > 1 && n < len(r) && unicode.IsLower(r[n]) {
		n-- // the run's last letter starts the next word (CIS|tatus)
	}
	for i := range n {
		r[i] = unicode.ToLower(r[i])
	}
	return string(r)
}

// The server side's names (<pkg>handler), from the toolset name, the
// capability and the tool: ForgeHandler, ForgeIssuesHandler,
// UnimplementedForgeHandler, ForgeTable; and the unexported helpers
// forgeGetIssueArm, serveForgeGetIssue, scopeForgeGetIssue,
// wrapForgeIssueResult, splitForgeRequest, forgeError.
func handlerIface(toolset string) string { return camel(toolset) + "Handler" }
func capabilityIface(toolset, capability string) string {
	return camel(toolset) + camel(capability) + "Handler"
}
func unimplementedType(toolset string) string { return "Unimplemented" + camel(toolset) + "Handler" }
func serverTableVar(toolset string) string    { return camel(toolset) + "Table" }
func armVar(tool string) string               { return lowerFirst(camel(tool)) + "Arm" }
func serveFunc(tool string) string            { return "serve" + camel(tool) }
func scopeFunc(tool string) string            { return "scope" + camel(tool) }
func wrapFunc(toolset, resultArm string) string {
	return "wrap" + camel(toolset) + camel(resultArm) + "Result"
}
func splitFunc(toolset string) string { return "split" + camel(toolset) + "Request" }
func errorFunc(toolset string) string { return lowerFirst(camel(toolset)) + "Error" }
