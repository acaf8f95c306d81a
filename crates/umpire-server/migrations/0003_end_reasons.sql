-- Umpire server schema, version 3: the rules core names the ends the server declares. A flag
-- fall's reason was stored as `time`; the core calls it `time_forfeit` (`abandonment` and
-- `aborted` keep their names; the stored command words `flag`, `abandon`, `abort` are the
-- core's own and load unchanged).
UPDATE games SET reason = 'time_forfeit' WHERE reason = 'time';
