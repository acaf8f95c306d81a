//! [`Inference`]: what the player to move can deduce this turn from its own board and what it
//! heard (seed 000's glossary: AttackerSite, CheckSites, VacatedSite, Tries, rejected moves).

use umpire_rules::shakmaty::{Bitboard, Rank, Role, Square, attacks};
use umpire_rules::{Announcement, CheckKind, Command, PawnCaptureInfo};

use super::pins::{beyond_visible, pin_free, pinnable};
use crate::PlayerView;

/// Deductions for the current turn, made only from a [`PlayerView`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inference {
    king: Option<Square>,
    checks: u8,
    attacker_site: Option<Square>,
    vacated_site: Option<Square>,
    check_sites: Bitboard,
    terminal_check_sites: Bitboard,
    checker_sites: Option<Bitboard>,
    sonar: Bitboard,
    check_cut: Bitboard,
    pin_guesses: Bitboard,
    certain_pins: Bitboard,
    pinner_sites: Bitboard,
    frozen_pawns: Bitboard,
    sole_tries: Option<Bitboard>,
    sole_tries_sonar: Option<Bitboard>,
    sole_tries_pinners: Option<Bitboard>,
}

/// The pawn captures onto `held` (squares known to hold an enemy man) that are certainly
/// legal out of check: by a pawn that cannot be pinned off the capture's line. Counted.
fn certain_captures(view: &PlayerView, king: Square, held: Bitboard) -> usize {
    let own = view.own_board().board();
    let men = own.occupied();
    held.into_iter()
        .map(|t| {
            (attacks::pawn_attacks(!view.side(), t) & own.pawns())
                .into_iter()
                .filter(|&p| pin_free(men, king, p, t))
                .count()
        })
        .sum()
}

/// The squares of `line` the king on `king` can see: up to, not including, the first own man
/// in each direction.
fn visible(line: Bitboard, king: Square, own: Bitboard) -> Bitboard {
    line.into_iter()
        .filter(|&s| !own.contains(s) && (attacks::between(king, s) & own).is_empty())
        .collect()
}

/// The farthest square in each direction of a visible line.
fn terminal(vis: Bitboard, king: Square) -> Bitboard {
    vis.into_iter()
        .filter(|&s| {
            !vis.into_iter()
                .any(|t| attacks::between(king, t).contains(s))
        })
        .collect()
}

