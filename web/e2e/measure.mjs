// Benchmark (not a test): time to first board on the game page, cold (a fresh browser
// context: nothing cached) and warm (the same context again: the hashed assets come from the
// cache), the JS heap of a tab after a long game against a level-1 bot (UMPIRE_PLIES moves,
// default 300; new games in the same tab while they end sooner), and the belief endpoint
// stepped through that game's review ply by ply. Prints what it measured and the load average.

import { loadavg } from 'node:os';
import { launch, startServer } from './server.mjs';

const plies = Number(process.env.UMPIRE_PLIES ?? 300);
const { url, stop } = await startServer();
const browser = await launch();
const firstBoard = () => {
  const b = document.querySelector('#board');
  return b?.getAttribute('data-status') === 'live' && document.querySelectorAll('#board cg-board piece').length > 0 ? performance.now() : false;
};
try {
  // A game to open: a guest against a bot, made through the API.
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(url + '/');
  await page.waitForSelector('#play-bot');
  await page.selectOption('#play-bot select[name=clock]', '30+0');
  await page.click('#play-bot button[type=submit]');
  await page.waitForSelector('#board cg-board piece');
  const gameUrl = page.url();

  // Cold: a new context with the guest's cookie, nothing cached.
  const cookies = await ctx.cookies();
  const cold = [];
  const warm = [];
  for (let i = 0; i < 5; i++) {
    const c = await browser.newContext();
    await c.addCookies(cookies);
    const p = await c.newPage();
    await p.goto(gameUrl);
    cold.push(await (await p.waitForFunction(firstBoard, null, { timeout: 15_000 })).jsonValue());
    await p.goto('about:blank');
    await p.goto(gameUrl);
    warm.push(await (await p.waitForFunction(firstBoard, null, { timeout: 15_000 })).jsonValue());
    await c.close();
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)].toFixed(0);
  console.log(`time to first board (navigation start to the live board with its men), median of 5: cold ${med(cold)} ms [${cold.map((x) => x.toFixed(0)).join(', ')}], warm ${med(warm)} ms [${warm.map((x) => x.toFixed(0)).join(', ')}] (load average ${loadavg()[0].toFixed(2)})`);

  // A long game in one tab: random offered attempts until `plies` moves were played.
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Performance.enable');
  const heap = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
    return { heap: m.JSHeapUsedSize, nodes: m.Nodes };
  };
  const before = await heap();
  // Games in the same tab until one reaches `plies` moves (a game that ends sooner is noted
  // with the heap at its end, then a new one starts), at most UMPIRE_MEASURE_GAMES games.
  let games = 0;
  let longest = null;
  const t0 = Date.now();
  const maxGames = Number(process.env.UMPIRE_MEASURE_GAMES ?? 12);
  for (;;) {
    games += 1;
    const r = await page.evaluate(async (want) => {
      const board = () => document.querySelector('#board');
      const moves = () => document.querySelectorAll('#log li.turn-group > ul').length;
      const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
      const start = Date.now();
      while (Date.now() - start < 120_000) {
        const b = board();
        if (b?.getAttribute('data-status') === 'over') return { over: true, moves: moves() };
        if (moves() >= want) return { over: false, moves: moves() };
        const opts = (b?.getAttribute('data-options') ?? '').split(' ').filter(Boolean);
        if (opts.length === 0) {
          await sleep(5);
          continue;
        }
        const input = document.querySelector('#move-input');
        input.value = opts[Math.floor(Math.random() * opts.length)];
        document.querySelector('#move-form').requestSubmit();
        const was = b.getAttribute('data-options');
        while (board()?.getAttribute('data-options') === was && Date.now() - start < 120_000) await sleep(2);
      }
      return { over: false, moves: moves() };
    }, plies);
    const m = await heap();
    console.log(`  game ${games}: ${r.moves} moves${r.over ? ' (ended)' : ''}, JS heap used ${(m.heap / 1e6).toFixed(1)} MB, DOM nodes ${m.nodes}`);
    if (!longest || r.moves > longest.moves) longest = { ...r, ...m };
    if (r.moves >= plies || games >= maxGames) break;
    await page.goto(url + '/');
    await page.selectOption('#play-bot select[name=clock]', '30+0');
    await page.click('#play-bot button[type=submit]');
    await page.waitForSelector('#board cg-board piece');
  }
  console.log(`tab after a game of ${longest.moves} moves (the longest of ${games}, ${((Date.now() - t0) / 1000).toFixed(0)} s in all): JS heap used ${(longest.heap / 1e6).toFixed(1)} MB (${(before.heap / 1e6).toFixed(1)} MB before the games), DOM nodes ${longest.nodes} (${before.nodes} before), after a forced GC (load average ${loadavg()[0].toFixed(2)})`);

  // The belief endpoint stepped through the last game's review ply by ply (a practice review:
  // one request per ply, in order, as the review page asks them), for the player's side.
  if ((await page.getAttribute('#board', 'data-status')) !== 'over') {
    await page.click('#resign');
    await page.click('#resign');
    await page.waitForSelector('#review-link', { timeout: 15_000 });
  }
  const id = page.url().split('/').pop();
  const summary = await (await page.request.get(`${url}/api/games/${id}`)).json();
  const side = summary.players.white.startsWith('agent:') ? 'black' : 'white';
  const steps = [];
  let busy = 0;
  const last = Number(process.env.UMPIRE_REVIEW_PLIES ?? 120);
  const tr = Date.now();
  for (let ply = 0; ply <= last; ply++) {
    const t = performance.now();
    for (;;) {
      const r = await page.request.get(`${url}/api/games/${id}/belief?side=${side}&ply=${ply}`);
      if (r.status() === 503) {
        busy++;
        await new Promise((ok) => setTimeout(ok, 20));
        continue;
      }
      if (r.status() === 400) break;
      if (!r.ok()) throw new Error(`belief at ${ply}: ${r.status()} ${await r.text()}`);
      break;
    }
    steps.push(performance.now() - t);
  }
  const sorted = [...steps].sort((a, b) => a - b);
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(1);
  console.log(`belief endpoint, review stepped ply 0..${steps.length - 1} in order: ${((Date.now() - tr) / 1000).toFixed(1)} s in all, per ply p50 ${q(0.5)} ms, p90 ${q(0.9)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms, busy answers ${busy} (load average ${loadavg()[0].toFixed(2)})`);
} finally {
  await browser.close();
  stop();
}
