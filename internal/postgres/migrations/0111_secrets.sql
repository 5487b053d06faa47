-- The server's named keys (vigil.SecretStore): the key of the feed tokens,
-- session cookies and CSRF tokens ("secret") and that of the webhook
-- signatures ("webhook-secret"). They were files of each daemon's data
-- directory, so that a command run elsewhere, or a second daemon, made
-- keys of its own and printed feed links the first one answered with
-- 404. A key is written once (INSERT ... ON CONFLICT DO NOTHING) and read
-- back, so that processes starting at once agree; vigil serve copies the
-- data directory's file into this table at its first start after the
-- upgrade, so that feed links and sessions keep working.
-- internal/sqlite/migrations/0113_secrets.sql is the same in SQLite's
-- dialect.
CREATE TABLE secrets (
	name       TEXT PRIMARY KEY,
	value      BYTEA NOT NULL,
	created_at TIMESTAMPTZ NOT NULL
);
