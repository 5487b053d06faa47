-- Vigil's warehouse schema, SQLite dialect. Times are Unix nanoseconds (UTC),
-- 0 for "never". internal/postgres/migrations/0001_init.sql is the same
-- schema in PostgreSQL's dialect.

CREATE TABLE users (
	id            INTEGER PRIMARY KEY,
	email         TEXT NOT NULL UNIQUE,
	name          TEXT NOT NULL,
	password_hash TEXT NOT NULL,
	created_at    INTEGER NOT NULL,
	updated_at    INTEGER NOT NULL
);

CREATE TABLE tokens (
	id           INTEGER PRIMARY KEY,
	user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	name         TEXT NOT NULL,
	hash         BLOB NOT NULL UNIQUE,
	created_at   INTEGER NOT NULL,
	expires_at   INTEGER NOT NULL,
	last_used_at INTEGER NOT NULL
);
CREATE INDEX tokens_user ON tokens(user_id);

CREATE TABLE resources (
	id         INTEGER PRIMARY KEY,
	url        TEXT NOT NULL UNIQUE,
	host       TEXT NOT NULL,
	created_at INTEGER NOT NULL
);
CREATE INDEX resources_host ON resources(host, id);

-- Content-addressed bodies: hash is the hex SHA-256 of the raw body, data
-- its zstd-compressed form.
CREATE TABLE blobs (
	hash TEXT PRIMARY KEY,
	size INTEGER NOT NULL,
	data BLOB NOT NULL
);

CREATE TABLE versions (
	id             INTEGER PRIMARY KEY,
	resource_id    INTEGER NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
	seq            INTEGER NOT NULL,
	fetched_at     INTEGER NOT NULL,
	status         INTEGER NOT NULL,
	etag           TEXT NOT NULL,
	last_modified  INTEGER NOT NULL,
	content_type   TEXT NOT NULL,
	charset        TEXT NOT NULL,
	size           INTEGER NOT NULL,
	content_hash   TEXT NOT NULL,
	fetch_duration INTEGER NOT NULL,
	error          TEXT NOT NULL,
	UNIQUE (resource_id, seq)
);
CREATE INDEX versions_fetched ON versions(resource_id, fetched_at);

-- How each version's body is kept: in full (hash names a blob) or as a
-- patch against a newer version of the same resource (base_id).
CREATE TABLE bodies (
	version_id INTEGER PRIMARY KEY REFERENCES versions(id) ON DELETE CASCADE,
	encoding   TEXT NOT NULL CHECK (encoding IN ('full', 'patch')),
	hash       TEXT REFERENCES blobs(hash),
	base_id    INTEGER REFERENCES versions(id) ON DELETE CASCADE,
	data       BLOB,
	tree_delta BLOB,
	CHECK ((encoding = 'full' AND hash IS NOT NULL AND base_id IS NULL) OR
	       (encoding = 'patch' AND hash IS NULL AND base_id IS NOT NULL AND data IS NOT NULL))
);
CREATE INDEX bodies_hash ON bodies(hash);
CREATE INDEX bodies_base ON bodies(base_id);

CREATE TABLE links (
	version_id INTEGER NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
	ord        INTEGER NOT NULL,
	source     TEXT NOT NULL,
	target     TEXT NOT NULL,
	anchor     TEXT NOT NULL,
	type       TEXT NOT NULL,
	PRIMARY KEY (version_id, ord)
);
CREATE INDEX links_target ON links(target);

CREATE TABLE sentinels (
	id         INTEGER PRIMARY KEY,
	owner_id   INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	name       TEXT NOT NULL,
	source     TEXT NOT NULL,
	spec       BLOB,
	status     TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL,
	next_check INTEGER NOT NULL,
	last_check INTEGER NOT NULL
);
CREATE INDEX sentinels_owner ON sentinels(owner_id);
CREATE INDEX sentinels_due ON sentinels(status, next_check);

CREATE TABLE changes (
	id           INTEGER PRIMARY KEY,
	sentinel_id  INTEGER NOT NULL REFERENCES sentinels(id) ON DELETE CASCADE,
	resource_id  INTEGER NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
	from_version INTEGER NOT NULL,
	to_version   INTEGER NOT NULL,
	detected_at  INTEGER NOT NULL,
	summary      TEXT NOT NULL,
	records      BLOB
);
CREATE INDEX changes_sentinel ON changes(sentinel_id, detected_at);
CREATE INDEX changes_resource ON changes(resource_id, detected_at);

CREATE TABLE notifications (
	id           INTEGER PRIMARY KEY,
	user_id      INTEGER REFERENCES users(id) ON DELETE CASCADE,
	change_id    INTEGER REFERENCES changes(id) ON DELETE SET NULL,
	channel      TEXT NOT NULL,
	target       TEXT NOT NULL,
	payload      BLOB NOT NULL,
	state        TEXT NOT NULL,
	attempts     INTEGER NOT NULL,
	next_attempt INTEGER NOT NULL,
	last_error   TEXT NOT NULL,
	created_at   INTEGER NOT NULL,
	sent_at      INTEGER NOT NULL
);
CREATE INDEX notifications_due ON notifications(state, next_attempt);
