-- +goose Up
-- What the audit view shows beside the artifact: the tool that created it,
-- as the model names it, and its web address. Rows from before stay empty.
ALTER TABLE gateway_ownership ADD COLUMN tool TEXT NOT NULL DEFAULT '';
ALTER TABLE gateway_ownership ADD COLUMN url TEXT NOT NULL DEFAULT '';
CREATE INDEX gateway_ownership_created ON gateway_ownership (created_ms);

-- +goose Down
DROP INDEX gateway_ownership_created;
ALTER TABLE gateway_ownership DROP COLUMN url;
ALTER TABLE gateway_ownership DROP COLUMN tool;
