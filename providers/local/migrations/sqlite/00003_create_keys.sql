-- A create made with a client_request_id records it, so the same account
-- repeating the create gets the artifact it made instead of a second one.
-- The gateway's dedup memo already answers such a retry; this covers the
-- moment between the forge's commit and the memo's, should the gateway die
-- there (a retry then takes the memo's claim over and calls the forge
-- again).

-- +goose Up
ALTER TABLE local_items ADD COLUMN request_key TEXT;
CREATE UNIQUE INDEX local_items_by_request_key ON local_items (author, request_key) WHERE request_key IS NOT NULL;

-- +goose Down
DROP INDEX local_items_by_request_key;
ALTER TABLE local_items DROP COLUMN request_key;
