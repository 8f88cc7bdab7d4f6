package gateway

import (
	"regexp"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
)

// refName is how a request field that holds a branch, tag or commit name
// is named.
var refName = regexp.MustCompile(`^(ref|branch|base|head)$|_(ref|branch)$`)

// Every ref-named string field of every arm's request (nested messages
// included) is marked (param).git_ref, so checkRefs sees it: an arm added
// with a ref field that forgets the option fails here, not in a forge's
// URL.
func TestEveryRefFieldIsChecked(t *testing.T) {
	call := (&gatewayv1.ForgeCallRequest{}).ProtoReflect().Descriptor().Oneofs().ByName("call")
	seen := map[protoreflect.FullName]bool{}
	marked := 0
	var walk func(m protoreflect.MessageDescriptor)
	walk = func(m protoreflect.MessageDescriptor) {
		if seen[m.FullName()] {
			return
		}
		seen[m.FullName()] = true
		for i := range m.Fields().Len() {
			f := m.Fields().Get(i)
			if f.Kind() == protoreflect.MessageKind && !f.IsMap() {
				walk(f.Message())
				continue
			}
			opts, _ := proto.GetExtension(f.Options(), optionsv1.E_Param).(*optionsv1.ParamOptions)
			switch {
			case f.Kind() == protoreflect.StringKind && refName.MatchString(string(f.Name())) && !opts.GetGitRef():
				t.Errorf("%s holds a ref but is not marked (forgetools.options.v1.param).git_ref", f.FullName())
			case opts.GetGitRef():
				marked++
			}
		}
	}
	for i := range call.Fields().Len() {
		walk(call.Fields().Get(i).Message())
	}
	if marked < 17 {
		t.Errorf("%d fields are marked git_ref, want at least the 17 of issue 21's arms", marked)
	}
}
