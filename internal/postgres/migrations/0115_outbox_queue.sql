-- A dead letter that its user retries (RetryNotification) takes its
-- place in its address's queue when it is retried: requeued is that
-- place, a value of the notifications' id sequence taken then, after
-- every id given before; NULL for an entry never retried, whose place is
-- its id. The outbox is claimed in the order of the places,
-- coalesce(requeued, id), which notifications_queued and
-- notifications_address (0114) now index.
-- internal/sqlite/migrations/0119_outbox_queue.sql is the same in
-- SQLite.
ALTER TABLE notifications ADD COLUMN requeued BIGINT;
DROP INDEX notifications_queued;
DROP INDEX notifications_address;
CREATE INDEX notifications_queued ON notifications((coalesce(requeued, id))) INCLUDE (next_attempt) WHERE state IN ('pending', 'failed');
CREATE INDEX notifications_address ON notifications(channel, hashtextextended(target, 0), (coalesce(requeued, id))) INCLUDE (next_attempt)
	WHERE state IN ('pending', 'failed');
