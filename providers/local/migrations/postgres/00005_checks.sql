-- The roll-up of a pull request's checks, as an operator or CI set it
-- (SetChecks): success, failure, pending, or '' for none.

-- +goose Up
ALTER TABLE local_items ADD COLUMN checks_state TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE local_items DROP COLUMN checks_state;
