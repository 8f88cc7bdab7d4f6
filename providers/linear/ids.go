package linear

import "github.com/google/uuid"

// The UUIDv5 namespaces of the ids this provider chooses for Linear. They
// are part of the replay contract: changing one would give a retried create
// a new id after an upgrade, and Linear would file it a second time.
var (
	issueNamespace   = uuid.MustParse("a7b39330-fbcc-4bf4-af36-3b3284a4f163")
	commentNamespace = uuid.MustParse("bc08c268-ae26-444d-a00b-adab6bf9a113")
)

// IssueID is the id issueCreate is given for a create made by account with
// this client_request_id: UUIDv5(namespace, account NUL clientRequestID).
// The same pair always yields the same id, so a replay that reaches Linear
// meets the issue the first attempt filed; different accounts never share
// an id. The NUL keeps ("a", "b:c") and ("a:b", "c") apart.
func IssueID(account, clientRequestID string) string {
	return uuid.NewSHA1(issueNamespace, []byte(account+"\x00"+clientRequestID)).String()
}

// CommentID is IssueID for commentCreate, in its own namespace so an issue
// and a comment made under one key never share an id.
func CommentID(account, clientRequestID string) string {
	return uuid.NewSHA1(commentNamespace, []byte(account+"\x00"+clientRequestID)).String()
}