impl Inference {
    /// What the player whose view this is can deduce now (meaningful on its turn).
    pub fn of(view: &PlayerView) -> Inference {
        let mut inf = Inference::default();
        let own = view.own_board().board();
        let men = own.occupied();
        let turn = view.turn();
        inf.king = own.kings().first();
        inf.checks = turn.checks.len() as u8;
        let Some(king) = inf.king else {
            return inf;
        };
        inf.find_attacker_site(view);

        // CheckSites: the visible part of each announced line.
        for &kind in &turn.checks {
            let vis = visible(CheckKind::line(kind, king), king, men);
            inf.check_sites |= vis;
            inf.terminal_check_sites |= if kind == CheckKind::Knight {
                vis
            } else {
                terminal(vis, king)
            };
        }
        if let (Some(site), true) = (inf.attacker_site, inf.in_check()) {
            let captured_there = turn.capture_at == Some(site);
            let kind = CheckKind::classify(site, king);
            let checker_there = captured_there
                && if kind == CheckKind::Knight {
                    attacks::knight_attacks(king).contains(site)
                        && turn.checks.contains(&CheckKind::Knight)
                } else {
                    turn.checks.contains(&kind) && (attacks::between(king, site) & men).is_empty()
                };
            if checker_there {
                inf.checker_sites = Some(attacks::between(king, site).with(site));
            }
        }

        // A3.2: in a single line check, a rejected step of an unpinnable pawn onto the line
        // drops the CheckSites beyond it.
        if let [kind] = turn.checks[..]
            && kind != CheckKind::Knight
        {
            for r in &turn.rejected {
                if own.role_at(r.from) == Some(Role::Pawn)
                    && r.from.file() == r.to.file()
                    && r.from.distance(r.to) == 1
                    && inf.check_sites.contains(r.to)
                    && pin_free(men, king, r.from, r.to)
                {
                    for t in inf.check_sites {
                        if attacks::between(king, t).contains(r.to) {
                            inf.check_cut.add(t);
                        }
                    }
                }
            }
        }

        // Rejections out of check: sonar squares, pin guesses, certain pins and pinners.
        if !inf.in_check() {
            for r in &turn.rejected {
                let role = own.role_at(r.from);
                let off_line = !attacks::aligned(king, r.from, r.to);
                match role {
                    Some(Role::Pawn)
                        if r.from.file() == r.to.file()
                            && r.from.distance(r.to) == 1
                            && pin_free(men, king, r.from, r.to) =>
                    {
                        inf.sonar.add(r.to);
                    }
                    Some(Role::Bishop | Role::Rook | Role::Queen)
                        if pinnable(men, king, r.from) && off_line =>
                    {
                        inf.pin_guesses.add(r.from);
                    }
                    _ => {}
                }
                let certain = match role {
                    Some(Role::Bishop | Role::Rook | Role::Queen) => {
                        r.from.distance(r.to) == 1 && off_line
                    }
                    Some(Role::Knight) => true,
                    _ => false,
                };
                if certain && pinnable(men, king, r.from) {
                    inf.certain_pins.add(r.from);
                    let beyond = beyond_visible(men, king, r.from);
                    if beyond.count() == 1 {
                        inf.pinner_sites |= beyond;
                    }
                }
            }
            // A4.2: a rejected pawn capture onto a square known to hold an enemy man.
            let held = inf.sonar | inf.pinner_sites | Bitboard::from_iter(inf.attacker_site);
            for r in &turn.rejected {
                if own.role_at(r.from) == Some(Role::Pawn)
                    && r.from.file() != r.to.file()
                    && held.contains(r.to)
                    && pinnable(men, king, r.from)
                    && !attacks::aligned(king, r.from, r.to)
                {
                    inf.frozen_pawns.add(r.from);
                }
            }
        }

        // C4: tries all accounted for by captures onto the AttackerSite.
        let counted = view.rules().pawn_captures == PawnCaptureInfo::Count;
        if let (Some(site), Some(tries), false, true) =
            (inf.attacker_site, turn.pawn_tries, inf.in_check(), counted)
        {
            let capturers = attacks::pawn_attacks(!view.side(), site) & own.pawns();
            let certain: Bitboard = capturers
                .into_iter()
                .filter(|&p| pin_free(men, king, p, site))
                .collect();
            if tries > 0 && certain.count() == usize::from(tries) {
                inf.sole_tries = Some(certain);
            }
        }
        // The same with the squares sonar (A3) or a certain pin (A4.1.1) show held, which seed
        // 000 marks as AttackerSites ("apply C2–C4").
        if let (Some(tries), false, true) = (turn.pawn_tries, inf.in_check(), counted)
            && tries > 0
        {
            let site = Bitboard::from_iter(inf.attacker_site);
            for (extra, slot) in [
                (inf.sonar, &mut inf.sole_tries_sonar),
                (inf.pinner_sites, &mut inf.sole_tries_pinners),
            ] {
                let held = site | extra;
                if extra.any() && certain_captures(view, king, held) == usize::from(tries) {
                    *slot = Some(held);
                }
            }
        }
        inf
    }

