-- Review threads: each inline review comment opens one (the comment's id
-- is the thread's), replies answer it, and the thread is resolved or not.

-- +goose Up
ALTER TABLE local_review_comments ADD COLUMN resolved INTEGER NOT NULL DEFAULT 0;

CREATE TABLE local_thread_replies (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    thread_id  INTEGER NOT NULL REFERENCES local_review_comments (id),
    author     TEXT    NOT NULL,
    body       TEXT    NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX local_thread_replies_thread ON local_thread_replies (thread_id, id);

-- +goose Down
DROP TABLE local_thread_replies;
ALTER TABLE local_review_comments DROP COLUMN resolved;
