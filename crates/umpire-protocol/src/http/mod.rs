//! The bodies of the HTTP API (`docs/SERVER.md`, HTTP API): what a client sends and what the
//! server answers, one type per body.

pub mod account;
pub mod belief;
pub mod chat;
pub mod error;
#[cfg(test)]
mod example;
pub mod game;
pub mod metrics;
pub mod ratings;
pub mod review;
