// Command validateproto writes buf/validate/validate.proto, printed from the
// descriptor compiled into the protovalidate Go module, into a directory that
// buf.yaml lists as a module. The Buf Schema Registry is not reachable from
// every build machine, and a hand-copied third-party proto would drift from
// the Go package the generated code imports; printing the descriptor of that
// very package keeps the two identical.
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"github.com/jhump/protoreflect/v2/protoprint"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: validateproto OUTPUT_DIR\n\nWrites OUTPUT_DIR/buf/validate/validate.proto from the protovalidate Go module.")
		os.Exit(2)
	}
	if err := write(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "validateproto:", err)
		os.Exit(1)
	}
}

func write(dir string) error {
	fd := validate.File_buf_validate_validate_proto
	var buf bytes.Buffer
	printer := protoprint.Printer{}
	if err := printer.PrintProtoFile(fd, &buf); err != nil {
		return fmt.Errorf("print %s: %w", fd.Path(), err)
	}
	out := filepath.Join(dir, fd.Path())
	if old, err := os.ReadFile(out); err == nil && bytes.Equal(old, buf.Bytes()) {
		return nil // unchanged: keep the mtime so make stays quiet
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(out, buf.Bytes(), 0o644)
}
