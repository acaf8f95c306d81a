// The belief overlay's marks, from a belief body alone: a shade per square by the probability
// of the kind picked (or of any enemy man), a glyph of the likeliest kind, and the same in words.

import type { BeliefBody, SquareBelief } from '../protocol';
import { ALL_SQUARES } from './squares';

/** The kinds of enemy men, in the order the picker and the words give them. */
export const KINDS = ['pawn', 'knight', 'bishop', 'rook', 'queen', 'king'] as const;

/** A kind of man. */
export type Kind = (typeof KINDS)[number];

/** What the overlay shades: any enemy man, or one kind. */
export type Shown = 'any' | Kind;

/** Below this probability a square is not marked with a glyph (the shade alone says "unlikely"). */
export const GLYPH_FROM = 0.2;

/** The shade class for a probability: `belief-0` (none) to `belief-9` (certain). */
export function beliefClass(p: number): string {
  const step = Math.max(0, Math.min(9, Math.ceil(p * 9)));
  return `belief-${step}`;
}

/** The probability the overlay shows on a square for `shown`. */
export function shownP(sq: SquareBelief, shown: Shown): number {
  const p = shown === 'any' ? sq.any : sq[shown];
  return Number.isFinite(p) ? Math.max(0, Math.min(1, p)) : 0;
}

/** The likeliest kind on a square, or null when no kind is there at all. */
export function likeliest(sq: SquareBelief): Kind | null {
  let best: Kind | null = null;
  let bestP = 0;
  for (const k of KINDS) {
    const p = sq[k];
    if (Number.isFinite(p) && p > bestP) {
      best = k;
      bestP = p;
    }
  }
  return best;
}

/**
 * Square → classes for the whole board: the shade of `shown` (`belief-N`), and a glyph class
 * (`bk-KIND`) where that kind (the likeliest, when `shown` is `any`) has at least
 * [`GLYPH_FROM`]. Squares with nothing get no entry.
 */
export function beliefMarks(b: BeliefBody, shown: Shown): Map<string, string> {
  const out = new Map<string, string>();
  b.squares.slice(0, 64).forEach((sq, i) => {
    const key = ALL_SQUARES[i];
    if (!key || !sq) return;
    const p = shownP(sq, shown);
    if (p <= 0) return;
    const kind = shown === 'any' ? likeliest(sq) : shown;
    const glyph = kind && shownP(sq, kind) >= GLYPH_FROM ? ` bk-${kind}` : '';
    out.set(key, beliefClass(p) + glyph);
  });
  return out;
}

const pct = (p: number) => `${Math.round(p * 100)}%`;

/** `e5: an enemy man 40% (pawn 30%, knight 10%)` for a square, by kind; `''` for no square. */
export function beliefWords(b: BeliefBody, square: string): string {
  const i = ALL_SQUARES.indexOf(square);
  const sq = i >= 0 ? b.squares[i] : undefined;
  if (!sq) return '';
  const kinds = KINDS.filter((k) => sq[k] > 0.0005).map((k) => `${k} ${pct(sq[k])}`);
  return `${square}: an enemy man ${pct(sq.any)}${kinds.length ? ' (' + kinds.join(', ') + ')' : ''}`;
}

/**
 * Every square where `shown` may stand, likeliest first, in words (for a screen reader: the
 * same facts as the shades). At most `limit` lines.
 */
export function beliefList(b: BeliefBody, shown: Shown, limit = 64): string[] {
  const rows: [string, number][] = [];
  b.squares.slice(0, 64).forEach((sq, i) => {
    const key = ALL_SQUARES[i];
    if (key && sq && shownP(sq, shown) > 0.0005) rows.push([key, shownP(sq, shown)]);
  });
  rows.sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]));
  return rows.slice(0, limit).map(([k]) => beliefWords(b, k));
}
