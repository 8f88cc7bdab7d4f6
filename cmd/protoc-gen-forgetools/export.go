package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"github.com/jhump/protoreflect/v2/protoprint"

	protos "github.com/forgetools/forgetools/proto"
)

// exportProtos writes the proto files a table imports besides its own into
// dir, laid out by import path, for a buf module (or protoc -I) when no
// schema registry is reachable:
//
//   - forgetools/options/v1/options.proto, the annotation vocabulary, as
//     this plugin was built with it;
//   - buf/validate/validate.proto, printed from the descriptor compiled
//     into the protovalidate Go module this plugin (and the runtime)
//     validates with, so the rules a table writes are the rules that run.
//
// A file already holding the same bytes is left alone (so make stays
// quiet); it returns the paths it wrote.
func exportProtos(dir string) ([]string, error) {
	fd := validate.File_buf_validate_validate_proto
	var printed bytes.Buffer
	if err := (&protoprint.Printer{}).PrintProtoFile(fd, &printed); err != nil {
		return nil, fmt.Errorf("printing %s: %w", fd.Path(), err)
	}
	var wrote []string
	for _, f := range []struct {
		path string
		data []byte
	}{
		{"forgetools/options/v1/options.proto", protos.Options},
		{fd.Path(), printed.Bytes()},
	} {
		out := filepath.Join(dir, filepath.FromSlash(f.path))
		if old, err := os.ReadFile(out); err == nil && bytes.Equal(old, f.data) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return wrote, err
		}
		if err := os.WriteFile(out, f.data, 0o644); err != nil {
			return wrote, err
		}
		wrote = append(wrote, out)
	}
	return wrote, nil
}
