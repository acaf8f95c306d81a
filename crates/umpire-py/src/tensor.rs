//! The observation tensor: [`PLANES`] planes of 8 × 8 floats computed from one player's
//! [`PlayerView`] alone (never from the true position), so two histories that give a player
//! the same observations give it the same tensor, bit for bit.
//!
//! Squares are seen from the player's side, as in [`crate::action`]: index `rank * 8 + file`
//! with Black's ranks mirrored. A "constant" plane holds the same value on all 64 squares.
//! The planes, in order ([`PLANE_NAMES`]):
//!
//! | planes | meaning |
//! |---|---|
//! | 0–5 | own pawns, knights, bishops, rooks, queens, king |
//! | 6, 7 | the player's last attempt (this game): its from and to squares |
//! | 8–10 | its verdict, constant: accepted, illegal, impossible or repeated |
//! | 11, 12 | attempts rejected this turn: their from and to squares |
//! | 13 | the capture square announced with the last move played (by either side) |
//! | 14–16 | that capture, constant: of a pawn, of a piece, en passant (where the rule set says) |
//! | 17–21 | checks announced with the last move, constant: rank, file, long diagonal, short diagonal, knight |
//! | 22 | pawn tries announced this turn, constant, count / 8 |
//! | 23 | pawns announced to have a try (rule sets that name the squares) |
//! | 24 | "you have pawn captures" announced this turn, constant |
//! | 25, 26 | "Any?" answered yes, answered no (this turn), constant |
//! | 27 | the player's own turn, constant |
//! | 28 | the player is White, constant |
//! | 29, 30 | enemy men / 16, enemy pawns at most / 8, constant |
//! | 31, 32 | own castling right king-side, queen-side, constant |
//! | 33 | the player must try a pawn capture (after "Any?" yes), constant |
//! | 34 | the game is over, constant |

use umpire_rules::shakmaty::{CastlingSide, Color, Role, Square};
use umpire_rules::{Announcement, CheckKind, Command, Man, Observation, Verdict};
use umpire_view::PlayerView;

/// The number of planes.
pub const PLANES: usize = 35;
/// Floats in one observation tensor.
pub const TENSOR_SIZE: usize = PLANES * 64;

/// The name of each plane, in order.
pub const PLANE_NAMES: [&str; PLANES] = [
    "own_pawns",
    "own_knights",
    "own_bishops",
    "own_rooks",
    "own_queens",
    "own_king",
    "last_attempt_from",
    "last_attempt_to",
    "last_attempt_accepted",
    "last_attempt_illegal",
    "last_attempt_impossible_or_repeat",
    "rejected_this_turn_from",
    "rejected_this_turn_to",
    "capture_square",
    "capture_of_pawn",
    "capture_of_piece",
    "capture_en_passant",
    "check_rank",
    "check_file",
    "check_long_diagonal",
    "check_short_diagonal",
    "check_knight",
    "pawn_tries",
    "pawn_try_squares",
    "pawn_captures_exist",
    "any_yes",
    "any_no",
    "own_turn",
    "is_white",
    "enemy_men",
    "enemy_pawns_at_most",
    "castle_king_side",
    "castle_queen_side",
    "must_try_pawn_capture",
    "game_over",
];

/// The index of `square` seen from `side`.
pub fn oriented(square: Square, side: Color) -> usize {
    let file = square.file() as usize;
    let rank = square.rank() as usize;
    match side {
        Color::White => rank * 8 + file,
        Color::Black => (7 - rank) * 8 + file,
    }
}

/// What the observation tensor reads of a player's past beyond its view's present knowledge:
/// its last attempt and verdict, and what it heard of the last move played (the capture and
/// the checks). A function of the player's observations: [`LastHeard::of_transcript`] reads it
/// off a whole transcript, [`LastHeard::hear`] keeps it observation by observation (so a
/// game that does not keep its transcripts still has it, in a few bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LastHeard {
    /// The player's last attempt ("Any?" aside) and its verdict.
    pub own: Option<(umpire_rules::Attempt, Verdict)>,
    /// The capture announced with the last move played: square, kind if told, en passant.
    pub capture: Option<(Square, Option<Man>, bool)>,
    /// The checks announced with the last move played, bit `i` for `CheckKind::ALL[i]`.
    pub checks: u8,
}

