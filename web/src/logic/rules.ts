// The rule sets a game may be created with, each in one line.

/** A rule set and its one-line description. */
export interface RuleSetInfo {
  /** The id the server takes. */
  id: string;
  /** One line on what sets it apart. */
  line: string;
}

/** The rule sets of docs/RULESETS.md. */
export const RULE_SETS: RuleSetInfo[] = [
  { id: 'wild16', line: 'ICC wild 16: illegal tries heard by the mover only; pawn tries counted.' },
  { id: 'berkeley', line: 'Berkeley: "No" heard by both, no pawn-try hints.' },
  { id: 'berkeley-any', line: 'Berkeley with "Any?": a yes obliges pawn captures until one is played.' },
  { id: 'cincinnati', line: 'Cincinnati: both hear every "No"; pawn tries announced.' },
  { id: 'english', line: 'English: "Any?" obliges one pawn-capture try.' },
  { id: 'rand', line: 'RAND: squares of pawns with tries; stalemate loses.' },
  { id: 'umpire1965', line: 'The 1965 UMPIRE program, teletype words and all.' },
];

/** Time controls offered: label, initial ms, increment ms. */
export const TIME_CONTROLS: [string, number, number][] = [
  ['1+0', 60_000, 0],
  ['3+2', 180_000, 2_000],
  ['5+3', 300_000, 3_000],
  ['10+0', 600_000, 0],
  ['15+10', 900_000, 10_000],
  ['30+0', 1_800_000, 0],
];
