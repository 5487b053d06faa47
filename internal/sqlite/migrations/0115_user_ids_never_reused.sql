-- Users, tokens and notifications keep their ids as sentinels, changes,
-- resources and versions do (0102_ids_never_reused.sql,
-- 0105_resource_ids_never_reused.sql): SQLite gives a new row the largest
-- id plus one, so deleting the newest handed its id to the next one. A
-- notification's id is the webhook's X-Vigil-Delivery header: a receiver
-- shared by several users that drops the ids it has seen dropped a new
-- message once a user, and their notifications, had been removed. A
-- user's or a token's id keys audit logs and caches. PostgreSQL's identity
-- columns never reuse an id. The largest id given before is not kept
-- anywhere: each table's floor starts at its largest id left. Only
-- id_floor and its triggers are added; the tables, their rows, indexes and
-- foreign keys stay as they are.
INSERT INTO id_floor (name, id) SELECT 'users', coalesce(max(id), 0) FROM users;
INSERT INTO id_floor (name, id) SELECT 'tokens', coalesce(max(id), 0) FROM tokens;
INSERT INTO id_floor (name, id) SELECT 'notifications', coalesce(max(id), 0) FROM notifications;
CREATE TRIGGER users_id_floor AFTER INSERT ON users BEGIN
	UPDATE id_floor SET id = max(id, NEW.id) WHERE name = 'users';
END;
CREATE TRIGGER tokens_id_floor AFTER INSERT ON tokens BEGIN
	UPDATE id_floor SET id = max(id, NEW.id) WHERE name = 'tokens';
END;
CREATE TRIGGER notifications_id_floor AFTER INSERT ON notifications BEGIN
	UPDATE id_floor SET id = max(id, NEW.id) WHERE name = 'notifications';
END;
