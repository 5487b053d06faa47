-- A URL is kept whatever its length, as SQLite keeps it: a B-tree index
-- entry is at most 2,704 bytes, and the B-tree indexes of 0001 on a
-- link's target and on a resource's URL refused a longer one that did
-- not compress (a signed or tracking link's query): a page with such a
-- link was never stored, each fetch of it failing, nor a resource at
-- such a URL. Both are hash indexes now, which keep a hash of the value
-- whatever its length and serve the lookups by it (a resource by its
-- URL); the URLs are kept unique by an exclusion constraint on the hash
-- index, under the unique constraint's name (EnsureResource inserts ON
-- CONFLICT ON CONSTRAINT resources_url_key DO NOTHING). Nothing reads either
-- in order.
DROP INDEX IF EXISTS links_target;
CREATE INDEX links_target ON links USING hash (target);
ALTER TABLE resources DROP CONSTRAINT IF EXISTS resources_url_key;
ALTER TABLE resources ADD CONSTRAINT resources_url_key EXCLUDE USING hash (url WITH =);
