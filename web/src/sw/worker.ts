// The service worker: keeps a copy of the app shell (the page, its script and its styles) so that
// a page opened while the server is down still opens and says the server is not answering.
// Network first: the cache answers only when the network does not. Only the files named below
// are ever stored, fetched without credentials when the worker is installed, so nothing of any
// account is in the cache; API calls, records, downloads and sockets are never touched.
// `build.mjs` bundles it to `dist/sw.js` with the shell of that build and its hash: a new build
// is a new worker, which stores the new shell and deletes the caches of older ones.

import { CACHE_PREFIX, cacheName, shellKey } from '../logic/shell';

/** The files of this build's shell (set by `build.mjs`). */
declare const UMPIRE_SHELL: string[];
/** This build's hash (set by `build.mjs`). */
declare const UMPIRE_VERSION: string;

/** The parts of a service worker's events this one uses (the DOM types have no worker scope). */
interface ExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(r: Promise<Response>): void;
}
interface WorkerScope {
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  location: Location;
  addEventListener(type: 'install' | 'activate', f: (e: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', f: (e: FetchEvent) => void): void;
}

const scope = self as unknown as WorkerScope;
const CACHE = cacheName(UMPIRE_VERSION);

scope.addEventListener('install', (e) => {
  e.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll(UMPIRE_SHELL.map((p) => new Request(p, { cache: 'reload', credentials: 'omit' }))))
      .then(() => scope.skipWaiting()),
  );
});

scope.addEventListener('activate', (e) => {
  e.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith(CACHE_PREFIX) && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => scope.clients.claim()),
  );
});

scope.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  const key = shellKey(
    { method: e.request.method, sameOrigin: url.origin === scope.location.origin, path: url.pathname, mode: e.request.mode },
    UMPIRE_SHELL,
  );
  if (key === null) return;
  e.respondWith(
    fetch(e.request).catch(async (err: unknown) => {
      const copy = await caches.open(CACHE).then((c) => c.match(key));
      if (copy) return copy;
      throw err;
    }),
  );
});
