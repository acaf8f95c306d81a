-- Umpire server schema, version 7: practice games. A practice game is never rated; its
-- players may see their own belief overlay while it goes on.
ALTER TABLE games ADD COLUMN practice BIGINT NOT NULL DEFAULT 0;
