-- vigil.CanonicalURL normalises the percent-encoding of a URL's query as
-- it did its path's (RFC 3986 section 6.2.2: "?a=%7e", "?a=%7E" and
-- "?a=~" are one page): the Go step of this migration (rekeyQueryPercent)
-- stores each resource and each version's final URL that held another
-- spelling under the canonical form, so that a page keeps its history. A
-- resource whose canonical form another resource already has (the page
-- stored twice, under two spellings) keeps its URL and its versions; the
-- other one goes on. The same step as
-- internal/postgres/migrations/0121_query_percent.sql.
SELECT 1;
