//! Printing to standard output that ends quietly when the reader goes away (`umpire … | head`).

use std::fmt;
use std::io::{self, Write};

/// Writes `args` (and a newline if `newline`) to stdout. A closed pipe ends the program with
/// success, as other command-line tools do; any other output error ends it with a message.
pub fn emit(args: fmt::Arguments<'_>, newline: bool) {
    let mut out = io::stdout().lock();
    let written = out
        .write_fmt(args)
        .and_then(|()| {
            if newline {
                out.write_all(b"\n")
            } else {
                Ok(())
            }
        })
        .and_then(|()| out.flush());
    if let Err(e) = written {
        if e.kind() == io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("umpire: output: {e}");
        std::process::exit(1);
    }
}

/// `println!` that ends quietly on a closed pipe.
macro_rules! say {
    () => { $crate::console::stdout::emit(format_args!(""), true) };
    ($($arg:tt)*) => { $crate::console::stdout::emit(format_args!($($arg)*), true) };
}

/// `print!` that ends quietly on a closed pipe.
macro_rules! say_raw {
    ($($arg:tt)*) => { $crate::console::stdout::emit(format_args!($($arg)*), false) };
}

pub(crate) use {say, say_raw};
