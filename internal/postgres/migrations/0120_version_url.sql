-- The address a version's body was read from when it is not its
-- resource's (vigil.Version.URL): the final URL of a fetch that followed
-- redirects, canonical; NULL when the body was read from the resource's
-- own URL, as for every version stored before. A redirected page's
-- relative links and image sources resolve against it (and its base
-- element): against the resource's URL, http://a/old redirected to
-- http://a/new/page, href="b.html" was http://a/b.html, not
-- http://a/new/b.html. The same column as
-- internal/sqlite/migrations/0122_version_url.sql.
ALTER TABLE versions ADD COLUMN url TEXT;
