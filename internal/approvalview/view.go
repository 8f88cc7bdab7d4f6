// Package approvalview says, for an operator, what a parked call will do
// if approved: for a file write, the diff against the file at the branch
// head; for a merge, the pull request, its head sha, reviews and checks;
// for a branch, where it starts; for every call, its arguments (texts
// included, as stamped). `forgetools approvals show` prints it, and the
// console can show the same text.
//
// What the forge says is read when the view is made, through the
// gateway's Inspect (scoped as the call is, never parked): the diff is
// against the file as it is now, which is what an approval would change.
package approvalview

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sergi/go-diff/diffmatchpatch"
	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/enumname"
	"github.com/forgetools/forgetools/gateway"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// Summary is the one-line description of an approval, for lists.
func Summary(a gateway.Approval) string {
	var rules []string
	for _, h := range a.Holds {
		rules = append(rules, h.Rule)
	}
	return fmt.Sprintf("%s  %-8s  %s/%s  %s %s%s on %s  (%s)", a.ID, a.State, a.Account, a.Session, a.Tool, a.Repo, Files(a.Request), a.Forge, strings.Join(rules, ", "))
}

// Files names every file a change set touches and how, for the one-line
// summaries (" [update a.go, create b.go, delete c.go]"); "" for any other
// call. An approver must see a set's every file, not only its first.
func Files(req proto.Message) string {
	r, ok := req.(*gatewayv1.CommitFilesRequest)
	if !ok {
		return ""
	}
	parts := make([]string, len(r.GetFiles()))
	for i, f := range r.GetFiles() {
		parts[i] = changeVerb(f) + " " + f.GetPath()
	}
	return " [" + strings.Join(parts, ", ") + "]"
}

func changeVerb(f *gatewayv1.FileChange) string {
	switch {
	case f.GetDelete():
		return "delete"
	case f.GetExpectedSha() != "":
		return "update"
	}
	return "create"
}

// Render is the whole view of a: who asked, why it waits, what it will
// do, its arguments, and its decision and outcome once there are any.
func Render(ctx context.Context, svc *gateway.Service, a gateway.Approval) string {
	var b strings.Builder
	fmt.Fprintf(&b, "approval %s: %s\n", a.ID, a.State)
	fmt.Fprintf(&b, "  call:     %s on %s in %s\n", a.Tool, a.Forge, a.Repo)
	fmt.Fprintf(&b, "  asked by: account %s, session %s, at %s\n", a.Account, a.Session, a.Created.Format(time.RFC3339))
	fmt.Fprintf(&b, "  expires:  %s\n", a.Expires.Format(time.RFC3339))
	fmt.Fprintf(&b, "  risk:     %s\n", a.Risk)
	for _, e := range a.Escalations {
		fmt.Fprintf(&b, "  escalated: %s\n", e)
	}
	for _, h := range a.Holds {
		fmt.Fprintf(&b, "  held by:  %s: %s\n", h.Rule, h.Reason)
	}
	if a.Operator != "" {
		fmt.Fprintf(&b, "  decision: %s by %s at %s", decision(a.State), a.Operator, a.Decided.Format(time.RFC3339))
		if a.Reason != "" {
			fmt.Fprintf(&b, ": %s", a.Reason)
		}
		b.WriteString("\n")
	}
	switch {
	case a.Error != nil:
		fmt.Fprintf(&b, "  outcome:  failed: %s: %s\n", enumname.Of(a.Error.GetCode()), a.Error.GetMessage())
	case a.Result != nil:
		fmt.Fprintf(&b, "  outcome:  ran at %s\n", a.Finished.Format(time.RFC3339))
	}
	if a.State == gateway.ApprovalPending {
		b.WriteString("\nWhat it will do:\n")
		b.WriteString(indent(effect(ctx, svc, a)))
	}
	b.WriteString("\nArguments, as they will be sent:\n")
	b.WriteString(indent(a.Preview))
	return b.String()
}

