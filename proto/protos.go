// Package protos carries the proto sources a team's own table imports from
// forgetools, so that protoc-gen-forgetools --export-protos can write them
// where buf finds them when no schema registry is reachable.
package protos

import _ "embed"

// Options is forgetools/options/v1/options.proto, the annotation vocabulary.
//
//go:embed forgetools/options/v1/options.proto
var Options []byte
