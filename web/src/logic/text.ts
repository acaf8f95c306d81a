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

/** Shown for a seat name: `agent:guided-random` becomes `Bot (guided-random)`. */
export function seatName(name: string): string {
  if (name === '?') return 'waiting…';
  if (name.startsWith('agent:')) return `Bot (${name.slice(6).split('/')[0] ?? ''})`;
  return printable(name);
}
