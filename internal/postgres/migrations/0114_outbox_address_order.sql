-- The outbox is claimed in the order it was queued (id), and an entry is
-- not claimed while an earlier undelivered one to its address (channel
-- and target) is not due (ClaimNotifications): notifications_queued gives
-- the undelivered entries in queue order, with the time each is due, so
-- that a claim reads them from the first until it has its batch rather
-- than every entry ever sent; notifications_address gives those of one
-- address in queue order, so that the look for an earlier one not due
-- reads the first of them (the few claimed, at most, before it). The
-- address is keyed on a 64-bit hash of the target, which has no length
-- limit, where a B-tree's entry has one (about 2.7 kB); the claim
-- compares the targets themselves too.
-- internal/sqlite/migrations/0118_outbox_address_order.sql is the same in
-- SQLite.
CREATE INDEX notifications_queued ON notifications(id) INCLUDE (next_attempt) WHERE state IN ('pending', 'failed');
CREATE INDEX notifications_address ON notifications(channel, hashtextextended(target, 0), id) INCLUDE (next_attempt)
	WHERE state IN ('pending', 'failed');
