package local_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/pressly/goose/v3"
	"google.golang.org/protobuf/proto"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/toolserver"
)

// TestRepositoryNamesIgnoreCase: like GitHub, Gitea and GitLab, the forge
// keeps one repository per case-folded name. Whatever spelling a call uses,
// it reaches the repository created first, and every result shows the
// spelling that repository was created with.
func TestRepositoryNamesIgnoreCase(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, db := newForge(t, d, local.Options{})
		createIssue(t, f, "Acme/Widgets", "first")
		is, err := f.CreateIssue(ctx, alice, &gatewayv1.CreateIssueRequest{Repo: "ACME/widgets", Title: "second"})
		if err != nil {
			t.Fatal(err)
		}
		if is.GetNumber() != 2 || is.GetRepo() != "Acme/Widgets" || is.GetUrl() != testBase+"/Acme/Widgets/issues/2" {
			t.Fatalf("create in ACME/widgets = #%d in %q at %q, want #2 in Acme/Widgets", is.GetNumber(), is.GetRepo(), is.GetUrl())
		}
		pr := createPull(t, f, "acme/WIDGETS", "feature")
		if pr != 3 {
			t.Fatalf("pull request in acme/WIDGETS = #%d, want #3 in the same repository", pr)
		}

		got, err := f.GetIssue(ctx, alice, &gatewayv1.GetIssueRequest{Repo: "acme/widgets", IssueNumber: 1})
		if err != nil || got.GetTitle() != "first" || got.GetRepo() != "Acme/Widgets" || got.GetUrl() != testBase+"/Acme/Widgets/issues/1" {
			t.Fatalf("get acme/widgets#1 = %v, %v; want the issue filed in Acme/Widgets", got, err)
		}
		list, err := f.ListIssues(ctx, alice, &gatewayv1.ListIssuesRequest{Repo: "aCmE/wIdGeTs"})
		if err != nil || len(list.GetIssues()) != 2 || list.GetIssues()[0].GetRepo() != "Acme/Widgets" {
			t.Fatalf("list aCmE/wIdGeTs = %v, %v; want both issues of Acme/Widgets", list, err)
		}
		up, err := f.UpdateIssue(ctx, alice, &gatewayv1.UpdateIssueRequest{Repo: "acme/WIDGETS", IssueNumber: 1, Assignees: []string{"bob"}})
		if err != nil || up.GetRepo() != "Acme/Widgets" || up.GetUrl() != testBase+"/Acme/Widgets/issues/1" {
			t.Fatalf("update via acme/WIDGETS = %v, %v", up, err)
		}
		mine, err := f.ListIssues(ctx, alice, &gatewayv1.ListIssuesRequest{Repo: "ACME/widgets", Assignee: "BOB"})
		if err != nil || len(mine.GetIssues()) != 1 || mine.GetIssues()[0].GetRepo() != "Acme/Widgets" {
			t.Fatalf("list bob's issues via ACME/widgets = %v, %v", mine, err)
		}
		c, err := f.CommentOnIssue(ctx, alice, &gatewayv1.CommentOnIssueRequest{Repo: "ACME/WIDGETS", IssueNumber: 1, Body: "hi"})
		if err != nil || c.GetRepo() != "Acme/Widgets" || c.GetUrl() != testBase+"/Acme/Widgets/issues/1#issuecomment-"+c.GetCommentId() {
			t.Fatalf("comment via ACME/WIDGETS = %v, %v", c, err)
		}
		pull, err := f.GetPullRequest(ctx, alice, &gatewayv1.GetPullRequestRequest{Repo: "acme/widgets", PullNumber: 3})
		if err != nil || pull.GetRepo() != "Acme/Widgets" {
			t.Fatalf("get pull acme/widgets#3 = %v, %v", pull, err)
		}
		rv, err := f.SubmitReview(ctx, alice, &gatewayv1.SubmitReviewRequest{Repo: "ACME/Widgets", PullNumber: 3,
			Verdict: gatewayv1.Verdict_VERDICT_APPROVE})
		if err != nil || rv.GetRepo() != "Acme/Widgets" {
			t.Fatalf("review via ACME/Widgets = %v, %v", rv, err)
		}
		if err := f.SetState(ctx, "acme/widgets", 1, "closed"); err != nil {
			t.Fatal(err)
		}
		if err := f.Watch(ctx, alice, &gatewayv1.SubscribeRequest{Repo: "ACME/WIDGETS", Number: 1,
			Kind: gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE}); err != nil {
			t.Fatalf("watch via ACME/WIDGETS: %v", err)
		}

		var repos int
		if err := db.QueryRow("SELECT count(*) FROM local_repos").Scan(&repos); err != nil {
			t.Fatal(err)
		}
		if repos != 1 {
			t.Fatalf("%d repositories stored, want 1 for every spelling of Acme/Widgets", repos)
		}
	})
}

