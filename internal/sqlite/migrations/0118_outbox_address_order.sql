-- The outbox is claimed in the order it was queued (id), and an entry is
-- not claimed while an earlier undelivered one to its address (channel
-- and target) is not due (ClaimNotifications): notifications_queued gives
-- the undelivered entries in queue order, with the time each is due, so
-- that a claim reads them from the first until it has its batch rather
-- than every entry ever sent; notifications_address gives those of one
-- address in queue order, so that the look for an earlier one not due
-- reads the first of them (the few claimed, at most, before it).
-- internal/postgres/migrations/0114_outbox_address_order.sql is the same
-- in PostgreSQL.
CREATE INDEX notifications_queued ON notifications(id, next_attempt) WHERE state IN ('pending', 'failed');
CREATE INDEX notifications_address ON notifications(channel, target, id, next_attempt) WHERE state IN ('pending', 'failed');
