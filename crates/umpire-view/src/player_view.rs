//! [`PlayerView`]: one player's knowledge, built from its observations only.

use umpire_rules::shakmaty::{Bitboard, Board, Color, Rank, Role};
use umpire_rules::{
    Announcement, AnyObligation, AttemptList, Command, GameResult, Man, Observation, OwnBoard,
    PawnCaptureInfo, RuleSet, Verdict,
};

use crate::{EnemyMaterial, TurnKnowledge};

/// An observation that does not fit the view it is given to.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    /// The observation is meant for the other player.
    #[error("this observation is {observer:?}'s, not {view:?}'s")]
    WrongPlayer {
        /// Whose view this is.
        view: Color,
        /// Whom the observation is for.
        observer: Color,
    },
    /// The observation says the player gave a command but does not say which.
    #[error("an observation of the player's own command lacks the command")]
    MissingOwnCommand,
    /// A capture was announced on a square where the player has no man.
    #[error("the opponent captured on {0}, where this player has no man")]
    NothingCapturedThere(umpire_rules::shakmaty::Square),
}

/// What one player knows: its own men and castling rights, whose turn it is, what it heard
/// and tried this turn, the enemy material it can count, the result, and the whole
/// transcript of its observations (from which the rest is derived).
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct PlayerView {
    rules: RuleSet,
    own: OwnBoard,
    to_move: Color,
    plies: u32,
    enemy: EnemyMaterial,
    turn: TurnKnowledge,
    result: Option<GameResult>,
    opening: Vec<Announcement>,
    transcript: Vec<Observation>,
    standard_start: bool,
    /// The early-game bound on the enemy men's squares (B4), as of the start of the player's
    /// latest turn: worked out when first asked for (only the guided filters read it).
    enemy_reach: ReachAtTurnStart,
}

/// The B4 bound of a view as of the start of its player's latest turn, worked out lazily: a
/// function of the transcript's first `upto` observations and of `plies` (so two views with
/// equal fields have equal bounds, and the cache takes no part in comparisons).
#[derive(Clone, Debug, Default)]
struct ReachAtTurnStart {
    upto: usize,
    plies: u32,
    value: std::sync::OnceLock<Option<Bitboard>>,
}

impl ReachAtTurnStart {
    fn at(upto: usize, plies: u32) -> ReachAtTurnStart {
        ReachAtTurnStart {
            upto,
            plies,
            value: std::sync::OnceLock::new(),
        }
    }
}

impl PartialEq for ReachAtTurnStart {
    fn eq(&self, other: &ReachAtTurnStart) -> bool {
        (self.upto, self.plies) == (other.upto, other.plies)
    }
}

impl Eq for ReachAtTurnStart {}

impl std::hash::Hash for ReachAtTurnStart {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.upto, self.plies).hash(state);
    }
}

impl Clone for PlayerView {
    fn clone(&self) -> PlayerView {
        PlayerView {
            rules: self.rules,
            own: self.own.clone(),
            to_move: self.to_move,
            plies: self.plies,
            enemy: self.enemy,
            turn: self.turn.clone(),
            result: self.result,
            opening: self.opening.clone(),
            transcript: self.transcript.clone(),
            standard_start: self.standard_start,
            enemy_reach: self.enemy_reach.clone(),
        }
    }

    /// Copies `source` into `self` keeping `self`'s buffers: the transcript and the opening
    /// announcements are copied into the room they already have (a view reset to the start of
    /// a game many times, as a vectorised environment does, stops allocating).
    fn clone_from(&mut self, source: &PlayerView) {
        // Every field is named: a new field fails to compile here until it is copied.
        let PlayerView {
            rules,
            own,
            to_move,
            plies,
            enemy,
            turn,
            result,
            opening,
            transcript,
            standard_start,
            enemy_reach,
        } = source;
        self.rules = *rules;
        self.own.clone_from(own);
        self.to_move = *to_move;
        self.plies = *plies;
        self.enemy = *enemy;
        self.turn.copy_from(turn);
        self.result = *result;
        self.opening.clone_from(opening);
        self.transcript.clone_from(transcript);
        self.standard_start = *standard_start;
        self.enemy_reach.clone_from(enemy_reach);
    }
}

