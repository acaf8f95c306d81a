// Unit tests of the page logic: board from a frame, log wording and grouping, marks, phantoms,
// reconnect bookkeeping, clocks, escaping, FEN.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BeliefBody, PlayerObservation, SquareBelief } from '../src/protocol';
import { attemptFor, dests, pieces, piecesDiff, rejectedThisTurn } from '../src/logic/board';
import { beliefList, beliefMarks, beliefWords, likeliest } from '../src/logic/belief';
import { spoken, turns } from '../src/logic/log';
import { checkSquares, marks } from '../src/logic/shapes';
import * as ph from '../src/logic/phantoms';
import { freshObservations, toResend } from '../src/logic/resume';
import { format, low, timeLeft } from '../src/logic/clock';
import { LEVEL_NAMES, LEVEL_NODES, botName, levelLabel, printable, seatName } from '../src/logic/text';
import { menOf, pliesBefore } from '../src/logic/fen';

const own = (command: string, verdict: string, moved: boolean, heard: PlayerObservation['heard'] = []): PlayerObservation => ({
  actor: 'white', own: { command, verdict }, moved, heard,
});
const theirs = (moved: boolean, heard: PlayerObservation['heard'] = []): PlayerObservation => ({
  actor: 'black', own: null, moved, heard,
});

test('own men become chessground pieces, malformed entries skipped', () => {
  const p = pieces([{ square: 'e1', man: 'king' }, { square: 'z9', man: 'king' }, { square: 'a2', man: 'dragon' }], 'white');
  assert.deepEqual([...p.entries()], [['e1', { role: 'king', color: 'white' }]]);
});

test('rejected attempts of this turn only, and they leave the destinations', () => {
  const t = [own('e2e4', 'accepted', true), theirs(true), own('d1h5', 'impossible', false), own('f1c4', 'illegal', false)];
  const rej = rejectedThisTurn(t);
  assert.deepEqual(rej, ['d1h5', 'f1c4']);
  const d = dests(['d1h5', 'f1c4', 'f1e2', 'e7e8q', 'e7e8n'], rej);
  assert.deepEqual([...d.entries()], [['f1', ['e2']], ['e7', ['e8']]]);
  assert.deepEqual(rejectedThisTurn([own('d1h5', 'impossible', false), own('e2e4', 'accepted', true)]), []);
});

test('a drag becomes the offered attempt, a queen among promotions, none when not offered', () => {
  assert.equal(attemptFor(['e7e8n', 'e7e8q', 'e7e8r'], 'e7', 'e8'), 'e7e8q');
  assert.equal(attemptFor(['e2e4'], 'e2', 'e4'), 'e2e4');
  assert.equal(attemptFor(['e2e4'], 'e2', 'e3'), null);
});

test('the log is grouped by turn in the rule set words', () => {
  const t = [
    own('d1h5', 'impossible', false, [{ kind: 'impossible', text: 'Hell no' }]),
    own('e2e4', 'accepted', true),
    theirs(true, [{ kind: 'capture', square: 'e4', man: 'pawn', en_passant: false, text: 'Pawn captured at e4' }]),
    own('e1e2', 'accepted', true),
  ];
  const ts = turns(t);
  assert.equal(ts.length, 3);
  assert.deepEqual(ts.map((x) => [x.number, x.side, x.lines.length]), [[1, 'white', 2], [1, 'black', 1], [2, 'white', 1]]);
  assert.equal(ts[0]?.lines[0]?.text, 'Hell no');
  assert.equal(ts[1]?.lines[0]?.text, 'Pawn captured at e4');
  assert.equal(spoken(t[2] as PlayerObservation, 'white'), 'Opponent: Pawn captured at e4');
  assert.equal(spoken(t[0] as PlayerObservation, 'white'), 'You d1h5, impossible: Hell no');
  // The verdict is not said twice when the rule set's words begin with it.
  assert.equal(spoken(own('a7a6', 'illegal', false, [{ kind: 'illegal', text: 'Illegal move' }]) as PlayerObservation, 'white'), 'You a7a6: Illegal move');
});

test('check directions mark the line through the king; a capture its square', () => {
  assert.deepEqual(checkSquares('e1', 'file').sort(), ['e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8']);
  assert.equal(checkSquares('e1', 'rank').length, 7);
  assert.deepEqual(checkSquares('a1', 'knight').sort(), ['b3', 'c2']);
  // From e1 the long diagonal is e1–h4 (3 squares) vs e1–a5 (4 squares): a5's way.
  assert.deepEqual(checkSquares('e1', 'long_diagonal').sort(), ['a5', 'b4', 'c3', 'd2']);
  assert.deepEqual(checkSquares('e1', 'short_diagonal').sort(), ['f2', 'g3', 'h4']);
  const m = marks([{ kind: 'capture', square: 'd4', man: null, en_passant: false, text: '' }, { kind: 'check', check: 'file', text: '' }], 'd1');
  assert.deepEqual(m.capture, ['d4']);
  assert.equal(m.check.length, 7);
  assert.deepEqual(marks([{ kind: 'check', check: 'file', text: '' }], null).check, []);
});

