-- The pages each change names (vigil.Change.Named: the resource it is
-- recorded on, the pages a site's change lists in its records), written
-- with the change, so that the pages of a site sentinel with thousands of
-- changes (which its owner may read, internal/web/access.go) are read
-- from an index rather than from every change's records. The changes
-- stored before are indexed by the migration's Go step
-- (backfillChangePages), which reads their records as the stores do. The
-- same table as internal/postgres/migrations/0105_change_pages.sql, which
-- indexes a hash of the URL (PostgreSQL bounds an index entry).
CREATE TABLE change_pages (
	change_id   INTEGER NOT NULL REFERENCES changes(id) ON DELETE CASCADE,
	sentinel_id INTEGER NOT NULL,
	url         TEXT NOT NULL,
	resource_id INTEGER NOT NULL,
	PRIMARY KEY (change_id, sentinel_id, url, resource_id)
);
CREATE INDEX change_pages_sentinel ON change_pages(sentinel_id, url, resource_id);
CREATE INDEX change_pages_resource ON change_pages(sentinel_id, resource_id, url);
