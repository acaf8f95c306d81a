//! Accounts: guests, registered accounts and bot accounts, their passwords, API tokens and
//! sessions ([`auth`]). Uses storage only.

pub mod auth;
