-- The local forge's data. Table names carry the local_ prefix because the
-- gateway's own store shares this database.

-- +goose Up
CREATE TABLE local_repos (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name           TEXT    NOT NULL UNIQUE,
    default_branch TEXT    NOT NULL,
    -- The last number given to an issue or pull request: both kinds share
    -- one sequence per repository.
    last_number    BIGINT  NOT NULL DEFAULT 0,
    created_at     BIGINT  NOT NULL -- unix microseconds, as every *_at here
);

-- Issues and pull requests: one table, since they share numbers.
CREATE TABLE local_items (
    repo_id    BIGINT  NOT NULL REFERENCES local_repos (id),
    number     BIGINT  NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('issue', 'pull')),
    title      TEXT    NOT NULL,
    body       TEXT    NOT NULL,
    state      TEXT    NOT NULL,
    author     TEXT    NOT NULL,
    head_ref   TEXT,
    base_ref   TEXT,
    draft      BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT  NOT NULL,
    updated_at BIGINT  NOT NULL,
    PRIMARY KEY (repo_id, number),
    CHECK ((kind = 'issue' AND state IN ('open', 'closed') AND head_ref IS NULL AND base_ref IS NULL)
        OR (kind = 'pull' AND state IN ('open', 'closed', 'merged') AND head_ref IS NOT NULL AND base_ref IS NOT NULL))
);
CREATE INDEX local_items_listing ON local_items (repo_id, kind, state, number);
CREATE UNIQUE INDEX local_items_one_open_pull ON local_items (repo_id, head_ref, base_ref)
    WHERE kind = 'pull' AND state = 'open';

CREATE TABLE local_labels (
    repo_id  BIGINT  NOT NULL,
    number   BIGINT  NOT NULL,
    position BIGINT  NOT NULL,
    name     TEXT    NOT NULL,
    name_key TEXT    NOT NULL, -- lowercased by the forge, for matching
    PRIMARY KEY (repo_id, number, position),
    FOREIGN KEY (repo_id, number) REFERENCES local_items (repo_id, number)
);
CREATE INDEX local_labels_key ON local_labels (repo_id, name_key, number);

CREATE TABLE local_comments (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    repo_id    BIGINT  NOT NULL,
    number     BIGINT  NOT NULL,
    author     TEXT    NOT NULL,
    body       TEXT    NOT NULL,
    created_at BIGINT  NOT NULL,
    FOREIGN KEY (repo_id, number) REFERENCES local_items (repo_id, number)
);
CREATE INDEX local_comments_item ON local_comments (repo_id, number, id);

CREATE TABLE local_reviews (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    repo_id    BIGINT  NOT NULL,
    number     BIGINT  NOT NULL,
    author     TEXT    NOT NULL,
    verdict    TEXT    NOT NULL CHECK (verdict IN ('approve', 'request_changes', 'comment')),
    body       TEXT    NOT NULL,
    created_at BIGINT  NOT NULL,
    FOREIGN KEY (repo_id, number) REFERENCES local_items (repo_id, number)
);
CREATE INDEX local_reviews_item ON local_reviews (repo_id, number, id);

CREATE TABLE local_review_comments (
    id        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    review_id BIGINT  NOT NULL REFERENCES local_reviews (id),
    path      TEXT    NOT NULL,
    line      BIGINT  NOT NULL CHECK (line >= 1),
    side      TEXT    NOT NULL CHECK (side IN ('LEFT', 'RIGHT')),
    body      TEXT    NOT NULL
);
CREATE INDEX local_review_comments_review ON local_review_comments (review_id, id);

-- +goose Down
DROP TABLE local_review_comments;
DROP TABLE local_reviews;
DROP TABLE local_comments;
DROP TABLE local_labels;
DROP TABLE local_items;
DROP TABLE local_repos;
