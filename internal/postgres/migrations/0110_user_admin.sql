-- The administrator role: an administrator manages the users in the
-- dashboard (/users), as vigil user does on the command line. A database
-- made before it has no administrator, and nobody could grant the role in
-- the dashboard: the user with the lowest id (the admin account vigil
-- serve made on its first start, on most installs) becomes one, so that an
-- existing instance keeps a way in. vigil user admin EMAIL --on|--off
-- changes it afterwards. internal/sqlite/migrations/0112_user_admin.sql is
-- the same in SQLite's dialect.
ALTER TABLE users ADD COLUMN admin BOOLEAN NOT NULL DEFAULT false;
UPDATE users SET admin = true WHERE id = (SELECT min(id) FROM users);
