package providertest

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// Merger is the part of a provider MergeHistory drives.
type Merger interface {
	WriteFile(context.Context, toolserver.Call, *gatewayv1.WriteFileRequest) (*forgev1.FileCommit, error)
	MergePullRequest(context.Context, toolserver.Call, *gatewayv1.MergePullRequestRequest) (*forgev1.MergeResult, error)
	ListCommits(context.Context, toolserver.Call, *gatewayv1.ListCommitsRequest) (*forgev1.CommitList, error)
}

// MergeFake is the fake's side: a branch's head, a commit's parents as
// the forge's own commit API answers them, and a commit on the base made
// past the provider (someone else's push, so the merge is not a
// fast-forward), returning the base's new head.
type MergeFake struct {
	Head     func(branch string) string
	Parents  func(sha string) []string
	PushBase func() string
}

// MergeHistory writes a commit to the head of pull request pull (head
// onto base, in repo), lets the base move on, merges with the forge's
// default method and reads the base's history: the merge commit first,
// titled wantTitle, its parents the base's head and the pull request's,
// then the base's commit, the head's and the root they share.
func MergeHistory(t *testing.T, p Merger, f MergeFake, repo string, pull uint64, head, base, wantTitle string) {
	t.Helper()
	ctx, call := context.Background(), toolserver.Call{Account: "a", Session: "s"}
	root := f.Head(base)
	fc, err := p.WriteFile(ctx, call, &gatewayv1.WriteFileRequest{Repo: repo, Branch: head, Path: "merged.txt", Content: "m\n", Message: "Add merged.txt"})
	if err != nil {
		t.Fatal(err)
	}
	ours, theirs := fc.GetCommitSha(), f.PushBase()
	m, err := p.MergePullRequest(ctx, call, &gatewayv1.MergePullRequestRequest{Repo: repo, PullNumber: pull, ExpectedHeadSha: ours})
	if err != nil || m.GetMethod() != "merge" || m.GetSha() != f.Head(base) {
		t.Fatalf("merge = %v, %v", m, err)
	}
	if got := f.Parents(m.GetSha()); !slices.Equal(got, []string{theirs, ours}) {
		t.Errorf("merge commit's parents %v, want the base's head %s and the pull request's %s", got, theirs, ours)
	}
	if got := f.Parents(ours); !slices.Equal(got, []string{root}) {
		t.Errorf("the head's commit's parents %v, want the root %s", got, root)
	}
	list, err := p.ListCommits(ctx, call, &gatewayv1.ListCommitsRequest{Repo: repo, Ref: base})
	if err != nil {
		t.Fatal(err)
	}
	var shas []string
	for _, c := range list.GetCommits() {
		shas = append(shas, c.GetSha())
	}
	if !slices.Equal(shas, []string{m.GetSha(), theirs, ours, root}) || list.GetCommits()[0].GetTitle() != wantTitle {
		t.Errorf("%s's history = %v, want the merge %q, the base's commit, the head's, the root", base, list.GetCommits(), wantTitle)
	}
}

// Send sends req to a fake past the provider, as a client of its forge
// would, and decodes its JSON answer into out; an answer that is not a
// success fails t.
func Send(t *testing.T, req *http.Request, out any) {
	t.Helper()
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil || resp.StatusCode >= 300 {
		t.Fatalf("%s %s: %d, %v", req.Method, req.URL, resp.StatusCode, err)
	}
}
