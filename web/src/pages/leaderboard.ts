// The leaderboard per rule set and time class.

import type { Page } from '../main';
import type { LeaderboardBody } from '../protocol';
import { RULE_SETS } from '../logic/rules';
import { printable } from '../logic/text';
import { call } from '../ui/api';
import { h, fill } from '../ui/dom';

const CLASSES = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence'];

/** The leaderboard page. */
export const leaderboard: Page = (main) => {
  const params = new URLSearchParams(location.search);
  const rules = params.get('rules') ?? 'wild16';
  const cls = params.get('class') ?? 'rapid';
  const table = h('tbody', { id: 'leaders' });
  const status = h('p', { role: 'status', id: 'leaders-status' });
  const pick = (name: string, label: string, values: string[], cur: string) =>
    h('select', { name, 'aria-label': label, onchange: (e: Event) => {
      const q = new URLSearchParams(location.search);
      q.set(name, (e.target as HTMLSelectElement).value);
      history.replaceState(null, '', '/leaderboard?' + q.toString());
      void load();
    } }, ...values.map((x) => h('option', { value: x, selected: x === cur }, x)));
  const rulesSel = pick('rules', 'Rule set', RULE_SETS.map((r) => r.id), rules);
  const classSel = pick('class', 'Time class', CLASSES, cls);
  async function load(): Promise<void> {
    const q = new URLSearchParams({ rules: (rulesSel as HTMLSelectElement).value, class: (classSel as HTMLSelectElement).value, provisional: 'true' });
    const a = await call<LeaderboardBody>('GET', '/api/leaderboard?' + q.toString());
    // A refusal in the error colour; an empty table is no error.
    status.classList.toggle('status', !a.ok);
    if (!a.ok) {
      status.textContent = a.message;
      return;
    }
    status.textContent = a.body.players.length ? '' : 'Nobody is rated here yet: pick another rule set or time class.';
    fill(table, ...a.body.players.map((p) =>
      h('tr', {}, h('td', {}, String(p.rank)), h('td', {}, h('a', { href: '/@/' + encodeURIComponent(p.name), 'data-link': true }, printable(p.name))),
        h('td', {}, `${Math.round(p.rating)}${p.provisional ? '?' : ''}`), h('td', {}, String(p.games)), h('td', {}, `${p.wins}/${p.draws}/${p.losses}`))));
  }
  fill(main, h('h1', {}, 'Leaderboard'), h('p', {}, rulesSel, ' ', classSel), status,
    h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, 'Player'), h('th', {}, 'Rating'), h('th', {}, 'Games'), h('th', {}, 'W/D/L'))), table));
  void load();
};
