package escalate

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// The pattern list, case by case: each text either names a force push or a
// history rewrite (and says which) or is ordinary commit-message prose that
// must not be escalated.
func TestEscalationPatterns(t *testing.T) {
	escalate := map[string]string{
		"git push --force":                                  "a force push",
		"git push -f origin main":                           "a force push",
		"git push -uf origin main":                          "a force push",
		"then: git push origin main --force-with-lease":     "a force push",
		"git push --force-with-lease=main:abc123 origin":    "a force push",
		"git push --force-if-includes":                      "a force push",
		"Force-pushed the release branch":                   "a force push",
		"force push to main after review":                   "a force push",
		"git push origin +main":                             "a force push (a +refspec)",
		"git push --mirror backup":                          "a mirror push",
		"git push origin --delete old-branch":               "deleting a remote branch",
		"git push origin -d old-branch":                     "deleting a remote branch",
		"git push origin :old-branch":                       "deleting a remote branch",
		"git reset --hard HEAD~1":                           "a hard reset",
		"git reset HEAD~2 --hard":                           "a hard reset",
		"RESET --HARD":                                      "a hard reset",
		"git filter-branch --tree-filter 'rm x' HEAD":       "a history rewrite",
		"git filter-repo --path secrets.txt --invert-paths": "a history rewrite",
		"git rebase -i HEAD~3":                              "a history rewrite (rebase)",
		"git rebase --interactive main":                     "a history rewrite (rebase)",
		"git rebase --onto main topic-a topic-b":            "a history rewrite (rebase)",
		"git rebase --root":                                 "a history rewrite (rebase)",
		"git commit --amend --no-edit":                      "a history rewrite (amend)",
		"Rewrite the history of main":                       "a history rewrite",
		"rewriting git history to drop the key":             "a history rewrite",
		"a history rewrite is needed":                       "a history rewrite",
		"git branch -D feature":                             "a forced branch delete",
		"git branch -f main HEAD~3":                         "a forced branch delete",
		"git update-ref -d refs/heads/main":                 "deleting a ref",
		"git reflog expire --expire=now --all":              "destroying unreachable history",
		"git gc --aggressive --prune=now":                   "destroying unreachable history",
		"-f":                                                "a ref git would read as an option",
		"--force":                                           "a ref git would read as an option",
		"+main":                                             "a force refspec",
		"+refs/heads/main:refs/heads/main":                  "a force refspec",
	}
	ordinary := []string{
		"Fix the crash on an empty config",
		"push the fix to a branch",
		"git push origin main",
		"git push -u origin feature",
		"git push --follow-tags",
		"git push --tags origin",
		"reset the counter when the config reloads",
		"git reset --soft HEAD~1",
		"rebase on main",
		"git rebase main",
		"filter the branches by name",
		"git commit -m 'fix'",
		"git branch -d merged-topic",
		"the history of the project",
		"cp -f a b && rm -rf build",
		"Add a --force flag to the CLI",
		"Fix push\n--force option parsing",
		"fix-f",
		"feature/-x",
		"main",
		"a+b",
	}
	for text, means := range escalate {
		got := Find(&gatewayv1.WriteFileRequest{Message: text}, nil)
		if len(got) != 1 || !strings.HasPrefix(got[0], "message: ") || !strings.HasSuffix(got[0], "("+means+")") {
			t.Errorf("%q: escalations %q, want one for message meaning %q", text, got, means)
		}
	}
	for _, text := range ordinary {
		if got := Find(&gatewayv1.WriteFileRequest{Message: text}, nil); len(got) != 0 {
			t.Errorf("%q: escalated as %q; ordinary text must not be", text, got)
		}
	}
}

// Every string of a request is looked at, by its parameter path (a renamed
// parameter by the name the model wrote), one reason per value.
func TestEscalationsWalkTheRequest(t *testing.T) {
	req := &gatewayv1.SubmitReviewRequest{
		Repo: "a/b", Body: "git push --force and git reset --hard",
		Comments: []*gatewayv1.ReviewCommentInput{
			{Path: "a.go", Body: "fine"},
			{Path: "-rf", Body: "git rebase -i HEAD~2"},
		},
	}
	names := map[string]string{"forgetools.gateway.v1.ReviewCommentInput.body": "text"}
	got := Find(req, names)
	want := []string{
		`body: "push --force" (a force push)`,
		`comments[1].path: "-rf" (a ref git would read as an option)`,
		`comments[1].text: "rebase -i" (a history rewrite (rebase))`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("escalations\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := Find(nil, nil); got != nil {
		t.Errorf("nil request: %q", got)
	}
	long := Find(&gatewayv1.WriteFileRequest{Message: "git push " + strings.Repeat("é", 100) + " --force"}, nil)
	if len(long) != 1 || !strings.Contains(long[0], "…") || strings.Count(long[0], "é") != MaxExcerpt-len("push ") {
		t.Errorf("a long match is cut at %d runes: %q", MaxExcerpt, long)
	}
}

// FuzzEscalations: any text a model writes yields at most one reason,
// naming the parameter, quoting valid UTF-8 of bounded length, and never
// panics or runs away (RE2 is linear).
func FuzzEscalations(f *testing.F) {
	for _, s := range []string{"git push --force", "-f", "+main", "rebase -i", "plain text", "push\n--force", "\xff push -f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := Find(&gatewayv1.WriteFileRequest{Message: text}, nil)
		if len(got) > 1 {
			t.Fatalf("%d reasons for one value: %q", len(got), got)
		}
		for _, r := range got {
			// The excerpt is a Go-quoted string, which may itself hold " (".
			rest := strings.TrimPrefix(r, "message: ")
			quoted, err := strconv.QuotedPrefix(rest)
			var excerpt string
			if err == nil {
				excerpt, err = strconv.Unquote(quoted)
			}
			ok := strings.HasPrefix(rest[len(quoted):], " (") && strings.HasSuffix(r, ")")
			if !strings.HasPrefix(r, "message: ") || !ok || err != nil || !utf8.ValidString(r) ||
				utf8.RuneCountInString(excerpt) > MaxExcerpt+1 { // the cut is marked with one "…"
				t.Fatalf("reason %q", r)
			}
		}
	})
}
