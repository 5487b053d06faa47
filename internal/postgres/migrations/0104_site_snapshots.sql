-- The snapshot of the last crawl of each sentinel that watches a site
-- (internal/monitor owns the bytes: the pages reached, their links and
-- versions), which the next check compares with. Written by RecordChecks
-- with the check's changes. The same table as
-- internal/sqlite/migrations/0104_site_snapshots.sql.
CREATE TABLE site_snapshots (
	sentinel_id BIGINT PRIMARY KEY REFERENCES sentinels(id) ON DELETE CASCADE,
	data        BYTEA NOT NULL,
	updated_at  TIMESTAMPTZ NOT NULL
);
