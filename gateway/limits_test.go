package gateway

import (
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/toolserver"
)

func armNamed(t *testing.T, name string) *toolserver.Arm {
	t.Helper()
	for _, a := range gatewayv1handler.ForgeTable.Arms {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("no arm %s", name)
	return nil
}

// The quota an arm spends is the one its (tool).approval names, which the
// generator puts into the arm.
func TestArmApprovalIsTheToolOption(t *testing.T) {
	for arm, want := range map[string]toolserver.Approval{
		"get_issue":          toolserver.ApprovalRead,
		"comment_on_issue":   toolserver.ApprovalWrite,
		"write_file":         toolserver.ApprovalPush,
		"merge_pull_request": toolserver.ApprovalPush,
	} {
		if got := armNamed(t, arm).Approval; got != want {
			t.Errorf("%s: %v, want %v", arm, got, want)
		}
	}
}

// Push calls spend their own quota, refill with time (a clock the test
// moves), and a refusal's retry hint is when the bucket has room again.
func TestPushQuotaRefillsWithTime(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	m := newMeter(Limits{PushCallsPerMinute: 2, PushBytesPerMinute: 1 << 20})
	m.now = func() time.Time { return now }
	write := &operation{table: gatewayv1handler.ForgeTable, arm: armNamed(t, "write_file"), acct: &account{Account: Account{Name: "a"}, meter: m},
		req: &gatewayv1.WriteFileRequest{Repo: "a/b", Branch: "x", Path: "f", Content: "c", Message: "m"}}
	comment := &operation{table: gatewayv1handler.ForgeTable, arm: armNamed(t, "comment_on_issue"), acct: write.acct,
		req: &gatewayv1.CommentOnIssueRequest{Repo: "a/b", IssueNumber: 1, Body: "b"}}
	for range 2 {
		if err := m.charge(write); err != nil {
			t.Fatal(err)
		}
	}
	err := m.charge(write)
	ib, ok := err.(inBand)
	if !ok || ib.Code != gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED || ib.RetryAfterMs != 30_000 {
		t.Fatalf("third push: %v; want resource_exhausted retrying after 30000 ms", err)
	}
	if err := m.charge(comment); err != nil {
		t.Errorf("a write under a spent push quota: %v", err)
	}
	now = now.Add(30 * time.Second)
	if err := m.charge(write); err != nil {
		t.Errorf("after the hinted wait: %v", err)
	}
	// The bytes are the request's proto size, whatever its fields.
	big := proto.Clone(write.req).(*gatewayv1.WriteFileRequest)
	big.Content = string(make([]byte, 2<<20))
	now = now.Add(time.Hour)
	write.req = big
	if err := m.charge(write); err != nil {
		t.Fatalf("a 2 MiB write from a full bucket: %v", err)
	}
	now = now.Add(time.Minute) // one minute refills 1 MiB of the 2 overdrawn
	if err := m.charge(write); err == nil {
		t.Error("a write while the bytes are overdrawn was let through")
	}
}
