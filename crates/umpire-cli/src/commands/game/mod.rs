//! Games at the terminal: `umpire play`, `umpire connect` (a server game), `umpire referee`
//! (the operator's console) and `umpire schroedinger` (Haft Schrödinger chess).

pub mod connect;
pub mod play;
pub mod referee;
pub mod schroedinger;
