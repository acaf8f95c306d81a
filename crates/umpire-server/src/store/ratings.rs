//! Ratings in storage: the update when a rated game ends (inside the transaction that stores
//! the result), leaderboards, a player's ratings and rating history.

use sqlx::{AnyConnection, Row};

use super::Store;
use crate::ratings::farming;
use crate::ratings::glicko::{self, Rating, Score};
use crate::ratings::time_class::TimeClass;

/// A player's current rating in one rule set and time class.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// Rule-set identifier.
    pub rules: String,
    /// Time class name.
    pub class: String,
    /// The rating.
    pub rating: Rating,
    /// Rated games played.
    pub games: i64,
    /// Of which won.
    pub wins: i64,
    /// Of which lost.
    pub losses: i64,
    /// Of which drawn.
    pub draws: i64,
    /// When it last changed.
    pub updated_ms: i64,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaderRow {
    /// The player's name.
    pub name: String,
    /// `account` or `bot`.
    pub kind: String,
    /// The rating and its counts.
    pub rating: RatingRow,
}

/// One rated game in a player's history.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryRow {
    /// The game.
    pub game_id: String,
    /// Rule-set identifier.
    pub rules: String,
    /// Time class name.
    pub class: String,
    /// The opponent's name.
    pub opponent: String,
    /// The player's points: 1, ½ or 0.
    pub score: f64,
    /// The rating before the game.
    pub before: Rating,
    /// The rating after it.
    pub after: Rating,
    /// Rated games in this rule set and class, this one included.
    pub games: i64,
    /// When the game ended.
    pub at_ms: i64,
}

/// A seated user as shown in a game summary: name, kind and rating in the game's rule set and
/// class (`None` if the user has not played a rated game there yet).
#[derive(Clone, Debug, PartialEq)]
pub struct SeatRow {
    /// Name.
    pub name: String,
    /// `account`, `guest` or `bot`.
    pub kind: String,
    /// The stored rating, if any: as of the last rated game (see [`SeatRating::now`]).
    pub rating: Option<SeatRating>,
}

/// A seated user's stored rating in one rule set and class.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatRating {
    /// The rating as of the last rated game.
    pub rating: Rating,
    /// Rated games played.
    pub games: i64,
    /// When the last rated game ended.
    pub updated_ms: i64,
}

impl SeatRating {
    /// The rating at `now_ms`: the deviation grown over the idle rating periods since.
    pub fn now(&self, now_ms: i64) -> Rating {
        self.rating.at(self.updated_ms, now_ms)
    }
}

const RATING_COLUMNS: &str = "r.rules, r.class, r.rating, r.deviation, r.volatility, r.games, r.wins, r.losses, r.draws, r.updated_ms";

/// Reads [`RATING_COLUMNS`] starting at column `at`.
fn rating_of(row: &sqlx::any::AnyRow, at: usize) -> Result<RatingRow, sqlx::Error> {
    Ok(RatingRow {
        rules: row.try_get(at)?,
        class: row.try_get(at + 1)?,
        rating: Rating {
            rating: row.try_get(at + 2)?,
            deviation: row.try_get(at + 3)?,
            volatility: row.try_get(at + 4)?,
        },
        games: row.try_get(at + 5)?,
        wins: row.try_get(at + 6)?,
        losses: row.try_get(at + 7)?,
        draws: row.try_get(at + 8)?,
        updated_ms: row.try_get(at + 9)?,
    })
}

/// A player's rating at `at_ms` (grown over the idle periods since its last rated game) and
/// game count in one rule set and class, if any.
async fn current(
    conn: &mut AnyConnection,
    user: &str,
    rules: &str,
    class: &str,
    at_ms: i64,
) -> Result<Option<(Rating, i64)>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT rating, deviation, volatility, games, updated_ms FROM ratings WHERE user_id = $1 AND rules = $2 AND class = $3",
    )
    .bind(user)
    .bind(rules)
    .bind(class)
    .fetch_optional(&mut *conn)
    .await?;
    row.map(|r| {
        let stored = Rating {
            rating: r.try_get(0)?,
            deviation: r.try_get(1)?,
            volatility: r.try_get(2)?,
        };
        Ok((stored.at(r.try_get(4)?, at_ms), r.try_get(3)?))
    })
    .transpose()
}

