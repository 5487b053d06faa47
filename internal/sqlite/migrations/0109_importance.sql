-- The importance of each page (vigil.Resource.Importance: the monitor's
-- on-line OPIC estimate, written with each check by RecordChecks) and of
-- each sentinel (the largest of the pages its last check read), by which
-- ClaimDueSentinels orders the due sentinels (vigil.ClaimPriority). The
-- same columns as internal/postgres/migrations/0108_importance.sql.
ALTER TABLE resources ADD COLUMN importance REAL NOT NULL DEFAULT 0;
ALTER TABLE sentinels ADD COLUMN importance REAL NOT NULL DEFAULT 0;
