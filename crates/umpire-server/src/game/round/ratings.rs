//! The seats' ratings a rated game's frames show: read when the game is loaded, when its
//! second player joins, and again once it ends (the rating after it).

use super::Round;
use crate::ratings::glicko::Rating;
use crate::ratings::shown_rating::ShownRating;
use crate::ratings::time_class::TimeClass;

impl Round {
    /// Reads each seated account's rating for the frames of a rated game: before the end, its
    /// rating now (the deviation grown over idle rating periods); after it, the rating the
    /// game's update started from and the rating after it. A storage error leaves the seat's
    /// rating out of the frames (the game goes on).
    pub(super) async fn load_ratings(&mut self) {
        if !self.row.rated {
            return;
        }
        let class = TimeClass::of(self.row.initial_ms, self.row.increment_ms);
        let now = self.store.now_ms();
        for i in 0..2 {
            let Some(user) = self.row.users[i].clone() else {
                self.ratings[i] = None;
                continue;
            };
            let shown = if self.row.status == "over" {
                self.store
                    .rating_change(&self.row.id, &user)
                    .await
                    .map(|c| {
                        c.map(|(before, after, games)| ShownRating {
                            before,
                            games,
                            after: Some(after),
                        })
                    })
            } else {
                self.store
                    .seat(&user, &self.row.rules, class.as_str())
                    .await
                    .map(|seat| {
                        seat.filter(|s| s.kind != "guest").map(|s| {
                            let (before, games) =
                                s.rating.map_or((Rating::NEW, 0), |r| (r.now(now), r.games));
                            ShownRating {
                                before,
                                games,
                                after: None,
                            }
                        })
                    })
            };
            self.ratings[i] = match shown {
                Ok(shown) => shown,
                Err(e) => {
                    tracing::warn!("game {}: cannot read a rating: {e}", self.row.id);
                    None
                }
            };
        }
    }
}
