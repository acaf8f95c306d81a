//! [`selfplay_game`]: game `index` of a self-play run (`umpire selfplay`), one agent on both
//! sides, as a function of the run's key and the index alone, so that any slice of a run (a
//! batch on another machine) plays the same games as the whole run.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_rules::record::Game;
use umpire_rules::shakmaty::Color;
use umpire_rules::{RuleSet, RuleSetId};
use umpire_view::PlayerView;

use super::seeds::RunKey;
use crate::{AgentConfig, AgentKind, AgentSpec, play_match, setup_view};

/// What a self-play run plays: the same for each of its games.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    /// The rule set.
    pub rules: RuleSetId,
    /// The start position, if not the standard one (checked by [`SelfplayConfig::new`]).
    pub fen: Option<String>,
    /// Who plays both sides.
    pub agent: AgentSpec,
    /// The run's secret: a `random` game is played from its [`RunKey::game_seed`], any other
    /// agent's seats from [`RunKey::seats`].
    pub key: RunKey,
    /// A game still going after this many moves is stopped unfinished.
    pub max_plies: u32,
}

/// One self-play game: the referee's game and its counts.
#[derive(Debug)]
pub struct SelfplayGame {
    /// The game (its record carries the tags `Event`, `White`, `Black`, `Round` and the seeds).
    pub game: Game,
    /// Commands judged (attempts and questions).
    pub attempts: u64,
    /// Moves played.
    pub plies: u64,
}

impl SelfplayConfig {
    /// A configuration, after checking the start position against the rules.
    pub fn new(
        rules: RuleSetId,
        fen: Option<String>,
        agent: AgentSpec,
        key: RunKey,
        max_plies: u32,
    ) -> Result<SelfplayConfig, String> {
        if let Some(fen) = &fen {
            Game::from_fen(*rules.rules(), fen).map_err(|e| format!("--fen: {e}"))?;
        }
        Ok(SelfplayConfig {
            rules,
            fen,
            agent,
            key,
            max_plies,
        })
    }

    fn start(&self, rules: RuleSet) -> Result<Game, String> {
        match &self.fen {
            Some(fen) => Game::from_fen(rules, fen).map_err(|e| format!("--fen: {e}")),
            None => Ok(Game::new(rules)),
        }
    }
}

/// Plays game `index` (0-based) of the run `cfg`: the same game whatever else is played,
/// before or after it, and wherever.
pub fn selfplay_game(cfg: &SelfplayConfig, index: u64) -> Result<SelfplayGame, String> {
    let rules = *cfg.rules.rules();
    let mut game = cfg.start(rules)?;
    let name = cfg.agent.to_string();
    let round = (index + 1).to_string();
    for (tag, value) in [
        ("Event", "umpire selfplay"),
        ("White", &name),
        ("Black", &name),
        ("Round", &round),
    ] {
        game.set_tag(tag, value).map_err(|e| e.to_string())?;
    }
    if let AgentSpec::Builtin(AgentKind::Random) = &cfg.agent {
        // One generator plays both sides here: no player program sees its seed.
        let seed = cfg.key.game_seed(index);
        game.set_tag("Seed", &seed.to_string())
            .map_err(|e| e.to_string())?;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let stats = game.play_random(&mut rng, cfg.max_plies);
        return Ok(SelfplayGame {
            game,
            attempts: stats.attempts,
            plies: stats.plies,
        });
    }
    let seeds = cfg.key.seats(index);
    game.set_tag("WhiteSeed", &seeds[0].to_string())
        .map_err(|e| e.to_string())?;
    game.set_tag("BlackSeed", &seeds[1].to_string())
        .map_err(|e| e.to_string())?;
    let start = game.umpire().position().clone();
    let mut agents = [Color::White, Color::Black].map(|side| {
        let view = if cfg.fen.is_some() {
            setup_view(rules, &start, side)
        } else {
            PlayerView::standard(rules, side)
        };
        cfg.agent.build(
            view,
            seeds[usize::from(side.is_black())],
            &AgentConfig::default(),
        )
    });
    let [white, black] = &mut agents;
    let stats = play_match(
        &mut game,
        [&mut **white, &mut **black],
        cfg.max_plies,
        &mut (),
    )
    .map_err(|e| e.to_string())?;
    Ok(SelfplayGame {
        game,
        attempts: stats.attempts,
        plies: stats.plies,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(agent: &str, seed: u64) -> SelfplayConfig {
        SelfplayConfig::new(
            RuleSetId::Wild16,
            None,
            agent.parse().unwrap(),
            RunKey::from_seed(seed),
            300,
        )
        .unwrap()
    }

    #[test]
    fn a_game_depends_on_the_key_and_its_index_only() {
        for agent in ["random", "guided-random"] {
            let cfg = config(agent, 3);
            let third = selfplay_game(&cfg, 2).unwrap().game.into_record();
            // Played again alone, after another game, and under another key.
            let _ = selfplay_game(&cfg, 0).unwrap();
            let again = selfplay_game(&cfg, 2).unwrap().game.into_record();
            assert_eq!(third.to_json(), again.to_json(), "{agent}");
            let other = selfplay_game(&config(agent, 4), 2)
                .unwrap()
                .game
                .into_record();
            assert_ne!(third.to_json(), other.to_json(), "{agent}");
            assert_eq!(third.tags.get("Round"), Some("3"));
        }
    }

    #[test]
    fn a_bad_start_is_refused() {
        let bad = SelfplayConfig::new(
            RuleSetId::Wild16,
            Some("not a position".into()),
            AgentSpec::Builtin(AgentKind::Random),
            RunKey::from_seed(0),
            10,
        );
        assert!(bad.is_err());
    }
}
