//! The value the mating method ([`super::net`]) reports for its chosen attempt: how far the net
//! has closed, in [-1, 1], from the measures the scoring takes anyway.
//!
//! A net that leaves the enemy king a large part of the board is a likely win but no more
//! (the fifty-move rule, a blunder, a pawn that may promote); as the squares the king may
//! reach shrink (from any square where it may stand, through squares we do not attack: the box
//! and what we do not know of the king together) the value rises toward 1, and a mate in every
//! world is 1. A stalemate throws the
//! win away (a draw, 0), and a man the king may take costs the value it would lose (a rook
//! taken leaves a lone king, or a lone rook that may not mate in time). An enemy man that may
//! be a piece rather than a pawn (the metaposition loses track of promotions) keeps the value
//! lower.

/// The value of a net that holds the king nowhere (the whole board is its box).
const OPEN: f32 = 0.5;
/// What a box of one square adds to [`OPEN`] (short of a mate).
const CLOSED: f32 = 0.45;
/// The value lost per pawn of value of a man the king may take (per share of the worlds).
const HANG: f32 = 0.08;
/// The factor on the value while an enemy man may be a piece.
const MAYBE_PIECE: f32 = 0.8;

/// The measures of one attempt, averaged over the worlds where it is legal.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Closing {
    /// Share of the worlds it mates.
    pub(crate) mate: f32,
    /// Share of the worlds it stalemates.
    pub(crate) stalemate: f32,
    /// Value (pawns) of our men the king may take next, weighted by the share of the worlds.
    pub(crate) hang: f32,
    /// The number of squares the king can reach, from any of its possible squares, through
    /// squares we do not attack.
    pub(crate) reach: f32,
    /// The squares the king could reach on an empty board of ours: those our men and the sure
    /// enemy pawns do not stand on.
    pub(crate) room: f32,
    /// Whether an enemy man may be a piece (a pawn may have promoted unseen).
    pub(crate) maybe_piece: bool,
}

/// The value of the attempt measured by `c`, in [-1, 1].
pub(crate) fn value(c: &Closing) -> f32 {
    let room = c.room.max(2.0);
    let closed = (1.0 - (c.reach - 1.0).max(0.0) / (room - 1.0)).clamp(0.0, 1.0);
    let mut v = OPEN + CLOSED * closed;
    if c.maybe_piece {
        v *= MAYBE_PIECE;
    }
    // Losing men to a king with pawns at most does not lose the game.
    v = (v - HANG * c.hang).max(0.0);
    let mate = c.mate.clamp(0.0, 1.0);
    let stalemate = c.stalemate.clamp(0.0, 1.0 - mate);
    // The mating worlds are won, the stalemating ones drawn, the rest as measured.
    (mate + (1.0 - mate - stalemate) * v).clamp(-1.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn closing(reach: f32) -> Closing {
        Closing {
            mate: 0.0,
            stalemate: 0.0,
            hang: 0.0,
            reach,
            room: 60.0,
            maybe_piece: false,
        }
    }

    #[test]
    fn the_value_rises_as_the_kings_reach_shrinks_and_is_one_at_mate() {
        let wide = value(&closing(60.0));
        let half = value(&closing(30.0));
        let narrow = value(&closing(3.0));
        assert!(wide < half && half < narrow, "{wide} {half} {narrow}");
        assert!(narrow < 1.0);
        let mate = Closing {
            mate: 1.0,
            ..closing(1.0)
        };
        assert_eq!(value(&mate), 1.0);
    }

    #[test]
    fn a_stalemate_a_hanging_man_or_a_possible_piece_lower_the_value() {
        let base = value(&closing(10.0));
        let stalemate = Closing {
            stalemate: 0.5,
            ..closing(10.0)
        };
        let hang = Closing {
            hang: 5.0,
            ..closing(10.0)
        };
        let piece = Closing {
            maybe_piece: true,
            ..closing(10.0)
        };
        for worse in [stalemate, hang, piece] {
            let v = value(&worse);
            assert!(v < base && (-1.0..=1.0).contains(&v), "{v} vs {base}");
        }
    }
}
