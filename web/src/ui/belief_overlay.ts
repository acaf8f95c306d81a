// The belief overlay's panel: a picker of what to shade (any enemy man or one kind), the
// legend of shades and glyphs, the words for the square pointed at, and the whole board in
// words for screen readers.

import type { BeliefBody } from '../protocol';
import { beliefList, beliefMarks, beliefWords, KINDS, type Shown } from '../logic/belief';
import { h, fill } from './dom';

const GLYPHS: Record<Shown, string> = { any: '●', pawn: '♟', knight: '♞', bishop: '♝', rook: '♜', queen: '♛', king: '♚' };
const NAMES: Record<Shown, string> = { any: 'Any', pawn: 'Pawn', knight: 'Knight', bishop: 'Bishop', rook: 'Rook', queen: 'Queen', king: 'King' };

/** The panel; `marks()` gives the board classes for what is shown now. */
export interface BeliefPanel {
  /** The panel's element (hidden while no belief is shown). */
  el: HTMLElement;
  /** Shows `b` (or nothing). */
  show: (b: BeliefBody | null, caption?: string) => void;
  /** Square → classes for the board, for the belief shown and the kind picked. */
  marks: () => Map<string, string>;
  /** The words for one square (pointed at). */
  point: (square: string | null) => void;
}

/** A panel that calls `changed()` when the kind picked changes (the board is to be redrawn). */
export function beliefPanel(changed: () => void): BeliefPanel {
  let shown: Shown = 'any';
  let belief: BeliefBody | null = null;
  const caption = h('p', { class: 'belief-caption', id: 'belief-caption' });
  const words = h('p', { class: 'belief-words', id: 'belief-words' });
  const list = h('ul', { class: 'sr-only', id: 'belief-list', 'aria-label': 'Belief, square by square' });
  const buttons: HTMLButtonElement[] = [];
  const picker = h('div', { class: 'belief-kinds', role: 'group', 'aria-label': 'Shade by kind' });
  for (const k of ['any', ...KINDS] as const) {
    const b = h('button', { type: 'button', 'data-kind': k, 'aria-pressed': String(k === shown), title: k === 'any' ? 'Any enemy man' : `Enemy ${k}` }, h('span', { 'aria-hidden': 'true' }, GLYPHS[k]), ` ${NAMES[k]}`);
    b.addEventListener('click', () => {
      shown = k;
      for (const x of buttons) x.setAttribute('aria-pressed', String(x.dataset['kind'] === k));
      renderList();
      changed();
    });
    buttons.push(b);
    picker.append(b);
  }
  const swatches = h('span', { class: 'belief-scale', 'aria-hidden': 'true' }, ...[1, 3, 5, 7, 9].map((n) => h('span', { class: `swatch belief-${n}` })));
  const legend = h(
    'p',
    { class: 'belief-legend', id: 'belief-legend' },
    'Shade: how likely ',
    swatches,
    ' (pale: unlikely, deep: certain). A glyph marks the likeliest kind where it has 20% or more.',
  );
  const el = h('div', { class: 'belief-panel', id: 'belief-panel', hidden: true }, caption, picker, legend, words, list);

  function renderList(): void {
    fill(list, ...(belief ? beliefList(belief, shown).map((t) => h('li', {}, t)) : []));
  }

  return {
    el,
    show(b, text) {
      belief = b;
      el.hidden = b === null;
      caption.textContent = text ?? '';
      words.textContent = '';
      renderList();
    },
    marks: () => (belief ? beliefMarks(belief, shown) : new Map()),
    point(square) {
      words.textContent = belief && square ? beliefWords(belief, square) : '';
    },
  };
}
