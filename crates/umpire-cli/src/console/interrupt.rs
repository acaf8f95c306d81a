//! Ctrl-C in `umpire play`, `umpire referee` and `umpire connect`, handled explicitly:
//! whatever disposition the process inherited (a shell starts background jobs with SIGINT
//! ignored), an interrupt ends the command with a line that says what became of the game
//! (where the record is, or how to resume it).
//!
//! A watcher thread waits for SIGINT. When it comes, it waits for a save in progress to
//! finish (the game loop holds [`Interrupt::hold`] while it writes the record), says its
//! [`Farewell`] and exits with status 130, the shell's code for an interrupted command.

use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

/// The exit status after an interrupt (128 + SIGINT).
pub const INTERRUPTED: i32 = 130;

/// Where the farewell of an interrupted command is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Out {
    /// Standard output (the screens of `umpire play` and `umpire connect`).
    Stdout,
    /// Standard error (`umpire referee`, whose standard output may be JSON lines and whose
    /// loop holds standard output locked).
    Stderr,
}

/// The line printed when Ctrl-C ends the command; it can change as the command goes on (a
/// resume command is known once the game is).
#[derive(Clone, Debug, Default)]
pub struct Farewell(Arc<Mutex<String>>);

impl Farewell {
    /// A farewell saying `text`.
    pub fn new(text: impl Into<String>) -> Farewell {
        Farewell(Arc::new(Mutex::new(text.into())))
    }

    /// Says `text` from now on.
    pub fn set(&self, text: impl Into<String>) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = text.into();
    }

    fn text(&self) -> String {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

/// The handle of an installed Ctrl-C handler: hold it while the record is written.
#[derive(Clone, Debug)]
pub struct Interrupt {
    saving: Arc<Mutex<()>>,
}

impl Interrupt {
    /// Installs the handler for the game whose record is kept at `record`. The handler is in
    /// place when this returns (an interrupt from then on is caught, even one that comes
    /// before the watcher thread first runs).
    pub fn install(record: &Path) -> Result<Interrupt, String> {
        Interrupt::install_with(
            Farewell::new(format!(
                "Interrupted: you leave the game unfinished (it is not resigned); the record is saved in {}. \
                 Go on with it later: umpire play --resume {}",
                record.display(),
                record.display()
            )),
            Out::Stdout,
        )
    }

    /// Installs a handler that, on Ctrl-C, waits for a save in progress, writes `farewell` (as
    /// it reads then) on its own line to `out` and exits with status [`INTERRUPTED`].
    pub fn install_with(farewell: Farewell, out: Out) -> Result<Interrupt, String> {
        let saving = Arc::new(Mutex::new(()));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .build()
            .map_err(|e| format!("cannot watch for Ctrl-C: {e}"))?;
        #[cfg(unix)]
        let mut signal = {
            let _entered = runtime.enter();
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())
                .map_err(|e| format!("cannot watch for Ctrl-C: {e}"))?
        };
        let held = saving.clone();
        std::thread::Builder::new()
            .name("ctrl-c".into())
            .spawn(move || {
                #[cfg(unix)]
                let caught = runtime.block_on(signal.recv()).is_some();
                #[cfg(not(unix))]
                let caught = runtime.block_on(tokio::signal::ctrl_c()).is_ok();
                if !caught {
                    return;
                }
                // A save in progress finishes first: the record is never left half-written.
                let _no_more_saves = held.lock();
                let text = farewell.text();
                match out {
                    Out::Stdout => {
                        let mut out = std::io::stdout().lock();
                        let _ = writeln!(out, "\n{text}");
                        let _ = out.flush();
                    }
                    Out::Stderr => {
                        let mut err = std::io::stderr().lock();
                        let _ = writeln!(err, "\n{text}");
                        let _ = err.flush();
                    }
                }
                std::process::exit(INTERRUPTED);
            })
            .map_err(|e| format!("cannot watch for Ctrl-C: {e}"))?;
        Ok(Interrupt { saving })
    }

    /// Held while the record is written, so that an interrupt waits for the write to end.
    pub fn hold(&self) -> MutexGuard<'_, ()> {
        self.saving
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