    /// Finds the AttackerSite and VacatedSite from the enemy's last move, if it captured.
    fn find_attacker_site(&mut self, view: &PlayerView) {
        let Some(taken) = view.turn().capture_at else {
            return;
        };
        let me = view.side();
        let mut transcript = view.transcript().iter().rev();
        let en_passant = transcript
            .clone()
            .find(|o| o.moved && o.actor != me)
            .and_then(|o| {
                o.announcements.iter().find_map(|a| match *a {
                    Announcement::Capture { en_passant, .. } => Some(en_passant),
                    _ => None,
                })
            })
            .unwrap_or(false);
        if en_passant {
            // The enemy pawn stands on the square the player's pawn passed over.
            self.attacker_site = taken.offset(me.fold_wb(-8, 8));
            self.vacated_site = Some(taken);
            return;
        }
        if !view.rules().en_passant_announced {
            // Unannounced en passant is possible only on a pawn that just moved two squares.
            let last_own = transcript.find_map(|o| match o.own {
                Some(own) if o.moved && o.actor == me => match own.command {
                    Command::Attempt(a) => Some(a),
                    _ => None,
                },
                _ => None,
            });
            let start = me.fold_wb(Rank::Second, Rank::Seventh);
            if last_own.is_some_and(|a| {
                a.to == taken
                    && a.from.file() == a.to.file()
                    && a.from.rank() == start
                    && a.from.distance(a.to) == 2
            }) {
                return;
            }
        }
        self.attacker_site = Some(taken);
    }

    /// The player's king, if it has one.
    pub fn king(&self) -> Option<Square> {
        self.king
    }

    /// Whether a check was announced this turn.
    pub fn in_check(&self) -> bool {
        self.checks > 0
    }

    /// Whether two checks were announced this turn.
    pub fn double_check(&self) -> bool {
        self.checks > 1
    }

    /// The AttackerSite: where the enemy man that just captured stands, when certain.
    pub fn attacker_site(&self) -> Option<Square> {
        self.attacker_site
    }

    /// The VacatedSite: the square of the player's pawn the enemy just took en passant.
    pub fn vacated_site(&self) -> Option<Square> {
        self.vacated_site
    }

    /// The CheckSites: the visible parts of the announced check lines (empty out of check).
    pub fn check_sites(&self) -> Bitboard {
        self.check_sites
    }

    /// The terminal CheckSites: the farthest visible square of each direction of a check line,
    /// every square of a knight check.
    pub fn terminal_check_sites(&self) -> Bitboard {
        self.terminal_check_sites
    }

    /// When the checker is known to be the man on the AttackerSite: the squares from the king
    /// to it, the site included (C8, C9).
    pub fn checker_sites(&self) -> Option<Bitboard> {
        self.checker_sites
    }

    /// Squares where a rejected pawn step shows an enemy man (A3).
    pub fn sonar(&self) -> Bitboard {
        self.sonar
    }

    /// CheckSites dropped because a rejected pawn step shows the checker is not beyond them
    /// (A3.2); they are included in [`Inference::check_sites`].
    pub fn check_cut(&self) -> Bitboard {
        self.check_cut
    }

    /// Men certainly pinned: a rejected move out of check that only a pin explains (A4.1.1).
    pub fn certain_pins(&self) -> Bitboard {
        self.certain_pins
    }

    /// Squares where a certain pin's pinner must stand: the only visible square beyond the
    /// pinned man on its line to the king (A4.1.1).
    pub fn pinner_sites(&self) -> Bitboard {
        self.pinner_sites
    }

    /// Pawns certainly pinned: a capture onto a square known to hold an enemy man was
    /// rejected out of check (A4.2).
    pub fn frozen_pawns(&self) -> Bitboard {
        self.frozen_pawns
    }

    /// Sliders guessed to be pinned after a rejection (A4.1).
    pub fn pin_guesses(&self) -> Bitboard {
        self.pin_guesses
    }

    /// When the announced tries are exactly the certainly legal captures onto the AttackerSite
    /// and the sonar squares: those squares (C4 applied to sonar, reported as A3).
    pub fn sole_tries_sonar(&self) -> Option<Bitboard> {
        self.sole_tries_sonar
    }

    /// When the announced tries are exactly the certainly legal captures onto the AttackerSite
    /// and the pinners' squares: those squares (C4 applied to pinners, reported as A4.1.1).
    pub fn sole_tries_pinners(&self) -> Option<Bitboard> {
        self.sole_tries_pinners
    }

    /// When the announced tries are exactly the certainly legal captures onto the
    /// AttackerSite: the pawns making them (C4).
    pub fn sole_tries(&self) -> Option<Bitboard> {
        self.sole_tries
    }
}
