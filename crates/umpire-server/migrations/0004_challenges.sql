-- Umpire server schema, version 4: direct challenges. An open game may be addressed to one
-- account (its user id); only that account may join it, and it may decline it.
ALTER TABLE games ADD COLUMN opponent TEXT;
