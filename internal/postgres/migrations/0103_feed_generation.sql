-- Each sentinel's feed generation: its feed token is an HMAC of the
-- sentinel id and this number under the server's secret, and rotating the
-- feed adds one, so the URLs handed out before stop working. Existing
-- sentinels start at 0, whose token is the one they always had: their
-- feed URLs keep working until rotated. The same column as
-- internal/sqlite/migrations/0103_feed_generation.sql (0102 is SQLite's
-- alone: PostgreSQL's identity columns never reused ids). A constant
-- default adds the column without rewriting the table.
ALTER TABLE sentinels ADD COLUMN feed_generation BIGINT NOT NULL DEFAULT 0;