test('phantoms: place, move, remove, the enemy start, bounded, and stored safely', () => {
  let p: ph.Phantoms = new Map();
  p = ph.place(p, 'e5', 'knight');
  p = ph.move(p, 'e5', 'f6');
  assert.deepEqual([...p], [['f6', 'knight']]);
  p = ph.remove(p, 'f6');
  assert.equal(p.size, 0);
  const start = ph.enemyStart('white');
  assert.equal(start.size, 16);
  assert.equal(start.get('e8'), 'king');
  assert.equal(start.get('a7'), 'pawn');
  assert.equal(ph.enemyStart('black').get('d1'), 'queen');
  let full: ph.Phantoms = new Map();
  for (const s of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].flatMap((f) => [1, 2, 3, 4, 5].map((r) => f + r))) full = ph.place(full, s, 'pawn');
  assert.equal(full.size, ph.MAX_PHANTOMS);
  assert.deepEqual([...ph.parse(ph.serialize(start))], [...start]);
  assert.equal(ph.parse('not json').size, 0);
  assert.equal(ph.parse('[1,2]').size, 0);
  assert.deepEqual([...ph.parse('{"e4":"pawn","z9":"pawn","e5":"<b>","e6":7}')], [['e4', 'pawn']]);
});

test('resume: the new observations past what is held, and resending only what was never judged', () => {
  const all = [own('e2e4', 'accepted', true), theirs(true), own('d2d4', 'accepted', true)];
  assert.deepEqual(freshObservations(all, 0, 1).fresh, all.slice(1));
  assert.deepEqual(freshObservations(all.slice(2), 2, 2).fresh, all.slice(2).slice(0));
  assert.deepEqual(freshObservations(all.slice(2), 2, 2).fresh.length, 1);
  assert.equal(freshObservations(all.slice(2), 3, 2).gap, true);
  const pending = [
    { id: 1, frame: { type: 'attempt', move: 'd2d4', id: 1 } },
    { id: 2, frame: { type: 'msg', text: 'hi', id: 2 } },
    { id: 3, frame: { type: 'any', id: 3 } },
  ];
  assert.deepEqual(toResend(pending, [theirs(true), own('d2d4', 'accepted', true)]).map((p) => p.id), [3]);
  assert.deepEqual(toResend(pending, [theirs(true)]).map((p) => p.id), [1, 3]);
});

test('clocks tick only for the running side, never below zero', () => {
  const c = { white_ms: 60_000, black_ms: 30_000, running: 'white' as const };
  assert.equal(timeLeft(c, 'white', 1500), 58_500);
  assert.equal(timeLeft(c, 'black', 1500), 30_000);
  assert.equal(timeLeft(c, 'white', 100_000), 0);
  assert.equal(format(65_000), '1:05');
  assert.equal(format(3_725_000), '1:02:05');
  assert.equal(format(9_450), '0:09.4');
  assert.equal(low(15_000, 600_000), true);
  assert.equal(low(120_000, 600_000), false);
});

test('control and direction characters are made visible; names shown plainly', () => {
  assert.equal(printable('a\u0007b\u202ec\u200b'), 'a\\u{7}b\\u{202e}c\\u{200b}');
  assert.equal(printable('<b>x</b>'), '<b>x</b>');
  assert.equal(seatName('agent:guided-random/nodes=250'), 'Bot: guided-random (250 nodes)');
  assert.equal(seatName('?'), 'waiting…');
});

test('FEN placement, all men or one colour, and plies before a step', () => {
  const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  assert.equal(menOf(start).size, 32);
  assert.equal(menOf(start, 'black').size, 16);
  assert.deepEqual(menOf(start).get('e1'), { role: 'king', color: 'white' });
  assert.deepEqual(menOf(start).get('d8'), { role: 'queen', color: 'black' });
  assert.equal(menOf('xyz9/// w').size, 0);
  assert.equal(menOf('').size, 0);
  assert.equal(pliesBefore([{ moved: false }, { moved: true }, { moved: true }], 2), 1);
});

test('the board is handed only what changed: a diff of men', () => {
  const shown = pieces([{ square: 'e1', man: 'king' }, { square: 'e2', man: 'pawn' }, { square: 'd1', man: 'queen' }], 'white');
  const want = pieces([{ square: 'e1', man: 'king' }, { square: 'e4', man: 'pawn' }, { square: 'd1', man: 'rook' }], 'white');
  const d = piecesDiff(shown, want);
  assert.deepEqual(
    [...d.entries()].sort((a, b) => a[0].localeCompare(b[0])),
    [['d1', { role: 'rook', color: 'white' }], ['e2', undefined], ['e4', { role: 'pawn', color: 'white' }]],
  );
  assert.equal(piecesDiff(want, want).size, 0);
});

