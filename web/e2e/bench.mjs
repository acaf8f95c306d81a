// Benchmark (not a test): attempt click to announcement shown, in the headless browser over
// loopback. A guest plays level-1 bots (new games as they end) and times, in the page, each of
// its attempts from the form's submit to the log line that answers it. Prints p50/p99/max over
// UMPIRE_BENCH_ATTEMPTS attempts (default 500) and the page's compressed bytes.

import { launch, startServer } from './server.mjs';

const want = Number(process.env.UMPIRE_BENCH_ATTEMPTS ?? 500);
const { url, stop } = await startServer();
const browser = await launch();
const times = [];
const pageTimes = [];
let transferred = 0;
try {
  const ctx = await browser.newContext();
  // Each WebSocket message's arrival time, taken before the page's own handler runs, so the
  // figure splits into the wait for the server and the page's work.
  await ctx.addInitScript(() => {
    const Base = window.WebSocket;
    window.WebSocket = class extends Base {
      constructor(...a) {
        super(...a);
        this.addEventListener('message', () => { window.__umpireMsgAt = performance.now(); });
      }
    };
  });
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
            const end = performance.now();
            done([end - start, end - (window.__umpireMsgAt ?? start)]);
          }
        });
        obs.observe(log, { childList: true, subtree: true });
        input.value = move;
        form.requestSubmit();
      }));
      times.push(ms[0]);
      pageTimes.push(ms[1]);
    }
  }
} finally {
  await browser.close();
  stop();
}
const summary = (xs) => {
  xs.sort((a, b) => a - b);
  const q = (p) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))].toFixed(1);
  return `p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${xs[xs.length - 1].toFixed(1)} ms`;
};
const [load1] = (await import('node:os')).loadavg();
console.log(`attempt click to announcement shown over ${times.length} attempts: ${summary(times)} (load average ${load1.toFixed(2)})`);
console.log(`  of which the page's work from the answer's arrival: ${summary(pageTimes)}`);
