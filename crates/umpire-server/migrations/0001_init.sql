-- Umpire server schema, version 1. Portable SQL: the same text runs on SQLite and PostgreSQL.
-- Identifiers are random text chosen by the server; times are milliseconds since the Unix epoch.
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    password_hash TEXT,
    created_ms BIGINT NOT NULL
);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    created_ms BIGINT NOT NULL
);
CREATE TABLE api_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    created_ms BIGINT NOT NULL
);
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    fen TEXT NOT NULL,
    white_user TEXT,
    black_user TEXT,
    white_agent TEXT,
    black_agent TEXT,
    agent_seed BIGINT NOT NULL,
    initial_ms BIGINT NOT NULL,
    increment_ms BIGINT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    reason TEXT,
    created_ms BIGINT NOT NULL
);
CREATE INDEX games_status ON games (status);
CREATE TABLE commands (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    side TEXT NOT NULL,
    command TEXT NOT NULL,
    clock_ms BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE chat (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    side TEXT NOT NULL,
    text TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
