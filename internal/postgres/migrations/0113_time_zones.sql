-- Time zones of users and of sentinels (vigil.User.TimeZone,
-- vigil.Sentinel.TimeZone): the IANA name of the zone a user's dates are
-- read in, and the one a sentinel's dates were read in when it was saved,
-- which the monitor runs its lifespan in. Empty, as for every row before,
-- is the deployment's zone (vigil serve --tz).
-- internal/sqlite/migrations/0116_time_zones.sql is the same in SQLite.
ALTER TABLE users ADD COLUMN time_zone TEXT NOT NULL DEFAULT '';
ALTER TABLE sentinels ADD COLUMN time_zone TEXT NOT NULL DEFAULT '';
