// What the browser tests share: `umpire serve` on a free port with a temporary data directory,
// and Debian's chromium launched headless.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

/** The repository's root. */
export const root = resolve(import.meta.dirname, '../..');

/**
 * Starts the server; resolves to { url, stop, down, up }: `down` stops it and resolves once it
 * has exited (the data directory kept), `up` starts it again on the same port and data.
 */
export async function startServer() {
  const bin = process.env.UMPIRE_BIN ?? join(root, 'target/ci/umpire');
  const data = mkdtempSync(join(tmpdir(), 'umpire-e2e-'));
  let p = null;
  const spawnAt = (listen) =>
    new Promise((ok, fail) => {
      // The house agents load the endgame tables at need (UMPIRE_TABLES=lazy): no 200 MB per
      // test server, and no build on a machine without the cache.
      p = spawn(bin, ['serve', '--listen', listen, '--data', data], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { UMPIRE_TABLES: 'lazy', ...process.env },
      });
      const me = p;
      let out = '';
      const timer = setTimeout(() => fail(new Error('umpire serve did not say where it listens: ' + out)), 30_000);
      me.stdout.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/[^\s]+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          ok(m[1]);
        }
      });
      me.stderr.on('data', () => {});
      me.on('exit', (code) => {
        clearTimeout(timer);
        fail(new Error(`umpire serve exited (${code}): ${out}`));
      });
    });
  const url = await spawnAt('127.0.0.1:0');
  const listen = url.replace(/^http:\/\//, '').replace(/\/$/, '');
  return {
    url,
    stop: () => {
      p?.kill('SIGTERM');
      rmSync(data, { recursive: true, force: true });
    },
    down: () =>
      new Promise((ok) => {
        p.once('exit', () => ok());
        p.kill('SIGTERM');
      }),
    up: () => spawnAt(listen),
  };
}

/** Launches the browser (playwright gives each launch a fresh profile directory). */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
