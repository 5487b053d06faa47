-- The lease end of the last claim of each sentinel (ClaimDueSentinels)
-- and of each outbox entry (ClaimNotifications), in the nanoseconds
-- next_check and next_attempt are kept in; NULL for one never claimed.
-- A claim is held while next_check (next_attempt) is still its lease
-- end: a check, a delivery, a release or an edit moves it. One daemon at
-- a time works from a SQLite store (vigil serve locks its data
-- directory), so the claims still held when it starts are a previous
-- process's, ended without giving them back (killed, crashed):
-- ReleaseOrphanedClaims gives them back then, due at once, instead of
-- when their lease ends. PostgreSQL, which daemons share, keeps no such
-- column: a claim there may be another daemon's, and ends with its
-- lease.
ALTER TABLE sentinels ADD COLUMN claimed_until INTEGER;
ALTER TABLE notifications ADD COLUMN claimed_until INTEGER;