impl LastHeard {
    /// What `transcript` (every observation of one player, in order) leaves heard last.
    pub fn of_transcript(transcript: &[Observation]) -> LastHeard {
        let mut heard = LastHeard {
            own: transcript.iter().rev().find_map(own_attempt),
            ..LastHeard::default()
        };
        if let Some(last_move) = transcript.iter().rev().find(|o| o.moved) {
            heard.hear_move(last_move);
        }
        heard
    }

    /// Takes in the player's next observation.
    pub fn hear(&mut self, o: &Observation) {
        if let Some(own) = own_attempt(o) {
            self.own = Some(own);
        }
        if o.moved {
            self.hear_move(o);
        }
    }

    /// Takes in the announcements of a move played.
    fn hear_move(&mut self, o: &Observation) {
        self.capture = None;
        self.checks = 0;
        for a in &o.announcements {
            match *a {
                Announcement::Capture {
                    square,
                    man,
                    en_passant,
                } => self.capture = Some((square, man, en_passant)),
                Announcement::Check(kind) => {
                    let i = CheckKind::ALL.iter().position(|&k| k == kind).unwrap_or(0);
                    self.checks |= 1 << i;
                }
                _ => {}
            }
        }
    }
}

/// The player's own attempt in `o` and its verdict, if `o` is one.
fn own_attempt(o: &Observation) -> Option<(umpire_rules::Attempt, Verdict)> {
    match o.own {
        Some(own) => match own.command {
            Command::Attempt(a) => Some((a, own.verdict)),
            _ => None,
        },
        None => None,
    }
}

/// Writes `view`'s observation tensor into `out` (cleared first; [`TENSOR_SIZE`] floats).
pub fn observation_tensor(view: &PlayerView, out: &mut Vec<f32>) {
    observation_tensor_with(view, &LastHeard::of_transcript(view.transcript()), out);
}

/// [`observation_tensor`] with what the player heard last given (`heard`, of the same
/// observations as `view`'s): for a view that does not keep its transcript.
pub fn observation_tensor_with(view: &PlayerView, heard: &LastHeard, out: &mut Vec<f32>) {
    out.clear();
    out.resize(TENSOR_SIZE, 0.0);
    let side = view.side();
    let mut set = |plane: usize, square: Square| out[plane * 64 + oriented(square, side)] = 1.0;
    let own = view.own_board();
    for (plane, role) in Role::ALL.into_iter().enumerate() {
        for square in own.board().by_role(role) & own.board().by_color(side) {
            set(plane, square);
        }
    }
    let mut constants = [0.0f32; PLANES];
    if let Some((attempt, verdict)) = heard.own {
        set(6, attempt.from);
        set(7, attempt.to);
        match verdict {
            Verdict::Accepted => constants[8] = 1.0,
            Verdict::Illegal => constants[9] = 1.0,
            _ => constants[10] = 1.0,
        }
    }
    let turn = view.turn();
    for a in &turn.rejected {
        set(11, a.from);
        set(12, a.to);
    }
    if let Some((square, man, en_passant)) = heard.capture {
        set(13, square);
        match man {
            Some(Man::Pawn) => constants[14] = 1.0,
            Some(Man::Piece) => constants[15] = 1.0,
            None => {}
        }
        if en_passant {
            constants[16] = 1.0;
        }
    }
    for i in 0..CheckKind::ALL.len() {
        if heard.checks & (1 << i) != 0 {
            constants[17 + i] = 1.0;
        }
    }
    if let Some(n) = turn.pawn_tries {
        constants[22] = f32::from(n) / 8.0;
    }
    if let Some(squares) = turn.try_squares {
        for square in squares {
            set(23, square);
        }
    }
    if turn.has_pawn_capture == Some(true) {
        constants[24] = 1.0;
    }
    match turn.any_answer {
        Some(true) => constants[25] = 1.0,
        Some(false) => constants[26] = 1.0,
        None => {}
    }
    if view.is_my_turn() {
        constants[27] = 1.0;
    }
    if side == Color::White {
        constants[28] = 1.0;
    }
    let enemy = view.enemy();
    constants[29] = f32::from(enemy.men) / 16.0;
    constants[30] = f32::from(enemy.pawns_at_most) / 8.0;
    if own.can_castle(CastlingSide::KingSide) {
        constants[31] = 1.0;
    }
    if own.can_castle(CastlingSide::QueenSide) {
        constants[32] = 1.0;
    }
    if turn.must_try_pawn_capture {
        constants[33] = 1.0;
    }
    if view.result().is_some() {
        constants[34] = 1.0;
    }
    for (plane, value) in constants.into_iter().enumerate() {
        if value != 0.0 {
            out[plane * 64..(plane + 1) * 64].fill(value);
        }
    }
}

