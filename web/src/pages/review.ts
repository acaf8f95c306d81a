// The review of a finished game: the referee's board and each player's view side by side, step
// by step, with the announcements of each step and the belief overlay of either side.

import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Key } from '@lichess-org/chessground/types';
import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Page } from '../main';
import type { BeliefBody, ReviewBody, Side } from '../protocol';
import { isUci } from '../logic/board';
import { menOf, pliesBefore } from '../logic/fen';
import { seatName } from '../logic/text';
import { call } from '../ui/api';
import { beliefPanel } from '../ui/belief_overlay';
import { h, fill } from '../ui/dom';

/** The review page for `/review/{id}`. */
export const review: Page = (main, [id = '']) => {
  let data: ReviewBody | null = null;
  let step = 0;
  let auto: number | undefined;
  let overlay: Side | null = null;
  let belief: BeliefBody | null = null;
  // Answers to an earlier step that arrive late are dropped.
  let asked = 0;
  const panel = beliefPanel(() => paintBelief());
  const boards: Record<'referee' | Side, Api | null> = { referee: null, white: null, black: null };
  const heardEl: Record<Side, HTMLElement> = { white: h('ol', { class: 'heard', id: 'heard-white' }), black: h('ol', { class: 'heard', id: 'heard-black' }) };
  const stepEl = h('p', { class: 'step', id: 'step', 'aria-live': 'polite' });
  const enc = encodeURIComponent(id);
  const downloads = h(
    'p',
    { class: 'downloads' },
    'Download: ',
    h('a', { href: `/games/${enc}.pgn`, id: 'dl-pgn', download: true }, 'PGN (referee)'), ' · ',
    h('a', { href: `/games/${enc}/white.pgn`, id: 'dl-white', download: true }, "White's PGN"), ' · ',
    h('a', { href: `/games/${enc}/black.pgn`, id: 'dl-black', download: true }, "Black's PGN"), ' · ',
    h('a', { href: `/games/${enc}.json`, id: 'dl-json', download: true }, 'JSON'),
  );

  function boardBox(which: 'referee' | Side, label: string): HTMLElement {
    const el = h('div', { class: 'board small' });
    const box = h('figure', { class: 'review-board', id: 'board-' + which }, h('figcaption', {}, label), el);
    boards[which] = Chessground(el, { viewOnly: true, coordinates: which === 'referee', orientation: which === 'black' ? 'black' : 'white', animation: { enabled: false }, drawable: { enabled: false, visible: true } });
    el.addEventListener('pointermove', (e) => {
      if (overlay === which && belief) panel.point(boards[which]?.getKeyAtDomPos([e.clientX, e.clientY]) ?? null);
    });
    return box;
  }

  function go(i: number): void {
    if (!data) return;
    step = Math.max(0, Math.min(data.steps.length, i));
    const fen = step === 0 ? data.start_fen : (data.steps[step - 1]?.fen ?? data.start_fen);
    const s = step > 0 ? data.steps[step - 1] : undefined;
    const arrow: DrawShape[] = [];
    if (s && isUci(s.command)) arrow.push({ orig: s.command.slice(0, 2) as Key, dest: s.command.slice(2, 4) as Key, brush: s.verdict === 'accepted' ? 'green' : 'red' });
    for (const which of ['referee', 'white', 'black'] as const) {
      const api = boards[which];
      if (!api) continue;
      const men = menOf(fen, which === 'referee' ? undefined : which);
      api.set({ fen: '8/8/8/8/8/8/8/8' });
      api.setPieces(men as Map<Key, { role: 'pawn'; color: Side }>);
      const mine = which === 'referee' || (s && s.actor === which);
      const custom = new Map<Key, string>();
      if (belief && overlay === which) for (const [k, c] of panel.marks()) custom.set(k as Key, c);
      api.set({ drawable: { autoShapes: mine ? arrow : [] }, highlight: { custom } });
    }
    for (const side of ['white', 'black'] as const) {
      const heard = s ? s.heard[side] : [];
      fill(heardEl[side], ...heard.map((a) => h('li', {}, a.text)));
    }
    stepEl.textContent = s
      ? `Step ${step} of ${data.steps.length}: ${s.actor} ${s.command}, ${s.verdict}`
      : `Start (${data.steps.length} steps)`;
    if (overlay) void loadBelief();
  }

  async function loadBelief(): Promise<void> {
    if (!data || !overlay) return;
    const ply = pliesBefore(data.steps, step);
    const n = ++asked;
    const a = await call<BeliefBody>('GET', `/api/games/${enc}/belief?side=${overlay}&ply=${ply}`);
    if (n !== asked || !overlay) return;
    if (!a.ok) {
      stepEl.textContent = a.message;
      return;
    }
    belief = a.body;
    panel.show(belief, `${overlay === 'white' ? "White's" : "Black's"} belief after ${belief.plies} moves, from ${belief.size} positions${belief.exact ? ' (exact)' : ' (sampled)'}.`);
    paintBelief();
  }

  function paintBelief(): void {
    if (!overlay) return;
    const custom = new Map<Key, string>();
    if (belief) for (const [k, c] of panel.marks()) custom.set(k as Key, c);
    boards[overlay]?.set({ highlight: { custom } });
  }

  const toggleAuto = () => {
    if (auto !== undefined) {
      window.clearInterval(auto);
      auto = undefined;
      return;
    }
    auto = window.setInterval(() => {
      if (!data || step >= data.steps.length) {
        window.clearInterval(auto);
        auto = undefined;
      } else go(step + 1);
    }, 700);
  };
  const keys = (e: KeyboardEvent) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === 'ArrowRight') go(step + 1);
    else if (e.key === 'ArrowLeft') go(step - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(data?.steps.length ?? 0);
    else if (e.key === ' ') toggleAuto();
    else return;
    e.preventDefault();
  };
  document.addEventListener('keydown', keys);

  const overlaySel = h('select', { id: 'overlay', 'aria-label': 'Belief overlay' }, h('option', { value: '' }, 'no overlay'), h('option', { value: 'white' }, "White's belief"), h('option', { value: 'black' }, "Black's belief"));
  overlaySel.addEventListener('change', () => {
    const val = overlaySel.value;
    overlay = val === 'white' || val === 'black' ? val : null;
    belief = null;
    panel.show(null);
    go(step);
  });

  fill(main, h('h1', {}, 'Review'), h('p', {}, 'Loading…'), downloads);
  void (async () => {
    const a = await call<ReviewBody>('GET', `/api/games/${enc}/review`);
    if (!a.ok) {
      fill(main, h('h1', {}, 'Review'), h('p', { class: 'error', id: 'review-error' }, a.status === 404 && a.code === 'not_found' && a.message === 'no such page' ? 'This server cannot show reviews yet; the records can be downloaded.' : a.message), downloads);
      return;
    }
    data = a.body;
    const result = data.result ? `${data.result.score}, ${data.result.reason.replace(/_/g, ' ')}` : '';
    fill(
      main,
      h('h1', {}, `${seatName(data.players.white)} – ${seatName(data.players.black)}`),
      h('p', {}, `${data.rules} · ${result}`),
      h('div', { class: 'review-boards' }, boardBox('referee', 'Referee'), boardBox('white', "White's view"), boardBox('black', "Black's view")),
      h(
        'div',
        { class: 'review-controls' },
        h('button', { type: 'button', onclick: () => go(0), 'aria-label': 'First step' }, '|◀'),
        h('button', { type: 'button', onclick: () => go(step - 1), id: 'prev', 'aria-label': 'Previous step' }, '◀'),
        h('button', { type: 'button', onclick: toggleAuto, id: 'autoplay', 'aria-label': 'Autoplay' }, '▶ ∥'),
        h('button', { type: 'button', onclick: () => go(step + 1), id: 'next', 'aria-label': 'Next step' }, '▶'),
        h('button', { type: 'button', onclick: () => go(data?.steps.length ?? 0), 'aria-label': 'Last step' }, '▶|'),
        ' ',
        overlaySel,
      ),
      stepEl,
      panel.el,
      h('div', { class: 'review-heard' }, h('section', {}, h('h2', {}, 'White heard'), heardEl.white), h('section', {}, h('h2', {}, 'Black heard'), heardEl.black)),
      downloads,
    );
    go(0);
  })();
  return () => {
    window.clearInterval(auto);
    document.removeEventListener('keydown', keys);
    for (const b of Object.values(boards)) b?.destroy();
  };
};
