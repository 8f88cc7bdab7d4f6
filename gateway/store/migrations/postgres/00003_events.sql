-- +goose Up
-- The event cursor: one counter for every event the gateway records. A
-- writer takes the next value inside its transaction and holds the row
-- until it commits, so cursors become visible in increasing order and a
-- reader that has seen cursor N will never later find a smaller one.
CREATE TABLE gateway_event_seq (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    last BIGINT  NOT NULL
);
INSERT INTO gateway_event_seq (id, last) VALUES (1, 0);

-- Changes to subscribed artifacts, one row per subscription that watches
-- the artifact. payload is a forgetools.forge.v1.Event (protobuf binary) as
-- the source described it; the subscription, cursor and ownership are
-- added when it is read. dedup_key names the change (a comment id, a
-- delivery), so a change reported twice is recorded once.
CREATE TABLE gateway_events (
    seq             BIGINT  PRIMARY KEY,
    subscription_id TEXT    NOT NULL REFERENCES gateway_subscriptions (id) ON DELETE CASCADE,
    account         TEXT    NOT NULL,
    type            TEXT    NOT NULL,
    artifact_kind   TEXT    NOT NULL DEFAULT '',
    artifact_id     TEXT    NOT NULL DEFAULT '',
    actor_account   TEXT    NOT NULL DEFAULT '',
    dedup_key       TEXT    NOT NULL,
    payload         BYTEA   NOT NULL,
    recorded_ms     BIGINT  NOT NULL,
    UNIQUE (subscription_id, dedup_key)
);
CREATE INDEX gateway_events_account ON gateway_events (account, seq);
CREATE INDEX gateway_events_recorded ON gateway_events (recorded_ms);
-- Ownership is looked up by the forge's id of a comment or review.
CREATE INDEX gateway_ownership_id ON gateway_ownership (account, artifact_id);

-- How far each session has acknowledged a stream of events: one
-- subscription's (stream = its id) or every subscription of the account
-- (stream = '').
CREATE TABLE gateway_event_cursors (
    account    TEXT    NOT NULL,
    session    TEXT    NOT NULL,
    stream     TEXT    NOT NULL,
    acked      BIGINT  NOT NULL,
    updated_ms BIGINT  NOT NULL,
    PRIMARY KEY (account, session, stream)
);

-- Artifacts the poll driver watches: one per subscribed artifact on a
-- polled forge. state is the source's memo of the last poll (validators,
-- what it saw); lease_owner holds the watch while one replica polls it.
CREATE TABLE gateway_watches (
    provider       TEXT    NOT NULL,
    host           TEXT    NOT NULL,
    repo           TEXT    NOT NULL,
    kind           TEXT    NOT NULL,
    number         BIGINT  NOT NULL,
    state          BYTEA,
    next_poll_ms   BIGINT  NOT NULL,
    lease_owner    TEXT    NOT NULL DEFAULT '',
    lease_until_ms BIGINT  NOT NULL DEFAULT 0,
    polls          BIGINT  NOT NULL DEFAULT 0,
    created_ms     BIGINT  NOT NULL,
    PRIMARY KEY (provider, host, repo, kind, number)
);
CREATE INDEX gateway_watches_due ON gateway_watches (provider, host, next_poll_ms);

-- A forge told us to slow down (a rate limit): no replica polls it before
-- until_ms.
CREATE TABLE gateway_poll_backoff (
    provider TEXT    NOT NULL,
    host     TEXT    NOT NULL,
    until_ms BIGINT  NOT NULL,
    PRIMARY KEY (provider, host)
);

-- Webhook deliveries already recorded, by the forge's delivery id.
CREATE TABLE gateway_webhook_deliveries (
    provider    TEXT    NOT NULL,
    host        TEXT    NOT NULL,
    delivery_id TEXT    NOT NULL,
    received_ms BIGINT  NOT NULL,
    PRIMARY KEY (provider, host, delivery_id)
);
CREATE INDEX gateway_webhook_deliveries_received ON gateway_webhook_deliveries (received_ms);

-- Repositories whose webhooks reach the gateway (lower-case name), with
-- when the last signed delivery came; the poll driver leaves them alone.
CREATE TABLE gateway_webhook_repos (
    provider TEXT    NOT NULL,
    host     TEXT    NOT NULL,
    repo     TEXT    NOT NULL,
    last_ms  BIGINT  NOT NULL,
    PRIMARY KEY (provider, host, repo)
);

-- +goose Down
DROP TABLE gateway_webhook_repos;
DROP TABLE gateway_webhook_deliveries;
DROP TABLE gateway_poll_backoff;
DROP TABLE gateway_watches;
DROP TABLE gateway_event_cursors;
DROP INDEX gateway_ownership_id;
DROP TABLE gateway_events;
DROP TABLE gateway_event_seq;