const square = (p: Partial<SquareBelief>): SquareBelief => ({ any: 0, pawn: 0, knight: 0, bishop: 0, rook: 0, queen: 0, king: 0, ...p });

test('the overlay shades by the kind picked and marks the likeliest kind', () => {
  const squares = Array.from({ length: 64 }, () => square({}));
  squares[28] = square({ any: 0.6, pawn: 0.1, knight: 0.5 }); // e4
  squares[36] = square({ any: 0.15, pawn: 0.15 }); // e5
  squares[60] = square({ any: 1, king: 1 }); // e8
  const b: BeliefBody = { side: 'white', plies: 3, exact: false, size: 2000, squares };
  const any = beliefMarks(b, 'any');
  assert.equal(any.get('e4'), 'belief-6 bk-knight');
  assert.equal(any.get('e5'), 'belief-2'); // too unlikely for a glyph
  assert.equal(any.get('e8'), 'belief-9 bk-king');
  assert.equal(any.has('a1'), false);
  const pawns = beliefMarks(b, 'pawn');
  assert.deepEqual([...pawns.keys()].sort(), ['e4', 'e5']);
  assert.equal(pawns.get('e4'), 'belief-1');
  assert.equal(likeliest(squares[28]!), 'knight');
  assert.equal(beliefWords(b, 'e4'), 'e4: an enemy man 60% (pawn 10%, knight 50%)');
  // The same facts in words, likeliest first, for a screen reader.
  assert.deepEqual(beliefList(b, 'any'), [beliefWords(b, 'e8'), beliefWords(b, 'e4'), beliefWords(b, 'e5')]);
  assert.deepEqual(beliefList(b, 'queen'), []);
  // Nonsense from a server is clamped, never a class out of range.
  squares[0] = square({ any: 7, pawn: Number.NaN });
  assert.equal(beliefMarks(b, 'any').get('a1'), 'belief-9');
  assert.equal(beliefMarks(b, 'pawn').has('a1'), false);
});

test('a phantom typed at the keyboard: a letter and a square, or x and a square', () => {
  assert.deepEqual(ph.readTyped('Nf6'), { square: 'f6', role: 'knight' });
  assert.deepEqual(ph.readTyped(' p e5 '), { square: 'e5', role: 'pawn' });
  assert.deepEqual(ph.readTyped('bc4'), { square: 'c4', role: 'bishop' });
  assert.deepEqual(ph.readTyped('K e8'), { square: 'e8', role: 'king' });
  assert.deepEqual(ph.readTyped('xf6'), { square: 'f6', erase: true });
  assert.deepEqual(ph.readTyped('-a1'), { square: 'a1', erase: true });
  for (const bad of ['', 'f6', 'Nf9', 'Zf6', 'Nf6x', 'N', '<b>']) assert.equal(ph.readTyped(bad), null, bad);
});

test("a bot's seat in words: its kind and level", () => {
  assert.equal(botName('agent:mcts/nodes=4000'), 'mcts (level 4 · strong)');
  assert.equal(botName('agent:guided-random/nodes=5'), 'guided-random (level 1 · beginner)');
  assert.equal(botName('agent:mcts/nodes=64000'), 'mcts (level 5 · strongest)');
  assert.equal(botName('agent:mcts/nodes=777'), 'mcts (777 nodes)');
  // A seat stored before the levels moved (level 3 was 400 nodes) is named by its nodes.
  assert.equal(botName('agent:mcts/nodes=400'), 'mcts (400 nodes)');
  // Level 2 moved from 10 to 20 nodes in session 15.
  assert.equal(botName('agent:mcts/nodes=20'), 'mcts (level 2 · casual)');
  assert.equal(botName('agent:mcts/nodes=10'), 'mcts (10 nodes)');
  // A level that tunes the belief stores more after the nodes; the nodes still name the level.
  assert.equal(botName('agent:mcts/nodes=64000/repair=150000/bound=512'), 'mcts (level 5 · strongest)');
  assert.equal(botName('agent:mcts/nodes=4000/repair=10000/bound=384'), 'mcts (level 4 · strong)');
  assert.equal(botName('agent:mcts'), 'mcts');
  assert.equal(botName('ann'), null);
  assert.equal(seatName('agent:mcts/nodes=160'), 'Bot: mcts (level 3 · club)');
  assert.equal(seatName('ann'), 'ann');
});

test('each level has a name, and a level is offered by its number and name', () => {
  assert.equal(LEVEL_NAMES.length, LEVEL_NODES.length);
  assert.equal(levelLabel(1), '1 · beginner');
  assert.equal(levelLabel(5), '5 · strongest');
  // Outside the ladder the number stands alone.
  assert.equal(levelLabel(0), '0');
  assert.equal(levelLabel(6), '6');
});
