// Minimal local declarations of the protocol additions of the live-play work (ping/pong,
// presence, resume, practice games, belief overlay, review). The generated types in protocol/
// replace this file once the server side lands; until then every field is optional here and
// the page shows nothing for what a server does not send.

import type { HeardAnnouncement, Side } from './protocol';

/** Whether a player has a connection to the game. */
export type PresenceState = 'connected' | 'gone';

/** The `presence` frame, and the `presence` field of a `state` frame. */
export interface Presence {
  /** White's presence. */
  white: PresenceState;
  /** Black's presence. */
  black: PresenceState;
  /** Milliseconds until the side that is gone loses by abandonment, `null` when no deadline runs. */
  abandon_in_ms: number | null;
}

/** `{"type":"pong","n":N}`: the answer to the page's `{"type":"ping","n":N}`. */
export interface PongFrame {
  /** The number the ping carried. */
  n: number;
}

/** The fields a newer server adds to the `state` frame. */
export interface StateExtras {
  /** The index of the first observation of `transcript` (resume with `?from=N`). */
  transcript_from?: number;
  /** Both players' presence. */
  presence?: Presence;
  /** Whether the game was created as practice (belief overlay allowed). */
  practice?: boolean;
}

/** The probabilities of an enemy man on one square. */
export interface BeliefSquare {
  /** Any enemy man. */
  any: number;
  /** An enemy pawn. */
  pawn: number;
  /** An enemy knight. */
  knight: number;
  /** An enemy bishop. */
  bishop: number;
  /** An enemy rook. */
  rook: number;
  /** An enemy queen. */
  queen: number;
  /** The enemy king. */
  king: number;
}

/** The answer of `GET /api/games/{id}/belief`. */
export interface BeliefBody {
  /** The side whose belief this is. */
  side: Side;
  /** Moves played at that point. */
  plies: number;
  /** Whether the set of positions was exact (not sampled). */
  exact: boolean;
  /** Positions in the set or sample. */
  size: number;
  /** 64 entries, a1, b1, …, h8. */
  squares: BeliefSquare[];
}

/** One judged command of a finished game, as the review endpoint gives it. */
export interface ReviewStep {
  /** Who gave the command. */
  actor: Side;
  /** The command in record words. */
  command: string;
  /** The umpire's verdict. */
  verdict: string;
  /** Whether the turn passed. */
  moved: boolean;
  /** The true board after this step. */
  fen: string;
  /** What each side heard. */
  heard: { white: HeardAnnouncement[]; black: HeardAnnouncement[] };
}

/** The answer of `GET /api/games/{id}/review`. */
export interface ReviewBody {
  /** The game's id. */
  game: string;
  /** The rule set. */
  rules: string;
  /** The players' names. */
  players: { white: string; black: string };
  /** The result. */
  result: { score: string; reason: string } | null;
  /** The start position. */
  start_fen: string;
  /** Every judged command. */
  steps: ReviewStep[];
}
