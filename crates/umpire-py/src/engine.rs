//! A request of the engine protocol (`docs/ENGINE.md`) read back into the player's view, so a
//! Python `Player` can serve as an engine (`python -m umpire.engine`), and through
//! `umpire bot --agent cmd:…` play on a server.

use umpire_ai::engine::{Request, RequestKind};
use umpire_rules::AttemptList;
use umpire_view::PlayerView;
use umpire_view::guided::{FilterSet, GuidedSpace};

/// The most bytes of one request line read (as `umpire engine`).
pub const MAX_REQUEST_BYTES: usize = 64 << 20;

/// What one request asks of the player.
#[derive(Clone, Debug)]
pub struct EngineTurn {
    /// `true` for `draw` (answer `draw accept` or `draw decline`), `false` for `choose`.
    pub draw: bool,
    /// The player's view rebuilt from the request alone.
    pub view: PlayerView,
    /// The options (UCI), and `any` where it may be asked, worked out from the view.
    pub options: Vec<String>,
    /// The engine's seed for this game.
    pub seed: u64,
}

/// Reads one request line. The view is rebuilt from the request's start, opening and
/// observations; the options are worked out from that view (not taken from the request),
/// narrowed by the sound guided filters when `guided` (they never hide a legal move).
pub fn read_request(line: &str, guided: bool) -> Result<EngineTurn, String> {
    if line.len() > MAX_REQUEST_BYTES {
        return Err(format!("a request line over {MAX_REQUEST_BYTES} bytes"));
    }
    let request: Request = serde_json::from_str(line).map_err(|e| format!("not a request: {e}"))?;
    let facts = request.start_facts()?;
    let mut view = facts.view();
    view.hear_opening(request.opening()?);
    for o in request.observations(view.side())? {
        view.observe(&o).map_err(|e| e.to_string())?;
    }
    let mut list = AttemptList::new();
    let may_ask = if guided {
        GuidedSpace::new(&view, FilterSet::all_sound()).options(&mut list)
    } else {
        view.options(&mut list)
    };
    let mut options: Vec<String> = list.iter().map(|a| a.to_string()).collect();
    if may_ask {
        options.push("any".to_owned());
    }
    Ok(EngineTurn {
        draw: request.request == RequestKind::Draw,
        view,
        options,
        seed: request.seed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_ai::Budget;
    use umpire_ai::engine::StartFacts;
    use umpire_rules::shakmaty::Color;
    use umpire_rules::{Command, RuleSetId};

    #[test]
    fn requests_give_back_the_players_view_and_options() {
        let rules = *RuleSetId::Wild16.rules();
        let mut state = crate::state::KriegspielState::new(
            crate::state::GameConfig::new("wild16", None, false).unwrap(),
        )
        .unwrap();
        for m in ["e2e4", "d7d5", "e4d5", "d8d5"] {
            state.submit(Command::Attempt(
                umpire_rules::Attempt::from_uci(m).unwrap(),
            ));
        }
        let view = state.view(Color::White).clone();
        let start = StartFacts::of(&PlayerView::standard(rules, Color::White));
        let request = Request::new(&start, &view, RequestKind::Choose, Budget::default(), 7);
        let turn = read_request(&request.to_line(), false).unwrap();
        assert_eq!(turn.view, view);
        assert!(!turn.draw);
        assert_eq!(turn.seed, 7);
        let mut list = AttemptList::new();
        view.options(&mut list);
        assert_eq!(turn.options.len(), list.len());
        let guided = read_request(&request.to_line(), true).unwrap();
        assert!(guided.options.len() <= turn.options.len());
        assert!(guided.options.iter().all(|o| turn.options.contains(o)));
        assert!(read_request("{}", false).is_err());
        assert!(read_request("not json", true).is_err());
    }
}
