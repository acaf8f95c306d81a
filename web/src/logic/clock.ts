// Clocks ticking in the page from the server's snapshot.

import type { Clocks, Side } from '../protocol';

/** A side's time left `elapsed` ms after the snapshot (never below zero). */
export function timeLeft(clocks: Clocks, side: Side, elapsed: number): number {
  const base = side === 'white' ? clocks.white_ms : clocks.black_ms;
  const left = clocks.running === side ? base - Math.max(0, elapsed) : base;
  return Math.max(0, left);
}

/** `m:ss`, `h:mm:ss`, or with tenths under ten seconds. */
export function format(ms: number): string {
  const total = Math.max(0, Math.floor(ms));
  if (total < 10_000) return `0:0${Math.floor(total / 1000)}.${Math.floor((total % 1000) / 100)}`;
  const s = Math.floor(total / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** Whether to show the low-time cue: under 20 seconds, or under a tenth of the start. */
export function low(ms: number, initialMs: number): boolean {
  return ms < 20_000 || ms < initialMs / 10;
}
