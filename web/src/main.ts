// The single-page app: one route per page, a header, the theme.

import '@lichess-org/chessground/assets/chessground.base.css';
import '@lichess-org/chessground/assets/chessground.brown.css';
import '@lichess-org/chessground/assets/chessground.cburnett.css';
import './style.css';

import { landing } from './pages/landing';
import { lobby } from './pages/lobby';
import { game } from './pages/game';
import { review } from './pages/review';
import { profile } from './pages/profile';
import { leaderboard } from './pages/leaderboard';
import { h, fill, root } from './ui/dom';
import { applyTheme, toggleTheme } from './ui/theme';
import { go, setRouter } from './ui/nav';
import { serverAnswers, waitForServer } from './ui/server_down';

/** A page: draws itself into `main` and returns what to do when it is left. */
export type Page = (main: HTMLElement, params: string[]) => (() => void) | void;

const ROUTES: [RegExp, Page][] = [
  [/^\/$/, landing],
  [/^\/lobby$/, lobby],
  [/^\/(?:play|game)\/([A-Za-z0-9_-]{1,64})$/, game],
  [/^\/review\/([A-Za-z0-9_-]{1,64})$/, review],
  [/^\/@\/([^/]{1,64})$/, profile],
  [/^\/leaderboard$/, leaderboard],
];

let leave: (() => void) | void = undefined;

function header(): HTMLElement {
  return h(
    'header',
    { class: 'top' },
    h('a', { href: '/', class: 'brand', 'data-link': true }, 'Umpire'),
    h(
      'nav',
      {},
      h('a', { href: '/lobby', 'data-link': true }, 'Lobby'),
      h('a', { href: '/leaderboard', 'data-link': true }, 'Leaderboard'),
      h('button', { type: 'button', class: 'theme', onclick: () => toggleTheme(), 'aria-label': 'Switch light or dark theme' }, '◐'),
    ),
  );
}

/** Shows the page for the current address. */
function route(): void {
  if (leave) leave();
  leave = undefined;
  const path = location.pathname;
  const main = h('main', { id: 'main' });
  fill(root(), header(), main);
  root().removeAttribute('aria-busy');
  for (const [re, page] of ROUTES) {
    const m = re.exec(path);
    if (m) {
      leave = page(main, m.slice(1).map((s) => decodeURIComponent(s)));
      return;
    }
  }
  fill(main, h('h1', {}, 'No such page'), h('p', {}, h('a', { href: '/', 'data-link': true }, 'Back to the start')));
}


document.addEventListener('click', (e) => {
  const a = (e.target as Element | null)?.closest?.('a[data-link]');
  if (!a || !(a instanceof HTMLAnchorElement) || e.ctrlKey || e.metaKey || e.shiftKey) return;
  e.preventDefault();
  go(a.getAttribute('href') ?? '/');
});
window.addEventListener('popstate', route);
applyTheme();
setRouter(route);
route();

// The page came up, maybe from the service worker's copy with the server down: if the server
// does not answer, say so in place of the page (whose own calls fail) until it does.
void serverAnswers().then((up) => {
  if (up) return;
  if (leave) leave();
  const main = h('main', { id: 'main' });
  fill(root(), header(), main);
  leave = waitForServer(main, route);
});

// The service worker keeps the app shell for a page opened while the server is down
// (src/sw/worker.ts). A browser without one, or a refusal, changes nothing else.
if ('serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  });
}
