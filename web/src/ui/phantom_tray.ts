// The tray of enemy men for phantoms: drag one onto a square, or pick one then click a square,
// or type one (`Nf6`; `xf6` removes it) in its box: the keyboard's way (`p` goes to the box).

import type { Api } from '@lichess-org/chessground/api';
import type { Key } from '@lichess-org/chessground/types';
import type { Piece } from '../logic/board';
import { readTyped } from '../logic/phantoms';
import { h } from './dom';

/** What the tray asks of its page. */
export interface TrayHooks {
  /** Put a phantom of `role` on `square`; false when it cannot go there (one of the player's own men stands there). */
  place: (square: string, role: Piece['role']) => boolean;
  /** The enemy's start position. */
  start: () => void;
  /** Remove all phantoms. */
  clear: () => void;
  /** Remove the phantom on `square`. */
  erase: (square: string) => void;
}

const GLYPHS: Record<Piece['role'], string> = { king: '♚', queen: '♛', rook: '♜', bishop: '♝', knight: '♞', pawn: '♟' };

/** The tray; `armed()` says which man a click on the board would place (or `erase`). */
export function phantomTray(
  cg: () => Api | null,
  hooks: TrayHooks,
): { el: HTMLElement; input: HTMLInputElement; armed: () => Piece['role'] | 'erase' | null; disarm: () => void } {
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
  // The keyboard's way: a man's letter and a square, Enter.
  const input = h('input', {
    type: 'text', id: 'phantom-input', maxlength: 8, autocomplete: 'off', placeholder: 'Nf6, xf6',
    'aria-label': 'Type a phantom: a letter (K Q R B N P) and a square, or x and a square to remove one',
  });
  const said = h('span', { class: 'tray-status', role: 'status', id: 'phantom-status' });
  const form = h('form', { class: 'phantom-form' }, input, said);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const typed = readTyped(input.value);
    if (!typed) {
      said.textContent = `"${input.value.slice(0, 8)}" is not a phantom: a letter (K Q R B N P) and a square, as Nf6, or x and a square.`;
      return;
    }
    input.value = '';
    if ('erase' in typed) {
      hooks.erase(typed.square);
      said.textContent = `Phantom on ${typed.square} removed.`;
    } else {
      said.textContent = hooks.place(typed.square, typed.role)
        ? `Phantom ${typed.role} on ${typed.square}.`
        : `One of your men stands on ${typed.square}: no phantom there.`;
    }
  });
  el.append(form);
  return { el, input, armed: () => armed, disarm: () => setArmed(null) };
}
