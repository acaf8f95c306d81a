// What the last observation shows on the board: the capture square and the check direction
// (the line through the player's own king on which the check comes).

import type { HeardAnnouncement } from '../protocol';
import { at, coords, isSquare } from './squares';

/** Squares to mark, by class. */
export interface Marks {
  /** Where a capture happened. */
  capture: string[];
  /** The squares of the check line (or the knight squares) around the king. */
  check: string[];
}

function ray(king: string, df: number, dr: number): string[] {
  const [f, r] = coords(king);
  const out: string[] = [];
  for (let i = 1; i < 8; i++) {
    const s = at(f + df * i, r + dr * i);
    if (!s) break;
    out.push(s);
  }
  return out;
}

function diagonalLength(king: string, df: number): number {
  return ray(king, df, 1).length + ray(king, -df, -1).length;
}

/** The squares from which a check of `direction` may come to a king on `king`. */
export function checkSquares(king: string, direction: string): string[] {
  if (!isSquare(king)) return [];
  const [f, r] = coords(king);
  switch (direction) {
    case 'rank':
      return [...ray(king, 1, 0), ...ray(king, -1, 0)];
    case 'file':
      return [...ray(king, 0, 1), ...ray(king, 0, -1)];
    case 'long_diagonal':
    case 'short_diagonal': {
      // The two diagonals through the king; on a main-length tie the a1–h8 way counts as long.
      const up = diagonalLength(king, 1);
      const down = diagonalLength(king, -1);
      const longIsUp = up >= down;
      const useUp = direction === 'long_diagonal' ? longIsUp : !longIsUp;
      return useUp ? [...ray(king, 1, 1), ...ray(king, -1, -1)] : [...ray(king, -1, 1), ...ray(king, 1, -1)];
    }
    case 'knight': {
      const jumps = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]] as const;
      return jumps.map(([a, b]) => at(f + a, r + b)).filter((s): s is string => s !== null);
    }
    default:
      return [];
  }
}

/** The marks for one observation's announcements, given where the player's king stands. */
export function marks(heard: HeardAnnouncement[], king: string | null): Marks {
  const out: Marks = { capture: [], check: [] };
  for (const a of heard) {
    if (a.kind === 'capture' && isSquare(a.square)) out.capture.push(a.square);
    if (a.kind === 'check' && king) {
      for (const s of checkSquares(king, a.check)) if (!out.check.includes(s)) out.check.push(s);
    }
  }
  return out;
}
