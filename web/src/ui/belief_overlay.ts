// The belief overlay: square classes by the probability of an enemy man there, and the words
// for one square by kind.

import type { BeliefBody } from '../live_types';
import { ALL_SQUARES } from '../logic/squares';

/** The class for a probability: `belief-0` (none) to `belief-9`. */
export function beliefClass(p: number): string {
  const step = Math.max(0, Math.min(9, Math.ceil(p * 9)));
  return `belief-${step}`;
}

/** Square → class for the whole board. */
export function beliefClasses(b: BeliefBody): Map<string, string> {
  const out = new Map<string, string>();
  b.squares.slice(0, 64).forEach((sq, i) => {
    const key = ALL_SQUARES[i];
    if (key && typeof sq?.any === 'number' && sq.any > 0) out.set(key, beliefClass(sq.any));
  });
  return out;
}

/** `e5: any 40% (pawn 30%, knight 10%)` for a square, by kind. */
export function beliefWords(b: BeliefBody, square: string): string {
  const i = ALL_SQUARES.indexOf(square);
  const sq = i >= 0 ? b.squares[i] : undefined;
  if (!sq) return '';
  const pct = (p: number) => `${Math.round(p * 100)}%`;
  const kinds = (['pawn', 'knight', 'bishop', 'rook', 'queen', 'king'] as const)
    .filter((k) => sq[k] > 0.0005)
    .map((k) => `${k} ${pct(sq[k])}`);
  return `${square}: an enemy man ${pct(sq.any)}${kinds.length ? ' (' + kinds.join(', ') + ')' : ''}`;
}
