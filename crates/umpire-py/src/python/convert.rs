//! Small conversions between the core's types and Python values.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use umpire_rules::record::notation::announcement_token;
use umpire_rules::shakmaty::Color;
use umpire_rules::{Announcement, Observation, Outcome};

use super::err;

/// The color of a side given as 0/1 or "white"/"black".
pub(crate) fn side_of(side: &Bound<'_, PyAny>) -> PyResult<Color> {
    if let Ok(n) = side.extract::<i64>() {
        return crate::state::color_of(n).map_err(err);
    }
    let name: String = side
        .extract()
        .map_err(|_| err("a side is 0, 1, \"white\" or \"black\""))?;
    match name.to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        other => Err(err(format!("{other:?} is not a side (white or black)"))),
    }
}

/// `"white"` or `"black"`.
pub(crate) fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// An announcement as `{"kind", "token"}`.
pub(crate) fn announcement<'py>(py: Python<'py>, a: Announcement) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("kind", a.kind())?;
    d.set_item("token", announcement_token(a))?;
    Ok(d)
}

/// An observation as a dict: `actor`, `own` (command and verdict, or None), `moved`,
/// `announcements`.
pub(crate) fn observation<'py>(py: Python<'py>, o: &Observation) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("player", color_name(o.player))?;
    d.set_item("actor", color_name(o.actor))?;
    match o.own {
        Some(own) => {
            d.set_item("command", own.command.to_text())?;
            d.set_item("verdict", own.verdict.as_str())?;
        }
        None => {
            d.set_item("command", py.None())?;
            d.set_item("verdict", py.None())?;
        }
    }
    d.set_item("moved", o.moved)?;
    let list: PyResult<Vec<_>> = o
        .announcements
        .iter()
        .map(|&a| announcement(py, a))
        .collect();
    d.set_item("announcements", list?)?;
    Ok(d)
}

/// An outcome as the referee sees it: side, verdict, announcements with their audiences,
/// and what each player observes.
pub(crate) fn outcome<'py>(
    py: Python<'py>,
    command: umpire_rules::Command,
    o: &Outcome,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("side", color_name(o.side))?;
    d.set_item("command", command.to_text())?;
    d.set_item("verdict", o.verdict.as_str())?;
    if let umpire_rules::Verdict::Invalid(why) = o.verdict {
        d.set_item("reason", why.message())?;
    }
    let mut list = Vec::new();
    for h in &o.announcements {
        let a = announcement(py, h.announcement)?;
        a.set_item("audience", h.audience.as_str())?;
        list.push(a);
    }
    d.set_item("announcements", list)?;
    let seen = PyDict::new(py);
    for side in [Color::White, Color::Black] {
        match o.observation(command, side) {
            Some(obs) => seen.set_item(color_name(side), observation(py, &obs)?)?,
            None => seen.set_item(color_name(side), py.None())?,
        }
    }
    d.set_item("observations", seen)?;
    Ok(d)
}
