-- A claim of the outbox reads the first undelivered entry of each
-- address (channel and target), its head, in queue order, and, from the
-- first due heads, the entries after each to its address up to the first
-- not due (ClaimNotifications): not the entries held back behind one not
-- due, which a claim read, each time, before the ones it took, when it
-- read the undelivered entries in queue order (notifications_queued).
-- head marks the head of each address; the transaction that queues an
-- entry, delivers one, gives one up, retries one or deletes some marks
-- the head of each address it changed (promoteHeads), run by the store's
-- Go code in the transaction under the claims' lock (lockOutbox), which
-- makes such writes take turns, not by a trigger: triggers that marked
-- the next entry from a statement that changed several deadlocked with a
-- worker recording one of them sent, and two workers recording the
-- first entries of one address at once could leave it with no head.
-- notifications_heads gives the heads in queue order, with the time each
-- is due. The entries queued before are marked here.
-- internal/sqlite/migrations/0120_outbox_heads.sql is the same in
-- SQLite.
ALTER TABLE notifications ADD COLUMN head BOOLEAN NOT NULL DEFAULT false;
UPDATE notifications SET head = true WHERE id IN (
	SELECT DISTINCT ON (channel, target) id FROM notifications
	WHERE state IN ('pending', 'failed')
	ORDER BY channel, target, coalesce(requeued, id));
DROP INDEX notifications_queued;
CREATE INDEX notifications_heads ON notifications((coalesce(requeued, id))) INCLUDE (next_attempt)
	WHERE head AND state IN ('pending', 'failed');
