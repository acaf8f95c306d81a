//! `umpire connect` as a child process driven like a terminal: lines typed on its stdin, its
//! output waited for.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{Reaped, UMPIRE};

/// A running `umpire connect`: its stdin and everything it printed so far.
pub struct Terminal {
    /// The process.
    pub child: Reaped,
    stdin: ChildStdin,
    out: Arc<Mutex<String>>,
    seen: usize,
}

impl Terminal {
    /// Starts `umpire connect ARGS` in `cwd`.
    pub fn start(cwd: &Path, args: &[&str]) -> Terminal {
        let mut child = Reaped(
            Command::new(UMPIRE)
                .arg("connect")
                .args(args)
                .current_dir(cwd)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()
                .unwrap(),
        );
        let stdin = child.stdin.take().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let out = Arc::new(Mutex::new(String::new()));
        let sink = out.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Terminal {
            child,
            stdin,
            out,
            seen: 0,
        }
    }

    /// Waits until `text` is printed after what was already waited for; returns the output
    /// from there to the end of `text`.
    pub fn wait_for(&mut self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            {
                let out = self.out.lock().unwrap();
                if let Some(i) = out[self.seen..].find(text) {
                    let end = self.seen + i + text.len();
                    let piece = out[self.seen..end].to_owned();
                    self.seen = end;
                    return piece;
                }
            }
            assert!(
                Instant::now() < deadline,
                "waited in vain for {text:?}; output:\n{}",
                self.out.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Types `line` and Enter.
    pub fn type_line(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Everything printed so far.
    pub fn all(&self) -> String {
        self.out.lock().unwrap().clone()
    }
}
