package kit

import (
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// Committed is one file of a committed change set as every forge reports
// it: deleted, updated (it named the blob it replaced) or created, with
// its new blob (empty for a delete), the next write's expected_sha.
func Committed(fc *gatewayv1.FileChange, blob string) *forgev1.CommittedFile {
	status := "created"
	switch {
	case fc.GetDelete():
		status, blob = "deleted", ""
	case fc.GetExpectedSha() != "":
		status = "updated"
	}
	return &forgev1.CommittedFile{Path: fc.GetPath(), Status: status, BlobSha: blob}
}
