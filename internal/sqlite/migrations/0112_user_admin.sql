-- The administrator role: an administrator manages the users in the
-- dashboard (/users), as vigil user does on the command line. A database
-- made before it has no administrator, and nobody could grant the role in
-- the dashboard: the user with the lowest id among those with a password
-- (the admin account vigil serve made on its first start, on most
-- installs; one without could not sign in to use the role) becomes one, so
-- that an existing instance keeps a way in. With no password anywhere,
-- nobody does, and vigil serve makes its admin account one at its start. vigil user admin EMAIL --on|--off
-- changes it afterwards. internal/postgres/migrations/0110_user_admin.sql is
-- the same in PostgreSQL's dialect.
ALTER TABLE users ADD COLUMN admin INTEGER NOT NULL DEFAULT 0;
UPDATE users SET admin = 1 WHERE id = (SELECT min(id) FROM users WHERE password_hash <> '');
