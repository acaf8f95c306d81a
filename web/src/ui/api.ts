// The HTTP API, same origin: the session cookie, JSON bodies; every refusal as words.

import type { GameSummary, MeBody, NewGameRequest, SessionBody, UserJson } from '../protocol';

/** An answer: the body, or the refusal in words. */
export type Answer<T> = { ok: true; body: T } | { ok: false; status: number; code: string; message: string };

/** Calls the API; a network failure is an answer too (status 0), never an exception. */
export async function call<T>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
  let res: Response;
  try {
    const init: RequestInit = { method, credentials: 'same-origin', headers: {} };
    if (body !== undefined) {
      init.headers = { 'Content-Type': 'application/json' };
      init.body = JSON.stringify(body);
    }
    res = await fetch(path, init);
  } catch {
    return { ok: false, status: 0, code: 'offline', message: 'The server cannot be reached. Is it running?' };
  }
  let json: unknown = null;
  try {
    json = await res.json();
  } catch {
    json = null;
  }
  if (res.ok) {
    if (/^\/api\/(guest|login|register)$/.test(path)) setSignedIn(true);
    if (path === '/api/logout') setSignedIn(false);
    return { ok: true, body: json as T };
  }
  const err = (json as { error?: { code?: string; message?: string } } | null)?.error;
  return {
    ok: false,
    status: res.status,
    code: err?.code ?? 'http_' + res.status,
    message: err?.message ?? `The server answered ${res.status}.`,
  };
}

const SIGNED_IN = 'umpire.signedIn';

/** Set when this browser held a session and the server no longer knows it (expired, or logged out elsewhere). */
let lost = false;

/** Whether the session this browser held has ended on the server since the page was opened. */
export function sessionLost(): boolean {
  return lost;
}

/** Notes whether this browser holds a session, so a visitor without one is not asked about it (a 401 is a console error). */
function setSignedIn(yes: boolean): void {
  if (yes) lost = false;
  try {
    if (yes) localStorage.setItem(SIGNED_IN, '1');
    else localStorage.removeItem(SIGNED_IN);
  } catch {
    // Storage refused: /api/me is asked each time.
  }
}

function maybeSignedIn(): boolean {
  try {
    return localStorage.getItem(SIGNED_IN) === '1';
  } catch {
    return true;
  }
}

/** The logged-in user, or null. */
export async function me(): Promise<UserJson | null> {
  if (!maybeSignedIn()) return null;
  const a = await call<MeBody>('GET', '/api/me');
  if (!a.ok && a.status === 401) {
    lost = true;
    setSignedIn(false);
  }
  return a.ok ? a.body.user : null;
}

/** Logs in as a new guest. */
export function guest(): Promise<Answer<SessionBody>> {
  return call<SessionBody>('POST', '/api/guest');
}

/** The logged-in user, or a new guest. */
export async function ensureUser(): Promise<Answer<UserJson>> {
  const user = await me();
  if (user) return { ok: true, body: user };
  const g = await guest();
  return g.ok ? { ok: true, body: g.body.user } : g;
}

/** Creates a game (with `practice`, a field newer servers know). */
export function createGame(req: NewGameRequest & { practice?: boolean }): Promise<Answer<GameSummary>> {
  return call<GameSummary>('POST', '/api/games', req);
}
