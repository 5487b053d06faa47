-- A dead letter that its user retries (RetryNotification) takes its
-- place in its address's queue when it is retried: requeued is that
-- place, a value of the notifications' id sequence taken then, after
-- every id given before; NULL for an entry never retried, whose place is
-- its id. The outbox is claimed in the order of the places,
-- coalesce(requeued, id), which notifications_address (0114) now
-- indexes.
--
-- A claim reads the first undelivered entry of each address, its head,
-- and the entries after it to its address up to the first not due, not
-- the entries held back behind one not due, which a claim read, each
-- time, in queue order (notifications_queued), before the ones it could
-- take. notifications_heads indexes the candidates, in queue order: an
-- entry is one when it is queued (head's default: a transaction that
-- queues one does not see what another, under way, does to the entries
-- before it), made undelivered again (retried), or follows, first, one
-- that was sent, given up or deleted (the triggers, which lock the next
-- entry's row whatever its candidacy); a claim that reads a
-- candidate that is not the head of its address, an earlier one
-- undelivered, takes its candidacy away, once, having locked it and read
-- again that an earlier one is undelivered (ClaimNotifications). So the
-- first undelivered entry of each address is always a candidate. The
-- entries queued before are candidates if they are heads: the table is
-- this transaction's alone from the ALTER TABLE on.
-- internal/sqlite/migrations/0119_outbox_queue.sql is the same in
-- SQLite.
ALTER TABLE notifications ADD COLUMN requeued BIGINT;
ALTER TABLE notifications ADD COLUMN head BOOLEAN NOT NULL DEFAULT true;
DROP INDEX notifications_queued;
DROP INDEX notifications_address;
CREATE INDEX notifications_address ON notifications(channel, hashtextextended(target, 0), (coalesce(requeued, id))) INCLUDE (next_attempt)
	WHERE state IN ('pending', 'failed');
CREATE INDEX notifications_heads ON notifications((coalesce(requeued, id))) WHERE head AND state IN ('pending', 'failed');
CREATE FUNCTION notifications_head_left() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
	next_id bigint;
BEGIN
	SELECT id INTO next_id FROM notifications
		WHERE channel = OLD.channel AND hashtextextended(target, 0) = hashtextextended(OLD.target, 0) AND target = OLD.target
			AND state IN ('pending', 'failed') AND coalesce(requeued, id) > coalesce(OLD.requeued, OLD.id)
		ORDER BY coalesce(requeued, id) LIMIT 1;
	IF next_id IS NOT NULL THEN
		-- Its row locked whatever its candidacy (a claim taking it away
		-- waits, or is waited for), and then written only if it is none.
		PERFORM 1 FROM notifications WHERE id = next_id FOR NO KEY UPDATE;
		UPDATE notifications SET head = true WHERE id = next_id AND NOT head;
	END IF;
	RETURN NULL;
END
$$;
CREATE TRIGGER notifications_head_left AFTER UPDATE OF state ON notifications FOR EACH ROW
	WHEN (OLD.state IN ('pending', 'failed') AND NEW.state NOT IN ('pending', 'failed'))
	EXECUTE FUNCTION notifications_head_left();
CREATE TRIGGER notifications_head_deleted AFTER DELETE ON notifications FOR EACH ROW
	WHEN (OLD.state IN ('pending', 'failed'))
	EXECUTE FUNCTION notifications_head_left();
CREATE FUNCTION notifications_head_returned() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	NEW.head := true;
	RETURN NEW;
END
$$;
CREATE TRIGGER notifications_head_returned BEFORE UPDATE OF state ON notifications FOR EACH ROW
	WHEN (OLD.state NOT IN ('pending', 'failed') AND NEW.state IN ('pending', 'failed'))
	EXECUTE FUNCTION notifications_head_returned();
-- The first undelivered entry of each address read by a subquery each
-- row runs (ClaimNotifications' outboxFirstPlace), not an EXISTS, which
-- the planner hashes on the address, reading for each entry the others
-- to its address.
UPDATE notifications n SET head = false WHERE state IN ('pending', 'failed') AND coalesce(n.requeued, n.id) > (
	SELECT coalesce(o.requeued, o.id) FROM notifications o
	WHERE o.channel = n.channel AND hashtextextended(o.target, 0) = hashtextextended(n.target, 0) AND o.target = n.target
		AND o.state IN ('pending', 'failed')
	ORDER BY coalesce(o.requeued, o.id) LIMIT 1);
