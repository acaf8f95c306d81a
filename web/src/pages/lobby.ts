// The lobby: open challenges live from the lobby feed, a new game, your games, games to watch.

import type { Page } from '../main';
import type { ChallengeJson, GameSummary, TimeControl } from '../protocol';
import { RULE_SETS } from '../logic/rules';
import { printable, seatName } from '../logic/text';
import { call, createGame, ensureUser, me } from '../ui/api';
import { h, fill } from '../ui/dom';
import { go } from '../ui/nav';
import { LiveSocket } from '../ui/socket';
import { chosenClock, gameFields } from './landing';

/** At most this many challenges are kept from the feed. */
const MAX_CHALLENGES = 500;

function clock(tc: TimeControl): string {
  return `${Math.round(tc.initial_ms / 60000)}+${Math.round(tc.increment_ms / 1000)}`;
}

/** The lobby page. */
export const lobby: Page = (main) => {
  const challenges = new Map<string, ChallengeJson>();
  let you: string | null = null;
  const status = h('p', { class: 'status', role: 'status' });
  const list = h('tbody', { id: 'challenges' });
  const mine = h('ul', { id: 'my-games' });
  const watch = h('ul', { id: 'watch' });

  const form = h(
    'form',
    { class: 'card', id: 'new-game' },
    h('h2', {}, 'Create a game'),
    ...gameFields(),
    h('label', {}, 'Colour ', h('select', { name: 'color' }, h('option', { value: 'random' }, 'random'), h('option', { value: 'white' }, 'white'), h('option', { value: 'black' }, 'black'))),
    h('label', {}, h('input', { type: 'checkbox', name: 'rated' }), ' rated'),
    h('label', {}, h('input', { type: 'checkbox', name: 'practice' }), ' practice (belief overlay allowed, never rated)'),
    h('label', {}, 'Only for ', h('input', { type: 'text', name: 'opponent', placeholder: 'anyone', maxlength: 24 })),
    h('button', { type: 'submit', class: 'primary' }, 'Create'),
    h('ul', { class: 'rule-lines' }, ...RULE_SETS.map((r) => h('li', {}, h('b', {}, r.id), ': ', r.line))),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void (async () => {
      const u = await ensureUser();
      if (!u.ok) {
        status.textContent = u.message;
        return;
      }
      const el = form.elements;
      const val = (n: string) => (el.namedItem(n) as HTMLInputElement | HTMLSelectElement | null)?.value ?? '';
      const checked = (n: string) => (el.namedItem(n) as HTMLInputElement | null)?.checked === true;
      const [initial_ms, increment_ms] = chosenClock(form);
      const req: Parameters<typeof createGame>[0] = { rules: val('rules'), initial_ms, increment_ms, color: val('color'), rated: checked('rated') };
      if (checked('practice')) req.practice = true;
      if (val('opponent').trim()) req.opponent = val('opponent').trim();
      const g = await createGame(req);
      if (!g.ok) status.textContent = g.message;
      else go('/play/' + g.body.id);
    })();
  });

  function drawChallenges(): void {
    const rows = [...challenges.values()].map((c) =>
      h(
        'tr',
        {},
        h('td', {}, seatName(c.creator)),
        h('td', {}, c.rules),
        h('td', {}, clock(c.time_control)),
        h('td', {}, c.rated ? 'rated' : 'casual', (c as ChallengeJson & { practice?: boolean }).practice ? ', practice' : ''),
        h('td', {}, c.opponent ? `for ${printable(c.opponent)}` : ''),
        h('td', {}, c.creator === you ? h('a', { href: '/play/' + c.id, 'data-link': true }, 'yours') : h('a', { href: '/play/' + c.id, 'data-link': true, class: 'join-link' }, 'join')),
      ),
    );
    fill(list, ...(rows.length ? rows : [h('tr', {}, h('td', { colspan: 6 }, 'No open challenge: create one.'))]));
  }

  const feed = new LiveSocket(() => '/api/lobby/ws', {
    frame: (f) => {
      if (f['type'] === 'lobby') {
        challenges.clear();
        you = typeof f['you'] === 'string' ? f['you'] : null;
        for (const c of (f['challenges'] as ChallengeJson[] | undefined) ?? []) if (challenges.size < MAX_CHALLENGES) challenges.set(c.id, c);
      } else if (f['type'] === 'added') {
        const c = f['challenge'] as ChallengeJson | undefined;
        if (c && challenges.size < MAX_CHALLENGES) challenges.set(c.id, c);
      } else if (f['type'] === 'removed') {
        challenges.delete(String(f['game']));
      }
      drawChallenges();
    },
    open: () => {
      status.textContent = '';
    },
    down: (ms) => {
      status.textContent = `The lobby feed dropped: trying again in ${Math.ceil(ms / 1000)} s…`;
    },
  });

  async function games(): Promise<void> {
    const user = await me();
    const live = await call<GameSummary[]>('GET', '/api/games?status=live');
    if (!live.ok) {
      status.textContent = live.message;
      return;
    }
    const line = (g: GameSummary) =>
      h('li', {}, h('a', { href: '/play/' + g.id, 'data-link': true }, `${seatName(g.players.white)} – ${seatName(g.players.black)}`), ` · ${g.rules} · ${clock(g.time_control)}`);
    const ours = user ? live.body.filter((g) => g.players.white === user.name || g.players.black === user.name) : [];
    fill(mine, ...(ours.length ? ours.map(line) : [h('li', {}, 'None in progress.')]));
    const others = live.body.filter((g) => !ours.includes(g));
    fill(watch, ...(others.length ? others.slice(0, 30).map(line) : [h('li', {}, 'No game is being played now.')]));
  }

  fill(
    main,
    h('h1', {}, 'Lobby'),
    status,
    h('div', { class: 'lobby' },
      h('section', {}, h('h2', {}, 'Open challenges'), h('table', { class: 'challenges' }, h('thead', {}, h('tr', {}, h('th', {}, 'Who'), h('th', {}, 'Rules'), h('th', {}, 'Clock'), h('th', {}, 'Mode'), h('th', {}, ''), h('th', {}, ''))), list),
        h('h2', {}, 'Your games'), mine, h('h2', {}, 'Being played now'), watch),
      form),
  );
  drawChallenges();
  void games();
  return () => feed.close();
};
