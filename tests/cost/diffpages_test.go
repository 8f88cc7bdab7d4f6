package cost_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/gitea"
	"github.com/forgetools/forgetools/providers/gitea/giteatest"
	"github.com/forgetools/forgetools/providers/github"
	"github.com/forgetools/forgetools/providers/github/githubtest"
	"github.com/forgetools/forgetools/providers/gitlab"
	"github.com/forgetools/forgetools/providers/gitlab/gitlabtest"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// The large pull request whose diff is paged: diffFiles new files of
// diffLines lines each.
const (
	diffFiles = 450
	diffLines = 40
)

// differ is a provider's diff arm.
type differ interface {
	GetPullRequestDiff(context.Context, toolserver.Call, *gatewayv1.GetPullRequestDiffRequest) (*forgev1.PullRequestDiff, error)
}

// bigPull is one forge's fake with the large pull request on it.
type bigPull struct {
	name     string
	p        differ
	repo     string
	number   uint64
	requests func() int
	// listPage is the files a page of the forge's file list holds; 0
	// for a forge that sends the diff whole.
	listPage int
}

// bigFile is the i-th file of the large pull request.
func bigFile(i int) (path, content string) {
	var b strings.Builder
	for l := range diffLines {
		fmt.Fprintf(&b, "line %d of file %d\n", l+1, i)
	}
	return fmt.Sprintf("src/f%03d.txt", i), b.String()
}

// bigPatch is bigFile's diff as GitHub's files list sends it.
func bigPatch(content string) string {
	lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	return fmt.Sprintf("@@ -0,0 +1,%d @@\n+", len(lines)) + strings.Join(lines, "\n+")
}

func bigPullOnGitHub(t *testing.T) bigPull {
	srv := githubtest.New(githubtest.Options{})
	t.Cleanup(srv.Close)
	srv.AddToken(ghToken, "forgetools-bot")
	const repo = "octocat/Hello-World"
	srv.AddRepo(repo, "main", "feature")
	var files []githubtest.Change
	for i := range diffFiles {
		path, content := bigFile(i)
		files = append(files, githubtest.Change{Path: path, Patch: bigPatch(content)})
	}
	n := srv.AddPull(repo, githubtest.Pull{Title: "large", Head: "feature", Files: files})
	p, err := github.New(github.Options{Options: kit.Options{APIURL: srv.APIURL(), Token: ghToken}})
	if err != nil {
		t.Fatal(err)
	}
	return bigPull{name: "GitHub", p: p, repo: repo, number: uint64(n), requests: func() int { return len(srv.Requests()) }, listPage: 100}
}

// commitBig commits the large pull request's files to branch through
// the provider's change sets, as many as one takes at a time.
func commitBig(t *testing.T, p interface {
	CommitFiles(context.Context, toolserver.Call, *gatewayv1.CommitFilesRequest) (*forgev1.FilesCommit, error)
}, repo, branch string) {
	const perSet = 20
	for lo := 0; lo < diffFiles; lo += perSet {
		req := &gatewayv1.CommitFilesRequest{Repo: repo, Branch: branch, Message: "large"}
		for i := lo; i < min(lo+perSet, diffFiles); i++ {
			path, content := bigFile(i)
			req.Files = append(req.Files, &gatewayv1.FileChange{Path: path, Content: content})
		}
		if _, err := p.CommitFiles(context.Background(), call, req); err != nil {
			t.Fatal(err)
		}
	}
}

func bigPullOnGitLab(t *testing.T) bigPull {
	srv := gitlabtest.New(gitlabtest.Options{})
	t.Cleanup(srv.Close)
	srv.AddToken(glToken, "forgetools-bot")
	const repo = "platform/infra/deploy"
	srv.AddProject(repo, "main", map[string]string{"README.md": "# deploy\n"}, "feature")
	p, err := gitlab.New(gitlab.Options{Options: kit.Options{Host: srv.Host(), APIURL: srv.APIURL(), Token: glToken}})
	if err != nil {
		t.Fatal(err)
	}
	commitBig(t, p, repo, "feature")
	n := srv.AddMergeRequest(repo, gitlabtest.MergeRequest{Title: "large", Source: "feature"})
	return bigPull{name: "GitLab", p: p, repo: repo, number: uint64(n), requests: func() int { return len(srv.Requests()) }, listPage: 100}
}

