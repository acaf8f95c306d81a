//! [`RelistFrame`]: the answer to RELIST.

use serde::{Deserialize, Serialize};

use crate::man::OwnMan;

/// `{"type":"relist","men":[…],"reply_to":…}`: the player's own men.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RelistFrame {
    /// The player's own men as the umpire holds them, in square order.
    pub men: Vec<OwnMan>,
    /// The `id` of the client's `relist`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_to: Option<u64>,
}
