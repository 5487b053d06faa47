-- Times to the microsecond, as PostgreSQL keeps them (vigil.Store):
-- Vigil now stores a time's Unix nanoseconds truncated to the microsecond
-- (tv), and the times stored before keep theirs truncated so too, toward
-- the past, so that they read back as they would from PostgreSQL and
-- compare with the bounds of queries, truncated so, as the newer ones do.
-- 0 (the zero time) and -1 (the Unix epoch, epochValue) stay as they are;
-- a time that truncates to 0 becomes -1, the epoch. A time in the first
-- microsecond SQLite's nanoseconds hold (a query bound clamped there) is
-- raised to the microsecond after, as tv does, not lowered past them.
UPDATE users SET created_at = CASE
	WHEN created_at < -9223372036854775000 THEN created_at - created_at % 1000
	WHEN created_at - ((created_at % 1000) + 1000) % 1000 = 0 THEN -1
	ELSE created_at - ((created_at % 1000) + 1000) % 1000 END
WHERE created_at % 1000 != 0 AND created_at != -1;
UPDATE users SET updated_at = CASE
	WHEN updated_at < -9223372036854775000 THEN updated_at - updated_at % 1000
	WHEN updated_at - ((updated_at % 1000) + 1000) % 1000 = 0 THEN -1
	ELSE updated_at - ((updated_at % 1000) + 1000) % 1000 END
WHERE updated_at % 1000 != 0 AND updated_at != -1;
UPDATE tokens SET created_at = CASE
	WHEN created_at < -9223372036854775000 THEN created_at - created_at % 1000
	WHEN created_at - ((created_at % 1000) + 1000) % 1000 = 0 THEN -1
	ELSE created_at - ((created_at % 1000) + 1000) % 1000 END
WHERE created_at % 1000 != 0 AND created_at != -1;
UPDATE tokens SET expires_at = CASE
	WHEN expires_at < -9223372036854775000 THEN expires_at - expires_at % 1000
	WHEN expires_at - ((expires_at % 1000) + 1000) % 1000 = 0 THEN -1
	ELSE expires_at - ((expires_at % 1000) + 1000) % 1000 END
WHERE expires_at % 1000 != 0 AND expires_at != -1;
UPDATE tokens SET last_used_at = CASE
	WHEN last_used_at < -9223372036854775000 THEN last_used_at - last_used_at % 1000
	WHEN last_used_at - ((last_used_at % 1000) + 1000) % 1000 = 0 THEN -1
	ELSE last_used_at - ((last_used_at % 1000) + 1000) % 1000 END
WHERE last_used_at % 1000 != 0 AND last_used_at != -1;
UPDATE resources SET created_at = CASE
	WHEN created_at < -9223372036854775000 THEN created_at - created_at % 1000
	WHEN created_at - ((created_at % 1000) + 1000) % 1000 = 0 THEN -1
	ELSE created_at - ((created_at % 1000) + 1000) % 1000 END
WHERE created_at % 1000 != 0 AND created_at != -1;
UPDATE versions SET fetched_at = CASE
	WHEN fetched_at < -9223372036854775000 THEN fetched_at - fetched_at % 1000
	WHEN fetched_at - ((fetched_at % 1000) + 1000) % 1000 = 0 THEN -1
	ELSE fetched_at - ((fetched_at % 1000) + 1000) % 1000 END
WHERE fetched_at % 1000 != 0 AND fetched_at != -1;
UPDATE versions SET last_modified = CASE
	WHEN last_modified < -9223372036854775000 THEN last_modified - last_modified % 1000
	WHEN last_modified - ((last_modified % 1000) + 1000) % 1000 = 0 THEN -1
	ELSE last_modified - ((last_modified % 1000) + 1000) % 1000 END
WHERE last_modified % 1000 != 0 AND last_modified != -1;
UPDATE sentinels SET created_at = CASE
	WHEN created_at < -9223372036854775000 THEN created_at - created_at % 1000
	WHEN created_at - ((created_at % 1000) + 1000) % 1000 = 0 THEN -1
	ELSE created_at - ((created_at % 1000) + 1000) % 1000 END
