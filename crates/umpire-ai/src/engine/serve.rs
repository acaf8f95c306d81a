//! [`serve`]: a built-in agent answering engine-protocol requests (`umpire engine`).

use std::io::{self, BufRead, Write};

use umpire_rules::{Announcement, Command};

use super::protocol::{PROTOCOL, Request, RequestKind, Response, StartFacts};
use crate::{Agent, AgentConfig, AgentKind, Budget};

/// The longest request line read; a longer line is answered with an error and skipped.
pub const MAX_REQUEST_BYTES: usize = 64 << 20;

/// What `umpire engine` is told on its command line: the agent, its guided filters, and
/// optionally a budget and a seed that replace the requests' own.
#[derive(Clone, Copy, Debug)]
pub struct ServeOptions {
    /// The built-in agent served.
    pub kind: AgentKind,
    /// Its filters (the budget field is ignored: see `budget`).
    pub config: AgentConfig,
    /// A budget used instead of each request's.
    pub budget: Option<Budget>,
    /// A seed used instead of each request's.
    pub seed: Option<u64>,
}

/// The agent kept between requests, with what it was built from.
struct Kept {
    start: StartFacts,
    seed: u64,
    budget: Budget,
    opening: Vec<Announcement>,
    agent: Box<dyn Agent>,
}

/// Serves `kind` over the engine protocol: reads request lines from `input` until its end
/// and writes one response line for each (an `error` response for a line it cannot use; it
/// never stops on bad input). The agent is kept between requests and fed only the new
/// observations when a request continues the game it has seen (same start, opening, seed and
/// budget, and its observations extend the ones already fed); otherwise a fresh agent is
/// built from the request and fed every observation, so an engine can join at any turn.
/// The budget and seed are the request's unless `options` replaces them.
pub fn serve(options: ServeOptions, input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut kept: Option<Kept> = None;
    let mut input = input;
    let lines: &mut dyn BufRead = &mut input;
    loop {
        let mut buf = Vec::new();
        let n = io::Read::take(&mut *lines, MAX_REQUEST_BYTES as u64 + 1)
            .read_until(b'\n', &mut buf)?;
        if n == 0 {
            return Ok(());
        }
        let response = if buf.len() > MAX_REQUEST_BYTES && buf.last() != Some(&b'\n') {
            // Skip the rest of the overlong line.
            let mut rest = Vec::new();
            lines.read_until(b'\n', &mut rest)?;
            Response::error(format!("a request longer than {MAX_REQUEST_BYTES} bytes"))
        } else {
            let text = String::from_utf8_lossy(&buf);
            let text = text.trim();
            if text.is_empty() {
                continue;
            }
            match answer(options, text, &mut kept) {
                Ok(response) => response,
                Err(e) => {
                    kept = None;
                    Response::error(e)
                }
            }
        };
        writeln!(output, "{}", response.to_line())?;
        output.flush()?;
    }
}

fn answer(options: ServeOptions, text: &str, kept: &mut Option<Kept>) -> Result<Response, String> {
    let request: Request =
        serde_json::from_str(text).map_err(|e| format!("not a {PROTOCOL} request: {e}"))?;
    let start = request.start_facts()?;
    let opening = request.opening()?;
    let side = start.view().side();
    let observations = request.observations(side)?;
    let budget: Budget = options.budget.unwrap_or_else(|| request.budget.into());
    let seed = options.seed.unwrap_or(request.seed);
    let continues = kept.as_ref().is_some_and(|k| {
        k.start == start
            && k.seed == seed
            && k.budget == budget
            && k.opening == opening
            && observations.starts_with(k.agent.view().transcript())
    });
    if !continues {
        let agent = options.kind.build(
            start.view(),
            seed,
            &AgentConfig {
                filters: options.config.filters,
                budget,
            },
        );
        *kept = Some(Kept {
            start,
            seed,
            budget,
            opening: opening.clone(),
            agent,
        });
        if let Some(k) = kept.as_mut() {
            k.agent.hear_opening(&opening);
        }
    }
    let k = kept.as_mut().ok_or("no agent")?;
    let seen = k.agent.view().transcript().len();
    for (i, o) in observations.iter().enumerate().skip(seen) {
        k.agent
            .observe(o)
            .map_err(|e| format!("observation {i} does not fit the player's view: {e}"))?;
    }
    let view = k.agent.view();
    if view.result().is_some() {
        return Err("the game is over".to_owned());
    }
    match request.request {
        RequestKind::Choose => {
            if !view.is_my_turn() {
                return Err("it is not the player's turn".to_owned());
            }
            let command = k.agent.choose();
            Ok(Response::command(command, k.agent.analysis()))
        }
        RequestKind::Draw => {
            let command = if k.agent.accepts_draw() {
                Command::AcceptDraw
            } else {
                Command::DeclineDraw
            };
            Ok(Response::command(command, None))
        }
    }
}
