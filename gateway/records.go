// What the gateway writes down about a call in the model's terms: the tool
// name for logs, and the ownership record with its tool and URL.

package gateway

import (
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/forgetools/forgetools/gateway/store"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
)

// toolName is a request's arm as the model names it ("forge_create_issue"),
// read from the arm's (forgetools.options.v1.tool) option, so logs and
// audit records speak the model's vocabulary; the arm name when the arm
// carries no tool option, "unset" when no arm is set.
func toolName(req *gatewayv1.ForgeCallRequest) string {
	fd := armField(req)
	if fd == nil {
		return "unset"
	}
	if o, ok := proto.GetExtension(fd.Options(), optionsv1.E_Tool).(*optionsv1.ToolOptions); ok && o.GetName() != "" {
		return o.GetName()
	}
	return string(fd.Name())
}

// ownership is the record of what call x created: a, at url, made by the
// tool the model called.
func ownership(x *call, a store.Artifact, url string) store.Ownership {
	return store.Ownership{Account: x.acct.Name, Session: x.id.Session, Tool: toolName(x.req), Artifact: a, URL: url}
}

// resultURL is the web address in a result's arm message (its "url"
// field); "" when it has none.
func resultURL(res *gatewayv1.ForgeCallResult) string {
	m := res.ProtoReflect()
	arm := m.WhichOneof(m.Descriptor().Oneofs().ByName("result"))
	if arm == nil || arm.Message() == nil {
		return ""
	}
	msg := m.Get(arm).Message()
	if fd := msg.Descriptor().Fields().ByName("url"); fd != nil && fd.Kind() == protoreflect.StringKind {
		return msg.Get(fd).String()
	}
	return ""
}
