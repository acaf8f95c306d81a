// The game page: a player's board, log, clocks and commands, or a spectator's view.

import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Key } from '@lichess-org/chessground/types';
import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Page } from '../main';
import type {
  BeliefBody, ChatLine, Clocks, Ending, GameSummary, HeardAnnouncement, OwnMan, PlayerObservation, PlayerState, Presence, PublicObservation, Side,
} from '../protocol';
import { attemptFor, dests, isUci, pieces, piecesDiff, rejectedThisTurn } from '../logic/board';
import { format, low, timeLeft } from '../logic/clock';
import { line, spoken, verdictWords, type LogLine } from '../logic/log';
import * as ph from '../logic/phantoms';
import { freshObservations, MAX_PENDING, toResend, type Pending } from '../logic/resume';
import { marks } from '../logic/shapes';
import { botName, printable, seatName } from '../logic/text';
import { call, ensureUser, me, sessionLost } from '../ui/api';
import { beliefPanel } from '../ui/belief_overlay';
import { h, fill } from '../ui/dom';
import { go } from '../ui/nav';
import { phantomTray } from '../ui/phantom_tray';
import { LiveSocket } from '../ui/socket';
import { muted, play, setMuted } from '../ui/sound';

type Obs = PlayerObservation | PublicObservation;

/** The `state` frame's fields that older servers may lack (the page then shows nothing for them). */
type StateExtras = Partial<Pick<PlayerState, 'transcript_from' | 'presence' | 'practice'>>;

/** At most this many chat lines are kept on the page. */
const MAX_CHAT = 200;

interface View {
  you: Side | 'spectator';
  status: string;
  rules: string;
  players: { white: string; black: string };
  initialMs: number;
  practice: boolean;
  toMove: Side;
  men: OwnMan[];
  options: string[];
  anyAllowed: boolean;
  clocks: Clocks;
  clocksAt: number;
  result: Ending | null;
  opening: HeardAnnouncement[];
  transcript: Obs[];
  chat: ChatLine[];
  presence: Presence | null;
  presenceAt: number;
  resumable: boolean;
}

function other(s: Side): Side {
  return s === 'white' ? 'black' : 'white';
}

