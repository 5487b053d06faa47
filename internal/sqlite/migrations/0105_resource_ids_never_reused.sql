-- Resources and versions keep their ids as sentinels and changes do
-- (0102_ids_never_reused.sql): deleting the newest resource handed its id,
-- and its versions' ids, to the next ones, whatever URL they were of. A
-- long-lived reader that kept an id (the monitor keeps each URL's resource
-- and each resource's newest version; a sentinel's state keeps the
-- versions it saw) would then read, or write under, another page's. An id
-- of a deleted row is now never given again, as in PostgreSQL, whose
-- identity columns never reuse one: a kept id is live or answers ENOTFOUND.
INSERT INTO id_floor (name, id) SELECT 'resources', coalesce(max(id), 0) FROM resources;
INSERT INTO id_floor (name, id) SELECT 'versions', coalesce(max(id), 0) FROM versions;
CREATE TRIGGER resources_id_floor AFTER INSERT ON resources BEGIN
	UPDATE id_floor SET id = max(id, NEW.id) WHERE name = 'resources';
END;
CREATE TRIGGER versions_id_floor AFTER INSERT ON versions BEGIN
	UPDATE id_floor SET id = max(id, NEW.id) WHERE name = 'versions';
END;
