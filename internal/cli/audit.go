package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/internal/redact"
)

func newAudit() *cobra.Command {
	var g gatewayFlags
	var account, session, format string
	var since time.Duration
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "List what the agents wrote: every artifact the gateway created, and who made it",
		Long: `List the ownership records the gateway keeps for every artifact an agent
created (issues, pull requests, comments, reviews): when, which account and
session, which tool, on which forge and repository, and where it is.

It reads the same store the gateway writes, SQLite or PostgreSQL: the one
--store or --config names, else the default store in the data directory.
Records are listed oldest first.`,
		Example: `  forgetools audit
  forgetools audit --account release-bot --since 24h
  forgetools audit --config /etc/forgetools.yaml --session release-bot-1 --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format != "table" && format != "json" {
				return usageError{fmt.Errorf("--format %q: want table or json", format)}
			}
			if since < 0 {
				return usageError{fmt.Errorf("--since %s: want a positive duration such as 1h", since)}
			}
			cfg, err := g.load()
			if err != nil {
				return err
			}
			log, err := g.logger(cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if missingSQLite(cfg.Store) {
				// Reading must not create a store: nothing was ever recorded.
				return printAudit(out, nil, format, emptyAudit(account, session, since)+" (no store at "+cfg.Store+")")
			}
			st, err := store.Open(cmd.Context(), cfg.Store, store.Options{Logger: log})
			if err != nil {
				return err
			}
			defer st.Close()
			f := store.AuditFilter{Account: account, Session: session}
			if since > 0 {
				f.Since = time.Now().Add(-since)
			}
			records, err := st.Audit(cmd.Context(), f)
			if err != nil {
				return err
			}
			// Rows are redacted when written, and stored ones scrubbed when
			// the gateway starts; the credentials this command can read
			// redact the output too, for a store no gateway has opened
			// since.
			creds, _ := cfg.Resolve()
			redactAudit(records, redact.New(creds.Values()...))
			return printAudit(out, records, format, emptyAudit(account, session, since))
		},
	}
	g.register(cmd, "warn")
	fl := cmd.Flags()
	fl.StringVar(&account, "account", "", "only what this account created")
	fl.StringVar(&session, "session", "", "only what this session created")
	fl.DurationVar(&since, "since", 0, "only what was created in this last span, e.g. 1h or 30m (default: everything)")
	fl.StringVar(&format, "format", "table", "table or json")
	skipEnv(cmd, "account", "session", "since", "format")
	return cmd
}

// missingSQLite reports whether dsn is a SQLite file that does not exist.
func missingSQLite(dsn string) bool {
	if dsn == "" || isPostgres(dsn) || dsn == ":memory:" {
		return false
	}
	_, err := os.Stat(strings.TrimPrefix(dsn, "sqlite:"))
	return errors.Is(err, fs.ErrNotExist)
}

// emptyAudit says that nothing matched, and what was asked.
func emptyAudit(account, session string, since time.Duration) string {
	var filters string
	if account != "" {
		filters += " for account " + account
	}
	if session != "" {
		filters += " in session " + session
	}
	if since > 0 {
		filters += " in the last " + shortDuration(since)
	}
	if filters == "" {
		return "No artifacts recorded yet: no agent has created anything through this gateway."
	}
	return "No artifacts recorded" + filters + "."
}

// shortDuration spells d as a person would: 1h, 1h30m, 45s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// redactAudit redacts every text field of records in place.
func redactAudit(records []store.Ownership, r *redact.Redactor) {
	for i := range records {
		o := &records[i]
		o.Account, o.Session, o.Tool = r.String(o.Account), r.String(o.Session), r.String(o.Tool)
		o.Repo, o.ID, o.URL, o.Forge.Host = r.String(o.Repo), r.String(o.ID), r.String(o.URL), r.String(o.Forge.Host)
	}
}

// auditRecord is one row of the json format.
type auditRecord struct {
	Time    time.Time `json:"time"`
	Account string    `json:"account"`
	Session string    `json:"session"`
	Tool    string    `json:"tool"`
	Forge   string    `json:"forge"`
	Host    string    `json:"host,omitempty"`
	Repo    string    `json:"repo"`
	Kind    string    `json:"kind"`
	Number  uint64    `json:"number"`
	ID      string    `json:"id,omitempty"`
	URL     string    `json:"url"`
}

func printAudit(w io.Writer, records []store.Ownership, format, empty string) error {
	rows := make([]auditRecord, 0, len(records))
	for _, o := range records {
		rows = append(rows, auditRecord{
			Time: o.Created.UTC(), Account: o.Account, Session: o.Session, Tool: o.Tool,
			Forge: providerName(o.Forge.Provider), Host: o.Forge.Host, Repo: o.Repo,
			Kind: string(o.Kind), Number: o.Number, ID: o.ID, URL: o.URL,
		})
	}
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	if len(rows) == 0 {
		_, err := fmt.Fprintln(w, empty)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tACCOUNT\tSESSION\tTOOL\tFORGE\tREPO\tKIND\tNUMBER\tURL")
	for _, r := range rows {
		forge := r.Forge
		if r.Host != "" && r.Host != r.Forge {
			forge += "/" + r.Host
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", r.Time.Format(time.RFC3339), r.Account, r.Session,
			dash(r.Tool), forge, r.Repo, r.Kind, r.Number, dash(r.URL))
	}
	return tw.Flush()
}

// dash stands in for a value records from before it was kept lack.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// providerName is the provider as the tools spell it ("github").
func providerName(p forgev1.ForgeProvider) string {
	return strings.ToLower(strings.TrimPrefix(p.String(), "FORGE_PROVIDER_"))
}
