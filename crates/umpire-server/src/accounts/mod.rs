//! Accounts: guests, registered accounts and bot accounts, their passwords, API tokens and
//! sessions ([`auth`]); the small pool that computes password hashes ([`hashing`]). Uses storage only.

pub mod auth;
pub mod hashing;
