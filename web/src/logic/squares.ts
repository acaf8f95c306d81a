// Squares as names (`a1` … `h8`) and as file/rank numbers.

/** A square's name, `a1` to `h8`. */
export type Square = string;

const FILES = 'abcdefgh';

/** Whether `s` names a square. */
export function isSquare(s: string): boolean {
  return /^[a-h][1-8]$/.test(s);
}

/** File (0–7) and rank (0–7) of a square. */
export function coords(s: Square): [number, number] {
  return [FILES.indexOf(s.charAt(0)), Number(s.charAt(1)) - 1];
}

/** The square at file `f`, rank `r`, or `null` off the board. */
export function at(f: number, r: number): Square | null {
  if (f < 0 || f > 7 || r < 0 || r > 7) return null;
  return FILES.charAt(f) + String(r + 1);
}

/** All 64 squares in the order a1, b1, …, h8. */
export const ALL_SQUARES: Square[] = Array.from({ length: 64 }, (_, i) => at(i % 8, Math.floor(i / 8)) as Square);