/// The most frames [`stacked_observation_tensor`] stacks.
pub const MAX_STACK: usize = 16;

/// The last `k` observation tensors of the player (1 ≤ `k` ≤ [`MAX_STACK`]), newest first:
/// frame 0 is [`observation_tensor`] of `view`, frame `j` the tensor the player had before its
/// last `j` observations (all zeros before the start). `start` is the player's view at the
/// start of the game; every frame is a function of the player's transcript alone.
pub fn stacked_observation_tensor(
    start: &PlayerView,
    view: &PlayerView,
    k: usize,
    out: &mut Vec<f32>,
) {
    let k = k.clamp(1, MAX_STACK);
    out.clear();
    out.resize(k * TENSOR_SIZE, 0.0);
    let transcript = view.transcript();
    let n = transcript.len();
    let mut frame = Vec::with_capacity(TENSOR_SIZE);
    let mut put = |v: &PlayerView, j: usize, out: &mut Vec<f32>| {
        observation_tensor(v, &mut frame);
        out[j * TENSOR_SIZE..(j + 1) * TENSOR_SIZE].copy_from_slice(&frame);
    };
    let mut replay = start.clone();
    if n < k {
        put(&replay, n, out);
    }
    for (i, o) in transcript.iter().enumerate() {
        // The view's own transcript always fits a replay from its start.
        let _ = replay.observe(o);
        let j = n - (i + 1);
        if j < k {
            put(&replay, j, out);
        }
    }
}

/// Belief planes: 6 planes (enemy pawns, knights, bishops, rooks, queens, king), each square's
/// probability of holding that enemy man among the positions consistent with the player's
/// observations (`umpire-belief`: exact while few, a deterministic sample beyond), squares
/// seen from the player's side. From the standard start only (`None` for a set-up start).
/// Slow: the belief is worked out from the whole transcript at each call.
pub fn belief_planes(view: &PlayerView, out: &mut Vec<f32>) -> Option<()> {
    if !view.standard_start() {
        return None;
    }
    let mut belief = umpire_belief::Belief::standard(*view.rules(), view.side());
    for o in view.transcript() {
        belief.observe(o).ok()?;
    }
    let m = umpire_belief::Marginals::of(&belief);
    out.clear();
    out.resize(BELIEF_PLANES * 64, 0.0);
    for square in Square::ALL {
        let i = oriented(square, view.side());
        for t in 0..BELIEF_PLANES {
            out[t * 64 + i] = m.p[usize::from(square)][t] as f32;
        }
    }
    Some(())
}

