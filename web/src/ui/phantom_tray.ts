// The tray of enemy men for phantoms: drag one onto a square, or pick one then click a square.

import type { Api } from '@lichess-org/chessground/api';
import type { Key } from '@lichess-org/chessground/types';
import type { Piece } from '../logic/board';
import { h } from './dom';

/** What the tray asks of its page. */
export interface TrayHooks {
  /** Put a phantom of `role` on `square`. */
  place: (square: string, role: Piece['role']) => void;
  /** The enemy's start position. */
  start: () => void;
  /** Remove all phantoms. */
  clear: () => void;
}

const GLYPHS: Record<Piece['role'], string> = { king: '♚', queen: '♛', rook: '♜', bishop: '♝', knight: '♞', pawn: '♟' };

/** The tray; `armed()` says which man a click on the board would place (or `erase`). */
export function phantomTray(cg: () => Api | null, hooks: TrayHooks): { el: HTMLElement; armed: () => Piece['role'] | 'erase' | null; disarm: () => void } {
  let armed: Piece['role'] | 'erase' | null = null;
  const buttons: HTMLButtonElement[] = [];
  const setArmed = (r: Piece['role'] | 'erase' | null) => {
    armed = r;
    for (const b of buttons) b.setAttribute('aria-pressed', String(b.dataset['role'] === r));
  };
  const el = h('div', { class: 'tray', role: 'group', 'aria-label': 'Phantoms: guesses of enemy men' });
  for (const role of ['pawn', 'knight', 'bishop', 'rook', 'queen', 'king'] as const) {
    const b = h('button', { type: 'button', class: 'phantom-piece', 'data-role': role, 'aria-pressed': 'false', 'aria-label': `Phantom ${role}`, title: `Drag a phantom ${role} onto the board, or pick it and click a square` }, GLYPHS[role]);
    b.addEventListener('click', () => setArmed(armed === role ? null : role));
    b.addEventListener('pointerdown', (e) => {
      const api = cg();
      if (!api) return;
      b.setPointerCapture(e.pointerId);
      const up = (u: PointerEvent) => {
        b.removeEventListener('pointerup', up);
        const key: Key | undefined = api.getKeyAtDomPos([u.clientX, u.clientY]);
        if (key) hooks.place(key, role);
      };
      b.addEventListener('pointerup', up);
    });
    buttons.push(b);
    el.append(b);
  }
  const erase = h('button', { type: 'button', 'data-role': 'erase', 'aria-pressed': 'false', title: 'Pick, then click a phantom to remove it' }, '✕');
  erase.addEventListener('click', () => setArmed(armed === 'erase' ? null : 'erase'));
  buttons.push(erase);
  el.append(
    erase,
    h('button', { type: 'button', onclick: () => hooks.start(), title: 'Phantoms on the enemy start squares' }, 'Enemy start'),
    h('button', { type: 'button', onclick: () => hooks.clear() }, 'Clear'),
  );
  return { el, armed: () => armed, disarm: () => setArmed(null) };
}
