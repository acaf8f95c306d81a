// The landing page: play a bot now, play a friend, the lobby, log in or register, and what
// Kriegspiel is.

import { Chessground } from '@lichess-org/chessground';
import type { Page } from '../main';
import type { SessionBody } from '../protocol';
import { RULE_SETS, TIME_CONTROLS } from '../logic/rules';
import { call, createGame, ensureUser, me } from '../ui/api';
import { h, fill } from '../ui/dom';
import { go } from '../ui/nav';
import { LEVEL_NAMES, levelLabel, printable } from '../logic/text';

function select(name: string, label: string, options: [string, string][], value: string): HTMLElement {
  // The select inside its label: both forms have the same fields, and ids would repeat.
  const s = h('select', { name });
  for (const [v, text] of options) s.append(h('option', { value: v, selected: v === value }, text));
  return h('label', {}, label + ' ', s);
}

function formValue(form: HTMLFormElement, name: string): string {
  const el = form.elements.namedItem(name);
  return el instanceof HTMLSelectElement || el instanceof HTMLInputElement ? el.value : '';
}

function practiceBox(form: HTMLFormElement): boolean {
  const el = form.elements.namedItem('practice');
  return el instanceof HTMLInputElement && el.checked;
}

/** The time control chosen in a form: [initial ms, increment ms]. */
export function chosenClock(form: HTMLFormElement): [number, number] {
  const tc = TIME_CONTROLS.find(([l]) => l === formValue(form, 'clock')) ?? TIME_CONTROLS[3];
  return tc ? [tc[1], tc[2]] : [600_000, 0];
}

/** The form fields of a new game: rule set, time control. */
export function gameFields(): HTMLElement[] {
  return [
    select('rules', 'Rules', RULE_SETS.map((r) => [r.id, r.id]), 'wild16'),
    select('clock', 'Clock', TIME_CONTROLS.map(([l]) => [l, l]), '10+0'),
  ];
}

/** The landing page. */
export const landing: Page = (main) => {
  // Each form says what became of it inside itself, where the eye is (a refusal at the top of
  // the page would be out of sight on a phone, or below the fold on a desktop).
  const status = h('p', { class: 'status', role: 'status', id: 'bot-status' });
  const accountStatus = h('p', { class: 'form-status', role: 'status', id: 'account-status' });
  const picture = h('div', { class: 'picture', role: 'img', 'aria-label': 'What White sees at the start: only White\'s men' });
  const who = h('p', { class: 'who' });

  const botForm = h(
    'form',
    { class: 'card', id: 'play-bot' },
    h('h2', {}, 'Play a bot now'),
    select('level', 'Level', LEVEL_NAMES.map((_, i) => [String(i + 1), levelLabel(i + 1)]), '1'),
    ...gameFields(),
    h('label', {}, h('input', { type: 'checkbox', name: 'practice', id: 'bot-practice' }), ' Practice: the belief overlay, never rated'),
    h('button', { type: 'submit', class: 'primary' }, 'Play'),
    status,
  );
  botForm.addEventListener('submit', (e) => {
    e.preventDefault();
    void (async () => {
      status.textContent = 'Starting a game…';
      const user = await ensureUser();
      if (!user.ok) {
        status.textContent = user.message;
        return;
      }
      const [initial_ms, increment_ms] = chosenClock(botForm);
      const g = await createGame({
        rules: formValue(botForm, 'rules'),
        initial_ms,
        increment_ms,
        // `mcts` at every level, with the server's nodes for it (`LEVEL_NODES`): the ladder
        // measured in `docs/ENGINE.md`, "Levels" (each level about 0.25–0.35 against the next).
        agent: 'mcts',
        level: Number(formValue(botForm, 'level')),
        color: 'random',
        ...(practiceBox(botForm) ? { practice: true } : {}),
      });
      if (!g.ok) status.textContent = g.message;
      else go('/play/' + g.body.id);
    })();
  });

  const friendForm = h(
    'form',
    { class: 'card', id: 'play-friend' },
    h('h2', {}, 'Play a friend'),
    ...gameFields(),
    h('button', { type: 'submit' }, 'Create a link'),
  );
  const link = h('p', { class: 'link' });
  friendForm.append(link);
  friendForm.addEventListener('submit', (e) => {
    e.preventDefault();
    void (async () => {
      const user = await ensureUser();
      if (!user.ok) {
        link.textContent = user.message;
        return;
      }
      const [initial_ms, increment_ms] = chosenClock(friendForm);
      const g = await createGame({ rules: formValue(friendForm, 'rules'), initial_ms, increment_ms, color: 'random' });
      if (!g.ok) {
        link.textContent = g.message;
        return;
      }
      const url = `${location.origin}/play/${g.body.id}`;
      fill(
        link,
        'Send this link to your friend: ',
        h('input', { type: 'text', readonly: true, value: url, 'aria-label': 'Link to send', class: 'share' }),
        ' ',
        h('a', { href: '/play/' + g.body.id, 'data-link': true }, 'Go to the game'),
      );
    })();
  });

  const account = h(
    'form',
    { class: 'card', id: 'account' },
    h('h2', {}, 'Log in or register'),
    h('label', {}, 'Name ', h('input', { name: 'name', autocomplete: 'username', required: true, maxlength: 24 })),
    h('label', {}, 'Password ', h('input', { name: 'password', type: 'password', autocomplete: 'current-password', required: true })),
    h('button', { type: 'submit', value: 'login' }, 'Log in'),
    ' ',
    h('button', { type: 'submit', value: 'register' }, 'Register'),
    accountStatus,
  );
  account.addEventListener('submit', (e) => {
    e.preventDefault();
    const which = (e as SubmitEvent).submitter?.getAttribute('value') === 'register' ? 'register' : 'login';
    void (async () => {
      const a = await call<SessionBody>('POST', '/api/' + which, {
        name: formValue(account, 'name'),
        password: formValue(account, 'password'),
      });
      accountStatus.classList.toggle('error', !a.ok);
      if (!a.ok) accountStatus.textContent = a.message;
      else {
        accountStatus.textContent = `Logged in as ${printable(a.body.user.name)}.`;
        who.textContent = `Logged in as ${printable(a.body.user.name)}.`;
      }
    })();
  });

  fill(
    main,
    h(
      'section',
      { class: 'intro' },
      h('h1', {}, 'Kriegspiel: chess in the dark'),
      picture,
      h(
        'p',
        {},
        'Kriegspiel is chess where you see only your own men. ' +
          'An umpire, who sees both boards, tells you when a move you try is impossible, and announces captures and checks to both players. ' +
          'You try moves until one is legal, and from what the umpire says you work out where the enemy stands. ' +
          'It was played with three boards and a referee in the 1890s; here the server is the umpire.',
      ),
      who,
    ),
    h('div', { class: 'cards' }, botForm, friendForm, account),
    h('p', {}, h('a', { href: '/lobby', 'data-link': true }, 'Open the lobby'), ' to see open challenges and games being played.'),
  );
  const cg = Chessground(picture, { viewOnly: true, coordinates: false, fen: '8/8/8/8/8/8/PPPPPPPP/RNBQKBNR' });
  void me().then((u) => {
    if (u) who.textContent = `Logged in as ${printable(u.name)}${u.kind === 'guest' ? ' (guest)' : ''}.`;
  });
  return () => cg.destroy();
};
