// End-to-end test of the site in a real browser (Debian's chromium through playwright-core):
// starts `umpire serve` on a free port with a fresh data directory, then
//  1. a guest and a registered player make and join a game through a link, play attempts
//     including a rejected one, a capture and a check, chat (markup and control characters are
//     shown as text or refused in words), offer and decline a draw, and one resigns;
//  2. the review page shows the game and its downloads parse;
//  3. a third player plays a bot to the end (1+0, level 1);
//  4. a practice game against a bot shows the belief overlay (shades, glyphs, the kind picker,
//     the words for screen readers) during play and is unrated;
//  5. a phone-sized window plays a move by tapping, and turned sideways its board fits;
//  6. wrong input: a refused registration is said in its form, a player whose session ended
//     is told so, and a server that goes down and comes back: a banner, a move typed meanwhile
//     is sent on the resume;
//  7. a page opened while the server is down (its shell from the service worker's cache) says
//     the server is not answering, and recovers by itself when it is back.
// Fails on any console error or uncaught exception. Screenshots go to target/e2e-screenshots/.
// UMPIRE_BIN names the server binary (default ../target/ci/umpire), CHROMIUM the browser.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch, root, startServer } from './server.mjs';

const shots = join(root, 'target/e2e-screenshots');
mkdirSync(shots, { recursive: true });
const problems = [];
let passed = 0;
let failed = 0;

// Console errors a step causes on purpose (the browser's own line for a refused connection or
// an HTTP refusal), as regular expressions, set by that step only while it runs.
let expected = [];

// Every WebSocket frame each watched page received: { who, at, text }.
const received = [];

