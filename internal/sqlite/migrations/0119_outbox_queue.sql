-- A dead letter that its user retries (RetryNotification) takes its
-- place in its address's queue when it is retried: requeued is that
-- place, a value of the notifications' ids (id_floor) taken then, after
-- every id given before; NULL for an entry never retried, whose place is
-- its id. The outbox is claimed in the order of the places,
-- coalesce(requeued, id), which notifications_address (0118) now
-- indexes.
--
-- A claim reads the first undelivered entry of each address, its head,
-- and the entries after it to its address up to the first not due, not
-- the entries held back behind one not due, which a claim read, each
-- time, in queue order (notifications_queued), before the ones it could
-- take. notifications_heads indexes the candidates, in queue order: an
-- entry is one when it is queued first to its address, made undelivered
-- again (retried), or follows, first, one that was sent, given up or
-- deleted (the triggers); a claim that reads a candidate that is not the
-- head of its address, an earlier one undelivered, takes its candidacy
-- away, once. So the first undelivered entry of each address is always a
-- candidate. The entries queued before are candidates if they are heads.
-- internal/postgres/migrations/0115_outbox_queue.sql is the same in
-- PostgreSQL.
ALTER TABLE notifications ADD COLUMN requeued INTEGER;
ALTER TABLE notifications ADD COLUMN head INTEGER NOT NULL DEFAULT 1;
DROP INDEX notifications_queued;
DROP INDEX notifications_address;
CREATE INDEX notifications_address ON notifications(channel, target, coalesce(requeued, id), next_attempt) WHERE state IN ('pending', 'failed');
CREATE INDEX notifications_heads ON notifications(coalesce(requeued, id)) WHERE head = 1 AND state IN ('pending', 'failed');
CREATE TRIGGER notifications_head_left AFTER UPDATE OF state ON notifications
WHEN OLD.state IN ('pending', 'failed') AND NEW.state NOT IN ('pending', 'failed') BEGIN
	UPDATE notifications SET head = 1 WHERE head = 0 AND id = (SELECT id FROM notifications
		WHERE channel = OLD.channel AND target = OLD.target AND state IN ('pending', 'failed')
			AND coalesce(requeued, id) > coalesce(OLD.requeued, OLD.id)
		ORDER BY coalesce(requeued, id) LIMIT 1);
END;
CREATE TRIGGER notifications_head_deleted AFTER DELETE ON notifications
WHEN OLD.state IN ('pending', 'failed') BEGIN
	UPDATE notifications SET head = 1 WHERE head = 0 AND id = (SELECT id FROM notifications
		WHERE channel = OLD.channel AND target = OLD.target AND state IN ('pending', 'failed')
			AND coalesce(requeued, id) > coalesce(OLD.requeued, OLD.id)
		ORDER BY coalesce(requeued, id) LIMIT 1);
END;
CREATE TRIGGER notifications_head_queued AFTER INSERT ON notifications
WHEN NEW.state IN ('pending', 'failed') BEGIN
	UPDATE notifications SET head = 0 WHERE id = NEW.id AND EXISTS (SELECT 1 FROM notifications o
		WHERE o.channel = NEW.channel AND o.target = NEW.target AND o.state IN ('pending', 'failed')
			AND coalesce(o.requeued, o.id) < coalesce(NEW.requeued, NEW.id));
END;
CREATE TRIGGER notifications_head_returned AFTER UPDATE OF state ON notifications
WHEN OLD.state NOT IN ('pending', 'failed') AND NEW.state IN ('pending', 'failed') BEGIN
	UPDATE notifications SET head = 1 WHERE id = NEW.id;
END;
UPDATE notifications SET head = 0 WHERE state IN ('pending', 'failed') AND EXISTS (SELECT 1 FROM notifications o
	WHERE o.channel = notifications.channel AND o.target = notifications.target AND o.state IN ('pending', 'failed')
		AND coalesce(o.requeued, o.id) < coalesce(notifications.requeued, notifications.id));