/// The number of belief planes.
pub const BELIEF_PLANES: usize = 6;

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::record::Game;
    use umpire_rules::{Attempt, RuleSetId};

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn plane<'a>(t: &'a [f32], name: &str) -> &'a [f32] {
        let i = PLANE_NAMES.iter().position(|&n| n == name).unwrap();
        &t[i * 64..(i + 1) * 64]
    }

    #[test]
    fn stacked_frames_are_the_earlier_tensors() {
        let rules = *RuleSetId::Wild16.rules();
        let mut game = Game::new(rules);
        for (from, to) in [("e2", "e4"), ("d7", "d5"), ("e4", "d5")] {
            game.submit(Command::Attempt(Attempt::new(sq(from), sq(to))));
        }
        let record = game.record().player_view(Color::White).unwrap();
        let start = PlayerView::at_start_of(&record);
        let mut views = vec![start.clone()];
        for o in &record.observations {
            let mut v = views.last().unwrap().clone();
            v.observe(o).unwrap();
            views.push(v);
        }
        let now = views.last().unwrap();
        let mut stacked = Vec::new();
        stacked_observation_tensor(&start, now, 6, &mut stacked);
        assert_eq!(stacked.len(), 6 * TENSOR_SIZE);
        let n = views.len() - 1;
        let mut t = Vec::new();
        for j in 0..6 {
            let frame = &stacked[j * TENSOR_SIZE..(j + 1) * TENSOR_SIZE];
            if j <= n {
                observation_tensor(&views[n - j], &mut t);
                assert_eq!(frame, &t[..], "frame {j}");
            } else {
                assert!(frame.iter().all(|&x| x == 0.0), "frame {j}");
            }
        }
    }

    #[test]
    fn belief_planes_sum_to_the_enemy_men() {
        let rules = *RuleSetId::Wild16.rules();
        let mut game = Game::new(rules);
        for (from, to) in [("e2", "e4"), ("d7", "d5")] {
            game.submit(Command::Attempt(Attempt::new(sq(from), sq(to))));
        }
        let record = game.record().player_view(Color::White).unwrap();
        let mut view = PlayerView::at_start_of(&record);
        for o in &record.observations {
            view.observe(o).unwrap();
        }
        let mut b = Vec::new();
        belief_planes(&view, &mut b).unwrap();
        let total: f32 = b.iter().sum();
        assert!((total - 16.0).abs() < 1e-3, "{total}");
        // Black's king is on e8 in every consistent position: index 60 from White's side.
        assert!((b[5 * 64 + 60] - 1.0).abs() < 1e-6);
    }

    #[test]
    fn start_position_planes() {
        let view = PlayerView::standard(*RuleSetId::Wild16.rules(), Color::Black);
        let mut t = Vec::new();
        observation_tensor(&view, &mut t);
        assert_eq!(t.len(), TENSOR_SIZE);
        // Black's pawns stand on its second rank as Black sees the board: indices 8..16.
        let pawns = plane(&t, "own_pawns");
        assert!(pawns[8..16].iter().all(|&v| v == 1.0));
        assert_eq!(pawns.iter().sum::<f32>(), 8.0);
        assert_eq!(plane(&t, "own_king")[oriented(sq("e8"), Color::Black)], 1.0);
        assert_eq!(plane(&t, "own_king")[4], 1.0);
        assert!(plane(&t, "own_turn").iter().all(|&v| v == 0.0));
        assert!(plane(&t, "is_white").iter().all(|&v| v == 0.0));
        assert!(plane(&t, "enemy_men").iter().all(|&v| v == 1.0));
        assert!(plane(&t, "castle_king_side").iter().all(|&v| v == 1.0));
    }

    #[test]
    fn a_capture_and_a_rejection_show() {
        let rules = *RuleSetId::Wild16.rules();
        let mut game = Game::new(rules);
        let moves = [("e2", "e4"), ("d7", "d5"), ("e4", "d5")];
        for (from, to) in moves {
            let out = game.submit(Command::Attempt(Attempt::new(sq(from), sq(to))));
            assert!(out.is_accepted());
        }
        let view_of = |game: &Game, side| {
            let record = game.record().player_view(side).unwrap();
            let mut v = PlayerView::at_start_of(&record);
            for o in &record.observations {
                v.observe(o).unwrap();
            }
            v
        };
        let black = view_of(&game, Color::Black);
        let mut t = Vec::new();
        observation_tensor(&black, &mut t);
        assert_eq!(
            plane(&t, "capture_square")[oriented(sq("d5"), Color::Black)],
            1.0
        );
        assert_eq!(plane(&t, "capture_square").iter().sum::<f32>(), 1.0);
        assert!(plane(&t, "own_turn").iter().all(|&v| v == 1.0));
        assert!(plane(&t, "enemy_men").iter().all(|&v| v == 1.0));
        // Black's lost pawn is gone from its own board.
        assert_eq!(plane(&t, "own_pawns").iter().sum::<f32>(), 7.0);
        // d8d1 is possible on Black's own board (the d-file is empty of its men) but
        // illegal in truth (White's pawns on d5 and d2 block it).
        let out = game.submit(Command::Attempt(Attempt::new(sq("d8"), sq("d1"))));
        assert_eq!(out.verdict, Verdict::Illegal);
        let black = view_of(&game, Color::Black);
        observation_tensor(&black, &mut t);
        assert_eq!(plane(&t, "last_attempt_illegal")[0], 1.0);
        assert_eq!(
            plane(&t, "last_attempt_from")[oriented(sq("d8"), Color::Black)],
            1.0
        );
        assert_eq!(
            plane(&t, "rejected_this_turn_to")[oriented(sq("d1"), Color::Black)],
            1.0
        );
    }
}
