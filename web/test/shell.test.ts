// The service worker's one decision: which requests it may answer from its cache.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CACHE_PREFIX, cacheName, shellKey } from '../src/logic/shell';

const SHELL = ['/', '/assets/main-ABC.js', '/assets/main-DEF.css'];
const nav = (path: string) => ({ method: 'GET', sameOrigin: true, path, mode: 'navigate' });
const sub = (path: string) => ({ method: 'GET', sameOrigin: true, path, mode: 'cors' });

test("every page of the app is answered with the cached '/' when the network fails", () => {
  for (const p of ['/', '/lobby', '/leaderboard', '/play/k3x9', '/game/k3x9', '/review/k3x9', '/@/ann']) {
    assert.equal(shellKey(nav(p), SHELL), '/', p);
  }
});

test("the shell's own files are answered with themselves, no other asset", () => {
  assert.equal(shellKey(sub('/assets/main-ABC.js'), SHELL), '/assets/main-ABC.js');
  assert.equal(shellKey(sub('/assets/main-DEF.css'), SHELL), '/assets/main-DEF.css');
  assert.equal(shellKey(sub('/assets/main-OLD.js'), SHELL), null);
  assert.equal(shellKey(sub('/assets/LICENSE.txt'), SHELL), null);
});

test('the API, records, downloads, sockets and other origins are never touched', () => {
  for (const p of ['/api/me', '/api/games/k3x9', '/api/games/k3x9/ws', '/api/games/k3x9/belief', '/games/k3x9.pgn', '/games/k3x9/white.pgn', '/sw.js']) {
    assert.equal(shellKey(sub(p), SHELL), null, p);
    assert.equal(shellKey(nav(p), SHELL), null, 'navigating to ' + p);
  }
  assert.equal(shellKey({ ...nav('/'), sameOrigin: false }, SHELL), null);
  assert.equal(shellKey({ ...nav('/'), method: 'POST' }, SHELL), null);
  assert.equal(shellKey(nav('/nothing-here'), SHELL), null);
  // A fetch of a page's address from script (not a navigation) is not the page.
  assert.equal(shellKey(sub('/'), SHELL), null);
});

test("a build's cache is named by its hash, under the prefix the old ones are deleted by", () => {
  assert.equal(cacheName('d4fcee1fdab3'), 'umpire-shell-d4fcee1fdab3');
  assert.ok(cacheName('x').startsWith(CACHE_PREFIX));
  assert.notEqual(cacheName('a'), cacheName('b'));
});
