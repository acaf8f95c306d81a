// Benchmark (not a test): attempt click to announcement shown, in the headless browser over
// loopback. A guest plays level-1 bots (new games as they end) and times, in the page, each of
// its attempts from the form's submit to the log line that answers it. Prints p50/p99/max over
// UMPIRE_BENCH_ATTEMPTS attempts (default 500) and the page's compressed bytes.

import { launch, startServer } from './server.mjs';

const want = Number(process.env.UMPIRE_BENCH_ATTEMPTS ?? 500);
const { url, stop } = await startServer();
const browser = await launch();
const times = [];
let transferred = 0;
try {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  page.on('response', async (r) => {
    if (r.url().startsWith(url) && !r.url().includes('/api/')) {
      const len = Number((await r.allHeaders())['content-length'] ?? 0);
      transferred += len;
    }
  });
  await page.setExtraHTTPHeaders({});
  const t0 = Date.now();
  await page.goto(url + '/');
  await page.waitForSelector('#play-bot');
  console.log(`landing page: ${transferred} bytes over the wire (compressed), ${Date.now() - t0} ms to the form`);
  while (times.length < want) {
    await page.goto(url + '/');
    await page.selectOption('#play-bot select[name=clock]', '30+0');
    await page.click('#play-bot button[type=submit]');
    await page.waitForSelector('#board cg-board');
    for (;;) {
      await page.waitForFunction(() => {
        const b = document.querySelector('#board');
        return b?.getAttribute('data-status') === 'over' || (b?.getAttribute('data-options') ?? '') !== '';
      }, null, { timeout: 30_000 });
      if ((await page.getAttribute('#board', 'data-status')) === 'over' || times.length >= want) break;
      const ms = await page.evaluate(() => new Promise((done) => {
        const opts = (document.querySelector('#board')?.getAttribute('data-options') ?? '').split(' ');
        const move = opts[Math.floor(Math.random() * opts.length)] ?? '';
        const log = document.querySelector('#log');
        const before = document.querySelectorAll('#log li li').length;
        const input = document.querySelector('#move-input');
        const form = document.querySelector('#move-form');
        const start = performance.now();
        const obs = new MutationObserver(() => {
          if (document.querySelectorAll('#log li li').length > before) {
            obs.disconnect();
            done(performance.now() - start);
          }
        });
        obs.observe(log, { childList: true, subtree: true });
        input.value = move;
        form.requestSubmit();
      }));
      times.push(ms);
    }
  }
} finally {
  await browser.close();
  stop();
}
times.sort((a, b) => a - b);
const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1);
console.log(`attempt click to announcement shown over ${times.length} attempts: p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${times[times.length - 1].toFixed(1)} ms`);
