// Phantoms: the player's guesses of where enemy men stand, kept per game in the browser.

import type { Side } from '../protocol';
import { isRole, type Piece } from './board';
import { isSquare } from './squares';

/** At most this many phantoms (two full armies' worth); more are not kept. */
export const MAX_PHANTOMS = 32;

/** Square → the kind of enemy man guessed there. */
export type Phantoms = Map<string, Piece['role']>;

/** Puts (or moves) a phantom on `square`; ignored past the bound or off the board. */
export function place(p: Phantoms, square: string, role: Piece['role']): Phantoms {
  const next = new Map(p);
  if (!isSquare(square)) return next;
  if (!next.has(square) && next.size >= MAX_PHANTOMS) return next;
  next.set(square, role);
  return next;
}

/** Moves the phantom on `from` to `to` (off the board removes it). */
export function move(p: Phantoms, from: string, to: string): Phantoms {
  const role = p.get(from);
  const next = new Map(p);
  next.delete(from);
  if (role && isSquare(to)) next.set(to, role);
  return next;
}

/** Removes the phantom on `square`. */
export function remove(p: Phantoms, square: string): Phantoms {
  const next = new Map(p);
  next.delete(square);
  return next;
}

const BACK: Piece['role'][] = ['rook', 'knight', 'bishop', 'queen', 'king', 'bishop', 'knight', 'rook'];

/** The enemy's start position (the side opposite `you`), as phantoms. */
export function enemyStart(you: Side): Phantoms {
  const enemy: Side = you === 'white' ? 'black' : 'white';
  const back = enemy === 'white' ? '1' : '8';
  const pawns = enemy === 'white' ? '2' : '7';
  const out: Phantoms = new Map();
  'abcdefgh'.split('').forEach((f, i) => {
    out.set(f + back, BACK[i] ?? 'pawn');
    out.set(f + pawns, 'pawn');
  });
  return out;
}

/** The phantoms as stored (a JSON object square → role). */
export function serialize(p: Phantoms): string {
  return JSON.stringify(Object.fromEntries(p));
}

/** Reads stored phantoms; anything malformed gives none (never throws). */
export function parse(text: string | null): Phantoms {
  const out: Phantoms = new Map();
  if (!text) return out;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return out;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [square, role] of Object.entries(value as Record<string, unknown>)) {
    if (out.size >= MAX_PHANTOMS) break;
    if (isSquare(square) && typeof role === 'string' && isRole(role)) out.set(square, role);
  }
  return out;
}

/** The localStorage key of a game's phantoms. */
export function storageKey(game: string): string {
  return `umpire.phantoms.${game}`;
}

/** What a line typed in the phantom box asks for: a man on a square, or the square cleared. */
export type TypedPhantom = { square: string; role: Piece['role'] } | { square: string; erase: true };

const LETTERS: Record<string, Piece['role']> = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };

/**
 * Reads a phantom typed at the keyboard: a man's letter and a square (`Nf6`, `p e5`, either
 * case), or `x` (or `-`) and a square to remove the phantom there; `null` for anything else.
 */
export function readTyped(text: string): TypedPhantom | null {
  const t = text.replace(/\s+/g, '').toLowerCase();
  if (t.length !== 3) return null;
  const letter = t[0] ?? '';
  const square = t.slice(1);
  if (!isSquare(square)) return null;
  if (letter === 'x' || letter === '-') return { square, erase: true };
  const role = LETTERS[letter];
  return role ? { square, role } : null;
}
