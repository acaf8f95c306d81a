-- Umpire server schema, version 5: tombstones of withdrawn challenges. An open game that was
-- declined, cancelled or expired is deleted (it never started); this small record says why and
-- when, so that a client arriving late hears the reason instead of "no such game". Kept for a
-- day (the server deletes older ones as it adds new ones).
CREATE TABLE withdrawn (
    id TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX withdrawn_at ON withdrawn (at_ms);
