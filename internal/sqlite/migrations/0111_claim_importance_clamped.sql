-- The claim index of 0110 with the importance read as 0 when it is not
-- from 0 to 1: only RecordChecks writes the column, and it refuses
-- others, but a value written past it (by hand, by an older bug) put a
-- negative importance's sentinel after now in the index, past where a
-- claim stops reading it, so that it was claimed late or never.
-- ClaimDueSentinels (claimPriority) names the same expression.
DROP INDEX sentinels_claim;
CREATE INDEX sentinels_claim ON sentinels ((next_check - 86400000000000.0 * (CASE WHEN importance >= 0 AND importance <= 1 THEN importance ELSE 0 END)), id) WHERE status = 'active';