WHERE created_at % 1000 != 0 AND created_at != -1;
UPDATE sentinels SET updated_at = CASE
	WHEN updated_at < -9223372036854775000 THEN updated_at - updated_at % 1000
	WHEN updated_at - ((updated_at % 1000) + 1000) % 1000 = 0 THEN -1
	ELSE updated_at - ((updated_at % 1000) + 1000) % 1000 END
WHERE updated_at % 1000 != 0 AND updated_at != -1;
UPDATE sentinels SET next_check = CASE
	WHEN next_check < -9223372036854775000 THEN next_check - next_check % 1000
	WHEN next_check - ((next_check % 1000) + 1000) % 1000 = 0 THEN -1
	ELSE next_check - ((next_check % 1000) + 1000) % 1000 END
WHERE next_check % 1000 != 0 AND next_check != -1;
UPDATE sentinels SET last_check = CASE
	WHEN last_check < -9223372036854775000 THEN last_check - last_check % 1000
	WHEN last_check - ((last_check % 1000) + 1000) % 1000 = 0 THEN -1
	ELSE last_check - ((last_check % 1000) + 1000) % 1000 END
WHERE last_check % 1000 != 0 AND last_check != -1;
UPDATE changes SET detected_at = CASE
	WHEN detected_at < -9223372036854775000 THEN detected_at - detected_at % 1000
	WHEN detected_at - ((detected_at % 1000) + 1000) % 1000 = 0 THEN -1
	ELSE detected_at - ((detected_at % 1000) + 1000) % 1000 END
WHERE detected_at % 1000 != 0 AND detected_at != -1;
UPDATE notifications SET next_attempt = CASE
	WHEN next_attempt < -9223372036854775000 THEN next_attempt - next_attempt % 1000
	WHEN next_attempt - ((next_attempt % 1000) + 1000) % 1000 = 0 THEN -1
	ELSE next_attempt - ((next_attempt % 1000) + 1000) % 1000 END
WHERE next_attempt % 1000 != 0 AND next_attempt != -1;
UPDATE notifications SET created_at = CASE
	WHEN created_at < -9223372036854775000 THEN created_at - created_at % 1000
	WHEN created_at - ((created_at % 1000) + 1000) % 1000 = 0 THEN -1
	ELSE created_at - ((created_at % 1000) + 1000) % 1000 END
WHERE created_at % 1000 != 0 AND created_at != -1;
UPDATE notifications SET sent_at = CASE
	WHEN sent_at < -9223372036854775000 THEN sent_at - sent_at % 1000
	WHEN sent_at - ((sent_at % 1000) + 1000) % 1000 = 0 THEN -1
	ELSE sent_at - ((sent_at % 1000) + 1000) % 1000 END
WHERE sent_at % 1000 != 0 AND sent_at != -1;
UPDATE sentinel_states SET updated_at = CASE
	WHEN updated_at < -9223372036854775000 THEN updated_at - updated_at % 1000
	WHEN updated_at - ((updated_at % 1000) + 1000) % 1000 = 0 THEN -1
	ELSE updated_at - ((updated_at % 1000) + 1000) % 1000 END
WHERE updated_at % 1000 != 0 AND updated_at != -1;
UPDATE site_snapshots SET updated_at = CASE
	WHEN updated_at < -9223372036854775000 THEN updated_at - updated_at % 1000
	WHEN updated_at - ((updated_at % 1000) + 1000) % 1000 = 0 THEN -1
	ELSE updated_at - ((updated_at % 1000) + 1000) % 1000 END
WHERE updated_at % 1000 != 0 AND updated_at != -1;
UPDATE secrets SET created_at = CASE
	WHEN created_at < -9223372036854775000 THEN created_at - created_at % 1000
	WHEN created_at - ((created_at % 1000) + 1000) % 1000 = 0 THEN -1
	ELSE created_at - ((created_at % 1000) + 1000) % 1000 END
WHERE created_at % 1000 != 0 AND created_at != -1;