func decision(state string) string {
	if state == gateway.ApprovalDenied {
		return "denied"
	}
	return "approved"
}

// effect reads what the call changes, per kind of call.
func effect(ctx context.Context, svc *gateway.Service, a gateway.Approval) string {
	switch r := a.Request.(type) {
	case *gatewayv1.WriteFileRequest:
		return fileDiff(ctx, svc, a, r)
	case *gatewayv1.CommitFilesRequest:
		return changeSet(ctx, svc, a, r)
	case *gatewayv1.MergePullRequestRequest:
		return mergeDetail(ctx, svc, a, r)
	case *gatewayv1.CreateBranchRequest:
		from := r.GetFromRef()
		if from == "" {
			from = "the default branch"
		}
		return fmt.Sprintf("creates branch %s in %s, at %s\n", r.GetBranch(), r.GetRepo(), from)
	}
	return "the call below, as written (its texts are shown in full)\n"
}

// read runs a read for the view; a failure is said, not fatal.
func read(ctx context.Context, svc *gateway.Service, a gateway.Approval, req *gatewayv1.ForgeCallRequest) (*gatewayv1.ForgeCallResult, string) {
	res, err := svc.Inspect(ctx, a, req)
	if err != nil {
		return nil, err.Error()
	}
	out := res.(*gatewayv1.ForgeCallResult)
	if fe := out.GetError(); fe != nil {
		return out, fmt.Sprintf("%s: %s", enumname.Of(fe.GetCode()), fe.GetMessage())
	}
	return out, ""
}

// fileDiff is the write as a line diff against the file at the branch's
// head (all added when the file is new).
func fileDiff(ctx context.Context, svc *gateway.Service, a gateway.Approval, r *gatewayv1.WriteFileRequest) string {
	header := fmt.Sprintf("commits %s to branch %s of %s: %q\n", r.GetPath(), r.GetBranch(), r.GetRepo(), firstLine(r.GetMessage()))
	return header + againstHead(ctx, svc, a, r.GetRepo(), r.GetBranch(), r.GetPath(), r.GetContent(), r.GetExpectedSha())
}

// changeSet is every file of a change set, each as a line diff against
// the file at the branch's head (a delete as the blob it removes).
func changeSet(ctx context.Context, svc *gateway.Service, a gateway.Approval, r *gatewayv1.CommitFilesRequest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "commits %d files to branch %s of %s as one commit: %q\n", len(r.GetFiles()), r.GetBranch(), r.GetRepo(), firstLine(r.GetMessage()))
	if h := r.GetExpectedHeadSha(); h != "" {
		fmt.Fprintf(&b, "on the branch head %s only\n", h)
	}
	for _, f := range r.GetFiles() {
		fmt.Fprintf(&b, "\n%s %s\n", changeVerb(f), f.GetPath())
		if f.GetDelete() {
			fmt.Fprintf(&b, "deletes the file (the call expects blob %s)\n", f.GetExpectedSha())
			continue
		}
		b.WriteString(againstHead(ctx, svc, a, r.GetRepo(), r.GetBranch(), f.GetPath(), f.GetContent(), f.GetExpectedSha()))
	}
	return b.String()
}

// againstHead is one file's new content as a line diff against the file
// at the branch's head.
func againstHead(ctx context.Context, svc *gateway.Service, a gateway.Approval, repo, branch, path, content, expected string) string {
	var b strings.Builder
	res, failed := read(ctx, svc, a, &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ReadFile{ReadFile: &gatewayv1.ReadFileRequest{
		Repo: repo, Path: path, Ref: branch}}})
	old := ""
	switch {
	case failed != "" && res.GetError().GetCode() == gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND:
		b.WriteString("a new file\n")
	case failed != "":
		fmt.Fprintf(&b, "(the file at the branch head could not be read: %s)\n", failed)
	default:
		f := res.GetFile()
		if f.GetBinary() {
			fmt.Fprintf(&b, "replaces a binary file of %d bytes (blob %s)\n", f.GetSize(), f.GetSha())
			return b.String()
		}
		old = f.GetContent()
		fmt.Fprintf(&b, "against blob %s at the head of %s (the call expects %q)\n", f.GetSha(), branch, expected)
	}
	fmt.Fprintf(&b, "--- %s (%s)\n+++ %s (after the write)\n", path, branch, path)
	b.WriteString(lineDiff(old, content))
	return b.String()
}

