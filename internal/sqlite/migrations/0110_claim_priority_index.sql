-- Due sentinels are claimed by vigil.ClaimPriority, that is by
-- next_check - importance * vigil.ImportanceLead (24 hours, in the
-- nanoseconds next_check is kept in), then id: this index gives the active
-- sentinels in that order, so that a claim reads the few it takes rather
-- than sorting every due one. ClaimDueSentinels names it (INDEXED BY) with
-- the same expression, which must stay written as here. It replaces the
-- index on (status, next_check), which only the claims read: every check
-- moves next_check, and so writes each index on it.
DROP INDEX sentinels_due;
CREATE INDEX sentinels_claim ON sentinels ((next_check - 86400000000000.0 * importance), id) WHERE status = 'active';
