package runtime

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/forgetools/forgetools/violation"
)

// validator is shared by every Toolset in the process: it compiles each
// message type's rules once and caches them.
var validator = sync.OnceValues(func() (protovalidate.Validator, error) {
	return protovalidate.New()
})

// validateArgs checks a decoded request (and the selector, when given) with
// the same buf.validate rules the gateway enforces, and phrases every
// violation for the model ("repo: must not be blank"), naming fields as the
// table's parameters.
func validateArgs(t *Table, args Args) error {
	v, err := validator()
	if err != nil {
		return fmt.Errorf("validator unavailable: %w", err)
	}
	var lines []string
	for _, part := range []struct {
		msg   proto.Message
		namer violation.Namer
	}{
		{args.Request, t.paramName},
		{args.Forge, t.selectorName},
	} {
		if part.msg == nil {
			continue
		}
		var ve *protovalidate.ValidationError
		if err := v.Validate(part.msg); errors.As(err, &ve) {
			lines = append(lines, violation.All(part.msg.ProtoReflect().Descriptor(), ve, part.namer)...)
		} else if err != nil {
			return err
		}
	}
	if len(lines) == 0 {
		return nil
	}
	return errors.New(strings.Join(lines, "; "))
}

// paramName is a request field's parameter name: the table's rename, else
// the field name.
func (t *Table) paramName(fd protoreflect.FieldDescriptor, _ bool) string {
	if name, ok := t.ParamNames[string(fd.FullName())]; ok {
		return name
	}
	return string(fd.Name())
}

// selectorName maps the selector message's top-level fields to their flat
// parameter names (provider -> forge_provider).
func (t *Table) selectorName(fd protoreflect.FieldDescriptor, top bool) string {
	if name, ok := t.Selector[string(fd.Name())]; ok && top {
		return name
	}
	return t.paramName(fd, top)
}
