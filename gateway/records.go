package gateway

import (
	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/gateway/store"
)

// What the gateway writes down about a call it created something with, in
// the model's terms: the tool as the model names it, the artifact, and the
// web address the forge reported.

// ownership is the record of what o created: the artifact its result
// describes (kind = the result arm; number and id from the result's
// artifact fields; the repository as the call named it), at the result's
// URL.
func (s *Service) ownership(o *operation, p Provider, out proto.Message) store.Ownership {
	m := out.ProtoReflect()
	number, id := artifactOf(m)
	return store.Ownership{
		Account: o.acct.Name,
		Session: o.id.Session,
		Tool:    o.tool,
		Artifact: store.Artifact{
			Forge: store.ForgeOf(p.Ref()), Repo: o.repo, Kind: store.Kind(o.arm.Result), Number: number, ID: id,
		},
		URL: urlOf(m),
	}
}
