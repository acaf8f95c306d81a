-- Umpire server schema, version 6: names compared case-insensitively, bots' owners, sessions
-- that expire. Portable SQL: the same text runs on SQLite and PostgreSQL.
--
-- `name_key` is the name as compared: Unicode-normalised (NFKC) and lower-cased, unique. Names
-- have always been ASCII letters, digits, '-' and '_', so the key of an existing name is
-- LOWER(name). Where two existing names differ only by case (`alice` and `ALICE`), the oldest
-- account (then the smallest id) keeps the key; each later one gets `LOWER(name) || '~' || id`
-- ('~' never occurs in a name, so no new name can take it): it keeps its name, games, ratings,
-- sessions and API tokens, but a log-in or a profile by that name reaches the oldest account.
ALTER TABLE users ADD COLUMN name_key TEXT;
UPDATE users SET name_key = LOWER(name);
UPDATE users SET name_key = LOWER(name) || '~' || id
WHERE EXISTS (
    SELECT 1 FROM users o
    WHERE LOWER(o.name) = LOWER(users.name)
      AND (o.created_ms < users.created_ms OR (o.created_ms = users.created_ms AND o.id < users.id))
);
CREATE UNIQUE INDEX users_by_name_key ON users (name_key);
-- The account that made a bot (NULL for accounts, guests, and bots made before version 6).
ALTER TABLE users ADD COLUMN owner TEXT REFERENCES users (id);
CREATE INDEX users_owner ON users (owner);
-- When a session was last used: it expires after a while unused (sliding).
ALTER TABLE sessions ADD COLUMN last_ms BIGINT NOT NULL DEFAULT 0;
UPDATE sessions SET last_ms = created_ms;
CREATE INDEX sessions_last ON sessions (last_ms);