// TestGitRepositoryIgnoresCase: every spelling of a repository reaches
// one git repository on disk, named by the spelling the repository was
// created with, and every git result (branches, files, directories,
// commits, pull requests, merges, CI runs and their URLs) shows that
// spelling.
func TestGitRepositoryIgnoresCase(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, db := newForge(t, d, local.Options{CI: local.CI{Command: `printf 'repo=%s\n' "$FORGETOOLS_CI_REPO"; cat notes.txt; false`}})
		const stored = "Acme/App"
		br, err := f.CreateBranch(ctx, alice, &gatewayv1.CreateBranchRequest{Repo: stored, Branch: "feat"})
		if err != nil || br.GetRepo() != stored || br.GetUrl() != testBase+"/Acme/App/tree/feat" {
			t.Fatalf("branch in %s = %v, %v", stored, br, err)
		}
		w, err := f.WriteFile(ctx, alice, &gatewayv1.WriteFileRequest{Repo: "acme/app", Branch: "feat", Path: "notes.txt",
			Content: "written via acme/app\n", Message: "Notes"})
		if err != nil || w.GetRepo() != stored || w.GetUrl() != testBase+"/Acme/App/commit/"+w.GetCommitSha() {
			t.Fatalf("write via acme/app = %v, %v", w, err)
		}
		file := readFile(t, f, "ACME/APP", "feat", "notes.txt")
		if file.GetContent() != "written via acme/app\n" || file.GetRepo() != stored ||
			file.GetUrl() != testBase+"/Acme/App/blob/feat/notes.txt" {
			t.Fatalf("read via ACME/APP = %v", file)
		}
		dir, err := f.ListDir(ctx, alice, &gatewayv1.ListDirRequest{Repo: "aCmE/aPp", Ref: "feat"})
		if err != nil || dir.GetRepo() != stored || len(dir.GetEntries()) != 2 || dir.GetEntries()[1].GetName() != "notes.txt" {
			t.Fatalf("list via aCmE/aPp = %v, %v; want README.md and notes.txt", dir, err)
		}
		repo, err := f.GetRepo(ctx, alice, &gatewayv1.GetRepoRequest{Repo: "acme/APP"})
		if err != nil || repo.GetRepo() != stored || repo.GetUrl() != testBase+"/Acme/App" {
			t.Fatalf("get repo acme/APP = %v, %v", repo, err)
		}

		// The branch made as Acme/App is the head of a pull request opened as
		// acme/app; lists and merges in other spellings find it.
		pr, err := f.CreatePullRequest(ctx, alice, &gatewayv1.CreatePullRequestRequest{Repo: "acme/app", Title: "Notes", HeadRef: "feat"})
		if err != nil || pr.GetRepo() != stored || pr.GetHeadSha() != w.GetCommitSha() || pr.GetUrl() != testBase+"/Acme/App/pull/1" {
			t.Fatalf("pull request via acme/app = %v, %v", pr, err)
		}
		prs, err := f.ListPullRequests(ctx, alice, &gatewayv1.ListPullRequestsRequest{Repo: "ACME/app"})
		if err != nil || len(prs.GetPullRequests()) != 1 || prs.GetPullRequests()[0].GetRepo() != stored {
			t.Fatalf("list pull requests via ACME/app = %v, %v", prs, err)
		}
		if got := getPull(t, f, "ACME/APP", 1); got.GetRepo() != stored || got.GetMergeable() != "true" {
			t.Fatalf("get pull request via ACME/APP = %v", got)
		}
		m, err := f.MergePullRequest(ctx, alice, &gatewayv1.MergePullRequestRequest{Repo: "acme/App", PullNumber: 1,
			ExpectedHeadSha: w.GetCommitSha()})
		if err != nil || m.GetRepo() != stored || m.GetUrl() != testBase+"/Acme/App/pull/1" {
			t.Fatalf("merge via acme/App = %v, %v", m, err)
		}
		if merged := readFile(t, f, "acme/app", "", "notes.txt"); merged.GetContent() != "written via acme/app\n" {
			t.Fatalf("the default branch after the merge reads %q", merged.GetContent())
		}

		// CI checks out the same repository and is told its stored name.
		tr, err := f.TriggerCi(ctx, alice, &gatewayv1.TriggerCIRequest{Repo: "ACME/APP", Workflow: "ci", Ref: "main"})
		if err != nil || tr.GetRepo() != stored || tr.GetUrl() != testBase+"/Acme/App/actions/runs/"+tr.GetRunId() {
			t.Fatalf("trigger via ACME/APP = %v, %v", tr, err)
		}
		run, err := f.GetCiRun(ctx, alice, &gatewayv1.GetCIRunRequest{Repo: "acme/app", RunId: tr.GetRunId()})
		if err != nil || run.GetRepo() != stored || run.GetJobs()[0].GetLogTail() != "repo=Acme/App\nwritten via acme/app\n" {
			t.Fatalf("run via acme/app = %v, %v", run, err)
		}
		runs, err := f.ListCiRuns(ctx, alice, &gatewayv1.ListCIRunsRequest{Repo: "aCmE/ApP"})
		if err != nil || len(runs.GetRuns()) != 1 || runs.GetRuns()[0].GetRepo() != stored {
			t.Fatalf("list runs via aCmE/ApP = %v, %v", runs, err)
		}

		// One git repository on disk, named as the repository was created.
		want := filepath.Join(d.gitDir, "Acme", "App.git")
		for _, spelling := range []string{stored, "acme/app", "ACME/APP"} {
			if got := repoPath(t, f, spelling); got != want {
				t.Errorf("RepoPath(%s) = %s, want %s", spelling, got, want)
			}
		}
		var owners []string
		entries, err := os.ReadDir(d.gitDir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			owners = append(owners, e.Name())
		}
		if !slices.Equal(owners, []string{"Acme"}) {
			t.Errorf("git directory holds %v, want only Acme", owners)
		}
		var repos int
		if err := db.QueryRow("SELECT count(*) FROM local_repos").Scan(&repos); err != nil || repos != 1 {
			t.Fatalf("%d repositories stored (%v), want 1", repos, err)
		}
	})
}

