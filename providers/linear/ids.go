package linear

import "github.com/google/uuid"

// The namespaces of the ids this provider chooses for Linear. They are part
// of the replay contract: changing one would give a retried create a new id
// after an upgrade, and Linear would file it a second time.
var (
	issueNamespace   = uuid.MustParse("a7b39330-fbcc-4bf4-af36-3b3284a4f163")
	commentNamespace = uuid.MustParse("bc08c268-ae26-444d-a00b-adab6bf9a113")
)

// IssueID is the id issueCreate is given for a create made by account with
// this client_request_id. The same pair always yields the same id, so a
// replay that reaches Linear meets the issue the first attempt filed;
// different accounts never share an id. The NUL keeps ("a", "b:c") and
// ("a:b", "c") apart.
func IssueID(account, clientRequestID string) string {
	return derive(issueNamespace, account+"\x00"+clientRequestID)
}

// CommentID is IssueID for commentCreate, in its own namespace so an issue
// and a comment made under one key never share an id.
func CommentID(account, clientRequestID string) string {
	return derive(commentNamespace, account+"\x00"+clientRequestID)
}

// derive is a deterministic id laid out as a version 4 UUID, which is what
// Linear's schema documents for IssueCreateInput.id and CommentCreateInput.id
// ("UUID v4 format") and what a validating server may insist on. Its 122
// free bits are those of UUIDv5(ns, name), a SHA-1 of the name: as unlikely
// to collide as random ones, but the same every time. (Ids derived before
// this layout differ only in the version nibble, 5 instead of 4.)
func derive(ns uuid.UUID, name string) string {
	u := uuid.NewSHA1(ns, []byte(name))
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // RFC 4122 variant (NewSHA1 sets it already)
	return u.String()
}
