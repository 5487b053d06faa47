-- The dashboard's flashes (vigil.FlashStore): what a form did, kept a
-- minute at most for the page its redirect leads to, which takes it once.
-- They were held in the memory of the daemon that answered the form, so
-- that behind a balancer the page, answered by another daemon, could not
-- show a new API token or a generated password, and a flash's signed
-- cookie could be shown again for its whole minute. value is what the web
-- adapter gives, a secret in it sealed; expires_at in Unix nanoseconds, as
-- every time of this store. internal/postgres/migrations/0118_flashes.sql
-- is the same in PostgreSQL's dialect.
CREATE TABLE flashes (
	id         TEXT PRIMARY KEY,
	value      BLOB NOT NULL,
	expires_at INTEGER NOT NULL
);
CREATE INDEX flashes_expires ON flashes(expires_at);