impl PlayerView {
    /// The view of `side` at the standard start position (whose men are public).
    pub fn standard(rules: RuleSet, side: Color) -> PlayerView {
        let own = OwnBoard::new(side, &Board::new(), [true, true]);
        let enemy = EnemyMaterial {
            men: 16,
            pawns_at_most: 8,
        };
        let mut view = PlayerView::new(rules, own, Color::White, enemy);
        view.standard_start = true;
        view.enemy_reach = ReachAtTurnStart::at(view.transcript.len(), view.plies);
        view
    }

    /// The view of the player owning `own`, with `to_move` to move first and the enemy
    /// material it is told: for a set-up position, `umpire_rules::EnemyCount::told(..).into()`,
    /// the numbers its filtered record states (`KriegspielEnemyStart`, docs/RECORDS.md).
    pub fn new(rules: RuleSet, own: OwnBoard, to_move: Color, enemy: EnemyMaterial) -> PlayerView {
        let mut view = PlayerView {
            rules,
            own,
            to_move,
            plies: 0,
            enemy,
            turn: TurnKnowledge::default(),
            result: None,
            opening: Vec::new(),
            transcript: Vec::new(),
            standard_start: false,
            enemy_reach: ReachAtTurnStart::default(),
        };
        view.start_turn();
        view
    }

    /// Takes in the announcements made before the first command (see
    /// `Umpire::opening_announcements`), which both players hear.
    pub fn hear_opening(&mut self, announcements: impl IntoIterator<Item = Announcement>) {
        for a in announcements {
            self.opening.push(a);
            self.hear_turn_start(a);
        }
    }

    /// Takes in one observation of this player's.
    pub fn observe(&mut self, obs: &Observation) -> Result<(), ViewError> {
        self.take_in(obs)?;
        self.transcript.push(obs.clone());
        if obs.moved && obs.actor != self.side() && self.standard_start {
            // The player's turn begins: the enemy has made one more move.
            self.enemy_reach = ReachAtTurnStart::at(self.transcript.len(), self.plies);
        }
        Ok(())
    }

    /// Takes in one observation of this player's as [`PlayerView::observe`] does, without
    /// keeping it: the own board, the turn's knowledge, the enemy material and the result
    /// change exactly as there, but the transcript is not extended (it stays as it was, so
    /// nothing grows with the game) and neither is the early-game bound on the enemy men that
    /// only the guided filters read. For a caller that keeps the history elsewhere and asks
    /// of this view only what does not read the transcript (its own board, its turn, its
    /// options); the guided filters and beliefs need a view fed by `observe`.
    pub fn observe_unkept(&mut self, obs: &Observation) -> Result<(), ViewError> {
        self.take_in(obs)
    }

