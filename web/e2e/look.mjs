// Screenshots of every page as a new user sees them, on a desktop and a phone, light and dark
// (target/e2e-screenshots/look-*.png), for a person to look at; fails on console errors.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch, root, startServer } from './server.mjs';

const shots = join(root, 'target/e2e-screenshots');
mkdirSync(shots, { recursive: true });
const problems = [];
const { url, stop } = await startServer();
const browser = await launch();
try {
  for (const [device, opts] of [
    ['desktop', { viewport: { width: 1280, height: 900 } }],
    ['phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }],
  ]) {
    for (const scheme of ['light', 'dark']) {
      const ctx = await browser.newContext({ ...opts, colorScheme: scheme });
      const p = await ctx.newPage();
      // The page of a game that does not exist asks for it and gets a 404, which the browser logs.
      let missing = false;
      p.on('console', (m) => m.type() === 'error' && !(missing && m.text().includes('404')) && problems.push(`${device}/${scheme}: ${m.text()}`));
      p.on('pageerror', (e) => problems.push(`${device}/${scheme}: uncaught ${e.message}`));
      const snap = (name) => p.screenshot({ path: join(shots, `look-${device}-${scheme}-${name}.png`), fullPage: true });
      await p.goto(url + '/');
      await p.waitForSelector('#play-bot');
      await snap('1-landing');
      await p.check('#bot-practice').catch(() => {});
      await p.click('#play-bot button[type=submit]');
      await p.waitForSelector('#board cg-board piece');
      await p.waitForFunction(() => (document.querySelector('#board')?.getAttribute('data-options') ?? '').length > 0, null, { timeout: 15_000 });
      for (let i = 0; i < 6; i++) {
        const opts = ((await p.getAttribute('#board', 'data-options')) ?? '').split(' ').filter(Boolean);
        if (opts.length === 0) {
          await p.waitForTimeout(100);
          continue;
        }
        await p.fill('#move-input', opts[Math.floor(Math.random() * opts.length)]);
        await p.press('#move-input', 'Enter');
        await p.waitForTimeout(150);
      }
      if (await p.locator('#belief:not([hidden])').count()) {
        await p.click('#belief');
        await p.waitForSelector('#belief-panel:not([hidden])', { timeout: 15_000 }).catch(() => {});
      }
      await snap('2-game');
      await p.click('#resign');
      await p.click('#resign');
      await p.waitForSelector('#review-link', { timeout: 15_000 });
      await p.click('#review-link');
      await p.waitForSelector('#board-referee cg-board', { timeout: 15_000 });
      await p.click('#next');
      await p.click('#next');
      await p.selectOption('#overlay', 'white');
      await p.waitForTimeout(500);
      await snap('3-review');
      await p.goto(url + '/lobby');
      await p.waitForTimeout(300);
      await snap('4-lobby');
      await p.goto(url + '/leaderboard');
      await p.waitForTimeout(300);
      await snap('5-leaderboard');
      missing = true;
      await p.goto(url + '/play/nosuchgame');
      await p.waitForTimeout(300);
      await snap('6-missing-game');
      await ctx.close();
    }
  }
} finally {
  await browser.close();
  stop();
}
for (const x of problems) console.log('# ' + x);
console.log(problems.length === 0 ? 'no console errors' : `${problems.length} console errors`);
