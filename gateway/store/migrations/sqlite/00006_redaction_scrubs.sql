-- +goose Up
-- The redaction scrubs the gateway has run over the rows already stored.
-- SQL cannot know the secrets, so the scrub is not this migration: the
-- gateway runs it at start with its configured credentials (store.Scrub)
-- and records here that it ran for that set. digest is a SHA-256 of the
-- redactor's version and the sorted secrets: a new credential, or a
-- redactor that catches more forms, scrubs again.
CREATE TABLE gateway_redaction_scrubs (
    digest      TEXT    PRIMARY KEY,
    scrubbed_ms INTEGER NOT NULL
);

-- +goose Down
DROP TABLE gateway_redaction_scrubs;
