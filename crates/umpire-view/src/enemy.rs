//! What a player knows of the enemy's material.

/// The enemy men a player knows to be on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EnemyMaterial {
    /// Enemy men on the board, king included: exact (every capture is announced).
    pub men: u8,
    /// Enemy pawns on the board, at most: exact where captures name pawn or piece and
    /// promotions are announced, an upper bound otherwise.
    pub pawns_at_most: u8,
}

impl From<umpire_rules::EnemyCount> for EnemyMaterial {
    /// What a player knows of the enemy's men from what it is told at the start.
    fn from(told: umpire_rules::EnemyCount) -> EnemyMaterial {
        EnemyMaterial {
            men: told.men,
            pawns_at_most: told.pawns,
        }
    }
}
