//! `GET /api/metrics`: the server's [`Metrics`](crate::metrics::Metrics) as JSON, when the
//! server was started with them on.

use std::sync::atomic::Ordering;

use axum::Json;
use axum::extract::State;
use serde::Serialize;

use crate::http::state::AppState;
use crate::metrics::latency::Summary;

/// The JSON of `GET /api/metrics`.
#[derive(Debug, Serialize)]
struct Report {
    frame: Summary,
    act: Summary,
    store: Summary,
    commit: Summary,
    batch_commands: Summary,
    send: Summary,
    frames_sent: u64,
    /// CPU seconds the server process has used since it started.
    cpu_seconds: Option<f64>,
}

/// `GET /api/metrics`: the histograms' percentiles since the start (or the last clear), when
/// the server was started with them on ([`Options::metrics`](crate::Options::metrics)).
pub async fn get_metrics(
    State(st): State<AppState>,
) -> Result<Json<serde_json::Value>, crate::error::ApiError> {
    if !st.options.metrics {
        return Err(crate::error::ApiError::not_found_code(
            "metrics_off",
            "the server's metrics are off (`umpire serve --metrics` turns them on)",
        ));
    }
    let m = st.store.metrics();
    let r = Report {
        frame: m.frame.summary(),
        act: m.act.summary(),
        store: m.store.summary(),
        commit: m.commit.summary(),
        batch_commands: m.batch.summary(),
        send: m.send.summary(),
        frames_sent: m.frames_sent.load(Ordering::Relaxed),
        cpu_seconds: umpire_protocol::cpu_time::process_cpu_seconds(),
    };
    Ok(Json(serde_json::to_value(&r).unwrap_or_default()))
}