function watch(page, name) {
  page.on('websocket', (ws) => ws.on('framereceived', (f) => received.push({ who: name, at: Date.now(), text: String(f.payload) })));
  page.on('console', (m) => {
    if (m.type() !== 'error' || expected.some((re) => re.test(m.text()))) return;
    problems.push(`${name}: console error: ${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => problems.push(`${name}: uncaught: ${e.message}`));
}

// UMPIRE_E2E_ONLY=REGEX runs only the steps whose names match (while working on one; later
// steps may need the earlier ones).
const only = process.env.UMPIRE_E2E_ONLY ? new RegExp(process.env.UMPIRE_E2E_ONLY) : null;

async function step(name, fn) {
  if (only && !only.test(name)) return;
  const t0 = Date.now();
  try {
    await fn();
    passed++;
    console.log(`ok - ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    failed++;
    console.log(`not ok - ${name}: ${e.stack ?? e}`);
  }
}

async function shot(page, name) {
  await page.screenshot({ path: join(shots, name + '.png'), fullPage: true });
}

function expect(cond, what) {
  if (!cond) throw new Error('expected: ' + what);
}

/** Types an attempt in the move box and waits for the log to grow. */
async function attempt(page, move) {
  const before = await page.locator('#log li li').count();
  await page.fill('#move-input', move);
  await page.press('#move-input', 'Enter');
  await page.waitForFunction((n) => document.querySelectorAll('#log li li').length > n, before, { timeout: 10_000 });
}

/** Plays an attempt by clicking its two squares on the board (mouse, or taps on a touch screen). */
async function boardMove(page, move, touch = false) {
  const white = (await page.locator('#board.orientation-white').count()) > 0;
  const at = async (sq) => {
    const box = await page.locator('#board cg-board').boundingBox();
    const f = sq.charCodeAt(0) - 97;
    const r = Number(sq[1]) - 1;
    const col = white ? f : 7 - f;
    const row = white ? 7 - r : r;
    const x = box.x + ((col + 0.5) * box.width) / 8;
    const y = box.y + ((row + 0.5) * box.height) / 8;
    if (touch) await page.touchscreen.tap(x, y);
    else await page.mouse.click(x, y);
  };
  const before = await page.locator('#log li li').count();
  await at(move.slice(0, 2));
  await page.waitForSelector('cg-board square.selected', { timeout: 5_000 });
  await at(move.slice(2, 4));
  await page.waitForFunction((n) => document.querySelectorAll('#log li li').length > n, before, { timeout: 10_000 });
}

/** Square marks shown: chessground hides the square elements it no longer needs (display: none) rather than removing them. */
function visibleSquares(page, selector) {
  return page.evaluate((q) => [...document.querySelectorAll(q)].filter((e) => e.style.display !== 'none').length, selector);
}

async function myTurn(page) {
  await page.waitForFunction(() => document.querySelector('#turn')?.textContent === 'Your turn', null, { timeout: 15_000 });
}

const server = await startServer();
const { url, stop } = server;
const browser = await launch();
let gameId = '';
try {
  const guestCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const regCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const guest = await guestCtx.newPage();
  const reg = await regCtx.newPage();
  watch(guest, 'guest');
  watch(reg, 'registered');

  await step('landing page shows the ways to play', async () => {
    await guest.goto(url + '/');
    await guest.waitForSelector('#play-bot');
    await shot(guest, '01-landing');
    expect((await guest.textContent('h1'))?.includes('Kriegspiel'), 'a title on Kriegspiel');
  });

  await step('a guest makes a game for a friend and gets a link', async () => {
    await guest.click('#play-friend button[type=submit]');
    const link = await guest.waitForSelector('#play-friend input.share');
    const value = await link.inputValue();
    expect(/\/play\/[A-Za-z0-9_-]+$/.test(value), 'a game link: ' + value);
    gameId = value.split('/').pop();
    await guest.click('#play-friend a[data-link]');
    await guest.waitForSelector('#board cg-board');
  });

  await step('a player registers and joins through the link', async () => {
    await reg.goto(url + '/');
    await reg.fill('#account input[name=name]', 'ann_e2e');
    await reg.fill('#account input[name=password]', 'correct horse battery');
    await reg.click('#account button[value=register]');
    await reg.waitForFunction(() => document.querySelector('.who')?.textContent?.includes('ann_e2e'));
    await reg.goto(`${url}/play/${gameId}`);
    await reg.click('#join-btn');
    await reg.waitForFunction(() => document.querySelector('#board')?.getAttribute('data-status') === 'live', null, { timeout: 10_000 });
    await guest.waitForFunction(() => document.querySelector('#board')?.getAttribute('data-status') === 'live', null, { timeout: 10_000 });
  });

  const specCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const spectator = await specCtx.newPage();
  watch(spectator, 'spectator');
  await step('a spectator watches', async () => {
    await spectator.goto(`${url}/play/${gameId}`);
    await spectator.waitForFunction(() => document.querySelector('#board')?.getAttribute('data-status') === 'live', null, { timeout: 10_000 });
  });

  let white = guest;
  let black = reg;
  let whiteName = 'guest';
  let quietFrom = 0;
  let quietTo = 0;
  await step('play: a capture, a check, a rejected attempt', async () => {
    await guest.waitForFunction(() => /turn/.test(document.querySelector('#turn')?.textContent ?? ''));
    if ((await guest.textContent('#turn')) !== 'Your turn') [white, black, whiteName] = [reg, guest, 'registered'];
    await myTurn(white);
    await attempt(white, 'e2e4');
    await myTurn(black);
    await boardMove(black, 'd7d5');
    await myTurn(white);
    await attempt(white, 'e4d5');
    await myTurn(black);
    const blackLog = await black.textContent('#log');
    expect(/captur/i.test(blackLog ?? ''), 'black hears the capture: ' + blackLog);
    await attempt(black, 'Qxd5');
    await myTurn(white);
    await attempt(white, 'f1b5');
    await myTurn(black);
    expect(/check/i.test((await black.textContent('#log')) ?? ''), 'black hears the check');
    expect((await visibleSquares(black, 'cg-board square.check-line')) > 0, 'the check line is drawn');
    await white.waitForTimeout(200);
    quietFrom = Date.now();
    await attempt(black, 'a7a6');
    await black.waitForSelector('#rejected li');
    await black.waitForTimeout(300);
    quietTo = Date.now();
    expect((await visibleSquares(black, 'cg-board square.check-line')) > 0, 'the check line stays drawn after a rejected attempt');
    expect(((await black.textContent('#rejected')) ?? '').includes('a7a6'), 'a7a6 listed as rejected');
    const opts = (await black.getAttribute('#board', 'data-options')) ?? '';
    expect(!opts.split(' ').includes('a7a6'), 'a7a6 no longer offered');
    await shot(black, '02-rejected-and-check');
    await attempt(black, 'c7c6');
    await myTurn(white);
    await shot(white, '03-white-after-capture-and-check');
  });

  await step("the opponent's and a spectator's tabs learn no more than the protocol allows", async () => {
    // wild16: an illegal attempt is heard by its player only, so the other tabs get no frame
    // for it at all (not even one without words: its size and timing would tell).
    const heardAtAll = received.filter((f) => f.who !== (whiteName === 'guest' ? 'registered' : 'guest') && f.at >= quietFrom && f.at <= quietTo && !/"type":"pong"/.test(f.text));
    expect(heardAtAll.length === 0, "no frame to White's or the spectator's tab for Black's illegal attempt: " + heardAtAll.map((f) => f.who + ' ' + f.text.slice(0, 120)).join(' | '));
    // The page offers a spectator neither commands nor chat (spectators do not hear the chat).
    for (const q of ['#controls', '#chat-box', '#move-form', '.tray']) expect(await spectator.locator(q).isHidden(), `${q} hidden from the spectator`);
    const spectatorFrames = received.filter((f) => f.who === 'spectator');
    expect(spectatorFrames.length > 3, 'the spectator follows the game');
    for (const f of spectatorFrames) {
      const j = JSON.parse(f.text);
      expect(!('men' in j) && !('options' in j) && !/a7a6|e2e4|d7d5/.test(f.text), 'a spectator frame with no men, options or moves: ' + f.text.slice(0, 200));
    }
    const whiteSide = 'white';
    const blackSide = 'black';
    const status = (p, path) => p.evaluate(async (u) => (await fetch(u)).status, path);
    expected = [/status of 40[13]/];
    try {
      for (const [p, who, other] of [[black, 'black', whiteSide], [white, 'white', blackSide], [spectator, 'spectator', whiteSide]]) {
        expect((await status(p, `/api/games/${gameId}/belief?side=${other}`)) === 403, `${who}: the ${other} belief is refused`);
        expect((await status(p, `/api/games/${gameId}/review`)) === 403, `${who}: the review is refused while the game goes on`);
        expect((await status(p, `/games/${gameId}.json`)) === 403, `${who}: the referee's JSON is refused while the game goes on`);
        expect((await status(p, `/games/${gameId}.pgn`)) === 403, `${who}: the referee's PGN is refused while the game goes on`);
        expect((await status(p, `/games/${gameId}/${other}.pgn`)) === 403, `${who}: the ${other} PGN is refused while the game goes on`);
      }
      // Not a practice game, no house agent: not even one's own belief while it goes on.
      expect((await status(black, `/api/games/${gameId}/belief?side=black`)) === 403, "black's own belief is refused in a rated-style game");
      expect((await status(spectator, `/api/games/${gameId}/chat?before=10`)) >= 400, 'the spectator cannot read the chat');
      const own = await black.evaluate(async (u) => (await fetch(u)).text(), `/games/${gameId}/black.pgn`);
      expect(!/e2e4|e4\b/.test(own.replace(/\[.*\]/g, '')), "black's own PGN does not show White's moves: " + own);
    } finally {
      expected = [];
    }
  });

  await step('chat: markup shown as text, control characters refused in words', async () => {
    await white.fill('#chat-input', '<img src=x onerror=alert(1)><b>bold</b> & "quotes"');
    await white.press('#chat-input', 'Enter');
    await black.waitForFunction(() => document.querySelector('#chat')?.textContent?.includes('<b>bold</b>'));
    expect((await black.locator('#chat img, #chat b b').count()) === 0, 'no markup rendered');
    await white.fill('#chat-input', 'bell\u0007 and \u202eevil');
    await white.press('#chat-input', 'Enter');
    await white.waitForFunction(() => document.querySelector('#info')?.textContent?.length);
    const info = (await white.textContent('#info')) ?? '';
    expect(/bad_message|character/i.test(info), 'the refusal in words: ' + info);
  });

  await step('a draw offered and declined', async () => {
    await white.click('#draw-offer');
    await black.waitForSelector('#draw-decline:not([hidden])', { timeout: 10_000 });
    await black.click('#draw-decline');
    await white.waitForFunction(() => /declin/i.test(document.querySelector('#log')?.textContent ?? ''), null, { timeout: 10_000 });
  });

  await step('a registration refused is said in its form', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await ctx.newPage();
    watch(p, 'bad-name');
    expected = [/status of 400/];
    try {
      await p.goto(url + '/');
      await p.fill('#account input[name=name]', '<b>x</b>\u0007');
      await p.fill('#account input[name=password]', 'correct horse battery');
      await p.click('#account button[value=register]');
      await p.waitForFunction(() => (document.querySelector('#account #account-status')?.textContent ?? '').length > 0, null, { timeout: 5_000 });
      const said = (await p.textContent('#account-status')) ?? '';
      expect(/name/.test(said), 'the refusal in words, inside the form: ' + said);
      expect((await p.locator('#account b').count()) === 0, 'no markup rendered');
    } finally {
      expected = [];
      await ctx.close();
    }
  });

  await step('a player whose session ended is told so', async () => {
    const regCookies = await regCtx.cookies();
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await ctx.newPage();
    watch(p, 'session-ended');
    expected = [/status of 401/];
    try {
      // A browser that was signed in (the page's note of it) with a session the server no longer knows.
      await ctx.addInitScript(() => localStorage.setItem('umpire.signedIn', '1'));
      await ctx.addCookies(regCookies.map((c) => ({ ...c, value: 'expired' + c.value.slice(7) })));
      await p.goto(`${url}/play/${gameId}`);
      await p.waitForSelector('#session-lost:not([hidden])', { timeout: 10_000 });
      const said = (await p.textContent('#session-lost')) ?? '';
      expect(/session has ended/.test(said) && /spectator/.test(said), 'the words: ' + said);
    } finally {
      expected = [];
      await ctx.close();
    }
  });

  await step('the server goes down and comes back: a banner, and a move typed meanwhile is played', async () => {
    await myTurn(white);
    const before = await white.locator('#log li li').count();
    expected = [/WebSocket connection to .* failed/, /ERR_CONNECTION_REFUSED/];
    let isDown = false;
    try {
      await server.down();
      isDown = true;
      await white.waitForSelector('.banner:not([hidden])', { timeout: 10_000 });
      expect(/Connection lost/.test((await white.textContent('.banner')) ?? ''), 'the banner says so');
      await white.fill('#move-input', 'Nf3');
      await white.press('#move-input', 'Enter');
      await white.waitForFunction(() => /sent when the connection is back/.test(document.querySelector('#info')?.textContent ?? ''), null, { timeout: 5_000 });
      await shot(white, '09-server-down');
      await server.up();
      isDown = false;
      await white.waitForSelector('.banner', { state: 'hidden', timeout: 20_000 });
      await black.waitForSelector('.banner', { state: 'hidden', timeout: 20_000 });
    } finally {
      // Up again whatever happened, so that the steps after this one have a server.
      if (isDown) await server.up();
      expected = [];
    }
    await white.waitForFunction((n) => document.querySelectorAll('#log li li').length > n, before, { timeout: 10_000 });
    expect(/g1f3 played/.test((await white.textContent('#log')) ?? ''), 'Nf3 played after the resume');
    expect(((await white.textContent('#info')) ?? '') === '', 'the waiting note gone');
    await myTurn(black);
    await attempt(black, 'Nf6');
    await myTurn(white);
  });

  await step('one resigns; both see the result', async () => {
    await black.click('#resign');
    await black.click('#resign');
    for (const p of [white, black]) await p.waitForSelector('#review-link', { timeout: 10_000 });
    const result = (await white.textContent('#end')) ?? '';
    for (const q of ['#move-form', '.tray']) expect(await white.locator(q).isHidden(), `${q} hidden once the game is over`);
    expect(/resign/i.test(result), 'the result says resignation: ' + result);
    await shot(white, '04-game-over');
  });

  await step('review shows the game and the downloads parse', async () => {
    await white.click('#review-link');
    await white.waitForSelector('#dl-json');
    const json = await white.request.get(`${url}/games/${gameId}.json`);
    expect(json.ok(), 'the JSON record downloads');
    JSON.parse(await json.text());
    for (const path of [`/games/${gameId}.pgn`, `/games/${gameId}/white.pgn`, `/games/${gameId}/black.pgn`]) {
      const pgn = await white.request.get(url + path);
      expect(pgn.ok() && (await pgn.text()).includes('[Result '), path + ' is PGN');
    }
    if (await white.locator('#review-error').count()) {
      console.log('# the server has no review endpoint yet: the page says so');
    } else {
      await white.waitForSelector('#board-referee cg-board');
      await white.click('#next');
      await white.click('#next');
      expect(((await white.textContent('#step')) ?? '').includes('Step 2'), 'stepping');
    }
    await shot(white, '05-review');
  });

  await step('the leaderboard: its pickers named, an empty table said plainly', async () => {
    await white.goto(`${url}/leaderboard?rules=wild16&class=correspondence`);
    await white.waitForFunction(() => (document.querySelector('#leaders-status')?.textContent ?? '').length > 0, null, { timeout: 5_000 });
    expect((await white.getByRole('combobox', { name: 'Rule set' }).count()) === 1, 'the rule-set picker has a name');
    expect((await white.getByRole('combobox', { name: 'Time class' }).count()) === 1, 'the time-class picker has a name');
    const said = (await white.textContent('#leaders-status')) ?? '';
    expect(/Nobody is rated here yet/.test(said) && !(await white.locator('#leaders-status.status').count()), 'an empty table is no error: ' + said);
  });

  await step('a third player plays a bot to the end', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await ctx.newPage();
    watch(p, 'bot-player');
    await p.goto(url + '/');
    await p.selectOption('#play-bot select[name=clock]', '1+0');
    await p.selectOption('#play-bot select[name=level]', '1');
    await p.click('#play-bot button[type=submit]');
    await p.waitForSelector('#board cg-board');
    const deadline = Date.now() + 150_000;
    for (;;) {
      expect(Date.now() < deadline, 'the bot game ends in time');
      const status = await p.getAttribute('#board', 'data-status');
      if (status === 'over') break;
      const opts = ((await p.getAttribute('#board', 'data-options')) ?? '').split(' ').filter(Boolean);
      if (opts.length === 0) {
        await p.waitForTimeout(50);
        continue;
      }
      const move = opts[Math.floor(Math.random() * opts.length)];
      await p.fill('#move-input', move);
      await p.press('#move-input', 'Enter');
      await p.waitForFunction((m) => (document.querySelector('#board')?.getAttribute('data-options') ?? '').split(' ').indexOf(m) < 0, move, { timeout: 10_000 });
    }
    await p.waitForSelector('#review-link');
    await shot(p, '06-bot-game-over');
    await ctx.close();
  });

  await step('keyboard: phantoms typed, a typed move no man can make said in words; the bot named; coordinates readable in both themes', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await ctx.newPage();
    watch(p, 'keyboard');
    try {
      await p.goto(url + '/');
      await p.selectOption('#play-bot select[name=level]', '2');
      await p.click('#play-bot button[type=submit]');
      await p.waitForSelector('#board cg-board');
      const id = p.url().split('/').pop();
      await p.waitForFunction(() => document.querySelector('#board')?.getAttribute('data-status') === 'live', null, { timeout: 10_000 });
      // A bot is named with its level, not "connected".
      await p.waitForFunction(() => (document.querySelector('#presence')?.textContent ?? '').length > 0, null, { timeout: 10_000 });
      const presence = (await p.textContent('#presence')) ?? '';
      expect(presence === 'Playing against mcts (level 2 · casual)', 'the presence line: ' + presence);
      expect(!/connected/.test((await p.textContent('.side-col')) ?? ''), 'no "connected" for a bot');

      // Phantoms by keyboard: `p` goes to the phantom box, a letter and a square, Enter.
      expect(/phantom box/.test((await p.textContent('#keys-help')) ?? ''), 'the help says how');
      await p.locator('body').click({ position: { x: 5, y: 5 } });
      await p.keyboard.press('p');
      expect(await p.evaluate(() => document.activeElement?.id === 'phantom-input'), '`p` focuses the phantom box');
      await p.keyboard.type('Qd5');
      await p.keyboard.press('Enter');
      await p.waitForFunction(() => /Phantom queen on d5/.test(document.querySelector('#phantom-status')?.textContent ?? ''));
      const stored = (g) => p.evaluate((k) => localStorage.getItem(k), 'umpire.phantoms.' + g);
      expect((await stored(id)) === '{"d5":"queen"}', 'kept for the game: ' + (await stored(id)));
      await p.waitForFunction(() => document.querySelectorAll('#board cg-auto-pieces piece').length === 1, null, { timeout: 5_000 });
      await p.keyboard.type('nz9');
      await p.keyboard.press('Enter');
      expect(/is not a phantom/.test((await p.textContent('#phantom-status')) ?? ''), 'a bad one said in words');
      await p.fill('#phantom-input', 'xd5');
      await p.press('#phantom-input', 'Enter');
      await p.waitForFunction(() => document.querySelectorAll('#board cg-auto-pieces piece').length === 0, null, { timeout: 5_000 });
      expect((await stored(id)) === null, 'removed');

      // A typed king move no king of ours can make: why, in words.
      await myTurn(p);
      await p.fill('#move-input', 'Ke2');
      await p.press('#move-input', 'Enter');
      await p.waitForFunction(() => /no king that can reach e2/.test(document.querySelector('#info')?.textContent ?? ''), null, { timeout: 5_000 });

      // Coordinates: each against the square under it, at least 4.5:1 (WCAG AA), in both themes.
      const contrast = () =>
        p.evaluate(() => {
          const board = document.querySelector('#board cg-board').getBoundingClientRect();
          const white = document.querySelector('#board').classList.contains('orientation-white');
          const lum = (c) => {
            const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
            return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
          };
          // chessground's brown board: light squares #f0d9b5, dark ones the same under 20 % black.
          const LIGHT = [240, 217, 181];
          const DARK = LIGHT.map((v) => v * 0.8);
          let worst = Infinity;
          let count = 0;
          for (const el of document.querySelectorAll('#board coords coord')) {
            // Where the glyph is drawn (its box is taller than the text, and shifted).
            const range = document.createRange();
            range.selectNodeContents(el);
            const r = range.getBoundingClientRect();
            if (r.width === 0) continue;
            count++;
            const cs = getComputedStyle(el);
            const [cr, cg, cb, ca = 1] = cs.color.match(/[\d.]+/g).map(Number);
            let alpha = ca;
            for (let e = el; e && e.id !== 'board'; e = e.parentElement) alpha *= Number(getComputedStyle(e).opacity);
            const col = Math.min(7, Math.max(0, Math.floor(((r.x + r.width / 2 - board.x) * 8) / board.width)));
            const row = Math.min(7, Math.max(0, Math.floor(((r.y + r.height / 2 - board.y) * 8) / board.height)));
            const file = white ? col : 7 - col;
            const rank = white ? 7 - row : row;
            const bg = (file + rank) % 2 === 0 ? DARK : LIGHT;
            const fg = [cr, cg, cb].map((v, i) => v * alpha + bg[i] * (1 - alpha));
            const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
            worst = Math.min(worst, (a + 0.05) / (b + 0.05));
          }
          return { worst, count, theme: document.documentElement.dataset.theme ?? '' };
        });
      const first = await contrast();
      await p.click('header .theme');
      const second = await contrast();
      expect(first.theme !== second.theme, 'the theme switched: ' + first.theme + ' → ' + second.theme);
      for (const c of [first, second]) {
        expect(c.count === 16, `16 coordinates (${c.theme}): ${c.count}`);
        expect(c.worst >= 4.5, `coordinates at least 4.5:1 (${c.theme}): ${c.worst.toFixed(2)}`);
      }
      await p.click('header .theme');
      await p.click('#resign');
      await p.click('#resign');
      await p.waitForSelector('#review-link', { timeout: 10_000 });
    } finally {
      await ctx.close();
    }
  });

  await step('a practice game against a bot: the overlay shows during play, the game is unrated', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await ctx.newPage();
    watch(p, 'practice');
    await p.goto(url + '/');
    await p.selectOption('#play-bot select[name=clock]', '10+0');
    await p.check('#bot-practice');
    await p.click('#play-bot button[type=submit]');
    await p.waitForSelector('#board cg-board');
    const id = p.url().split('/').pop();
    await p.waitForFunction(() => document.querySelector('#board')?.getAttribute('data-status') === 'live', null, { timeout: 10_000 });
    expect(((await p.textContent('.game-title')) ?? '').includes('practice'), 'the title says practice');
    const summary = await (await p.request.get(`${url}/api/games/${id}`)).json();
    expect(summary.practice === true && summary.rated === false, 'a practice game, unrated: ' + JSON.stringify(summary));
    // The bot's belief (what it makes of this player's men) is not the player's to see.
    const botSide = (await p.locator('#board.orientation-white').count()) > 0 ? 'black' : 'white';
    expected = [/status of 403/];
    const botBelief = await p.evaluate(async (u) => (await fetch(u)).status, `/api/games/${id}/belief?side=${botSide}`);
    expected = [];
    expect(botBelief === 403, `the bot's (${botSide}) belief refused while the game goes on: ${botBelief}`);
    await p.click('#belief');
    await p.waitForSelector('#belief-panel:not([hidden])', { timeout: 15_000 });
    // At the start (or after the bot's first move) the enemy's 16 men are all placed: shaded, with
    // glyphs. (Chessground hides square elements it no longer needs (display: none) rather than removing them:
    // only visible ones count.)
    const shaded = (sel) => visibleSquares(p, sel);
    await p.waitForFunction(() => [...document.querySelectorAll('cg-board square[class*="belief-"]')].filter((e) => e.style.display !== 'none').length >= 16, null, { timeout: 10_000 });
    expect((await shaded('cg-board square.bk-king')) === 1, 'one square marked as the enemy king');
    expect((await p.locator('#belief-list li').count()) >= 16, 'the belief in words for screen readers');
    // Knights only: their squares (two, or a few more after the enemy's first move), fewer than any man's.
    const anyCount = await shaded('cg-board square[class*="belief-"]');
    await p.click('#belief-panel button[data-kind=knight]');
    await p.waitForFunction((n) => {
      const visible = (q) => [...document.querySelectorAll(q)].filter((e) => e.style.display !== 'none').length;
      const k = visible('cg-board square[class*="belief-"]');
      return k >= 2 && k < n && visible('cg-board square.bk-knight') >= 1 && visible('cg-board square.bk-pawn') === 0;
    }, anyCount, { timeout: 5_000 });
    await shot(p, '08-practice-overlay-knights');
    await p.click('#belief-panel button[data-kind=any]');
    // A move (when it is ours), and the overlay follows the game.
    await p.waitForFunction(() => (document.querySelector('#board')?.getAttribute('data-options') ?? '').length > 0, null, { timeout: 15_000 });
    await attempt(p, ((await p.getAttribute('#board', 'data-options')) ?? '').split(' ')[0]);
    await p.waitForFunction(() => /after [1-9]/.test(document.querySelector('#belief-caption')?.textContent ?? ''), null, { timeout: 10_000 });
    await shot(p, '08-practice-overlay');
    await p.click('#resign');
    await p.click('#resign');
    await p.waitForSelector('#review-link', { timeout: 10_000 });
    await ctx.close();
  });

  await step('a phone-sized window plays a move by tapping; turned sideways, the board fits', async () => {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const p = await ctx.newPage();
    watch(p, 'phone');
    await p.goto(url + '/');
    await p.click('#play-bot button[type=submit]');
    await p.waitForSelector('#board cg-board');
    await p.waitForFunction(() => (document.querySelector('#board')?.getAttribute('data-options') ?? '').length > 0, null, { timeout: 15_000 });
    const opts = ((await p.getAttribute('#board', 'data-options')) ?? '').split(' ');
    const move = opts[0];
    await p.locator('#board').scrollIntoViewIfNeeded();
    await shot(p, '07-phone-before');
    await boardMove(p, move, true);
    await shot(p, '07-phone');
    await p.setViewportSize({ width: 844, height: 390 });
    await p.waitForFunction(() => {
      const b = document.querySelector('#board cg-board')?.getBoundingClientRect();
      return b !== undefined && b.height > 200 && b.height <= window.innerHeight;
    }, null, { timeout: 5_000 });
    await shot(p, '07-phone-sideways');
    await ctx.close();
  });

  await step('a page opened while the server is down says so, and recovers when it is back', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await ctx.newPage();
    watch(p, 'offline');
    let isDown = false;
    try {
      // Once with the server up: a guest with a game waiting for a friend; the service worker
      // keeps the shell.
      await p.goto(url + '/');
      await p.click('#play-friend button[type=submit]');
      const link = await (await p.waitForSelector('#play-friend input.share')).inputValue();
      const me = (await (await p.request.get(url + '/api/me')).json()).user.name;
      await p.waitForFunction(async () => (await navigator.serviceWorker.ready).active?.state === 'activated', null, { timeout: 10_000 });
      await p.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 10_000 });
      // What the cache holds: the shell of this build and nothing else (no API answer, no record,
      // nothing naming this player).
      const kept = await p.evaluate(async () => {
        const out = [];
        for (const name of await caches.keys()) {
          const c = await caches.open(name);
          for (const r of await c.keys()) out.push({ name, path: new URL(r.url).pathname, body: await (await c.match(r)).text() });
        }
        return out;
      });
      const html = await (await p.request.get(url + '/')).text();
      const want = ['/', ...[...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1])].sort();
      expect(JSON.stringify(kept.map((k) => k.path).sort()) === JSON.stringify(want), 'the cache holds the shell only: ' + kept.map((k) => k.path).join(' '));
      expect(new Set(kept.map((k) => k.name)).size === 1, 'one cache: ' + kept.map((k) => k.name).join(' '));
      expect(kept.every((k) => !k.body.includes(me)), 'nothing in the cache names the player');
      expect(kept.find((k) => k.path === '/')?.body === html, "the cached page is the server's one page, the same for everyone");

      expected = [/ERR_CONNECTION_REFUSED/, /ERR_FAILED/, /WebSocket connection to .* failed/];
      await server.down();
      isDown = true;
      // A new page in the same browser, and the first one reloaded: both say the server is not answering.
      const q = await ctx.newPage();
      watch(q, 'offline-new');
      await q.goto(link);
      await p.reload();
      for (const page of [q, p]) {
        await page.waitForSelector('#server-down', { timeout: 10_000 });
        const said = (await page.textContent('#server-down')) ?? '';
        expect(/server is not answering/.test(said) && /Trying again/.test(said), 'the words: ' + said);
        // The button can be read: its words against its own background, at least 4.5:1.
        const button = await page.evaluate(() => {
          const b = document.querySelector('#server-down-retry');
          const cs = getComputedStyle(b);
          const rgb = (s) => s.match(/[\d.]+/g).map(Number).slice(0, 3);
          const lum = (c) => {
            const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
            return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
          };
          const [a, c] = [lum(rgb(cs.color)), lum(rgb(cs.backgroundColor))].sort((x, y) => y - x);
          return { text: b.textContent, ratio: (a + 0.05) / (c + 0.05) };
        });
        expect(button.text === 'Try now' && button.ratio >= 4.5, `"Try now" readable: ${button.text} at ${button.ratio.toFixed(2)}:1`);
      }
      await shot(q, '10-server-not-answering');
      await server.up();
      isDown = false;
      // It recovers by itself: the game page (its link to send) on one, the landing page on the other.
      await q.waitForSelector('#board cg-board', { timeout: 20_000 });
      await q.waitForSelector('#server-down', { state: 'detached', timeout: 5_000 });
      await p.waitForSelector('#play-bot', { timeout: 20_000 });
      expected = [];
      // And a game can be played: a bot, one move.
      await p.selectOption('#play-bot select[name=level]', '1');
      await p.click('#play-bot button[type=submit]');
      await p.waitForSelector('#board cg-board');
      await p.waitForFunction(() => (document.querySelector('#board')?.getAttribute('data-options') ?? '').length > 0, null, { timeout: 15_000 });
      await attempt(p, ((await p.getAttribute('#board', 'data-options')) ?? '').split(' ')[0]);
    } finally {
      if (isDown) await server.up();
      expected = [];
      await ctx.close();
    }
  });
} finally {
  await browser.close();
  stop();
}

if (problems.length > 0) {
  failed++;
  console.log('not ok - no console errors or uncaught exceptions');
  for (const p of problems) console.log('#   ' + p);
} else {
  passed++;
  console.log('ok - no console errors or uncaught exceptions');
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
