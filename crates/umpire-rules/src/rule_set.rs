//! Rule sets as data: one [`RuleSet`] policy type and one documented constant per named rule set.

use std::fmt;
use std::str::FromStr;

use crate::{Audience, EndReason};

/// The stable identifier of a named rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleSetId {
    /// ICC wild 16 with seed 000's automatic draws and draw offers (the default).
    Wild16,
    /// Berkeley rules.
    Berkeley,
    /// Berkeley rules with the "Any?" question.
    BerkeleyAny,
    /// Cincinnati rules.
    Cincinnati,
    /// English (Kriegspiel club) rules.
    English,
    /// The RAND Corporation memorandum rules.
    Rand,
    /// The 1965 UMPIRE program (System Development Corporation).
    Umpire1965,
}

impl RuleSetId {
    /// Every rule set, the default first.
    pub const ALL: [RuleSetId; 7] = [
        RuleSetId::Wild16,
        RuleSetId::Berkeley,
        RuleSetId::BerkeleyAny,
        RuleSetId::Cincinnati,
        RuleSetId::English,
        RuleSetId::Rand,
        RuleSetId::Umpire1965,
    ];

    /// The identifier as used on the command line and in records (`"wild16"`, `"berkeley-any"`, …).
    pub const fn as_str(self) -> &'static str {
        match self {
            RuleSetId::Wild16 => "wild16",
            RuleSetId::Berkeley => "berkeley",
            RuleSetId::BerkeleyAny => "berkeley-any",
            RuleSetId::Cincinnati => "cincinnati",
            RuleSetId::English => "english",
            RuleSetId::Rand => "rand",
            RuleSetId::Umpire1965 => "umpire1965",
        }
    }

    /// The rule set this identifier names.
    pub const fn rules(self) -> &'static RuleSet {
        match self {
            RuleSetId::Wild16 => &RuleSet::WILD16,
            RuleSetId::Berkeley => &RuleSet::BERKELEY,
            RuleSetId::BerkeleyAny => &RuleSet::BERKELEY_ANY,
            RuleSetId::Cincinnati => &RuleSet::CINCINNATI,
            RuleSetId::English => &RuleSet::ENGLISH,
            RuleSetId::Rand => &RuleSet::RAND,
            RuleSetId::Umpire1965 => &RuleSet::UMPIRE1965,
        }
    }
}

impl fmt::Display for RuleSetId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An unknown rule-set name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown rule set {0:?}; known rule sets: wild16, berkeley, berkeley-any, cincinnati, english, rand, umpire1965"
)]
pub struct UnknownRuleSet(pub String);

impl FromStr for RuleSetId {
    type Err = UnknownRuleSet;

    /// Accepts the identifiers of [`RuleSetId::as_str`], case-insensitively, with `_` for `-`.
    fn from_str(s: &str) -> Result<RuleSetId, UnknownRuleSet> {
        let norm = s.trim().to_ascii_lowercase().replace('_', "-");
        RuleSetId::ALL
            .into_iter()
            .find(|id| id.as_str() == norm)
            .ok_or_else(|| UnknownRuleSet(s.to_owned()))
    }
}

/// How a rejected attempt is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rebuff {
    /// Whether the rebuff is said as "impossible" ("Hell no", "Nonsense") or as a plain
    /// "illegal" ("No", "Illegal move"), indistinguishable from an attempt that the
    /// opponent's men prevent.
    pub said_as_impossible: bool,
    /// Who hears it.
    pub audience: Audience,
}

/// What the side to move learns about its pawn captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PawnCaptureInfo {
    /// Nothing.
    None,
    /// The number of distinct legal pawn captures, e.p. included, a promotion-capture counted once.
    Count,
    /// The squares of the pawns that have a legal capture.
    TrySquares,
    /// Yes (announced) or no (silence): whether some pawn capture is legal.
    YesNo,
    /// Nothing unless asked: the mover may ask "Any?" once a turn.
    AskAny(AnyObligation),
}

/// What a "yes" to "Any?" obliges the mover to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyObligation {
    /// Keep attempting pawn captures until one is accepted (Berkeley).
    UntilAccepted,
    /// Attempt at least one pawn capture; one rejected pawn capture releases the mover (English).
    OneTry,
}

/// What stalemate means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StalemateRule {
    /// A draw (the conventional rule).
    Draw,
    /// A loss for the stalemated side (RAND).
    Loss,
}

