// The men of a FEN's placement field, optionally of one colour only.

import type { Side } from '../protocol';
import type { Piece } from './board';
import { at } from './squares';

const ROLE: Record<string, Piece['role']> = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };

/** Square → man for the placement of `fen`; a malformed field gives what could be read. */
export function menOf(fen: string, only?: Side): Map<string, Piece> {
  const out = new Map<string, Piece>();
  const placement = fen.split(' ')[0] ?? '';
  const ranks = placement.split('/');
  ranks.slice(0, 8).forEach((row, i) => {
    const r = 7 - i;
    let f = 0;
    for (const ch of row) {
      if (f > 7) break;
      if (/[1-8]/.test(ch)) {
        f += Number(ch);
        continue;
      }
      const role = ROLE[ch.toLowerCase()];
      const color: Side = ch === ch.toUpperCase() ? 'white' : 'black';
      const sq = at(f, r);
      if (role && sq && (!only || only === color)) out.set(sq, { role, color });
      f += 1;
    }
  });
  return out;
}

/** The moves played (turns passed) before step `i` of a list of steps. */
export function pliesBefore(steps: { moved: boolean }[], i: number): number {
  return steps.slice(0, Math.max(0, i)).filter((s) => s.moved).length;
}
