-- How the two versions of a change were read when they were read
-- differently (vigil.Change.Reading: which one as its source text and why,
-- and the selectors that could not be applied to the texts and why), as
-- JSON; NULL for versions read alike. The message about the change said
-- it, and the stored change lost it: the dashboard, the API and feeds
-- could not. The changes stored before have none.
-- internal/sqlite/migrations/0114_change_reading.sql is the same in
-- SQLite.
ALTER TABLE changes ADD COLUMN reading TEXT;
