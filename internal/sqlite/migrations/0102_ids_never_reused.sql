-- SQLite gives a new row the largest id plus one, so deleting the newest
-- sentinel handed its id to the next one, whoever created it, and with the
-- id its feed's URL (an HMAC of the id) and, for changes, the links in past
-- notifications. PostgreSQL's identity columns never reuse an id; here
-- id_floor keeps the largest id each table has ever given, the inserts
-- number from above it, and a trigger raises it on every insert, whatever
-- statement made it.
CREATE TABLE id_floor (
	name TEXT PRIMARY KEY,
	id   INTEGER NOT NULL
);
INSERT INTO id_floor (name, id) SELECT 'sentinels', coalesce(max(id), 0) FROM sentinels;
INSERT INTO id_floor (name, id) SELECT 'changes', coalesce(max(id), 0) FROM changes;
CREATE TRIGGER sentinels_id_floor AFTER INSERT ON sentinels BEGIN
	UPDATE id_floor SET id = max(id, NEW.id) WHERE name = 'sentinels';
END;
CREATE TRIGGER changes_id_floor AFTER INSERT ON changes BEGIN
	UPDATE id_floor SET id = max(id, NEW.id) WHERE name = 'changes';
END;
