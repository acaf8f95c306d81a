// The player's board for chessground, built from the frame alone: own men, and the attempts
// still offered as destinations (minus those rejected this turn).

import type { OwnMan, PlayerObservation, Side } from '../protocol';
import { isSquare } from './squares';

/** A man as chessground draws it. */
export interface Piece {
  /** `pawn` … `king`. */
  role: 'pawn' | 'knight' | 'bishop' | 'rook' | 'queen' | 'king';
  /** Its colour. */
  color: Side;
}

const ROLES = ['pawn', 'knight', 'bishop', 'rook', 'queen', 'king'] as const;

/** Whether `s` names a kind of man. */
export function isRole(s: string): s is Piece['role'] {
  return (ROLES as readonly string[]).includes(s);
}

/** The player's own men as chessground pieces, keyed by square; unknown entries are skipped. */
export function pieces(men: OwnMan[], you: Side): Map<string, Piece> {
  const out = new Map<string, Piece>();
  for (const m of men) {
    if (isSquare(m.square) && isRole(m.man)) out.set(m.square, { role: m.man, color: you });
  }
  return out;
}

/** Whether `s` is a move in UCI (`e2e4`, `e7e8q`). */
export function isUci(s: string): boolean {
  return /^[a-h][1-8][a-h][1-8][qrbn]?$/.test(s);
}

/**
 * The attempts rejected since the last move was played: the player's own attempts whose verdict
 * was `illegal`, `impossible` or `repeat` after the last observation that passed the turn.
 */
export function rejectedThisTurn(transcript: PlayerObservation[]): string[] {
  const out: string[] = [];
  for (let i = transcript.length - 1; i >= 0; i--) {
    const o = transcript[i];
    if (!o || o.moved) break;
    const own = o.own;
    if (own && ['illegal', 'impossible', 'repeat'].includes(own.verdict) && !out.includes(own.command)) {
      out.unshift(own.command);
    }
  }
  return out;
}

/** Chessground destinations (origin → targets) from the offered attempts, less the rejected. */
export function dests(options: string[], rejected: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const o of options) {
    if (!isUci(o) || rejected.includes(o)) continue;
    const from = o.slice(0, 2);
    const to = o.slice(2, 4);
    const list = out.get(from) ?? [];
    if (!list.includes(to)) list.push(to);
    out.set(from, list);
  }
  return out;
}

/**
 * The UCI attempt for a drag or click from `from` to `to`: the offered option with those squares,
 * a queen when several promotions are offered (the typed box takes the others); `null` when no
 * offered attempt matches.
 */
export function attemptFor(options: string[], from: string, to: string): string | null {
  const matches = options.filter((o) => o.startsWith(from + to));
  if (matches.length === 0) return null;
  return matches.find((o) => o.length === 4) ?? matches.find((o) => o.endsWith('q')) ?? matches[0] ?? null;
}

/**
 * What to change on a board showing `shown` so that it shows `want`: the squares whose man
 * differs, with `undefined` for a square to empty. Empty when the two agree, so a frame that
 * moves nothing costs the board nothing.
 */
export function piecesDiff(shown: ReadonlyMap<string, Piece>, want: ReadonlyMap<string, Piece>): Map<string, Piece | undefined> {
  const out = new Map<string, Piece | undefined>();
  for (const k of shown.keys()) if (!want.has(k)) out.set(k, undefined);
  for (const [k, p] of want) {
    const s = shown.get(k);
    if (!s || s.role !== p.role || s.color !== p.color) out.set(k, p);
  }
  return out;
}
