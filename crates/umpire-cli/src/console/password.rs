//! A password typed at the terminal without echo (`umpire connect --as NAME`, `umpire bot
//! --register NAME --owner ACCOUNT`).

use std::io::{self, IsTerminal};

/// The password of `name` typed at a terminal, read with echo off (`console`); `None` when
/// stdin is not a terminal (a pipe): the caller then reads the first line of stdin.
pub fn hidden_password(name: &str) -> Result<Option<String>, String> {
    if !io::stdin().is_terminal() {
        return Ok(None);
    }
    let term = if io::stdout().is_terminal() {
        ::console::Term::stdout()
    } else {
        ::console::Term::stderr()
    };
    if !term.is_term() {
        return Ok(None);
    }
    term.write_str(&format!("Password for {name} (not shown): "))
        .and_then(|()| term.read_secure_line())
        .map(Some)
        .map_err(|e| format!("cannot read the password: {e}"))
}
