// A newcomer's tour of the site, for the documentation: the screenshots under
// docs/screenshots/ (small: 1024×820 windows, the phone at 390×844) and what a screen reader
// hears, printed. Not a test (run.mjs is), but it fails on a console error or an uncaught
// exception all the same. UMPIRE_URL tours a server already running (the README's command);
// without it one is started as in run.mjs. UMPIRE_TOUR_OUT names the folder.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch, root, startServer } from './server.mjs';

const out = process.env.UMPIRE_TOUR_OUT ?? join(root, 'docs/screenshots');
mkdirSync(out, { recursive: true });
const problems = [];
const desktop = { viewport: { width: 1024, height: 820 } };

function watch(page, name) {
  page.on('console', (m) => m.type() === 'error' && problems.push(`${name}: console error: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`${name}: uncaught: ${e.message}`));
}

/**
 * A screenshot of the window scrolled to the top: `keepFocus` leaves the focused field so,
 * `full` takes the whole page, `at` scrolls that element into view instead.
 */
async function snap(page, name, { keepFocus = false, full = false, at = null } = {}) {
  await page.evaluate(([keep, sel]) => {
    if (!keep && document.activeElement instanceof HTMLElement) document.activeElement.blur();
    if (sel) document.querySelector(sel)?.scrollIntoView({ block: 'end' });
    else window.scrollTo(0, 0);
  }, [keepFocus, at]);
  await page.waitForTimeout(250);
  await page.screenshot({ path: join(out, name + '.png'), fullPage: full });
  console.log('shot ' + name);
}

const options = async (p) => ((await p.getAttribute('#board', 'data-options')) ?? '').split(' ').filter(Boolean);

async function myTurn(p) {
  await p.waitForFunction(() => document.querySelector('#turn')?.textContent === 'Your turn', null, { timeout: 20_000 });
}

/** Types an attempt and waits until the log grows. */
async function attempt(p, move) {
  const before = await p.locator('#log li li').count();
  await p.fill('#move-input', move);
  await p.press('#move-input', 'Enter');
  await p.waitForFunction((n) => document.querySelectorAll('#log li li').length > n, before, { timeout: 10_000 });
}

/** Plays random offered attempts until `n` of the player's moves were accepted. */
async function playMoves(p, n) {
  for (let moved = 0; moved < n; ) {
    await myTurn(p);
    const opts = await options(p);
    if (opts.length === 0) continue;
    const before = await p.locator('#log li li').count();
    await attempt(p, opts[Math.floor(Math.random() * opts.length)]);
    const last = await p.locator('#log li li').nth(before).textContent();
    if (!/illegal|No\b|rejected/i.test(last ?? '')) moved++;
  }
}

const server = process.env.UMPIRE_URL ? { url: process.env.UMPIRE_URL.replace(/\/$/, ''), stop: () => {} } : await startServer();
const { url } = server;
const browser = await launch();
try {
  // 1. Landing, and a bot as a guest in two clicks: open the address, press Play.
  const a = await browser.newContext(desktop);
  const pa = await a.newPage();
  watch(pa, 'guest');
  await pa.goto(url + '/');
  await pa.waitForSelector('#play-bot');
  await snap(pa, '01-landing');
  await pa.click('#play-bot button[type=submit]');
  await pa.waitForSelector('#board cg-board piece');
  await playMoves(pa, 2);
  await snap(pa, '02-bot-as-guest');

  // 2. Phantoms: the enemy's start in one click, one moved by hand, kept across a reload.
  await pa.click('.tray button:has-text("Enemy start")');
  await pa.click('.tray button[data-role=knight]');
  const box = await pa.locator('#board cg-board').boundingBox();
  const white = (await pa.locator('#board.orientation-white').count()) > 0;
  // d4 (or d5 for Black, seen from Black's side): the middle of the board.
  await pa.mouse.click(box.x + (3.5 * box.width) / 8, box.y + (white ? 4.5 : 3.5) * (box.height / 8));
  await pa.reload();
  await pa.waitForSelector('#board cg-board piece');
  await pa.waitForTimeout(500);
  const phantoms = await pa.locator('#board cg-board piece.ghost, #board svg image, #board cg-auto-pieces piece').count();
  console.log(`phantoms drawn after a reload: ${phantoms}`);
  await snap(pa, '03-phantoms');
  await pa.click('#resign');
  await pa.click('#resign');
  await pa.waitForSelector('#review-link');

  // 3. A practice game against a bot: the overlay.
  await pa.goto(url + '/');
  await pa.check('#bot-practice');
  await pa.click('#play-bot button[type=submit]');
  await pa.waitForSelector('#board cg-board piece');
  await playMoves(pa, 3);
  await pa.click('#belief');
  await pa.waitForSelector('#belief-panel:not([hidden])', { timeout: 20_000 });
  await pa.waitForTimeout(300);
  await snap(pa, '04-practice-overlay');

  // 4. A friend through a link: the guest makes it, a registered player opens it and joins.
  await pa.goto(url + '/');
  await pa.click('#play-friend button[type=submit]');
  const link = await (await pa.waitForSelector('#play-friend input.share')).inputValue();
  await snap(pa, '05-friend-link');
  const id = link.split('/').pop();
  await pa.goto(link);
  const b = await browser.newContext(desktop);
  const pb = await b.newPage();
  watch(pb, 'friend');
  await pb.goto(url + '/');
  await pb.fill('#account input[name=name]', 'newcomer');
  await pb.fill('#account input[name=password]', 'a long enough password');
  await pb.click('#account button[value=register]');
  await pb.waitForFunction(() => document.querySelector('.who')?.textContent?.includes('newcomer'));
  await pb.goto(link);
  await pb.click('#join-btn');
  for (const p of [pa, pb]) await p.waitForFunction(() => document.querySelector('#board')?.getAttribute('data-status') === 'live', null, { timeout: 10_000 });
  let [w, bl] = [pa, pb];
  await pa.waitForFunction(() => /turn/.test(document.querySelector('#turn')?.textContent ?? ''));
  if ((await pa.textContent('#turn')) !== 'Your turn') [w, bl] = [pb, pa];

  // Keyboard only for White: "/" focuses the move box, Enter sends.
  await myTurn(w);
  await w.keyboard.press('/');
  await w.keyboard.type('e4');
  await w.keyboard.press('Enter');
  await myTurn(bl);
  await attempt(bl, 'd5');
  await myTurn(w);
  await w.keyboard.press('/');
  await w.keyboard.type('exd5');
  await w.keyboard.press('Enter');
  await myTurn(bl);
  console.log('screen reader (live region) after White takes on d5: ' + JSON.stringify(await bl.textContent('#live')));
  await attempt(bl, 'Qxd5');
  await myTurn(w);
  await w.keyboard.press('/');
  await w.keyboard.type('Bb5');
  await w.keyboard.press('Enter');
  await myTurn(bl);
  console.log('screen reader (live region) after the check: ' + JSON.stringify(await bl.textContent('#live')));
  await attempt(bl, 'a6');
  console.log('screen reader (live region) after a rejected attempt: ' + JSON.stringify(await bl.textContent('#live')));
  await w.keyboard.press('/');
  await snap(w, '06-friend-keyboard-white', { keepFocus: true, full: true });
  await snap(bl, '07-friend-black-check-rejected', { full: true });

  // 5. A spectator: a third context with no seat.
  const c = await browser.newContext(desktop);
  const pc = await c.newPage();
  watch(pc, 'spectator');
  await pc.goto(`${url}/play/${id}`);
  await pc.waitForSelector('#board cg-board');
  await pc.waitForTimeout(500);
  await snap(pc, '08-spectator');

  // 6. The end, the review (three views) and the downloads.
  await attempt(bl, 'c6');
  await myTurn(w);
  await w.click('#resign');
  await w.click('#resign');
  await w.waitForSelector('#review-link');
  await w.click('#review-link');
  await w.waitForSelector('#board-referee cg-board');
  for (let i = 0; i < 7; i++) await w.click('#next');
  await w.selectOption('#overlay', 'black');
  await w.waitForTimeout(800);
  await snap(w, '09-review');
  for (const path of [`/games/${id}.json`, `/games/${id}.pgn`, `/games/${id}/white.pgn`, `/games/${id}/black.pgn`]) {
    const r = await w.request.get(url + path);
    const text = await r.text();
    if (path.endsWith('.json')) {
      const j = JSON.parse(text);
      console.log(`${path}: ${r.status()}, JSON with keys ${Object.keys(j).join(', ')}`);
    } else {
      const tags = text.match(/^\[\w+ /gm)?.length ?? 0;
      const moves = text.split('\n').filter((l) => l && !l.startsWith('[')).join(' ');
      console.log(`${path}: ${r.status()}, ${tags} tags, movetext: ${moves.slice(0, 160)}`);
    }
  }

  // 7. Profile and leaderboard, after a rated game: the spectator registers, and newcomer's
  // challenge (made from the page's own API, rated, newcomer White) is joined through its link.
  await pc.goto(url + '/');
  await pc.fill('#account input[name=name]', 'second_player');
  await pc.fill('#account input[name=password]', 'another long password');
  await pc.click('#account button[value=register]');
  await pc.waitForFunction(() => document.querySelector('.who')?.textContent?.includes('second_player'));
  const rated = await pb.evaluate(async () => {
    const r = await fetch('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ rules: 'wild16', initial_ms: 300000, increment_ms: 0, rated: true, color: 'white' }) });
    return (await r.json()).id;
  });
  await pb.goto(`${url}/play/${rated}`);
  await pc.goto(`${url}/play/${rated}`);
  await pc.click('#join-btn');
  await myTurn(pb);
  await attempt(pb, 'e4');
  await myTurn(pc);
  await attempt(pc, 'e5');
  await myTurn(pb);
  await pb.click('#resign');
  await pb.click('#resign');
  await pb.waitForSelector('#review-link');
  await pc.waitForSelector('#review-link');
  // 7. Profile and leaderboard.
  await pb.goto(`${url}/@/newcomer`);
  await pb.waitForSelector('#ratings');
  await snap(pb, '10-profile');
  await pb.goto(`${url}/leaderboard`);
  await pb.waitForSelector('#leaders', { state: 'attached' });
  // The rated game was 5+0: blitz (the page opens on rapid, the class of the default 10+0).
  await pb.locator('main select').nth(1).selectOption('blitz');
  await pb.waitForSelector('#leaders tr');
  await snap(pb, '11-leaderboard');

  // 8. Dark theme (the switch in the header).
  await pb.goto(`${url}/`);
  await pb.click('header button.theme');
  await pb.waitForTimeout(200);
  await snap(pb, '12-dark-landing');

  // 9. A phone: a bot game, a move by tapping, then the phone turned sideways.
  const d = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
  const pd = await d.newPage();
  watch(pd, 'phone');
  await pd.goto(url + '/');
  await pd.click('#play-bot button[type=submit]');
  await pd.waitForSelector('#board cg-board piece');
  await myTurn(pd);
  const move = (await options(pd))[0];
  const before = await pd.locator('#log li li').count();
  const tap = async (sq) => {
    const bb = await pd.locator('#board cg-board').boundingBox();
    const wh = (await pd.locator('#board.orientation-white').count()) > 0;
    const f = sq.charCodeAt(0) - 97;
    const r = Number(sq[1]) - 1;
    await pd.touchscreen.tap(bb.x + (((wh ? f : 7 - f) + 0.5) * bb.width) / 8, bb.y + (((wh ? 7 - r : r) + 0.5) * bb.height) / 8);
  };
  await pd.locator('#board').scrollIntoViewIfNeeded();
  await tap(move.slice(0, 2));
  await pd.waitForSelector('cg-board square.selected', { timeout: 5_000 });
  await tap(move.slice(2, 4));
  await pd.waitForFunction((n) => document.querySelectorAll('#log li li').length > n, before, { timeout: 10_000 });
  await snap(pd, '13-phone');
  await pd.setViewportSize({ width: 844, height: 390 });
  await pd.waitForTimeout(300);
  await snap(pd, '14-phone-sideways', { at: '#board' });
} finally {
  await browser.close();
  server.stop();
}
for (const x of problems) console.log('# ' + x);
console.log(problems.length === 0 ? 'no console errors' : `${problems.length} console errors`);
process.exit(problems.length === 0 ? 0 : 1);