/// A rule set: every way in which Kriegspiel rule sets differ, as named flags.
///
/// Use the constants ([`RuleSet::WILD16`], …) or [`RuleSetId::rules`]. Every field documents
/// a difference between the classic rule sets; the table in `docs/RULESETS.md` is tested
/// against these constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleSet {
    /// The identifier.
    pub id: RuleSetId,
    /// A one-line human description.
    pub name: &'static str,
    /// Where the rules come from.
    pub source: &'static str,
    /// How an attempt that the opponent's men make illegal is answered.
    pub illegal: Rebuff,
    /// How an attempt that is impossible on the mover's own board is answered.
    pub impossible: Rebuff,
    /// Whether a repeat of an attempt already rejected this turn gets its own answer
    /// ("REPEAT NO"); otherwise it is answered as an impossible attempt.
    pub repeat_announced: bool,
    /// Whether a pawn capture that the pawn-capture announcement of this turn rules out (no
    /// tries, no "pawn captures", a pawn not among the try squares) is answered as impossible
    /// rather than judged on the true position: RAND rule 10, a player may attempt only moves
    /// "compatible ... with the referee's current announcement".
    pub pawn_info_binds: bool,
    /// Whether, in check, an attempt that cannot answer the announced check (a man other than
    /// the king not moving onto the line of the check, any such move in a double check,
    /// castling) is answered as impossible: RAND rule 7.
    pub check_binds: bool,
    /// Whether captures say pawn or piece; otherwise only the square.
    pub capture_names_man: bool,
    /// Whether an en-passant capture is announced as such.
    pub en_passant_announced: bool,
    /// What the side to move learns about its pawn captures.
    pub pawn_captures: PawnCaptureInfo,
    /// Whether a promotion is announced ("White promotes").
    pub promotion_announced: bool,
    /// Whether every promotion is to a queen (the mover cannot choose).
    pub promotion_always_queen: bool,
    /// What stalemate means.
    pub stalemate: StalemateRule,
    /// Automatic draw on the third occurrence of a position.
    pub threefold_repetition: bool,
    /// Automatic draw after fifty moves by each side without a pawn move or a capture.
    pub fifty_moves: bool,
    /// Automatic draw when neither side can checkmate.
    pub insufficient_material: bool,
    /// Whether players may offer draws (one per player per turn, before any attempt).
    pub draw_offers: bool,
}

impl RuleSet {
    /// ICC wild 16 as described in seed 000: "Illegal move" heard by the mover only; captures
    /// name pawn or piece and mark en passant; "N tries" counts legal pawn captures; promotions
    /// are silent; automatic draws by repetition, fifty moves, insufficient material and
    /// stalemate; draw offers.
    pub const WILD16: RuleSet = RuleSet {
        id: RuleSetId::Wild16,
        name: "ICC wild 16 (seed 000)",
        source: "Internet Chess Club wild 16 as described by seed 000 (Ludii Kriegspiel)",
        illegal: Rebuff {
            said_as_impossible: false,
            audience: Audience::Mover,
        },
        impossible: Rebuff {
            said_as_impossible: false,
            audience: Audience::Mover,
        },
        repeat_announced: false,
        pawn_info_binds: true,
        check_binds: false,
        capture_names_man: true,
        en_passant_announced: true,
        pawn_captures: PawnCaptureInfo::Count,
        promotion_announced: false,
        promotion_always_queen: false,
        stalemate: StalemateRule::Draw,
        threefold_repetition: true,
        fifty_moves: true,
        insufficient_material: true,
        draw_offers: true,
    };

    /// Berkeley: "No" heard by both; "Nonsense" for impossible attempts, not recorded
    /// (heard by the mover only); captures give the square only; no pawn-capture information;
    /// no repetition or fifty-move rule.
    pub const BERKELEY: RuleSet = RuleSet {
        id: RuleSetId::Berkeley,
        name: "Berkeley",
        source: "Berkeley rules as summarised in ARCHITECTURE.md; PyPI kriegspiel `berkeley`",
        illegal: Rebuff {
            said_as_impossible: false,
            audience: Audience::Both,
        },
        impossible: Rebuff {
            said_as_impossible: true,
            audience: Audience::Mover,
        },
        repeat_announced: false,
        pawn_info_binds: false,
        check_binds: false,
        capture_names_man: false,
        en_passant_announced: false,
        pawn_captures: PawnCaptureInfo::None,
        promotion_announced: false,
        promotion_always_queen: false,
        stalemate: StalemateRule::Draw,
        threefold_repetition: false,
        fifty_moves: false,
        insufficient_material: true,
        draw_offers: true,
    };

    /// Berkeley with "Any?": after "yes" the mover must keep attempting pawn captures until one
    /// is accepted.
    pub const BERKELEY_ANY: RuleSet = RuleSet {
        id: RuleSetId::BerkeleyAny,
        name: "Berkeley + Any",
        source: "Berkeley rules with the Any? question; PyPI kriegspiel `berkeley_any`",
        pawn_captures: PawnCaptureInfo::AskAny(AnyObligation::UntilAccepted),
        ..RuleSet::BERKELEY
    };

    /// Cincinnati: "No" and "Nonsense" heard by both; captures name pawn or piece; a yes/no
    /// "pawn captures" announcement.
    pub const CINCINNATI: RuleSet = RuleSet {
        id: RuleSetId::Cincinnati,
        name: "Cincinnati",
        source: "Cincinnati rules as summarised in ARCHITECTURE.md; PyPI kriegspiel `cincinnati`",
        illegal: Rebuff {
            said_as_impossible: false,
            audience: Audience::Both,
        },
        impossible: Rebuff {
            said_as_impossible: true,
            audience: Audience::Both,
        },
        repeat_announced: false,
        pawn_info_binds: true,
        check_binds: false,
        capture_names_man: true,
        en_passant_announced: false,
        pawn_captures: PawnCaptureInfo::YesNo,
        promotion_announced: false,
        promotion_always_queen: false,
        stalemate: StalemateRule::Draw,
        threefold_repetition: true,
        fifty_moves: true,
        insufficient_material: true,
        draw_offers: true,
    };

