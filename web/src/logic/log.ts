// The umpire's log in the rule set's words, grouped by turn, from the player's observations.

import type { HeardAnnouncement, PlayerObservation, PublicObservation, Side } from '../protocol';

/** One line of the log. */
export interface LogLine {
  /** Who acted. */
  actor: Side;
  /** The player's own command, when it was the player's. */
  command: string | null;
  /** The verdict on the player's own command. */
  verdict: string | null;
  /** The rule set's words for what was heard (and the reason of an invalid command). */
  text: string;
  /** The kinds of announcement heard, for styling. */
  kinds: string[];
  /** Whether the turn passed. */
  moved: boolean;
}

/** The lines of one turn: everything from one move played to the next. */
export interface Turn {
  /** The move number (1 for White's first move and Black's answer). */
  number: number;
  /** Whose turn it was. */
  side: Side;
  /** The lines, in order. */
  lines: LogLine[];
}

const VERDICT_WORDS: Record<string, string> = {
  accepted: 'played',
  illegal: 'illegal',
  impossible: 'impossible',
  repeat: 'already tried',
  answered: 'answered',
  invalid: 'not a command',
  game_over: 'the game is over',
};

/** The words for a verdict. */
export function verdictWords(verdict: string): string {
  return VERDICT_WORDS[verdict] ?? verdict;
}

/** The rule set's words of the announcements, joined. */
export function heardText(heard: HeardAnnouncement[]): string {
  return heard.map((a) => a.text).filter((t) => t.length > 0).join('. ');
}

/** One observation as a log line. */
export function line(o: PlayerObservation | PublicObservation): LogLine {
  const own = 'own' in o ? o.own : null;
  let text = heardText(o.heard);
  if (own && own.verdict === 'invalid' && own.message) text = text ? `${own.message}. ${text}` : own.message;
  return {
    actor: o.actor,
    command: own ? own.command : null,
    verdict: own ? own.verdict : null,
    text,
    kinds: o.heard.map((a) => a.kind),
    moved: o.moved,
  };
}

/** The log grouped by turn: a new turn begins after each observation that passed the turn. */
export function turns(transcript: (PlayerObservation | PublicObservation)[]): Turn[] {
  const out: Turn[] = [];
  let plies = 0;
  let current: Turn | null = null;
  for (const o of transcript) {
    if (!current) {
      current = { number: Math.floor(plies / 2) + 1, side: o.actor, lines: [] };
      out.push(current);
    }
    current.lines.push(line(o));
    if (o.moved) {
      plies += 1;
      current = null;
    }
  }
  return out;
}

/** One line of text for a screen reader about a new observation. */
export function spoken(o: PlayerObservation | PublicObservation, you: Side | 'spectator'): string {
  const l = line(o);
  const who = you === 'spectator' ? o.actor : o.actor === you ? 'You' : 'Opponent';
  // The verdict in words, unless the rule set's words begin with it ("illegal: Illegal move").
  const v = verdictWords(l.verdict ?? '');
  const cmd = l.command ? (l.text.toLowerCase().startsWith(v.toLowerCase()) ? ` ${l.command}` : ` ${l.command}, ${v}`) : '';
  return `${who}${cmd}${l.text ? ': ' + l.text : ''}`;
}
