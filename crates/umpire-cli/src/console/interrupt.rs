//! Ctrl-C in `umpire play`, handled explicitly: whatever disposition the process inherited
//! (a shell starts background jobs with SIGINT ignored), an interrupt ends the game with its
//! record saved, unfinished, exactly as `umpire play` promises.
//!
//! A watcher thread waits for SIGINT. When it comes, it waits for a save in progress to
//! finish (the game loop holds [`Interrupt::hold`] while it writes the record), says where the
//! record is and exits with status 130, the shell's code for an interrupted command.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

/// The exit status after an interrupt (128 + SIGINT).
pub const INTERRUPTED: i32 = 130;

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
        let record: PathBuf = record.to_owned();
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
                let mut out = std::io::stdout().lock();
                let _ = writeln!(
                    out,
                    "\nInterrupted: you leave the game unfinished (it is not resigned); the record is saved in {}.",
                    record.display()
                );
                let _ = out.flush();
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
