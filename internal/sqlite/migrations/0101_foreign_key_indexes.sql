-- Indexes on the foreign keys that 0001 left without one. Deleting a change
-- sets notifications.change_id to NULL and deleting a user deletes its
-- notifications: without an index each such cascade scans the whole outbox
-- (deleting a sentinel with n changes took O(n * outbox)). user_id also
-- serves the outbox listing by user. Every other REFERENCES column already
-- leads an index or the primary key.
CREATE INDEX IF NOT EXISTS notifications_change ON notifications(change_id);
CREATE INDEX IF NOT EXISTS notifications_user ON notifications(user_id);
