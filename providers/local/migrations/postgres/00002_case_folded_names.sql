-- Repository names match case-insensitively, as on GitHub, Gitea and GitLab:
-- name_key is the name lowercased by the forge (ASCII is enough: names are
-- letters, digits, '-', '_' and '.') and is unique; name keeps the spelling
-- the repository was created with, which every result shows.
--
-- A store written before this migration may hold repositories whose names
-- differ only in case. The oldest (lowest id) keeps the name; each later one
-- is set aside: its name_key gets a '#<id>' suffix that no valid repository
-- name can match, so its data stays in the database but no call reaches it.
-- The forge logs every repository set aside when it starts.

-- +goose Up
ALTER TABLE local_repos ADD COLUMN name_key TEXT;
UPDATE local_repos SET name_key = lower(name);
UPDATE local_repos SET name_key = name_key || '#' || id
    WHERE EXISTS (SELECT 1 FROM local_repos o WHERE o.name_key = local_repos.name_key AND o.id < local_repos.id);
ALTER TABLE local_repos ALTER COLUMN name_key SET NOT NULL;
CREATE UNIQUE INDEX local_repos_by_name_key ON local_repos (name_key);
-- name_key is the key now. Two first creates racing on one new repository
-- insert ... ON CONFLICT (name_key) DO NOTHING; the old unique constraint
-- on name is not that arbiter, and PostgreSQL would raise it for the loser
-- instead of doing nothing.
ALTER TABLE local_repos DROP CONSTRAINT local_repos_name_key;

-- +goose Down
ALTER TABLE local_repos ADD CONSTRAINT local_repos_name_key UNIQUE (name);
DROP INDEX local_repos_by_name_key;
ALTER TABLE local_repos DROP COLUMN name_key;