// TestConfiguredRepositoryIgnoresCase: a repository configured up front in
// one spelling is the one a create in another spelling lands in.
func TestConfiguredRepositoryIgnoresCase(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		f, _ := newForge(t, d, local.Options{Repos: []local.Repo{{Name: "Demo/App", DefaultBranch: "trunk"}}})
		branch(t, f, "demo/APP", "h")
		pr, err := f.CreatePullRequest(context.Background(), alice,
			&gatewayv1.CreatePullRequestRequest{Repo: "demo/app", Title: "t", HeadRef: "h"})
		if err != nil {
			t.Fatal(err)
		}
		if pr.GetRepo() != "Demo/App" || pr.GetBaseRef() != "trunk" {
			t.Fatalf("pull request in demo/app = %q based on %q; want Demo/App's default branch trunk", pr.GetRepo(), pr.GetBaseRef())
		}
		// Configuring the same repository in another spelling updates it
		// rather than adding a second one.
		f2, db := newForge(t, d, local.Options{Repos: []local.Repo{{Name: "DEMO/APP", DefaultBranch: "main"}}})
		branch(t, f2, "DEMO/app", "h2")
		pr, err = f2.CreatePullRequest(context.Background(), alice,
			&gatewayv1.CreatePullRequestRequest{Repo: "demo/App", Title: "t2", HeadRef: "h2"})
		if err != nil || pr.GetRepo() != "Demo/App" || pr.GetBaseRef() != "main" || pr.GetNumber() != 2 {
			t.Fatalf("after reconfiguring as DEMO/APP: %v, %v", pr, err)
		}
		var repos int
		if err := db.QueryRow("SELECT count(*) FROM local_repos").Scan(&repos); err != nil || repos != 1 {
			t.Fatalf("%d repositories stored (%v), want 1", repos, err)
		}
	})
}

