-- +goose Up
-- What each session has read, for the information-flow rules: one row per
-- repository read not known to be public (author = '', untrusted = 0,
-- visibility as known when it was read: private, internal, unknown, or ''
-- when not yet asked), and one per piece of text
-- read whose author is outside the account's trusted authors
-- (untrusted = 1, artifact names it: "issue #3", "comment on issue #3").
-- A row is never updated; the same read twice is recorded once.
CREATE TABLE gateway_flow_reads (
    account   TEXT    NOT NULL,
    session   TEXT    NOT NULL,
    provider  TEXT    NOT NULL,
    host      TEXT    NOT NULL,
    repo      TEXT    NOT NULL,
    untrusted INTEGER NOT NULL,
    tool      TEXT    NOT NULL,
    artifact  TEXT    NOT NULL,
    author    TEXT    NOT NULL,
    visibility TEXT   NOT NULL DEFAULT '',
    read_ms   INTEGER NOT NULL,
    PRIMARY KEY (account, session, provider, host, repo, untrusted, artifact, author)
);

-- An account's scope as the operator set it at run time (forgetools scope
-- add/remove). Once an account has a row in gateway_scope_accounts its
-- stored entries are its whole scope and its YAML scope is ignored; no row
-- means the YAML scope applies.
CREATE TABLE gateway_scope_accounts (
    account    TEXT    PRIMARY KEY,
    seeded_ms  INTEGER NOT NULL
);
CREATE TABLE gateway_scope_entries (
    account  TEXT    NOT NULL REFERENCES gateway_scope_accounts (account) ON DELETE CASCADE,
    entry    TEXT    NOT NULL,
    added_ms INTEGER NOT NULL,
    PRIMARY KEY (account, entry)
);

-- Every change to a stored scope: who (the operator as the CLI names
-- them), when, what.
CREATE TABLE gateway_scope_log (
    id       INTEGER PRIMARY KEY,
    account  TEXT    NOT NULL,
    action   TEXT    NOT NULL CHECK (action IN ('seed', 'add', 'remove')),
    entry    TEXT    NOT NULL,
    actor    TEXT    NOT NULL,
    at_ms    INTEGER NOT NULL
);
CREATE INDEX gateway_scope_log_account ON gateway_scope_log (account, at_ms);

-- +goose Down
DROP TABLE gateway_scope_log;
DROP TABLE gateway_scope_entries;
DROP TABLE gateway_scope_accounts;
DROP TABLE gateway_flow_reads;
