-- Why a version's body, which does not parse as HTML or XML, is read as
-- its source text (vigil.Version.ReadAsText: the parse error, in words;
-- '' for a page), and the warehouse's reading of bodies into trees it was
-- found under (TreeReading): recorded when the version is stored, so that
-- the dashboard tells a version read as text without parsing its body.
-- The versions stored before have reading 0, not known: the warehouse
-- reads such a version's body once when asked, and records what it found
-- (RecordReadAsText). The same columns as
-- internal/sqlite/migrations/0107_version_read_as_text.sql.
ALTER TABLE versions ADD COLUMN read_as_text TEXT NOT NULL DEFAULT '';
ALTER TABLE versions ADD COLUMN tree_reading INTEGER NOT NULL DEFAULT 0;
