// A page opened while the server is down (its shell from the service worker's cache): says so in
// place of the page, asks again by itself (1 s, then twice as long each time up to 8 s, or at
// once on "Try now"), and shows the page as soon as the server answers.

import { h, fill } from './dom';

/** The longest pause between two questions to the server. */
const MAX_PAUSE_MS = 8000;

/**
 * Whether the server answers at all (its health check, never cached): any HTTP answer counts,
 * only a failed connection does not.
 */
export async function serverAnswers(): Promise<boolean> {
  try {
    await fetch('/api/health', { cache: 'no-store', credentials: 'omit' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Says in `main` that the server is not answering and asks it again until it does, then calls
 * `back`. Returns what stops the asking (when the page is left meanwhile).
 */
export function waitForServer(main: HTMLElement, back: () => void): () => void {
  let pause = 1000;
  let timer: number | undefined;
  let tick: number | undefined;
  let stopped = false;
  let due = 0;
  const when = h('span', { id: 'server-down-when' });
  const retry = h('button', { type: 'button', id: 'server-down-retry' }, 'Try now');
  const notice = h(
    'div',
    { class: 'banner', role: 'alert', id: 'server-down' },
    h('p', {}, 'The server is not answering: it may be down or restarting, or your connection may be lost. ', when),
    retry,
  );
  fill(main, h('h1', {}, 'Umpire: Kriegspiel'), notice);

  const stop = () => {
    stopped = true;
    window.clearTimeout(timer);
    window.clearInterval(tick);
  };
  const schedule = () => {
    due = performance.now() + pause;
    const say = () => {
      const s = Math.max(0, Math.ceil((due - performance.now()) / 1000));
      when.textContent = s > 0 ? `Trying again in ${s} s…` : 'Trying again…';
    };
    say();
    window.clearInterval(tick);
    tick = window.setInterval(say, 250);
    timer = window.setTimeout(() => void ask(), pause);
    pause = Math.min(MAX_PAUSE_MS, pause * 2);
  };
  const ask = async () => {
    window.clearTimeout(timer);
    window.clearInterval(tick);
    when.textContent = 'Trying again…';
    const up = await serverAnswers();
    if (stopped) return;
    if (up) {
      stop();
      back();
    } else schedule();
  };
  retry.addEventListener('click', () => void ask());
  schedule();
  return stop;
}
