//! What the umpire answers to one command: [`Outcome`] (the referee's whole answer) and
//! [`Observation`] (the part one player hears).

use arrayvec::ArrayVec;
use shakmaty::Color;

use crate::{Announcement, Audience, Command, Heard};

/// The most announcements one command can produce (capture, promotion, two checks, pawn
/// information, draw lapse, game over, with room to spare).
pub const MAX_ANNOUNCEMENTS: usize = 8;

/// The announcements of one outcome; never allocates.
pub type Announcements = ArrayVec<Heard, MAX_ANNOUNCEMENTS>;

/// Why a command was refused without being judged as a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Invalid {
    /// The rule set has no "Any?" question.
    NoAnyQuestion,
    /// "Any?" was already asked this turn.
    AnyAlreadyAsked,
    /// After "yes" to "Any?", the mover must attempt a pawn capture.
    MustTryPawnCapture,
    /// The rule set has no draw offers.
    NoDrawOffers,
    /// A draw may be offered only before the first attempt of a turn.
    DrawOfferAfterAttempt,
    /// The player already offered a draw this turn.
    DrawAlreadyOffered,
    /// The opponent's draw offer is waiting for an answer.
    DrawOfferPending,
    /// There is no draw offer to answer.
    NoDrawOffer,
    /// A side may not accept or decline its own draw offer.
    OwnDrawOffer,
    /// The command was given by the side not to move (and is not a resignation or an answer
    /// to a draw offer made to that side).
    NotYourTurn,
    /// A game may be aborted only before both sides have moved.
    TooLateToAbort,
}

impl Invalid {
    /// A sentence saying what was wrong.
    pub const fn message(self) -> &'static str {
        match self {
            Invalid::NoAnyQuestion => "this rule set has no \"Any?\" question",
            Invalid::AnyAlreadyAsked => "\"Any?\" was already asked this turn",
            Invalid::MustTryPawnCapture => "you were told you have pawn captures: try one",
            Invalid::NoDrawOffers => "this rule set has no draw offers",
            Invalid::DrawOfferAfterAttempt => {
                "a draw may be offered only before your first attempt of the turn"
            }
            Invalid::DrawAlreadyOffered => "you already offered a draw this turn",
            Invalid::DrawOfferPending => "your opponent offered a draw: accept or decline it first",
            Invalid::NoDrawOffer => "there is no draw offer to answer",
            Invalid::OwnDrawOffer => "the draw offer is yours: only your opponent may answer it",
            Invalid::NotYourTurn => "it is not your turn",
            Invalid::TooLateToAbort => "both sides have moved: the game can no longer be aborted",
        }
    }

    /// The stable snake-case name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Invalid::NoAnyQuestion => "no_any_question",
            Invalid::AnyAlreadyAsked => "any_already_asked",
            Invalid::MustTryPawnCapture => "must_try_pawn_capture",
            Invalid::NoDrawOffers => "no_draw_offers",
            Invalid::DrawOfferAfterAttempt => "draw_offer_after_attempt",
            Invalid::DrawAlreadyOffered => "draw_already_offered",
            Invalid::DrawOfferPending => "draw_offer_pending",
            Invalid::NoDrawOffer => "no_draw_offer",
            Invalid::OwnDrawOffer => "own_draw_offer",
            Invalid::NotYourTurn => "not_your_turn",
            Invalid::TooLateToAbort => "too_late_to_abort",
        }
    }
}

/// The umpire's judgement of one command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The attempt was legal and has been played.
    Accepted,
    /// A question, offer, answer or resignation was taken into account.
    Answered,
    /// The attempt is illegal in the true position.
    Illegal,
    /// The attempt is impossible on the mover's own board.
    Impossible,
    /// The attempt was already rejected this turn.
    Repeat,
    /// The command was refused; nothing changed.
    Invalid(Invalid),
    /// The game is over; nothing changed.
    GameOver,
}

impl Verdict {
    /// `"accepted"`, `"answered"`, `"illegal"`, `"impossible"`, `"repeat"`, `"invalid"` or `"game_over"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Verdict::Accepted => "accepted",
            Verdict::Answered => "answered",
            Verdict::Illegal => "illegal",
            Verdict::Impossible => "impossible",
            Verdict::Repeat => "repeat",
            Verdict::Invalid(_) => "invalid",
            Verdict::GameOver => "game_over",
        }
    }

    /// Whether the attempt was rejected (illegal, impossible or repeat).
    pub const fn is_rejection(self) -> bool {
        matches!(
            self,
            Verdict::Illegal | Verdict::Impossible | Verdict::Repeat
        )
    }
}

/// The umpire's whole answer to one command: referee information, never to be shown to
/// a player as is (use [`Outcome::observation`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The player who gave the command.
    pub side: Color,
    /// The judgement.
    pub verdict: Verdict,
    /// What the umpire says, each with its audience.
    pub announcements: Announcements,
}

impl Outcome {
    /// An outcome without announcements.
    pub fn silent(side: Color, verdict: Verdict) -> Outcome {
        Outcome {
            side,
            verdict,
            announcements: Announcements::new(),
        }
    }

    /// Whether a move was played.
    pub fn is_accepted(&self) -> bool {
        self.verdict == Verdict::Accepted
    }

    /// The announcements `player` hears, in order.
    pub fn heard_by(&self, player: Color) -> impl Iterator<Item = Announcement> + '_ {
        self.announcements
            .iter()
            .filter(move |h| h.audience.includes(self.side, player))
            .map(|h| h.announcement)
    }

    /// What `player` learns from this outcome of `command`, or `None` if nothing at all
    /// (an attempt of the opponent's that only the opponent hears about).
    ///
    /// The player who gave the command learns its verdict; the other player learns only
    /// whether a move was played (the turn passes, which is public) and what it hears.
    pub fn observation(&self, command: Command, player: Color) -> Option<Observation> {
        let own = player == self.side;
        let announcements: ArrayVec<Announcement, MAX_ANNOUNCEMENTS> =
            self.heard_by(player).collect();
        if !own && announcements.is_empty() && !self.is_accepted() {
            return None;
        }
        Some(Observation {
            player,
            actor: self.side,
            own: own.then_some(OwnCommand {
                command,
                verdict: self.verdict,
            }),
            moved: self.is_accepted(),
            announcements,
        })
    }
}

/// A player's own command and its verdict, as the player knows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OwnCommand {
    /// What the player said.
    pub command: Command,
    /// The umpire's judgement.
    pub verdict: Verdict,
}

/// What one player learns from one command: the only way information reaches a player.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Observation {
    /// Who observes.
    pub player: Color,
    /// Who gave the command.
    pub actor: Color,
    /// The command and verdict, when the observer gave the command.
    pub own: Option<OwnCommand>,
    /// Whether a move was played (the turn passed).
    pub moved: bool,
    /// What the observer hears, in order.
    pub announcements: ArrayVec<Announcement, MAX_ANNOUNCEMENTS>,
}

/// Adds a heard announcement; the capacity is never exceeded by the umpire.
pub(crate) fn push(list: &mut Announcements, audience: Audience, announcement: Announcement) {
    let _ = list.try_push(Heard {
        audience,
        announcement,
    });
}
