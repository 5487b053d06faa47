-- A claim of the outbox reads the first undelivered entry of each
-- address (channel and target), its head, in queue order, and, from the
-- first due heads, the entries after each to its address up to the first
-- not due (ClaimNotifications): not the entries held back behind one not
-- due, which a claim read, each time, before the ones it took, when it
-- read the undelivered entries in queue order (notifications_queued).
-- head marks the head of each address; the transaction that queues an
-- entry, delivers one, gives one up, retries one or deletes some marks
-- the head of each address it changed (promoteHead, run by the store's
-- Go code in the transaction, the writes of a store one at a time), not
-- a trigger. notifications_heads gives the heads in queue order, with the
-- time each is due. The entries queued before are marked here.
-- internal/postgres/migrations/0117_outbox_heads.sql is the same in
-- PostgreSQL.
ALTER TABLE notifications ADD COLUMN head INTEGER NOT NULL DEFAULT 0;
UPDATE notifications SET head = 1 WHERE state IN ('pending', 'failed') AND id = (
	SELECT o.id FROM notifications o INDEXED BY notifications_address
	WHERE o.channel = notifications.channel AND o.target = notifications.target AND o.state IN ('pending', 'failed')
	ORDER BY coalesce(o.requeued, o.id) LIMIT 1);
DROP INDEX notifications_queued;
CREATE INDEX notifications_heads ON notifications(coalesce(requeued, id), next_attempt) WHERE head AND state IN ('pending', 'failed');