/** The game page for `/play/{id}`. */
export const game: Page = (main, [id = '']) => {
  const v: View = {
    you: 'spectator', status: 'open', rules: '', players: { white: '?', black: '?' }, initialMs: 0, practice: false,
    toMove: 'white', men: [], options: [], anyAllowed: false,
    clocks: { white_ms: 0, black_ms: 0, running: null }, clocksAt: performance.now(), result: null, opening: [],
    transcript: [], chat: [], presence: null, presenceAt: 0, resumable: false,
  };
  let pending: Pending[] = [];
  let nextId = 1;
  let pingN = 0;
  let pingSent = 0;
  let lag: number | null = null;
  let phantoms: ph.Phantoms = ph.parse(safeGet(ph.storageKey(id)));
  let belief: BeliefBody | null = null;
  let beliefOn = false;
  let beliefAsked = 0;
  let cg: Api | null = null;
  let socket: LiveSocket | null = null;
  let resignArmed = false;
  let started = false;
  // What the board was last given (as keys), so that unchanged parts are not given again.
  let shownMovable = '';
  let shownCustom = '';
  let shownShapes = '';
  let scrollPending = false;

  // Layout.
  const banner = h('div', { class: 'banner', role: 'alert', hidden: true });
  const title = h('h1', { class: 'game-title' }, 'Game');
  const topClock = h('div', { class: 'clock', 'aria-label': 'Opponent clock' });
  const bottomClock = h('div', { class: 'clock', 'aria-label': 'Your clock' });
  const topName = h('div', { class: 'seat' });
  const bottomName = h('div', { class: 'seat' });
  const boardEl = h('div', { class: 'board cg-wrap-outer', id: 'board' });
  const turnLine = h('p', { class: 'turn', id: 'turn' });
  const rejectedEl = h('ul', { class: 'rejected', id: 'rejected', 'aria-label': 'Rejected this turn' });
  const logEl = h('ol', { class: 'log', id: 'log' });
  const live = h('div', { class: 'sr-only', 'aria-live': 'polite', id: 'live' });
  const chatList = h('ul', { class: 'chat', id: 'chat' });
  const chatInput = h('input', { type: 'text', maxlength: 500, 'aria-label': 'Message to your opponent', placeholder: 'Message', id: 'chat-input' });
  const moveInput = h('input', { type: 'text', maxlength: 12, 'aria-label': 'Type a move (SAN or UCI)', placeholder: 'e4, Nf3, e2e4', id: 'move-input', autocomplete: 'off' });
  const beliefWordsEl = h('p', { class: 'belief-status', id: 'belief-status' });
  const info = h('p', { class: 'info', id: 'info' });
  const sessionEl = h('p', { class: 'error', id: 'session-lost', hidden: true });
  const presenceEl = h('p', { class: 'presence', id: 'presence' });
  const lagEl = h('span', { class: 'lag', id: 'lag' });
  const joinBox = h('div', { class: 'join', id: 'join' });
  const endBox = h('div', { class: 'end', id: 'end' });

  const anyBtn = h('button', { type: 'button', id: 'any', onclick: () => command({ type: 'any' }) }, 'Any?');
  const offerBtn = h('button', { type: 'button', id: 'draw-offer', onclick: () => command({ type: 'draw', action: 'offer' }) }, 'Offer a draw');
  const acceptBtn = h('button', { type: 'button', id: 'draw-accept', onclick: () => command({ type: 'draw', action: 'accept' }) }, 'Accept the draw');
  const declineBtn = h('button', { type: 'button', id: 'draw-decline', onclick: () => command({ type: 'draw', action: 'decline' }) }, 'Decline the draw');
  const resignBtn = h('button', { type: 'button', id: 'resign' }, 'Resign');
  resignBtn.addEventListener('click', () => {
    if (!resignArmed) {
      resignArmed = true;
      resignBtn.textContent = 'Really resign?';
      window.setTimeout(() => {
        resignArmed = false;
        resignBtn.textContent = 'Resign';
      }, 4000);
      return;
    }
    resignArmed = false;
    resignBtn.textContent = 'Resign';
    command({ type: 'resign' });
  });
  const relistBtn = h('button', { type: 'button', id: 'relist', onclick: () => send({ type: 'relist', id: nextId++ }) }, 'RELIST');
  const muteBtn = h('button', { type: 'button', id: 'mute', 'aria-pressed': String(muted()) }, muted() ? 'Sound off' : 'Sound on');
  muteBtn.addEventListener('click', () => {
    setMuted(!muted());
    muteBtn.textContent = muted() ? 'Sound off' : 'Sound on';
    muteBtn.setAttribute('aria-pressed', String(muted()));
  });
  const beliefBtn = h('button', { type: 'button', id: 'belief', hidden: true, 'aria-pressed': 'false' }, 'Belief overlay');
  beliefBtn.addEventListener('click', () => {
    beliefOn = !beliefOn;
    beliefBtn.setAttribute('aria-pressed', String(beliefOn));
    if (beliefOn) void loadBelief();
    else {
      belief = null;
      beliefWordsEl.textContent = '';
      panel.show(null);
      redraw();
    }
  });
  const panel = beliefPanel(() => redraw());

  const tray = phantomTray(() => cg, {
    place: (sq, role) => {
      if (v.men.some((m) => m.square === sq)) return false;
      phantoms = ph.place(phantoms, sq, role);
      savePhantoms();
      return true;
    },
    start: () => {
      if (v.you !== 'spectator') phantoms = ph.enemyStart(v.you);
      for (const m of v.men) phantoms = ph.remove(phantoms, m.square);
      savePhantoms();
    },
    clear: () => {
      phantoms = new Map();
      savePhantoms();
    },
    erase: (sq) => {
      phantoms = ph.remove(phantoms, sq);
      savePhantoms();
    },
  });

  const moveForm = h('form', { class: 'move-form', id: 'move-form' }, moveInput, h('button', { type: 'submit' }, 'Try'));
  moveForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const m = moveInput.value.trim();
    if (m.length === 0) return;
    moveInput.value = '';
    command({ type: 'attempt', move: isUci(m.toLowerCase()) ? m.toLowerCase() : m });
  });
  const chatForm = h('form', { class: 'chat-form', id: 'chat-form' }, chatInput, h('button', { type: 'submit' }, 'Send'));
  chatForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const t = chatInput.value;
    if (t.trim().length === 0) return;
    chatInput.value = '';
    if (!send({ type: 'msg', text: t, id: nextId++ })) chatInput.value = t;
  });

  const controls = h('div', { class: 'controls', id: 'controls' }, anyBtn, offerBtn, acceptBtn, declineBtn, resignBtn, relistBtn);
  // Spectators do not hear the players' chat (docs/PROTOCOL.md): no chat box for them.
  const chatBox = h('div', { id: 'chat-box' }, h('h2', {}, 'Chat'), chatList, chatForm);
  // On a phone the log is a drawer, closed at first; the live region still speaks each line.
  const logDrawer = h('details', { class: 'drawer', open: !matchMedia('(max-width: 760px)').matches }, h('summary', {}, "Umpire's log"), logEl);
  fill(
    main,
    banner,
    h(
      'div',
      { class: 'game' },
      h(
        'section',
        { class: 'board-col' },
        title,
        h('div', { class: 'seat-row' }, topName, topClock),
        boardEl,
        h('div', { class: 'seat-row' }, bottomName, bottomClock),
        turnLine,
        moveForm,
        rejectedEl,
        tray.el,
        beliefWordsEl,
        panel.el,
      ),
      h(
        'section',
        { class: 'side-col' },
        sessionEl,
        joinBox,
        endBox,
        info,
        h('p', {}, presenceEl, ' ', lagEl),
        controls,
        h('div', { class: 'switches' }, muteBtn, beliefBtn),
        h(
          'details',
          { class: 'help', id: 'keys-help' },
          h('summary', {}, 'Keyboard'),
          h(
            'ul',
            {},
            h('li', {}, h('kbd', {}, '/'), ' or ', h('kbd', {}, 'm'), ': the move box; type SAN (e4, Nf3, exd5) or UCI (e2e4), then Enter.'),
            h('li', {}, h('kbd', {}, 'p'), ': the phantom box; a letter (K Q R B N P) and a square, as ', h('kbd', {}, 'Nf6'), ', puts a phantom there; ', h('kbd', {}, 'xf6'), ' removes it.'),
            h('li', {}, h('kbd', {}, 'Tab'), ': every button (Any?, draw, resign, the phantom tray, the switches).'),
          ),
        ),
        logDrawer,
        chatBox,
      ),
    ),
    live,
  );

  cg = Chessground(boardEl, {
    coordinates: true,
    movable: { free: false, color: undefined, showDests: true, events: { after: (o, d) => onBoardMove(o, d) } },
    draggable: { showGhost: true },
    premovable: { enabled: false },
    drawable: { enabled: true, visible: true },
    highlight: { lastMove: false, check: false },
    animation: { enabled: true, duration: 120 },
    events: { select: (k) => onSelect(k) },
  });
  boardEl.addEventListener('pointermove', (e) => {
    if (!belief || !cg) return;
    panel.point(cg.getKeyAtDomPos([e.clientX, e.clientY]) ?? null);
  });

  function safeGet(key: string): string | null {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  }

  function savePhantoms(): void {
    try {
      if (phantoms.size === 0) localStorage.removeItem(ph.storageKey(id));
      else localStorage.setItem(ph.storageKey(id), ph.serialize(phantoms));
    } catch {
      // Storage refused: the phantoms hold for this page only.
    }
    tray.disarm();
    redraw();
  }

  function onSelect(k: Key): void {
    const armed = tray.armed();
    if (!armed) return;
    if (armed === 'erase') phantoms = ph.remove(phantoms, k);
    else if (!v.men.some((m) => m.square === k)) phantoms = ph.place(phantoms, k, armed);
    savePhantoms();
  }

  function onBoardMove(from: string, to: string): void {
    // Chessground has moved the man and cleared its destinations itself.
    shownMovable = '';
    const uci = attemptFor(v.options, from, to);
    if (uci) command({ type: 'attempt', move: uci });
    else redraw();
  }

  function showError(text: string): void {
    info.textContent = text;
    info.classList.add('error');
  }

  /** Sends a frame that is not kept for a resume (chat, RELIST); false, and words, when not connected. */
  function send(frame: Record<string, unknown>): boolean {
    if (socket && socket.send(frame)) return true;
    showError('Not connected: nothing was sent. Try again when the connection is back.');
    return false;
  }

  // Set while a command waits for the connection, so that its words go once it is sent again.
  let waitingNote = false;

  /** A command the umpire judges: kept until answered, resent after a reconnect if never judged. */
  function command(frame: Record<string, unknown>): void {
    if (v.you === 'spectator') return;
    if (pending.length >= MAX_PENDING) {
      showError('Waiting for the server to answer earlier commands.');
      return;
    }
    const f = { ...frame, id: nextId++ };
    pending.push({ id: f.id, frame: f });
    info.textContent = '';
    info.classList.remove('error');
    if (!socket?.send(f)) {
      info.textContent = 'Not connected: this will be sent when the connection is back.';
      waitingNote = true;
    }
  }

  function rejected(): string[] {
    return v.you === 'spectator' ? [] : rejectedThisTurn(v.transcript as PlayerObservation[]);
  }

  function ownKing(): string | null {
    return v.men.find((m) => m.man === 'king')?.square ?? null;
  }

  function redraw(): void {
    if (!cg) return;
    const you = v.you;
    const myTurn = you !== 'spectator' && v.status === 'live' && v.toMove === you && !v.result;
    const rej = rejected();
    const over = v.result !== null || v.status === 'over';
    const pieceMap = you === 'spectator' ? new Map() : pieces(v.men, you);
    const last = v.transcript[v.transcript.length - 1];
    const custom = new Map<Key, string>();
    if (belief) for (const [k, c] of panel.marks()) custom.set(k as Key, c);
    if (last) {
      // What was heard since the move that began this turn (that move's capture and check stay
      // drawn while the player tries attempts).
      let from = v.transcript.length - 1;
      while (from > 0 && !v.transcript[from]?.moved) from--;
      const recent = v.transcript.slice(Math.max(0, from));
      const heardNow = recent.flatMap((o) => o.heard);
      const king = you !== 'spectator' && recent.some((o) => o.actor !== you && o.heard.some((a) => a.kind === 'check')) ? ownKing() : null;
      const m = marks(heardNow, king);
      for (const s of m.check) custom.set(s as Key, ((custom.get(s as Key) ?? '') + ' check-line').trim());
      for (const s of m.capture) custom.set(s as Key, ((custom.get(s as Key) ?? '') + ' capture').trim());
    }
    const shapes: DrawShape[] = [];
    for (const r of rej) if (isUci(r)) shapes.push({ orig: r.slice(0, 2) as Key, dest: r.slice(2, 4) as Key, brush: 'red' });
    if (you !== 'spectator') {
      for (const [sq, role] of phantoms) {
        if (!pieceMap.has(sq)) shapes.push({ orig: sq as Key, piece: { role, color: other(you), scale: 0.8 } });
      }
    }
    // Never `viewOnly`: chessground binds its pointer handlers only when it redraws a board that
    // is not view-only, and turning the board for Black redraws it (a spectator has no dests).
    // Each part is handed to chessground only when it changed, and the men as a diff: a frame
    // that only adds a log line costs the board nothing (chessground draws in its next
    // animation frame).
    const orientation = you === 'black' ? 'black' : 'white';
    const destMap = myTurn ? (dests(v.options, rej) as Map<Key, Key[]>) : new Map<Key, Key[]>();
    const movableKey = JSON.stringify([orientation, v.toMove, myTurn, [...destMap]]);
    if (movableKey !== shownMovable) {
      cg.set({ orientation, turnColor: v.toMove, movable: { color: myTurn ? (you as Side) : undefined, dests: destMap } });
      shownMovable = movableKey;
    }
    const customKey = JSON.stringify([...custom]);
    if (customKey !== shownCustom) {
      cg.set({ highlight: { custom } });
      shownCustom = customKey;
    }
    const shapesKey = JSON.stringify(shapes);
    if (shapesKey !== shownShapes) {
      cg.setAutoShapes(shapes);
      shownShapes = shapesKey;
    }
    const diff = piecesDiff(cg.state.pieces, pieceMap);
    if (diff.size > 0) cg.setPieces(diff as Map<Key, { role: 'pawn'; color: Side } | undefined>);

    // For keyboard and test tools: the attempts the board offers now.
    boardEl.dataset['options'] = myTurn ? v.options.filter((o) => !rej.includes(o)).join(' ') : '';
    boardEl.dataset['status'] = v.result ? 'over' : v.status;

    // Words under the board.
    fill(rejectedEl, ...rej.map((r) => h('li', {}, `${r}: rejected`)));
    const turnWords = v.result
      ? `Game over: ${v.result.score} (${v.result.reason.replace(/_/g, ' ')})`
      : v.status === 'open'
        ? 'Waiting for an opponent.'
        : you === 'spectator'
          ? `${v.toMove === 'white' ? 'White' : 'Black'} to move`
          : myTurn
            ? 'Your turn'
            : "Opponent's turn";
    turnLine.textContent = turnWords;
    document.title = `${myTurn ? '● Your turn · ' : ''}Umpire · ${v.rules || 'game'}`;

    // Seats.
    const bottom: Side = you === 'black' ? 'black' : 'white';
    topName.textContent = `${seatName(v.players[other(bottom)])} (${other(bottom)})`;
    bottomName.textContent = `${seatName(v.players[bottom])} (${bottom})${you === bottom ? ' — you' : ''}`;
    title.textContent = `${v.rules}${v.practice ? ' · practice' : ''}`;

    // Buttons.
    const player = you !== 'spectator';
    for (const el of [controls, chatBox]) el.hidden = !player;
    for (const el of [moveForm, tray.el]) el.hidden = !player || over;
    anyBtn.disabled = !myTurn || !v.anyAllowed;
    offerBtn.disabled = !myTurn || rej.length > 0 || pendingOffer() !== null;
    const offer = pendingOffer();
    acceptBtn.hidden = declineBtn.hidden = !(offer && offer !== you && !over);
    resignBtn.disabled = over || v.status !== 'live';
    relistBtn.disabled = v.status !== 'live';
    moveInput.disabled = !myTurn;
    const agentGame = v.players.white.startsWith('agent:') || v.players.black.startsWith('agent:');
    beliefBtn.hidden = !player || !(v.practice || agentGame || over);

    renderLog();

    // Chat.
    if (chatShown !== v.chat) {
      fill(chatList, ...v.chat.map((c) => h('li', {}, h('b', {}, `${c.from === you ? 'You' : seatName(v.players[c.from])}: `), printable(c.text))));
      chatShown = v.chat;
      scrollSoon();
    }

    // End.
    if (over) {
      endBox.hidden = false;
      fill(
        endBox,
        h('p', { class: 'result' }, v.result ? `Result: ${v.result.score}, ${v.result.reason.replace(/_/g, ' ')}` : 'The game is over.'),
        h('a', { href: `/review/${id}`, 'data-link': true, id: 'review-link' }, 'Review the game'),
        player ? ' ' : null,
        player ? h('button', { type: 'button', id: 'rematch', onclick: () => void rematch() }, 'Rematch') : null,
      );
    } else endBox.hidden = true;
    tickClocks();
    drawPresence();
  }

  // The log, appended to as observations arrive (rebuilt only when a state frame replaces it).
  let logShown = 0;
  let logPlies = 0;
  let logTurn: HTMLElement | null = null;
  let logFrom: Obs[] | null = null;
  let chatShown: ChatLine[] | null = null;

  function lineEl(l: LogLine): HTMLElement {
    return h(
      'li',
      { class: l.kinds.map((k) => 'k-' + k).join(' ') + (l.verdict ? ' v-' + l.verdict : '') },
      l.command ? h('b', {}, `${l.command} `) : null,
      l.command ? `${verdictWords(l.verdict ?? '')}${l.text ? ' — ' : ''}` : '',
      l.text || (l.command ? '' : l.moved ? 'moved' : '…'),
    );
  }

  function renderLog(): void {
    if (logFrom !== v.transcript || logShown > v.transcript.length) {
      fill(logEl, v.opening.length > 0 ? h('li', { class: 'turn-group' }, h('span', { class: 'turn-no' }, 'Start'), ' ', v.opening.map((a) => a.text).join('. ')) : null);
      logShown = 0;
      logPlies = 0;
      logTurn = null;
      logFrom = v.transcript;
    }
    if (logShown === v.transcript.length) return;
    for (; logShown < v.transcript.length; logShown++) {
      const o = v.transcript[logShown];
      if (!o) break;
      if (!logTurn) {
        logTurn = h('ul', {});
        const n = Math.floor(logPlies / 2) + 1;
        logEl.append(h('li', { class: 'turn-group' }, h('span', { class: 'turn-no' }, `${n}${o.actor === 'white' ? '.' : '…'}`), logTurn));
      }
      logTurn.append(lineEl(line(o)));
      if (o.moved) {
        logPlies += 1;
        logTurn = null;
      }
    }
    scrollSoon();
  }

  /**
   * Scrolls the log and the chat to their ends in the next animation frame: reading a height
   * right after writing the DOM would force a layout on every frame from the server.
   */
  function scrollSoon(): void {
    if (scrollPending) return;
    scrollPending = true;
    requestAnimationFrame(() => {
      scrollPending = false;
      logEl.scrollTop = logEl.scrollHeight;
      chatList.scrollTop = chatList.scrollHeight;
    });
  }

  function pendingOffer(): Side | null {
    // The draw offer standing: the last draw announcement of this turn is an offer not answered.
    for (let i = v.transcript.length - 1; i >= 0; i--) {
      const o = v.transcript[i];
      if (!o) break;
      for (let j = o.heard.length - 1; j >= 0; j--) {
        const a = o.heard[j];
        if (a?.kind === 'draw_offered') return a.side === 'white' || a.side === 'black' ? a.side : null;
        if (a?.kind === 'draw_declined' || a?.kind === 'draw_accepted') return null;
      }
      if (o.moved) break;
    }
    return null;
  }

  function tickClocks(): void {
    const elapsed = performance.now() - v.clocksAt;
    const bottom: Side = v.you === 'black' ? 'black' : 'white';
    const running = v.result ? { ...v.clocks, running: null } : v.clocks;
    for (const [el, side] of [[bottomClock, bottom], [topClock, other(bottom)]] as const) {
      const ms = timeLeft(running, side, elapsed);
      el.textContent = format(ms);
      el.classList.toggle('running', running.running === side);
      el.classList.toggle('low', running.running === side && low(ms, v.initialMs));
    }
  }

  function drawPresence(): void {
    const p = v.presence;
    if (!p || v.you === 'spectator') {
      presenceEl.textContent = '';
      return;
    }
    const opp = other(v.you);
    // A house agent is always there: its presence would say nothing.
    const bot = botName(v.players[opp]);
    if (bot !== null) {
      presenceEl.textContent = `Playing against ${bot}`;
      return;
    }
    let text = `Opponent ${p[opp] === 'connected' ? 'connected' : 'gone'}`;
    if (p.abandon_in_ms !== null && p[opp] === 'gone') {
      const left = Math.max(0, p.abandon_in_ms - (performance.now() - v.presenceAt));
      text += `: they lose by abandonment in ${Math.ceil(left / 1000)} s`;
    }
    presenceEl.textContent = text;
  }

  async function loadBelief(): Promise<void> {
    if (v.you === 'spectator') return;
    const n = ++beliefAsked;
    const a = await call<BeliefBody>('GET', `/api/games/${encodeURIComponent(id)}/belief?side=${v.you}`);
    // Off meanwhile, or a later answer asked for: this one is stale.
    if (!beliefOn || n !== beliefAsked) return;
    if (!a.ok) {
      beliefWordsEl.textContent = a.status === 404 ? 'This server has no belief overlay.' : a.message;
      beliefOn = false;
      beliefBtn.setAttribute('aria-pressed', 'false');
      return;
    }
    belief = a.body;
    beliefWordsEl.textContent = '';
    panel.show(belief, `Your belief after ${belief.plies} moves, from ${belief.size} positions${belief.exact ? ' (exact)' : ' (sampled)'}: point at a square for its kinds.`);
    redraw();
  }

  async function rematch(): Promise<void> {
    const a = await call<GameSummary>('POST', `/api/games/${encodeURIComponent(id)}/rematch`);
    if (a.ok) go('/play/' + a.body.id);
    else showError(a.message);
  }

  function hear(o: Obs): void {
    const kinds = o.heard.map((a) => a.kind);
    if (kinds.includes('game_over')) play('end');
    else if (kinds.includes('check')) play('check');
    else if (kinds.includes('capture')) play('capture');
    else if ('own' in o && o.own && ['illegal', 'impossible', 'repeat', 'invalid'].includes(o.own.verdict)) play('illegal');
    else if (o.moved && v.you !== 'spectator' && o.actor !== v.you) play('turn');
    live.textContent = spoken(o, v.you);
  }

  function takeCurrent(f: Record<string, unknown>): void {
    if (typeof f['status'] === 'string') v.status = f['status'];
    if (f['to_move'] === 'white' || f['to_move'] === 'black') v.toMove = f['to_move'];
    if (Array.isArray(f['men'])) v.men = f['men'] as OwnMan[];
    if (Array.isArray(f['options'])) v.options = (f['options'] as unknown[]).filter((o): o is string => typeof o === 'string');
    if (typeof f['any_allowed'] === 'boolean') v.anyAllowed = f['any_allowed'];
    if (f['clocks'] && typeof f['clocks'] === 'object') {
      v.clocks = f['clocks'] as Clocks;
      v.clocksAt = performance.now();
    }
    if ('result' in f) v.result = (f['result'] as Ending | null) ?? null;
    if (f['presence'] && typeof f['presence'] === 'object') {
      v.presence = f['presence'] as Presence;
      v.presenceAt = performance.now();
    }
  }

  function onFrame(f: Record<string, unknown>): void {
    switch (f['type']) {
      case 'state': {
        const s = f as Record<string, unknown> & StateExtras;
        const you = f['you'];
        if (you !== 'white' && you !== 'black' && you !== 'spectator') return;
        const changedSeat = you !== v.you;
        v.you = you;
        v.rules = String(f['rules'] ?? '');
        const players = f['players'] as { white: string; black: string } | undefined;
        if (players) v.players = players;
        v.initialMs = Number((f['time_control'] as { initial_ms?: number } | undefined)?.initial_ms ?? 0);
        v.practice = s.practice === true;
        v.resumable = typeof s.transcript_from === 'number';
        v.opening = (f['opening'] as HeardAnnouncement[] | undefined) ?? [];
        const transcript = (f['transcript'] as Obs[] | undefined) ?? [];
        const from = typeof s.transcript_from === 'number' ? s.transcript_from : 0;
        const held = changedSeat ? 0 : v.transcript.length;
        const r = freshObservations(transcript, from, held);
        if (r.gap || changedSeat) v.transcript = from === 0 ? transcript : v.transcript;
        else v.transcript = v.transcript.concat(r.fresh);
        if (Array.isArray(f['chat'])) v.chat = (f['chat'] as ChatLine[]).slice(-MAX_CHAT);
        takeCurrent(f);
        if (waitingNote) {
          waitingNote = false;
          info.textContent = '';
        }
        const again = toResend(pending, r.fresh);
        pending = [];
        for (const p of again) {
          pending.push(p);
          socket?.send(p.frame);
        }
        if (r.fresh.length > 0 && started) {
          const last = r.fresh[r.fresh.length - 1];
          if (last) live.textContent = `Missed while away: ${r.fresh.length} observation(s). ${spoken(last, v.you)}`;
        }
        started = true;
        if (v.status !== 'open' && joinBox.querySelector('.share, #join-btn')) fill(joinBox);
        if (v.result && v.you !== 'spectator') clearPhantomsAtEnd();
        if (beliefOn) void loadBelief();
        redraw();
        break;
      }
      case 'update': {
        const o = f['observation'] as Obs | undefined;
        if (o) v.transcript.push(o);
        takeCurrent(f);
        const reply = f['reply_to'];
        if (typeof reply === 'number') pending = pending.filter((p) => p.id !== reply);
        else if (o && 'own' in o && o.own) pending.shift();
        if (o) hear(o);
        if (v.result) clearPhantomsAtEnd();
        if (beliefOn && o?.moved) void loadBelief();
        redraw();
        break;
      }
      case 'chat': {
        const from = f['from'];
        if ((from === 'white' || from === 'black') && typeof f['text'] === 'string') {
          const said: ChatLine = { from, text: f['text'] };
          v.chat = [...v.chat, said].slice(-MAX_CHAT);
          redraw();
        }
        break;
      }
      case 'relist': {
        const men = (f['men'] as OwnMan[] | undefined) ?? [];
        v.men = men;
        info.classList.remove('error');
        info.textContent = 'Your men: ' + men.map((m) => `${m.man} ${m.square}`).join(', ');
        redraw();
        break;
      }
      case 'game_over':
        takeCurrent(f);
        clearPhantomsAtEnd();
        redraw();
        break;
      case 'rematch': {
        const next = String(f['rematch'] ?? '');
        fill(joinBox, h('p', {}, 'A rematch was asked for: ', h('a', { href: '/play/' + next, 'data-link': true, id: 'rematch-link' }, 'play it')));
        break;
      }
      case 'withdrawn':
        showError(`This challenge was ${String(f['reason'] ?? 'withdrawn')}.`);
        socket?.close();
        break;
      case 'presence':
        v.presence = f as unknown as Presence;
        v.presenceAt = performance.now();
        drawPresence();
        break;
      case 'pong':
        if (f['n'] === pingN) {
          lag = Math.round(performance.now() - pingSent);
          lagEl.textContent = `lag ${lag} ms`;
        }
        break;
      case 'error': {
        const reply = f['reply_to'];
        if (typeof reply === 'number') pending = pending.filter((p) => p.id !== reply);
        showError(`${String(f['message'] ?? 'Refused')} (${String(f['code'] ?? 'error')})`);
        play('illegal');
        redraw();
        break;
      }
      default:
        break;
    }
  }

  function clearPhantomsAtEnd(): void {
    if (phantoms.size === 0) return;
    phantoms = new Map();
    try {
      localStorage.removeItem(ph.storageKey(id));
    } catch {
      // Nothing stored.
    }
  }

  function connect(): void {
    socket = new LiveSocket(
      () => `/api/games/${encodeURIComponent(id)}/ws${v.transcript.length > 0 && v.resumable ? `?from=${v.transcript.length}` : ''}`,
      {
        frame: onFrame,
        open: (again) => {
          banner.hidden = true;
          if (again) live.textContent = 'Connection back.';
        },
        down: (ms) => {
          banner.hidden = false;
          banner.textContent = `Connection lost: trying again in ${Math.ceil(ms / 1000)} s…`;
        },
      },
    );
  }

  async function start(): Promise<void> {
    const s = await call<GameSummary>('GET', `/api/games/${encodeURIComponent(id)}`);
    if (!s.ok) {
      fill(main, h('h1', {}, 'This game cannot be shown'), h('p', { class: 'error' }, s.message), h('p', {}, h('a', { href: '/', 'data-link': true }, 'Back to the start')));
      return;
    }
    const user = await me();
    if (user === null && sessionLost()) {
      sessionEl.hidden = false;
      fill(
        sessionEl,
        'Your session has ended (it expired, or you logged out elsewhere): you are watching as a spectator. ',
        h('a', { href: '/', 'data-link': true }, 'Log in again'),
        ' to take your seat.',
      );
    }
    const seated = user !== null && (s.body.players.white === user.name || s.body.players.black === user.name);
    if (s.body.status === 'open' && !seated) {
      const joinBtn = h('button', { type: 'button', class: 'primary', id: 'join-btn' }, user ? 'Join this game' : 'Join as a guest');
      joinBtn.addEventListener('click', () => {
        void (async () => {
          const u = await ensureUser();
          if (!u.ok) {
            showError(u.message);
            return;
          }
          const j = await call<GameSummary>('POST', `/api/games/${encodeURIComponent(id)}/join`);
          if (!j.ok) {
            showError(j.message);
            return;
          }
          v.transcript = [];
          socket?.reopen();
        })();
      });
      fill(joinBox, h('p', {}, `${seatName(s.body.players.white === '?' ? s.body.players.black : s.body.players.white)} invites you to play ${s.body.rules}. `), joinBtn);
    } else if (s.body.status === 'open') {
      const url = `${location.origin}/play/${id}`;
      fill(joinBox, h('p', {}, 'Send this link to your opponent: ', h('input', { type: 'text', readonly: true, value: url, class: 'share', 'aria-label': 'Link to send' })));
    }
    connect();
  }

  const timer = window.setInterval(() => {
    tickClocks();
    if (v.presence?.abandon_in_ms !== null && v.presence) drawPresence();
  }, 100);
  const pinger = window.setInterval(() => {
    if (!v.resumable || !socket) return;
    pingN = (pingN + 1) >>> 0;
    pingSent = performance.now();
    socket.send({ type: 'ping', n: pingN });
  }, 5000);
  const keys = (e: KeyboardEvent) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === '/' || e.key === 'm') {
      e.preventDefault();
      moveInput.focus();
    } else if (e.key === 'p' && !tray.el.hidden) {
      e.preventDefault();
      tray.input.focus();
    }
  };
  document.addEventListener('keydown', keys);
  redraw();
  void start();

  return () => {
    window.clearInterval(timer);
    window.clearInterval(pinger);
    document.removeEventListener('keydown', keys);
    socket?.close();
    cg?.destroy();
    document.title = 'Umpire: Kriegspiel';
  };
};
