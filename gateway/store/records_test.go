package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
)

func TestMemoryDSN(t *testing.T) {
	s := open(t, ":memory:")
	if s.Dialect() != store.SQLite {
		t.Fatalf("dialect = %s", s.Dialect())
	}
	ctx := context.Background()
	c, _, err := s.Reserve(ctx, "a", "k", "fp", 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Finish(ctx, store.Ownership{Session: "s", Artifact: issue(1)}); err != nil {
		t.Fatal(err)
	}
	if _, a, err := s.Reserve(ctx, "a", "k", "fp", 0); err != nil || a == nil || a.Number != 1 {
		t.Fatalf("replay on :memory: = %v, %v", a, err)
	}
}

func TestOwnership(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		clk := newClock()
		s := open(t, dsn, store.Options{Now: clk.now})
		comment := store.Artifact{Forge: github, Repo: "acme/web", Kind: store.KindIssueComment, Number: 7, ID: "c-99"}
		if err := s.RecordOwnership(ctx, store.Ownership{Account: "alice", Session: "s1", Artifact: comment}); err != nil {
			t.Fatal(err)
		}
		clk.advance(time.Second)
		review := store.Artifact{Forge: github, Repo: "acme/web", Kind: store.KindReview, Number: 8, ID: "r-1"}
		if err := s.RecordOwnership(ctx, store.Ownership{Account: "alice", Session: "s2", Artifact: review}); err != nil {
			t.Fatal(err)
		}
		if err := s.RecordOwnership(ctx, store.Ownership{Account: "bob", Session: "s3", Artifact: review}); err != nil {
			t.Fatal(err)
		}
		got, err := s.Owned(ctx, "alice")
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].Artifact != comment || got[1].Artifact != review ||
			got[0].Session != "s1" || got[1].Session != "s2" || !got[1].Created.After(got[0].Created) {
			t.Fatalf("Owned(alice) = %+v", got)
		}
	})
}

// Audit filters by account, session and time, oldest first, and carries
// the tool and URL each record was made with, from a create's Finish too.
func TestAudit(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		clk := newClock()
		s := open(t, dsn, store.Options{Now: clk.now})
		if got, err := s.Audit(ctx, store.AuditFilter{}); err != nil || len(got) != 0 {
			t.Fatalf("empty store: %v, %v", got, err)
		}
		start := clk.now()
		comment := store.Artifact{Forge: github, Repo: "acme/web", Kind: store.KindIssueComment, Number: 7, ID: "c-99"}
		if err := s.RecordOwnership(ctx, store.Ownership{Account: "alice", Session: "s1", Tool: "forge_comment_on_issue",
			Artifact: comment, URL: "https://github.com/acme/web/issues/7#issuecomment-99"}); err != nil {
			t.Fatal(err)
		}
		clk.advance(time.Hour)
		c, _, err := s.Reserve(ctx, "bob", "k", "fp", 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Finish(ctx, store.Ownership{Session: "b1", Tool: "forge_create_issue", Artifact: issue(3),
			URL: "https://github.com/acme/web/issues/3"}); err != nil {
			t.Fatal(err)
		}
		all, err := s.Audit(ctx, store.AuditFilter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != 2 || all[0].Tool != "forge_comment_on_issue" || all[0].URL != "https://github.com/acme/web/issues/7#issuecomment-99" ||
			all[0].Artifact != comment || all[1].Account != "bob" || all[1].Session != "b1" || all[1].Tool != "forge_create_issue" ||
			all[1].Artifact != issue(3) || all[1].URL != "https://github.com/acme/web/issues/3" {
			t.Fatalf("Audit = %+v", all)
		}
		for name, tc := range map[string]struct {
			f    store.AuditFilter
			want []string
		}{
			"account":    {store.AuditFilter{Account: "alice"}, []string{"alice"}},
			"session":    {store.AuditFilter{Session: "b1"}, []string{"bob"}},
			"since":      {store.AuditFilter{Since: start.Add(time.Minute)}, []string{"bob"}},
			"since, all": {store.AuditFilter{Since: start}, []string{"alice", "bob"}},
			"no match":   {store.AuditFilter{Account: "alice", Session: "b1"}, nil},
		} {
			got, err := s.Audit(ctx, tc.f)
			if err != nil {
				t.Fatal(err)
			}
			var accounts []string
			for _, o := range got {
				accounts = append(accounts, o.Account)
			}
			if !slices.Equal(accounts, tc.want) {
				t.Errorf("%s: accounts %v, want %v", name, accounts, tc.want)
			}
		}
	})
}

func TestSubscriptions(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		want := store.Subscription{Account: "alice", Forge: github, Repo: "acme/web", Kind: store.KindPullRequest, Number: 4}
		sub, err := s.Subscribe(ctx, want)
		if err != nil {
			t.Fatal(err)
		}
		if sub.ID == "" || sub.Created.IsZero() || sub.Repo != want.Repo || sub.Kind != want.Kind || sub.Number != 4 || sub.Forge != github {
			t.Fatalf("Subscribe = %+v", sub)
		}
		again, err := s.Subscribe(ctx, want)
		if err != nil || again.ID != sub.ID {
			t.Fatalf("second Subscribe = %+v, %v; want the existing id %s", again, err, sub.ID)
		}

		// Another account neither sees nor deletes it.
		if _, err := s.Subscription(ctx, "bob", sub.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("bob's Subscription = %v, want ErrNotFound", err)
		}
		if err := s.Unsubscribe(ctx, "bob", sub.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("bob's Unsubscribe = %v, want ErrNotFound", err)
		}
		got, err := s.Subscription(ctx, "alice", sub.ID)
		if err != nil || got != sub {
			t.Fatalf("Subscription = %+v, %v; want %+v", got, err, sub)
		}
		if list, err := s.Subscriptions(ctx, "alice"); err != nil || len(list) != 1 || list[0] != sub {
			t.Fatalf("Subscriptions = %+v, %v", list, err)
		}

		if err := s.Unsubscribe(ctx, "alice", sub.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.Unsubscribe(ctx, "alice", sub.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("second Unsubscribe = %v, want ErrNotFound", err)
		}
	})
}
