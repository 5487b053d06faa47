-- The server's named keys (vigil.SecretStore), as
-- internal/postgres/migrations/0111_secrets.sql keeps them in PostgreSQL,
-- where several daemons and the commands run beside them must agree on
-- them. vigil serve on SQLite keeps using the files of its data
-- directory, which is where this store lives (cmd/vigil/secret.go); the
-- table is here so that both backends meet one interface.
CREATE TABLE secrets (
	name       TEXT PRIMARY KEY,
	value      BLOB NOT NULL,
	created_at INTEGER NOT NULL
);
