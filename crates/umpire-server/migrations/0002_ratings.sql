-- Umpire server schema, version 2: rated games, Glicko-2 ratings and their history.
-- Portable SQL: the same text runs on SQLite and PostgreSQL (DOUBLE PRECISION is REAL in SQLite).
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
-- A player's current rating in one rule set and time class; absent until its first rated game.
CREATE TABLE ratings (
    user_id TEXT NOT NULL REFERENCES users (id),
    rules TEXT NOT NULL,
    class TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    losses BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (user_id, rules, class)
);
CREATE INDEX ratings_board ON ratings (rules, class, rating);
-- One row per player per rated game, written in the transaction that stores the result.
CREATE TABLE rating_history (
    user_id TEXT NOT NULL REFERENCES users (id),
    game_id TEXT NOT NULL REFERENCES games (id),
    rules TEXT NOT NULL,
    class TEXT NOT NULL,
    opponent_id TEXT NOT NULL REFERENCES users (id),
    score DOUBLE PRECISION NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    deviation_before DOUBLE PRECISION NOT NULL,
    volatility_before DOUBLE PRECISION NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    deviation_after DOUBLE PRECISION NOT NULL,
    volatility_after DOUBLE PRECISION NOT NULL,
    games_after BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (user_id, game_id)
);
CREATE INDEX rating_history_player ON rating_history (user_id, at_ms);
