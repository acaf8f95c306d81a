//! [`EnemyCount`]: what a player is told of the enemy's men when a game starts.

use shakmaty::{Chess, Color, Position};

/// The enemy men a player is told of at the start: for a set-up position, the organiser tells
/// each player how many men (king included) and how many pawns the enemy has, and nothing of
/// where they stand. The standard start tells the same numbers (16 and 8), and where the men
/// stand besides. No later announcement gives the pawn count again; a player follows it from
/// captures and promotions where the rule set names them.
///
/// The agents' views (`umpire-view`), the players' filtered records
/// ([`crate::record::PlayerView`]) and `docs/RECORDS.md` all use this one definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EnemyCount {
    /// Enemy men, king included.
    pub men: u8,
    /// Enemy pawns.
    pub pawns: u8,
}

impl EnemyCount {
    /// What `side` is told of the enemy's men at the start of a game from `position`.
    pub fn told(position: &Chess, side: Color) -> EnemyCount {
        let board = position.board();
        let enemy = board.by_color(!side);
        EnemyCount {
            men: enemy.count() as u8,
            pawns: (enemy & board.pawns()).count() as u8,
        }
    }
}