/// What one player's side of a rated game changes.
struct Change<'a> {
    user: &'a str,
    opponent: &'a str,
    before: Rating,
    after: Rating,
    games_before: Option<i64>,
    points: f64,
}

async fn write(
    conn: &mut AnyConnection,
    game: &str,
    rules: &str,
    class: &str,
    c: &Change<'_>,
    at_ms: i64,
) -> Result<(), sqlx::Error> {
    let (win, loss, draw) = match c.points {
        p if p > 0.75 => (1_i64, 0_i64, 0_i64),
        p if p < 0.25 => (0, 1, 0),
        _ => (0, 0, 1),
    };
    let games_after = c.games_before.unwrap_or(0) + 1;
    match c.games_before {
        None => {
            sqlx::query(
                "INSERT INTO ratings (user_id, rules, class, rating, deviation, volatility, games, wins, losses, draws, updated_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8, $9, $10)",
            )
            .bind(c.user)
            .bind(rules)
            .bind(class)
            .bind(c.after.rating)
            .bind(c.after.deviation)
            .bind(c.after.volatility)
            .bind(win)
            .bind(loss)
            .bind(draw)
            .bind(at_ms)
            .execute(&mut *conn)
            .await?;
        }
        Some(before) => {
            // The game count read above must still hold: a concurrent update (another server
            // process on the same database) fails this transaction rather than being lost.
            let done = sqlx::query(
                "UPDATE ratings SET rating = $1, deviation = $2, volatility = $3, games = games + 1, \
                 wins = wins + $4, losses = losses + $5, draws = draws + $6, updated_ms = $7 \
                 WHERE user_id = $8 AND rules = $9 AND class = $10 AND games = $11",
            )
            .bind(c.after.rating)
            .bind(c.after.deviation)
            .bind(c.after.volatility)
            .bind(win)
            .bind(loss)
            .bind(draw)
            .bind(at_ms)
            .bind(c.user)
            .bind(rules)
            .bind(class)
            .bind(before)
            .execute(&mut *conn)
            .await?;
            if done.rows_affected() != 1 {
                return Err(sqlx::Error::Protocol(format!(
                    "rating of {} changed while game {game} was being rated",
                    c.user
                )));
            }
        }
    }
    sqlx::query(
        "INSERT INTO rating_history (user_id, game_id, rules, class, opponent_id, score, \
         rating_before, deviation_before, volatility_before, rating_after, deviation_after, volatility_after, games_after, at_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
    )
    .bind(c.user)
    .bind(game)
    .bind(rules)
    .bind(class)
    .bind(c.opponent)
    .bind(c.points)
    .bind(c.before.rating)
    .bind(c.before.deviation)
    .bind(c.before.volatility)
    .bind(c.after.rating)
    .bind(c.after.deviation)
    .bind(c.after.volatility)
    .bind(games_after)
    .bind(at_ms)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Rates a game that has just ended with `result`, on the connection of the transaction that
/// stores the result. Nothing changes unless the game is rated, both seats are accounts or
/// bot accounts, and the result is a win, loss or draw (an aborted game's `*` is not).
pub(super) async fn settle(
    conn: &mut AnyConnection,
    game: &str,
    result: &str,
    at_ms: i64,
) -> Result<(), sqlx::Error> {
    let Some(score) = Score::from_result(result) else {
        return Ok(());
    };
    let row = sqlx::query(
        "SELECT g.rated, g.rules, g.initial_ms, g.increment_ms, g.white_user, g.black_user, w.kind, b.kind, w.owner, b.owner \
         FROM games g LEFT JOIN users w ON w.id = g.white_user LEFT JOIN users b ON b.id = g.black_user \
         WHERE g.id = $1",
    )
    .bind(game)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = row else {
        return Ok(());
    };
    let rated: i64 = row.try_get(0)?;
    let rules: String = row.try_get(1)?;
    let class = TimeClass::of(row.try_get(2)?, row.try_get(3)?).as_str();
    let users: [Option<String>; 2] = [row.try_get(4)?, row.try_get(5)?];
    let kinds: [Option<String>; 2] = [row.try_get(6)?, row.try_get(7)?];
    let ratable = |k: &Option<String>| matches!(k.as_deref(), Some("account" | "bot"));
    let ([Some(white), Some(black)], true) = (users, rated != 0 && kinds.iter().all(ratable))
    else {
        return Ok(());
    };
    let owners: [Option<String>; 2] = [row.try_get(8)?, row.try_get(9)?];
    let together: i64 = sqlx::query(
        "SELECT COUNT(*) FROM rating_history WHERE user_id = $1 AND opponent_id = $2 AND at_ms > $3",
    )
    .bind(&white)
    .bind(&black)
    .bind(at_ms.saturating_sub(farming::PAIR_WINDOW_MS))
    .fetch_one(&mut *conn)
    .await?
    .try_get(0)?;
    let seat_w = farming::SeatOwner {
        id: &white,
        owner: owners[0].as_deref(),
    };
    let seat_b = farming::SeatOwner {
        id: &black,
        owner: owners[1].as_deref(),
    };
    if let Some(why) = farming::unrated_because(seat_w, seat_b, together) {
        tracing::info!("game {game}: not rated ({why:?})");
        sqlx::query("UPDATE games SET rated = 0 WHERE id = $1")
            .bind(game)
            .execute(&mut *conn)
            .await?;
        return Ok(());
    }
    let w = current(conn, &white, &rules, class, at_ms).await?;
    let b = current(conn, &black, &rules, class, at_ms).await?;
    let (w_before, b_before) = (
        w.map_or(Rating::NEW, |r| r.0),
        b.map_or(Rating::NEW, |r| r.0),
    );
    let (w_after, b_after) = glicko::update(w_before, b_before, score);
    let changes = [
        Change {
            user: &white,
            opponent: &black,
            before: w_before,
            after: w_after,
            games_before: w.map(|r| r.1),
            points: score.points(true),
        },
        Change {
            user: &black,
            opponent: &white,
            before: b_before,
            after: b_after,
            games_before: b.map(|r| r.1),
            points: score.points(false),
        },
    ];
    for c in &changes {
        write(conn, game, &rules, class, c, at_ms).await?;
    }
    Ok(())
}

impl Store {
    /// The top `limit` ratings of a rule set and class, highest first (ties by name); with
    /// `max_deviation`, only ratings whose RD is at most that.
    pub async fn leaderboard(
        &self,
        rules: &str,
        class: &str,
        max_deviation: Option<f64>,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<LeaderRow>, sqlx::Error> {
        let sql = format!(
            "SELECT u.name, u.kind, {RATING_COLUMNS} FROM ratings r JOIN users u ON u.id = r.user_id \
             WHERE r.rules = $1 AND r.class = $2 AND r.deviation <= $3 \
             ORDER BY r.rating DESC, u.name LIMIT $4 OFFSET $5"
        );
        let rows = sqlx::query(&sql)
            .bind(rules)
            .bind(class)
            .bind(max_deviation.unwrap_or(f64::MAX))
            .bind(limit)
            .bind(offset)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(LeaderRow {
                    name: r.try_get(0)?,
                    kind: r.try_get(1)?,
                    rating: rating_of(r, 2)?,
                })
            })
            .collect()
    }

    /// What one rated game changed of a user's rating: before, after and the rated games
    /// played after it; `None` if the game was not rated for that user.
    pub async fn rating_change(
        &self,
        game: &str,
        user: &str,
    ) -> Result<Option<(Rating, Rating, i64)>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT rating_before, deviation_before, volatility_before, \
             rating_after, deviation_after, volatility_after, games_after \
             FROM rating_history WHERE game_id = $1 AND user_id = $2",
        )
        .bind(game)
        .bind(user)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok((
                Rating {
                    rating: r.try_get(0)?,
                    deviation: r.try_get(1)?,
                    volatility: r.try_get(2)?,
                },
                Rating {
                    rating: r.try_get(3)?,
                    deviation: r.try_get(4)?,
                    volatility: r.try_get(5)?,
                },
                r.try_get(6)?,
            ))
        })
        .transpose()
    }

    /// Every rating of a user, by rule set and class.
    pub async fn ratings_of(&self, user: &str) -> Result<Vec<RatingRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {RATING_COLUMNS} FROM ratings r WHERE r.user_id = $1 ORDER BY r.rules, r.class"
        );
        let rows = sqlx::query(&sql).bind(user).fetch_all(&self.pool).await?;
        rows.iter().map(|r| rating_of(r, 0)).collect()
    }

    /// How many finished games a user played, and how many of them were rated.
    pub async fn games_played(&self, user: &str) -> Result<(i64, i64), sqlx::Error> {
        let row = sqlx::query(
            "SELECT COUNT(*), COUNT(CASE WHEN rated <> 0 THEN 1 END) FROM games \
             WHERE status = 'over' AND (white_user = $1 OR black_user = $1)",
        )
        .bind(user)
        .fetch_one(&self.pool)
        .await?;
        Ok((row.try_get(0)?, row.try_get(1)?))
    }

    /// A user's rated games, newest first, at most `limit`, optionally of one rule set and
    /// one class.
    pub async fn rating_history(
        &self,
        user: &str,
        rules: Option<&str>,
        class: Option<&str>,
        limit: i64,
    ) -> Result<Vec<HistoryRow>, sqlx::Error> {
        // Absent filters match everything: `$2 = ''` is true when no rule set is asked for.
        let rows = sqlx::query(
            "SELECT h.game_id, h.rules, h.class, o.name, h.score, \
             h.rating_before, h.deviation_before, h.volatility_before, \
             h.rating_after, h.deviation_after, h.volatility_after, h.games_after, h.at_ms \
             FROM rating_history h JOIN users o ON o.id = h.opponent_id \
             WHERE h.user_id = $1 AND ($2 = '' OR h.rules = $2) AND ($3 = '' OR h.class = $3) \
             ORDER BY h.at_ms DESC, h.games_after DESC, h.game_id LIMIT $4",
        )
        .bind(user)
        .bind(rules.unwrap_or(""))
        .bind(class.unwrap_or(""))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(HistoryRow {
                    game_id: r.try_get(0)?,
                    rules: r.try_get(1)?,
                    class: r.try_get(2)?,
                    opponent: r.try_get(3)?,
                    score: r.try_get(4)?,
                    before: Rating {
                        rating: r.try_get(5)?,
                        deviation: r.try_get(6)?,
                        volatility: r.try_get(7)?,
                    },
                    after: Rating {
                        rating: r.try_get(8)?,
                        deviation: r.try_get(9)?,
                        volatility: r.try_get(10)?,
                    },
                    games: r.try_get(11)?,
                    at_ms: r.try_get(12)?,
                })
            })
            .collect()
    }

    /// A seated user with its rating in a rule set and class, in one query.
    pub async fn seat(
        &self,
        user: &str,
        rules: &str,
        class: &str,
    ) -> Result<Option<SeatRow>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT u.name, u.kind, r.rating, r.deviation, r.volatility, r.games, r.updated_ms FROM users u \
             LEFT JOIN ratings r ON r.user_id = u.id AND r.rules = $2 AND r.class = $3 \
             WHERE u.id = $1",
        )
        .bind(user)
        .bind(rules)
        .bind(class)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            let rating: Option<f64> = r.try_get(2)?;
            let deviation: Option<f64> = r.try_get(3)?;
            let volatility: Option<f64> = r.try_get(4)?;
            let games: Option<i64> = r.try_get(5)?;
            let updated_ms: Option<i64> = r.try_get(6)?;
            Ok(SeatRow {
                name: r.try_get(0)?,
                kind: r.try_get(1)?,
                rating: match (rating, deviation, volatility, games, updated_ms) {
                    (
                        Some(rating),
                        Some(deviation),
                        Some(volatility),
                        Some(games),
                        Some(updated_ms),
                    ) => Some(SeatRating {
                        rating: Rating {
                            rating,
                            deviation,
                            volatility,
                        },
                        games,
                        updated_ms,
                    }),
                    _ => None,
                },
            })
        })
        .transpose()
    }
}
