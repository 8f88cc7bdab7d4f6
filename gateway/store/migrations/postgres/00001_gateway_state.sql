-- +goose Up
-- The create dedup memo: one row per (account, client_request_id). state is
-- 'pending' while an attempt holds the claim (attempt, lease_until) and
-- 'done' once the created artifact's coordinate is recorded.
CREATE TABLE gateway_create_memo (
    account           TEXT    NOT NULL,
    client_request_id TEXT    NOT NULL,
    fingerprint       TEXT    NOT NULL,
    state             TEXT    NOT NULL CHECK (state IN ('pending', 'done')),
    attempt           TEXT    NOT NULL,
    lease_until_ms    BIGINT  NOT NULL,
    kind              TEXT    NOT NULL DEFAULT '',
    provider          TEXT    NOT NULL DEFAULT '',
    host              TEXT    NOT NULL DEFAULT '',
    repo              TEXT    NOT NULL DEFAULT '',
    number            BIGINT  NOT NULL DEFAULT 0,
    created_ms        BIGINT  NOT NULL,
    finished_ms       BIGINT,
    PRIMARY KEY (account, client_request_id)
);

-- What the gateway created, for whom: one row per artifact.
CREATE TABLE gateway_ownership (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account     TEXT    NOT NULL,
    session     TEXT    NOT NULL,
    provider    TEXT    NOT NULL,
    host        TEXT    NOT NULL,
    repo        TEXT    NOT NULL,
    kind        TEXT    NOT NULL,
    number      BIGINT  NOT NULL,
    artifact_id TEXT    NOT NULL DEFAULT '',
    created_ms  BIGINT  NOT NULL
);
CREATE INDEX gateway_ownership_account ON gateway_ownership (account, created_ms);
CREATE INDEX gateway_ownership_artifact ON gateway_ownership (provider, host, repo, kind, number);

-- Change-notification subscriptions; one per account and watched artifact.
CREATE TABLE gateway_subscriptions (
    id         TEXT    PRIMARY KEY,
    account    TEXT    NOT NULL,
    provider   TEXT    NOT NULL,
    host       TEXT    NOT NULL,
    repo       TEXT    NOT NULL,
    kind       TEXT    NOT NULL,
    number     BIGINT  NOT NULL,
    created_ms BIGINT  NOT NULL,
    UNIQUE (account, provider, host, repo, kind, number)
);

-- +goose Down
DROP TABLE gateway_subscriptions;
DROP TABLE gateway_ownership;
DROP TABLE gateway_create_memo;