func bigPullOnGitea(t *testing.T) bigPull {
	srv := giteatest.New(giteatest.Options{})
	t.Cleanup(srv.Close)
	srv.AddToken(gtToken, "forgetools-bot")
	const repo = "acme/gadgets"
	srv.AddRepo(repo, "main", map[string]string{"README.md": "# gadgets\n"}, "feature")
	p, err := gitea.New(gitea.Options{Options: kit.Options{Host: srv.Host(), APIURL: srv.APIURL(), Token: gtToken}})
	if err != nil {
		t.Fatal(err)
	}
	commitBig(t, p, repo, "feature")
	n := srv.AddPull(repo, giteatest.Pull{Title: "large", Head: "feature"})
	return bigPull{name: "Gitea", p: p, repo: repo, number: uint64(n), requests: func() int { return len(srv.Requests()) }}
}

// diffPages pages through the large pull request's diff on each forge by
// next_cursor and tabulates the requests each page sent; every file must
// arrive once, in order.
func diffPages(t *testing.T) string {
	var b strings.Builder
	fmt.Fprintf(&b, `
## Diff pages of a large pull request

A pull request adding %d files of %d lines each, read whole with
forge_get_pull_request_diff by next_cursor (a page holds about 40,000
bytes of hunks, at most 100 files, so pages do not line up with the
forge's pages of 100 files). A page reads the pull request and only the
pages of the forge's file list that hold its files, from the one its
cursor names (`+"`providers/internal/unidiff`"+`, paged.go): one or two.
Re-reading the list from its start on every page, as the providers did,
costs what the last column says. Gitea sends the diff in one answer.

`, diffFiles, diffLines)
	b.WriteString("| forge | pages | requests a page | all pages | re-reading the list |\n|---|---|---|---|---|\n")
	for _, f := range []bigPull{bigPullOnGitHub(t), bigPullOnGitLab(t), bigPullOnGitea(t)} {
		var costs []string
		total, cursor, seen := 0, "", 0
		last := ""
		for page := 0; ; page++ {
			if page > diffFiles {
				t.Fatalf("%s: no last diff page", f.name)
			}
			before := f.requests()
			got, err := f.p.GetPullRequestDiff(context.Background(), call, &gatewayv1.GetPullRequestDiffRequest{Repo: f.repo, PullNumber: f.number, Cursor: cursor})
			if err != nil {
				t.Fatalf("%s diff page %d: %v", f.name, page+1, err)
			}
			sent := f.requests() - before
			total += sent
			costs = append(costs, fmt.Sprint(sent))
			if got.GetFilesChanged() != diffFiles {
				t.Errorf("%s page %d: files_changed %d, want %d", f.name, page+1, got.GetFilesChanged(), diffFiles)
			}
			for _, df := range got.GetFiles() {
				if df.GetPath() != last {
					seen++
				}
				last = df.GetPath()
			}
			if cursor = got.GetNextCursor(); cursor == "" {
				break
			}
		}
		if want, _ := bigFile(diffFiles - 1); seen != diffFiles || last != want {
			t.Errorf("%s: read %d files ending with %s; want %d ending with %s", f.name, seen, last, diffFiles, want)
		}
		whole := "—"
		if f.listPage > 0 {
			// The pull request and every page of its file list, each page.
			whole = fmt.Sprint(len(costs) * (1 + (diffFiles+f.listPage-1)/f.listPage))
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %d | %s |\n", f.name, len(costs), strings.Join(costs, ", "), total, whole)
	}
	return b.String()
}
