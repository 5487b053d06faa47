-- The versions whose reason for being read as text is not known under the
-- warehouse's current reading (tree_reading below it) are found by an
-- index, not a scan of every version: the warehouse reads their bodies in
-- the background, in batches (vigil.VersionStore.FindVersionsReadAsTextUnknown),
-- and once all are known the query finds none at the cost of one index
-- probe for each reading below the current one. The same index as
-- internal/postgres/migrations/0107_version_tree_reading_index.sql.
CREATE INDEX versions_tree_reading ON versions (tree_reading, id);
