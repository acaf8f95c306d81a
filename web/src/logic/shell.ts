// Which requests the service worker may answer from its cache: the app shell only (the page and
// its script and styles), never the API, a game's records or a socket. Pure, so it is unit-tested.

/** The paths of the app's pages: each is answered with the same `index.html` (see `main.ts`). */
const PAGES: RegExp[] = [
  /^\/$/,
  /^\/lobby$/,
  /^\/leaderboard$/,
  /^\/(?:play|game|review)\/[A-Za-z0-9_-]{1,64}$/,
  /^\/@\/[^/]{1,64}$/,
];

/** The name of the cache that holds the shell of one build. */
export function cacheName(version: string): string {
  return CACHE_PREFIX + version;
}

/** Every shell cache's name begins so; one of another build is deleted when a new one takes over. */
export const CACHE_PREFIX = 'umpire-shell-';

/** What a request is, as far as the worker cares. */
export interface ShellRequest {
  /** The HTTP method. */
  method: string;
  /** Whether it goes to the page's own origin. */
  sameOrigin: boolean;
  /** Its path, without the query. */
  path: string;
  /** `navigate` for the page itself. */
  mode: string;
}

/**
 * The key under which the cache holds a copy for `r`, or `null` when the worker must leave the
 * request alone (the network answers it, or nothing does): a page is answered with the cached
 * `/` (every page is the same file, and it holds nothing of anyone's), a file of the shell with
 * itself; nothing else, above all nothing under `/api/` or `/games/`.
 */
export function shellKey(r: ShellRequest, shell: readonly string[]): string | null {
  if (r.method !== 'GET' || !r.sameOrigin) return null;
  if (r.mode === 'navigate' && PAGES.some((re) => re.test(r.path))) return '/';
  if (r.path.startsWith('/assets/') && shell.includes(r.path)) return r.path;
  return null;
}