// TestMigrationSetsAsideCaseDuplicates: a store written before names were
// case-folded may hold "acme/app" and "ACME/app" as two repositories. The
// migration keeps the older one under the name (it answers every spelling
// from then on), sets the later ones aside with their data intact, and the
// forge says so in its log.
func TestMigrationSetsAsideCaseDuplicates(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		db := d.open(t)
		dialect := goose.DialectSQLite3
		if d.dialect == local.DialectPostgres {
			dialect = goose.DialectPostgres
		}
		old, err := goose.NewProvider(dialect, db, os.DirFS("migrations/"+d.dialect),
			goose.WithTableName(local.VersionTable), goose.WithDisableGlobalRegistry(true))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := old.UpTo(ctx, 1); err != nil {
			t.Fatal(err)
		}
		for i, name := range []string{"acme/app", "ACME/app", "other/x", "Acme/App"} {
			if _, err := db.Exec(`INSERT INTO local_repos (name, default_branch, last_number, created_at) VALUES ($1, 'main', 1, 0)`, name); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(`INSERT INTO local_items (repo_id, number, kind, title, body, state, author, created_at, updated_at)
				VALUES ((SELECT id FROM local_repos WHERE name = $1), 1, 'issue', $2, '', 'open', 'old', 0, 0)`,
				name, fmt.Sprint("filed in ", name, " (", i, ")")); err != nil {
				t.Fatal(err)
			}
		}

		var logs bytes.Buffer
		f, err := local.New(ctx, db, local.Options{BaseURL: testBase, GitDir: d.gitDir, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		if err != nil {
			t.Fatalf("migrating a store with case duplicates: %v", err)
		}
		for _, spelling := range []string{"acme/app", "ACME/APP", "Acme/App"} {
			is, err := f.GetIssue(ctx, alice, &gatewayv1.GetIssueRequest{Repo: spelling, IssueNumber: 1})
			if err != nil || is.GetTitle() != "filed in acme/app (0)" || is.GetRepo() != "acme/app" {
				t.Fatalf("get %s#1 = %v, %v; want the issue of the oldest repository, acme/app", spelling, is, err)
			}
		}
		if n := createIssue(t, f, "ACME/APP", "new"); n != 2 {
			t.Fatalf("create after migrating = #%d, want #2 in acme/app", n)
		}
		for _, name := range []string{"ACME/app", "Acme/App"} {
			if !strings.Contains(logs.String(), "repository="+name) {
				t.Errorf("the log does not name %s as set aside:\n%s", name, logs.String())
			}
			var kept int
			if err := db.QueryRow(`SELECT count(*) FROM local_items i JOIN local_repos r ON r.id = i.repo_id WHERE r.name = $1`, name).Scan(&kept); err != nil || kept != 1 {
				t.Errorf("%s kept %d items (%v), want its 1 issue kept", name, kept, err)
			}
		}
		if strings.Contains(logs.String(), "repository=other/x") || strings.Count(logs.String(), "set aside") != 2 {
			t.Errorf("want exactly ACME/app and Acme/App reported:\n%s", logs.String())
		}
	})
}

// TestKeyedCreatesAreIdempotent: a create repeated with the same account
// and client_request_id (in any spelling of the repository) returns what
// the first made, all of it, and makes nothing; a different account or key
// makes a new one. A repeated pull request comes back even when its head
// branch has gone since: the first create checked it.
func TestKeyedCreatesAreIdempotent(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, db := newForge(t, d, local.Options{})
		keyed := toolserver.Call{Account: "alice", ClientRequestID: "n:1"}
		req := &gatewayv1.CreateIssueRequest{Repo: "acme/app", Title: "once", Labels: []string{"bug"},
			Assignees: []string{"Bob", "carol"}, Milestone: ptrTo[uint64](7)}
		a, err := f.CreateIssue(ctx, keyed, req)
		if err != nil {
			t.Fatal(err)
		}
		if a.GetMilestone() != "7" || !slices.Equal(a.GetAssignees(), []string{"Bob", "carol"}) {
			t.Fatalf("created %v, want milestone 7 and both assignees", a)
		}
		again := proto.Clone(req).(*gatewayv1.CreateIssueRequest)
		again.Repo = "ACME/App"
		b, err := f.CreateIssue(ctx, keyed, again)
		if err != nil || !proto.Equal(a, b) {
			t.Fatalf("repeated create = %v, %v; want %v again", b, err, a)
		}
		other, err := f.CreateIssue(ctx, toolserver.Call{Account: "bob", ClientRequestID: "n:1"}, req)
		if err != nil || other.GetNumber() == a.GetNumber() {
			t.Fatalf("another account's create = %v, %v; want a new issue", other, err)
		}
		branch(t, f, "acme/app", "h")
		prReq := &gatewayv1.CreatePullRequestRequest{Repo: "acme/app", Title: "pr", HeadRef: "h"}
		pkeyed := toolserver.Call{Account: "alice", ClientRequestID: "n:2"}
		p1, err := f.CreatePullRequest(ctx, pkeyed, prReq)
		if err != nil {
			t.Fatal(err)
		}
		// A person deletes the head branch (a push could): a new pull
		// request from it is refused, the repeated one is what was made.
		g, err := git.PlainOpen(repoPath(t, f, "acme/app"))
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Storer.RemoveReference(plumbing.NewBranchReferenceName("h")); err != nil {
			t.Fatal(err)
		}
		_, err = f.CreatePullRequest(ctx, toolserver.Call{Account: "alice", ClientRequestID: "n:3"}, prReq)
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, `head_ref "h" is not a branch of acme/app`)
		p2, err := f.CreatePullRequest(ctx, pkeyed, prReq)
		if err != nil || p2.GetNumber() != p1.GetNumber() || p2.GetUrl() != p1.GetUrl() || p2.GetHeadRef() != "h" {
			t.Fatalf("repeated pull request = %v, %v; want #%d again", p2, err, p1.GetNumber())
		}
		var items int
		if err := db.QueryRow("SELECT count(*) FROM local_items").Scan(&items); err != nil || items != 3 {
			t.Fatalf("%d items (%v), want 3", items, err)
		}
	})
}
