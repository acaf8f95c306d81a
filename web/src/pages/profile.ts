// A player's page: ratings per rule set and class, and recent rated games.

import type { Page } from '../main';
import type { HistoryBody, PlayerBody } from '../protocol';
import { printable } from '../logic/text';
import { call } from '../ui/api';
import { h, fill } from '../ui/dom';

/** The profile page for `/@/{name}`. */
export const profile: Page = (main, [name = '']) => {
  fill(main, h('h1', {}, printable(name)), h('p', {}, 'Loading…'));
  void (async () => {
    const p = await call<PlayerBody>('GET', `/api/players/${encodeURIComponent(name)}`);
    if (!p.ok) {
      fill(main, h('h1', {}, printable(name)), h('p', { class: 'error' }, p.message));
      return;
    }
    const hist = await call<HistoryBody>('GET', `/api/players/${encodeURIComponent(name)}/history?limit=30`);
    fill(
      main,
      h('h1', {}, printable(p.body.name)),
      h('p', {}, `${p.body.kind} · ${p.body.games.played} games, ${p.body.games.rated} rated`),
      h('h2', {}, 'Ratings'),
      h('table', { id: 'ratings' }, h('thead', {}, h('tr', {}, h('th', {}, 'Rules'), h('th', {}, 'Class'), h('th', {}, 'Rating'), h('th', {}, 'Games'), h('th', {}, 'W/D/L'))),
        h('tbody', {}, ...p.body.ratings.map((r) => h('tr', {}, h('td', {}, r.rules), h('td', {}, r.class), h('td', {}, `${Math.round(r.rating)}${r.provisional ? '?' : ''} ±${Math.round(r.deviation)}`), h('td', {}, String(r.games)), h('td', {}, `${r.wins}/${r.draws}/${r.losses}`))))),
      h('h2', {}, 'Recent rated games'),
      h('ul', { id: 'history' }, ...(hist.ok ? hist.body.history.map((l) =>
        h('li', {}, h('a', { href: '/review/' + l.game, 'data-link': true }, `${l.rules} vs ${printable(l.opponent)}`), ` · ${l.score === 1 ? 'won' : l.score === 0 ? 'lost' : 'drew'} · ${l.change >= 0 ? '+' : ''}${Math.round(l.change)}`)) : [])),
    );
  })();
};
