-- Why a version's body, which does not parse as HTML or XML, is read as
-- its source text (vigil.Version.ReadAsText: the parse error, in words;
-- '' for a page), and the warehouse's reading of bodies into trees it was
-- found under (TreeReading): recorded once the version is read (by the
-- monitor's or a crawl's parse, or the warehouse's, when asked within a
-- request's budget or in the monitor's background fill), so that the
-- dashboard tells a version read as text without parsing its body again.
-- A version not read yet, and every version stored before, has reading 0,
-- not known (RecordReadAsText). The same columns as
-- internal/sqlite/migrations/0107_version_read_as_text.sql.
ALTER TABLE versions ADD COLUMN read_as_text TEXT NOT NULL DEFAULT '';
ALTER TABLE versions ADD COLUMN tree_reading INTEGER NOT NULL DEFAULT 0;
