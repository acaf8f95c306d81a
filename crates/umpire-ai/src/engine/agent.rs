//! [`EngineAgent`]: an [`Agent`] played by an outside program over the engine protocol.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use umpire_rules::{Announcement, AttemptList, Command, Observation};
use umpire_view::{PlayerView, ViewError};

use super::protocol::{Request, RequestKind, Response, StartFacts};
use crate::{Agent, Analysis, Budget};

/// The longest response line read (longer lines are a fault).
pub const MAX_RESPONSE_BYTES: u64 = 1 << 20;

/// Where an [`EngineAgent`] leaves the reason it stopped playing: shared with whoever runs
/// the game, so that a broken engine's game can be scored with that reason.
pub type EngineFault = Arc<Mutex<Option<String>>>;

/// Reads the fault left in `slot`, if any.
pub fn fault_of(slot: &EngineFault) -> Option<String> {
    slot.lock().unwrap_or_else(PoisonError::into_inner).clone()
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Result<String, String>>,
}

/// A player whose decisions an outside program makes: on each decision the agent sends the
/// program one [`Request`] line (its player's view, nothing else) and reads one response
/// line. A program that cannot be started, exits, answers late (beyond the timeout), answers
/// garbage or a command its player may not give is a *fault*: the agent stops asking it,
/// resigns at its next turn, declines draws, and leaves the reason in its [`EngineFault`].
pub struct EngineAgent {
    name: String,
    start: StartFacts,
    view: PlayerView,
    seed: u64,
    budget: Budget,
    timeout: Duration,
    running: Option<Running>,
    fault: EngineFault,
    analysis: Option<Analysis>,
    commands_this_turn: u32,
}

impl EngineAgent {
    /// Starts `argv` (program and arguments) to play the player of `view` (a view before the
    /// first observation), with this seed and budget; `timeout` bounds each answer. A
    /// program that cannot be started is a fault, not an error: see [`EngineAgent::fault`].
    pub fn spawn(
        argv: &[String],
        view: PlayerView,
        seed: u64,
        budget: Budget,
        timeout: Duration,
    ) -> EngineAgent {
        let mut agent = EngineAgent {
            name: format!("cmd:{}", argv.join(" ")),
            start: StartFacts::of(&view),
            view,
            seed,
            budget,
            timeout,
            running: None,
            fault: Arc::new(Mutex::new(None)),
            analysis: None,
            commands_this_turn: 0,
        };
        match start(argv) {
            Ok(running) => agent.running = Some(running),
            Err(e) => agent.fail(e),
        }
        agent
    }

    /// The slot holding the reason the engine stopped playing, if it did.
    pub fn fault(&self) -> EngineFault {
        Arc::clone(&self.fault)
    }

    fn fail(&mut self, reason: String) {
        let mut slot = self.fault.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() {
            *slot = Some(format!("{}: {reason}", self.name));
        }
        drop(slot);
        self.stop();
    }

    fn stop(&mut self) {
        if let Some(mut running) = self.running.take() {
            let _ = running.child.kill();
            let _ = running.child.wait();
        }
    }

    /// Sends one request and reads the answer, or leaves a fault.
    fn ask(&mut self, kind: RequestKind) -> Option<(Command, Option<Analysis>)> {
        let request = Request::new(&self.start, &self.view, kind, self.budget, self.seed);
        let running = self.running.as_mut()?;
        let mut line = request.to_line();
        line.push('\n');
        let sent = running
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| running.stdin.flush());
        if let Err(e) = sent {
            self.fail(format!("cannot send the request: {e}"));
            return None;
        }
        let answer = match running.lines.recv_timeout(self.timeout) {
            Ok(Ok(line)) => Response::parse(&line),
            Ok(Err(e)) => Err(e),
            Err(RecvTimeoutError::Timeout) => {
                Err(format!("no answer within {} ms", self.timeout.as_millis()))
            }
            Err(RecvTimeoutError::Disconnected) => Err("the program exited".to_owned()),
        };
        match answer {
            Ok(answer) => Some(answer),
            Err(e) => {
                self.fail(e);
                None
            }
        }
    }
}

fn start(argv: &[String]) -> Result<Running, String> {
    let (program, args) = argv.split_first().ok_or("no program named after cmd:")?;
    let mut child = Process::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start {program:?}: {e}"))?;
    let stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let (tx, lines) = channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        loop {
            let mut buf = Vec::new();
            let read = (&mut reader)
                .take(MAX_RESPONSE_BYTES + 1)
                .read_until(b'\n', &mut buf);
            let item = match read {
                Ok(0) => break,
                Err(e) => Err(format!("cannot read the answer: {e}")),
                Ok(_) if buf.last() != Some(&b'\n') && buf.len() as u64 > MAX_RESPONSE_BYTES => {
                    Err(format!("an answer longer than {MAX_RESPONSE_BYTES} bytes"))
                }
                Ok(_) => String::from_utf8(buf)
                    .map(|s| s.trim_end_matches(['\n', '\r']).to_owned())
                    .map_err(|_| "an answer that is not UTF-8".to_owned()),
            };
            let last = item.is_err();
            if tx.send(item).is_err() || last {
                break;
            }
        }
    });
    Ok(Running {
        child,
        stdin,
        lines,
    })
}

impl Drop for EngineAgent {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Agent for EngineAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn view(&self) -> &PlayerView {
        &self.view
    }

    fn hear_opening(&mut self, announcements: &[Announcement]) {
        self.view.hear_opening(announcements.iter().copied());
    }

    fn observe(&mut self, observation: &Observation) -> Result<(), ViewError> {
        if observation.moved {
            self.commands_this_turn = 0;
        } else if observation.own.is_some() {
            self.commands_this_turn += 1;
        }
        self.view.observe(observation)
    }

    fn choose(&mut self) -> Command {
        self.analysis = None;
        let Some((command, analysis)) = self.ask(RequestKind::Choose) else {
            return Command::Resign;
        };
        let mut options = AttemptList::new();
        let may_ask = self.view.options(&mut options);
        let allowed = match command {
            Command::Attempt(a) => options.contains(&a),
            Command::AskAny => may_ask,
            Command::OfferDraw => self.commands_this_turn == 0,
            Command::Resign => true,
            Command::AcceptDraw | Command::DeclineDraw => false,
            // Ends declared off the board are never a player's to say.
            Command::FlagFall | Command::Abandon | Command::Abort => false,
        };
        if !allowed {
            self.fail(format!(
                "answered {:?}, which its player may not say now",
                command.to_text()
            ));
            return Command::Resign;
        }
        self.analysis = analysis;
        command
    }

    fn accepts_draw(&mut self) -> bool {
        match self.ask(RequestKind::Draw) {
            Some((Command::AcceptDraw, _)) => true,
            Some((Command::DeclineDraw, _)) | None => false,
            Some((other, _)) => {
                self.fail(format!(
                    "answered {:?} to a draw offer (draw accept or draw decline expected)",
                    other.to_text()
                ));
                false
            }
        }
    }

    fn analysis(&self) -> Option<&Analysis> {
        self.analysis.as_ref()
    }
}
