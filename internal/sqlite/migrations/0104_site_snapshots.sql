-- The snapshot of the last crawl of each sentinel that watches a site
-- (internal/monitor owns the bytes: the pages reached, their links and
-- versions), which the next check compares with. Written by RecordChecks
-- with the check's changes. The same table as
-- internal/postgres/migrations/0104_site_snapshots.sql.
CREATE TABLE site_snapshots (
	sentinel_id INTEGER PRIMARY KEY REFERENCES sentinels(id) ON DELETE CASCADE,
	data        BLOB NOT NULL,
	updated_at  INTEGER NOT NULL
);
