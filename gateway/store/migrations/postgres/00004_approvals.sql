-- +goose Up
-- Calls the gateway's approval policy parked for an operator. request is
-- the table's request envelope exactly as it will run (validated, texts
-- stamped, the forge selector resolved; protobuf binary of request_type),
-- digest identifies it for repeats (account, arm, forge and the stamped
-- arm request, never the call id). holds and escalations are JSON arrays.
-- state: pending -> running -> done, or pending -> denied; a pending row
-- past expires_ms is expired. The move out of pending is one conditional
-- UPDATE, so two replicas deciding at once run the call once.
CREATE TABLE gateway_approvals (
    id            TEXT    PRIMARY KEY,
    account       TEXT    NOT NULL,
    session       TEXT    NOT NULL,
    tool          TEXT    NOT NULL,
    forge         TEXT    NOT NULL,
    repo          TEXT    NOT NULL,
    request_type  TEXT    NOT NULL,
    request       BYTEA   NOT NULL,
    digest        TEXT    NOT NULL,
    risk          TEXT    NOT NULL,
    escalations   TEXT    NOT NULL,
    holds         TEXT    NOT NULL,
    preview       TEXT    NOT NULL DEFAULT '',
    created_ms    BIGINT  NOT NULL,
    expires_ms    BIGINT  NOT NULL,
    state         TEXT    NOT NULL,
    operator      TEXT    NOT NULL DEFAULT '',
    reason        TEXT    NOT NULL DEFAULT '',
    decided_ms    BIGINT  NOT NULL DEFAULT 0,
    result        BYTEA,
    error_code    INTEGER NOT NULL DEFAULT 0,
    error_message TEXT    NOT NULL DEFAULT '',
    finished_ms   BIGINT  NOT NULL DEFAULT 0
);
-- At most one pending approval per identical call.
CREATE UNIQUE INDEX gateway_approvals_pending ON gateway_approvals (account, digest) WHERE state = 'pending';
CREATE INDEX gateway_approvals_digest ON gateway_approvals (account, digest, created_ms);
CREATE INDEX gateway_approvals_created ON gateway_approvals (created_ms);

-- +goose Down
DROP TABLE gateway_approvals;
