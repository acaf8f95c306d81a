-- Several server nodes on one PostgreSQL database (docs/CLUSTER.md): each node says where it
-- listens and that it lives. Who owns a game is not stored: it is whoever holds the game's
-- advisory lock. Portable SQL (the table stays empty on SQLite, which runs one node).
CREATE TABLE nodes (
    id TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    started_ms BIGINT NOT NULL,
    heartbeat_ms BIGINT NOT NULL,
    draining BIGINT NOT NULL DEFAULT 0
);