    /// English: every rejected attempt is "Illegal", heard by both; captures give the square
    /// and mark en passant; "Any?" obliges one pawn-capture attempt.
    pub const ENGLISH: RuleSet = RuleSet {
        id: RuleSetId::English,
        name: "English",
        source: "English Kriegspiel rules as summarised in ARCHITECTURE.md; PyPI kriegspiel `english`",
        illegal: Rebuff {
            said_as_impossible: false,
            audience: Audience::Both,
        },
        impossible: Rebuff {
            said_as_impossible: false,
            audience: Audience::Both,
        },
        repeat_announced: false,
        pawn_info_binds: false,
        check_binds: false,
        capture_names_man: false,
        en_passant_announced: true,
        pawn_captures: PawnCaptureInfo::AskAny(AnyObligation::OneTry),
        promotion_announced: false,
        promotion_always_queen: false,
        stalemate: StalemateRule::Draw,
        threefold_repetition: true,
        fifty_moves: true,
        insufficient_material: true,
        draw_offers: true,
    };

    /// RAND memorandum (quoted in seed 002): "No" and "Hell no" heard by both; "Hell no" also
    /// for attempts incompatible with the current announcements (rules 7 and 10); captures name
    /// pawn or piece; the squares of pawns with tries; promotions announced; the stalemated
    /// side loses.
    pub const RAND: RuleSet = RuleSet {
        id: RuleSetId::Rand,
        name: "RAND",
        source: "RAND Corporation memorandum on Kriegsspiel, rules 5-15, quoted in seed 002; PyPI kriegspiel `rand`",
        illegal: Rebuff {
            said_as_impossible: false,
            audience: Audience::Both,
        },
        impossible: Rebuff {
            said_as_impossible: true,
            audience: Audience::Both,
        },
        repeat_announced: false,
        pawn_info_binds: true,
        check_binds: true,
        capture_names_man: true,
        en_passant_announced: false,
        pawn_captures: PawnCaptureInfo::TrySquares,
        promotion_announced: true,
        promotion_always_queen: false,
        stalemate: StalemateRule::Loss,
        threefold_repetition: true,
        fifty_moves: true,
        insufficient_material: true,
        draw_offers: true,
    };

    /// The 1965 UMPIRE program (seed 002): "NO", "HELL NO" and "REPEAT NO" printed on both
    /// teletypes; "PAWN TRY xx"; "PAWN GONE xx" / "PIECE GONE xx"; "WHITE PROMOTES"; every
    /// promotion is to a queen. Its POSSIBLE function judged attempts on the own board only, so
    /// announcements never make an attempt "HELL NO". The program itself did not detect mate or stalemate (a
    /// shortcut, not a rule); we detect them and apply the conventional chess rules.
    pub const UMPIRE1965: RuleSet = RuleSet {
        id: RuleSetId::Umpire1965,
        name: "UMPIRE (1965)",
        source: "Seed 002: UMPIRE, a Kriegsspiel referee in LISP 1.5 for the SDC Q-32 (1965)",
        illegal: Rebuff {
            said_as_impossible: false,
            audience: Audience::Both,
        },
        impossible: Rebuff {
            said_as_impossible: true,
            audience: Audience::Both,
        },
        repeat_announced: true,
        pawn_info_binds: false,
        check_binds: false,
        capture_names_man: true,
        en_passant_announced: false,
        pawn_captures: PawnCaptureInfo::TrySquares,
        promotion_announced: true,
        promotion_always_queen: true,
        stalemate: StalemateRule::Draw,
        threefold_repetition: true,
        fifty_moves: true,
        insufficient_material: true,
        draw_offers: true,
    };

    /// The default rule set ([`RuleSet::WILD16`]).
    pub const DEFAULT: RuleSet = RuleSet::WILD16;

    /// Whether the mover may ask "Any?".
    pub const fn has_any_question(&self) -> bool {
        matches!(self.pawn_captures, PawnCaptureInfo::AskAny(_))
    }

    /// Whether this automatic draw rule is in force.
    pub const fn automatic(&self, reason: EndReason) -> bool {
        match reason {
            EndReason::ThreefoldRepetition => self.threefold_repetition,
            EndReason::FiftyMoves => self.fifty_moves,
            EndReason::InsufficientMaterial => self.insufficient_material,
            EndReason::Checkmate | EndReason::Stalemate => true,
            EndReason::DrawAgreed => self.draw_offers,
            EndReason::Resignation => true,
            // Declared off the board by whoever keeps the clocks, under every rule set.
            EndReason::TimeForfeit | EndReason::Abandonment | EndReason::Aborted => true,
        }
    }
}

impl Default for RuleSet {
    fn default() -> RuleSet {
        RuleSet::DEFAULT
    }
}
