// Text from other users made safe to show: rendered as text by the page (never HTML), and with
// control and direction characters made visible, as the command-line client does.

/** Replaces control, direction and invisible formatting characters by `\u{…}`. */
export function printable(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    const hidden =
      c < 0x20 ||
      (c >= 0x7f && c <= 0x9f) ||
      (c >= 0x200b && c <= 0x200f) ||
      (c >= 0x2028 && c <= 0x202e) ||
      (c >= 0x2060 && c <= 0x206f) ||
      c === 0xfeff;
    out += hidden ? `\\u{${c.toString(16)}}` : ch;
  }
  return out;
}

/**
 * The search nodes per decision of each level, 1 to 5, as the server's `LEVEL_NODES`
 * (`crates/umpire-server/src/game/strength.rs`; `tests/site.rs` checks they agree).
 */
export const LEVEL_NODES = [5, 20, 160, 4_000, 64_000];

/**
 * What each level, 1 to 5, is for a person choosing one (the ladder measured in
 * `docs/BENCHMARKS.md`, "Session 15: the ladder re-spaced": level 1 is a near-random searcher that a
 * beginner can beat, each level scores about 0.3 against the next, level 5 is the strongest
 * the server runs).
 */
export const LEVEL_NAMES = ['beginner', 'casual', 'club', 'strong', 'strongest'];

/** A level's choice in words: `3` becomes `3 · club`; the number alone for a level not in 1 to 5. */
export function levelLabel(level: number): string {
  const name = LEVEL_NAMES[level - 1];
  return name === undefined ? String(level) : `${level} · ${name}`;
}

/**
 * A house agent's seat name in words: `agent:mcts/nodes=4000` becomes `mcts (level 4 · strong)`
 * (`mcts (N nodes)` for a budget no level has, the kind alone without one); `null` for a
 * person's name.
 */
export function botName(name: string): string | null {
  if (!name.startsWith('agent:')) return null;
  const [kind = '', budget] = name.slice(6).split('/');
  const nodes = budget?.startsWith('nodes=') ? Number(budget.slice(6)) : NaN;
  const shown = printable(kind);
  if (!Number.isFinite(nodes)) return shown;
  const level = LEVEL_NODES.indexOf(nodes);
  return level >= 0 ? `${shown} (level ${levelLabel(level + 1)})` : `${shown} (${nodes} nodes)`;
}

/** Shown for a seat name: `agent:mcts/nodes=4000` becomes `Bot: mcts (level 4 · strong)`. */
export function seatName(name: string): string {
  if (name === '?') return 'waiting…';
  const bot = botName(name);
  if (bot !== null) return `Bot: ${bot}`;
  return printable(name);
}
