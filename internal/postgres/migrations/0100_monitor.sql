-- The monitor's run-time state of each sentinel (internal/monitor owns the
-- JSON: lifespan status, schedule history, versions seen, pending
-- confirmation, digest period).
CREATE TABLE sentinel_states (
	sentinel_id BIGINT PRIMARY KEY REFERENCES sentinels(id) ON DELETE CASCADE,
	state       BYTEA NOT NULL,
	updated_at  TIMESTAMPTZ NOT NULL
);