    /// Everything [`PlayerView::observe`] does but keeping the observation.
    fn take_in(&mut self, obs: &Observation) -> Result<(), ViewError> {
        let me = self.side();
        if obs.player != me {
            return Err(ViewError::WrongPlayer {
                view: me,
                observer: obs.player,
            });
        }
        let own = if obs.actor == me {
            Some(obs.own.ok_or(ViewError::MissingOwnCommand)?)
        } else {
            None
        };
        if obs.moved {
            if let Some(own) = own {
                if let Command::Attempt(a) = own.command {
                    self.play_own(a, &obs.announcements);
                }
            } else {
                self.plies += 1;
                self.to_move = me;
                self.start_turn();
                for &a in &obs.announcements {
                    if let Announcement::Capture { square, .. } = a {
                        self.own
                            .lose_man(square)
                            .ok_or(ViewError::NothingCapturedThere(square))?;
                        self.turn.capture_at = Some(square);
                    }
                    self.hear_turn_start(a);
                }
            }
        } else {
            match own {
                Some(own) => self.own_rejection(own.command, own.verdict, &obs.announcements),
                None => {
                    if obs.announcements.iter().any(|a| {
                        matches!(
                            a,
                            Announcement::Illegal | Announcement::Impossible | Announcement::Repeat
                        )
                    }) {
                        self.turn.opponent_rejections += 1;
                    }
                }
            }
        }
        for a in &obs.announcements {
            match *a {
                Announcement::GameOver(result) => self.result = Some(result),
                Announcement::Promotion(side) if side != me => {
                    self.enemy.pawns_at_most = self.enemy.pawns_at_most.saturating_sub(1);
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Resets what the player knows of the turn, with the defaults silence means.
    fn start_turn(&mut self) {
        self.turn.reset();
        if self.to_move != self.side() {
            return;
        }
        match self.rules.pawn_captures {
            PawnCaptureInfo::Count => self.turn.pawn_tries = Some(0),
            PawnCaptureInfo::TrySquares => self.turn.try_squares = Some(Default::default()),
            PawnCaptureInfo::YesNo => self.turn.has_pawn_capture = Some(false),
            PawnCaptureInfo::None | PawnCaptureInfo::AskAny(_) => {}
        }
    }

    /// An announcement heard as the player's turn begins.
    fn hear_turn_start(&mut self, a: Announcement) {
        match a {
            Announcement::Check(kind) => {
                let _ = self.turn.checks.try_push(kind);
            }
            Announcement::PawnTries(n) => self.turn.pawn_tries = Some(n),
            Announcement::PawnTrySquares(squares) => self.turn.try_squares = Some(squares),
            Announcement::PawnCaptures => self.turn.has_pawn_capture = Some(true),
            Announcement::GameOver(result) => self.result = Some(result),
            _ => {}
        }
    }

    fn play_own(&mut self, attempt: umpire_rules::Attempt, heard: &[Announcement]) {
        let pawn = self.own.board().pawns().contains(attempt.from);
        let last = self.side().fold_wb(Rank::Eighth, Rank::First);
        let attempt = if pawn && attempt.to.rank() == last && attempt.promotion.is_none() {
            umpire_rules::Attempt {
                promotion: Some(Role::Queen),
                ..attempt
            }
        } else {
            attempt
        };
        let diagonal = pawn && attempt.from.file() != attempt.to.file();
        for a in heard {
            if let Announcement::Capture { square, man, .. } = *a {
                self.enemy.men = self.enemy.men.saturating_sub(1);
                let pawn_taken = man == Some(Man::Pawn) || (diagonal && square != attempt.to);
                if pawn_taken {
                    self.enemy.pawns_at_most = self.enemy.pawns_at_most.saturating_sub(1);
                }
            }
        }
        // The king cannot be captured: at most men - 1 pawns.
        self.enemy.pawns_at_most = self
            .enemy
            .pawns_at_most
            .min(self.enemy.men.saturating_sub(1));
        self.own.play(attempt);
        self.plies += 1;
        self.to_move = !self.side();
        self.start_turn();
    }

    fn own_rejection(&mut self, command: Command, verdict: Verdict, heard: &[Announcement]) {
        match (command, verdict) {
            // Never offered again this turn, whatever the view thought of it.
            (Command::Attempt(a), Verdict::Impossible | Verdict::Repeat)
                if !self.turn.rejected.contains(&a) =>
            {
                let _ = self.turn.rejected.try_push(a);
            }
            (Command::Attempt(a), Verdict::Illegal) => {
                let _ = self.turn.rejected.try_push(a);
                let released =
                    self.rules.pawn_captures == PawnCaptureInfo::AskAny(AnyObligation::OneTry);
                if released && self.turn.must_try_pawn_capture && self.own.is_pawn_capture(a) {
                    self.turn.must_try_pawn_capture = false;
                }
            }
            (Command::AskAny, Verdict::Answered) => {
                for a in heard {
                    if let Announcement::AnyAnswer(yes) = *a {
                        self.turn.any_answer = Some(yes);
                        self.turn.must_try_pawn_capture = yes;
                    }
                }
            }
            _ => {}
        }
    }

    /// Whose view this is.
    pub fn side(&self) -> Color {
        self.own.side()
    }

    /// The rule set in force.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The player's men and castling rights.
    pub fn own_board(&self) -> &OwnBoard {
        &self.own
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Whether it is this player's turn (and the game goes on).
    pub fn is_my_turn(&self) -> bool {
        self.result.is_none() && self.to_move == self.side()
    }

    /// Moves played so far (plies).
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// What the player knows of the enemy material.
    pub fn enemy(&self) -> EnemyMaterial {
        self.enemy
    }

    /// What the player heard and tried this turn.
    pub fn turn(&self) -> &TurnKnowledge {
        &self.turn
    }

    /// The result, once the player has heard it.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// The announcements heard before the first command.
    pub fn opening(&self) -> &[Announcement] {
        &self.opening
    }

    /// The view of the player of a filtered record (`umpire_rules::record::PlayerView`) at the
    /// start of its game, with the opening announcements heard: feed it the record's
    /// observations to follow the game. A record of the standard start gives the standard view
    /// (which knows where every enemy man started); any other gives a set-up view.
    pub fn at_start_of(record: &umpire_rules::record::PlayerView) -> PlayerView {
        let rules = *record.rules.rules();
        let mut view = PlayerView::standard(rules, record.player);
        let standard = record.own_start == *view.own_board()
            && record.first_turn == Color::White
            && record.enemy_start.men == 16
            && record.fullmove == 1;
        if !standard {
            view = PlayerView::new(
                rules,
                record.own_start.clone(),
                record.first_turn,
                record.enemy_start.into(),
            );
        }
        view.hear_opening(record.opening.iter().copied());
        view
    }

    /// Whether the game began from the standard start position, so that the player knows
    /// where every enemy man started (made with [`PlayerView::standard`]).
    pub fn standard_start(&self) -> bool {
        self.standard_start
    }

    /// Where the enemy's men can be, bounded by the moves the enemy has made from the standard
    /// start (B4); `None` when no bound is known. Worked out as the player's turn begins.
    pub(crate) fn enemy_reach(&self) -> Option<Bitboard> {
        let r = &self.enemy_reach;
        *r.value
            .get_or_init(|| crate::guided::enemy_reach(self, r.upto, r.plies))
    }

    /// Every observation taken in, in order.
    pub fn transcript(&self) -> &[Observation] {
        &self.transcript
    }

    /// What the player may still say on its turn: every attempt possible on its own board and
    /// not yet rejected this turn (illegal, impossible or repeated), only pawn captures while
    /// an "Any?" obliges it, none that the announcements rule out ([`crate::ruled_out`]: the
    /// umpire would judge it impossible). Appends to `out`; returns whether "Any?" may be
    /// asked as well. The umpire's `Umpire::mover_options` less what is ruled out, from the
    /// player's knowledge alone.
    pub fn options(&self, out: &mut AttemptList) -> bool {
        if !self.is_my_turn() {
            return false;
        }
        let start = out.len();
        self.own.attempts(self.rules.promotion_always_queen, out);
        let mut i = start;
        while i < out.len() {
            let a = out[i];
            let pawn_capture = self.own.is_pawn_capture(a);
            let keep = !self.turn.rejected.contains(&a)
                && (!self.turn.must_try_pawn_capture || pawn_capture)
                && !crate::ruled_out(&self.rules, &self.own, &self.turn, a);
            if keep {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
        self.rules.has_any_question() && self.turn.any_answer.is_none()
    }
}
