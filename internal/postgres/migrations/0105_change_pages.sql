-- The pages each change names (vigil.Change.Named: the resource it is
-- recorded on, the pages a site's change lists in its records), written
-- with the change, so that the pages of a site sentinel with thousands of
-- changes (which its owner may read, internal/web/access.go) are read
-- from an index rather than from every change's records. The changes
-- stored before are indexed by the migration's Go step
-- (backfillChangePages), which reads their records as the stores do. The
-- same table as internal/sqlite/migrations/0106_change_pages.sql, but
-- for url_key.
CREATE TABLE change_pages (
	change_id   BIGINT NOT NULL REFERENCES changes(id) ON DELETE CASCADE,
	sentinel_id BIGINT NOT NULL,
	url         TEXT NOT NULL,
	-- url_key stands for url in the indexes (the first 16 bytes of its
	-- SHA-256, urlKey): an index entry holds at most 2,704 bytes, and a
	-- page's URL as written (a signed link) may be longer.
	url_key     BYTEA NOT NULL,
	resource_id BIGINT NOT NULL,
	PRIMARY KEY (change_id, sentinel_id, url_key, resource_id)
);
CREATE INDEX change_pages_sentinel ON change_pages(sentinel_id, url_key, resource_id);
CREATE INDEX change_pages_resource ON change_pages(sentinel_id, resource_id);
