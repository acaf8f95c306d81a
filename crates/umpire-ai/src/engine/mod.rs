//! The engine protocol `umpire-engine/1` (docs/ENGINE.md): JSON lines over a program's
//! standard input and output. [`EngineAgent`] plays a game through an outside program;
//! [`serve`] lets a built-in agent answer as such a program (`umpire engine`).

mod agent;
mod protocol;
mod serve;

pub use agent::{EngineAgent, EngineFault, MAX_RESPONSE_BYTES, fault_of};
pub use protocol::{
    BudgetJson, EnemyJson, ObservationJson, PROTOCOL, Request, RequestKind, Response, StartFacts,
    StartJson,
};
pub use serve::{MAX_REQUEST_BYTES, ServeOptions, serve};
