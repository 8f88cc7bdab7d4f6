-- Review threads: each inline review comment opens one (the comment's id
-- is the thread's), replies answer it, and the thread is resolved or not.

-- +goose Up
ALTER TABLE local_review_comments ADD COLUMN resolved BOOLEAN NOT NULL DEFAULT FALSE;

CREATE TABLE local_thread_replies (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    thread_id  BIGINT NOT NULL REFERENCES local_review_comments (id),
    author     TEXT   NOT NULL,
    body       TEXT   NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX local_thread_replies_thread ON local_thread_replies (thread_id, id);

-- +goose Down
DROP TABLE local_thread_replies;
ALTER TABLE local_review_comments DROP COLUMN resolved;
