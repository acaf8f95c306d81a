// Reconnect bookkeeping: how many observations the page holds, which commands it sent that were
// not answered yet, and after a reconnect which of them the transcript shows were judged.

import type { PlayerObservation, PublicObservation } from '../protocol';

/** A command sent and not yet answered. */
export interface Pending {
  /** The `id` it was sent with. */
  id: number;
  /** The frame, as sent. */
  frame: Record<string, unknown>;
}

/** At most this many commands wait for an answer; the page sends no more until answered. */
export const MAX_PENDING = 16;

/** The commands the umpire judges (an observation of the player's own answers each). */
export function isJudged(frame: Record<string, unknown>): boolean {
  return ['attempt', 'any', 'draw', 'resign'].includes(String(frame['type']));
}

/** What a `state` frame brings, given what the page already holds. */
export interface Resumed<T> {
  /** The observations the page did not have, in order. */
  fresh: T[];
  /** Whether the frame's transcript does not reach back to what the page holds (start over). */
  gap: boolean;
}

/**
 * The new observations of a `state` frame whose transcript starts at index `from` (0 for a
 * whole transcript), for a page that holds `held` observations.
 */
export function freshObservations<T>(transcript: T[], from: number, held: number): Resumed<T> {
  if (from > held) return { fresh: transcript, gap: true };
  return { fresh: transcript.slice(held - from), gap: false };
}

/**
 * The pending commands to send again after a reconnect: each of the player's own observations
 * among the fresh ones answers the oldest pending judged command (the umpire judges in order);
 * those left were never judged. Commands that are not judged (chat, relist) are sent again only
 * if their answer never came, which a reconnect cannot tell: they are dropped.
 */
export function toResend(pending: Pending[], fresh: (PlayerObservation | PublicObservation)[]): Pending[] {
  let answered = fresh.filter((o) => 'own' in o && o.own !== null).length;
  const out: Pending[] = [];
  for (const p of pending) {
    if (!isJudged(p.frame)) continue;
    if (answered > 0) {
      answered -= 1;
      continue;
    }
    out.push(p);
  }
  return out;
}