// lineDiff marks each line removed (-), added (+) or kept (space).
func lineDiff(before, after string) string {
	dmp := diffmatchpatch.New()
	x, y, lines := dmp.DiffLinesToChars(before, after)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(x, y, false), lines)
	var b strings.Builder
	for _, d := range diffs {
		mark := " "
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			mark = "-"
		case diffmatchpatch.DiffInsert:
			mark = "+"
		}
		for _, l := range strings.SplitAfter(d.Text, "\n") {
			if l == "" {
				continue
			}
			b.WriteString(mark + l)
			if !strings.HasSuffix(l, "\n") {
				b.WriteString("\n\\ no newline at the end\n")
			}
		}
	}
	return b.String()
}

// mergeDetail is the pull request the merge takes: its branches, head sha
// (and whether it is the one the call expects), reviews and checks.
func mergeDetail(ctx context.Context, svc *gateway.Service, a gateway.Approval, r *gatewayv1.MergePullRequestRequest) string {
	var b strings.Builder
	method := strings.ToLower(strings.TrimPrefix(r.GetMethod().String(), "MERGE_METHOD_"))
	if method == "unspecified" {
		method = "the forge's default method"
	}
	fmt.Fprintf(&b, "merges pull request #%d of %s (%s), expecting head %s\n", r.GetPullNumber(), r.GetRepo(), method, r.GetExpectedHeadSha())
	res, failed := read(ctx, svc, a, &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_GetPullRequest{GetPullRequest: &gatewayv1.GetPullRequestRequest{
		Repo: r.GetRepo(), PullNumber: r.GetPullNumber()}}})
	if failed != "" {
		fmt.Fprintf(&b, "(the pull request could not be read: %s)\n", failed)
		return b.String()
	}
	pr := res.GetPullRequest()
	fmt.Fprintf(&b, "%q by %s: %s into %s, state %s, mergeable %s\n", pr.GetTitle(), pr.GetAuthor(), pr.GetHeadRef(), pr.GetBaseRef(), pr.GetState(), pr.GetMergeable())
	same := "the head the call expects"
	if pr.GetHeadSha() != r.GetExpectedHeadSha() {
		same = "NOT the head the call expects: the forge will refuse the merge"
	}
	fmt.Fprintf(&b, "head %s (%s)\n", pr.GetHeadSha(), same)
	if len(pr.GetReviews()) == 0 {
		b.WriteString("reviews: none\n")
	}
	for _, rv := range pr.GetReviews() {
		fmt.Fprintf(&b, "review by %s: %s\n", rv.GetAuthor(), rv.GetVerdict())
	}
	runs, failed := read(ctx, svc, a, &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ListCiRuns{ListCiRuns: &gatewayv1.ListCIRunsRequest{
		Repo: r.GetRepo(), Ref: pr.GetHeadRef(), Limit: proto.Uint32(5)}}})
	switch {
	case failed != "":
		fmt.Fprintf(&b, "checks: %s (forge state %s)\n", failed, pr.GetChecksState())
	case len(runs.GetCiRuns().GetRuns()) == 0:
		fmt.Fprintf(&b, "checks: no runs on %s (forge state %s)\n", pr.GetHeadRef(), pr.GetChecksState())
	}
	for _, run := range runs.GetCiRuns().GetRuns() {
		fmt.Fprintf(&b, "check %s at %s: %s %s\n", run.GetName(), short(run.GetHeadSha()), run.GetStatus(), run.GetConclusion())
	}
	return b.String()
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func indent(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return "  " + strings.ReplaceAll(s, "\n", "\n  ") + "\n"
}
