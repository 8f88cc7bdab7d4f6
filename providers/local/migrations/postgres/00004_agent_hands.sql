-- Issue 9: what an issue and a pull request carry besides their text, and
-- the local forge's CI runs. The repositories' files, branches and commits
-- are not here: each repository is a bare git repository in the forge's git
-- directory.

-- +goose Up
-- A milestone by number (the local forge has no milestone objects).
ALTER TABLE local_items ADD COLUMN milestone BIGINT;
-- Why a closed issue was closed (completed, not_planned), or reopened.
ALTER TABLE local_items ADD COLUMN state_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE local_items ADD COLUMN closed_at BIGINT;
-- A merged pull request's head and the commit its base got: the branches
-- may move or go later.
ALTER TABLE local_items ADD COLUMN head_sha TEXT NOT NULL DEFAULT '';
ALTER TABLE local_items ADD COLUMN merge_sha TEXT NOT NULL DEFAULT '';

CREATE TABLE local_assignees (
    repo_id   BIGINT  NOT NULL,
    number    BIGINT  NOT NULL,
    position  BIGINT  NOT NULL,
    login     TEXT    NOT NULL,
    login_key TEXT    NOT NULL, -- lowercased by the forge, for matching
    PRIMARY KEY (repo_id, number, position),
    FOREIGN KEY (repo_id, number) REFERENCES local_items (repo_id, number)
);
CREATE INDEX local_assignees_key ON local_assignees (repo_id, login_key, number);

-- One CI run of the configured command on a commit; a re-run runs it again
-- in place (attempt counts the runs).
CREATE TABLE local_ci_runs (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    repo_id    BIGINT  NOT NULL REFERENCES local_repos (id),
    workflow   TEXT    NOT NULL,
    ref        TEXT    NOT NULL,
    head_sha   TEXT    NOT NULL,
    inputs     TEXT    NOT NULL, -- JSON [{"name":..,"value":..}], for re-runs
    status     TEXT    NOT NULL CHECK (status IN ('queued', 'in_progress', 'completed')),
    conclusion TEXT    NOT NULL DEFAULT '',
    log_tail   TEXT    NOT NULL DEFAULT '',
    attempt    BIGINT  NOT NULL DEFAULT 1,
    author     TEXT    NOT NULL,
    created_at BIGINT  NOT NULL,
    updated_at BIGINT  NOT NULL
);
CREATE INDEX local_ci_runs_repo ON local_ci_runs (repo_id, id);

-- +goose Down
DROP TABLE local_ci_runs;
DROP TABLE local_assignees;
ALTER TABLE local_items DROP COLUMN merge_sha;
ALTER TABLE local_items DROP COLUMN head_sha;
ALTER TABLE local_items DROP COLUMN closed_at;
ALTER TABLE local_items DROP COLUMN state_reason;
ALTER TABLE local_items DROP COLUMN milestone;
