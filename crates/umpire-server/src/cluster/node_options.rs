//! [`NodeOptions`]: `umpire serve --node-id NAME [--advertise URL]`, one node of several on
//! one PostgreSQL database; refused on SQLite ([`NodeOptions::check_database`]).

/// The longest node name.
pub const MAX_NODE_ID: usize = 40;

/// This node's identity in a cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeOptions {
    /// The node's name, unique in the cluster (letters, digits, `-`, `_`, `.`).
    pub id: String,
    /// Where other nodes and operators reach this node (`http://HOST:PORT`), kept in the
    /// `nodes` table.
    pub advertise: String,
}

impl NodeOptions {
    /// Options for node `id` reached at `advertise`; refuses an empty or odd name.
    pub fn new(id: &str, advertise: &str) -> Result<NodeOptions, String> {
        let fine = !id.is_empty()
            && id.len() <= MAX_NODE_ID
            && id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        if !fine {
            return Err(format!(
                "--node-id {id:?}: a node's name is 1 to {MAX_NODE_ID} letters, digits, '-', '_' or '.'"
            ));
        }
        Ok(NodeOptions {
            id: id.to_owned(),
            advertise: advertise.to_owned(),
        })
    }

    /// Refuses a cluster node on anything but PostgreSQL: SQLite is one file of one machine,
    /// and has no advisory locks nor notifications.
    pub fn check_database(&self, database: &crate::Database) -> Result<(), String> {
        match database {
            crate::Database::Url(url)
                if url.starts_with("postgres:") || url.starts_with("postgresql:") =>
            {
                Ok(())
            }
            _ => Err(format!(
                "--node-id {}: several nodes share one PostgreSQL database; give \
                 --database postgres://USER@HOST/DB (SQLite, the default, runs one node only)",
                self.id
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Database;

    #[test]
    fn a_node_needs_postgres() {
        let node = NodeOptions::new("a", "http://127.0.0.1:1").unwrap();
        let sqlite = node
            .check_database(&Database::Dir("data".into()))
            .unwrap_err();
        assert!(sqlite.contains("--database postgres://"), "{sqlite}");
        assert!(
            node.check_database(&Database::Url("sqlite://x.db".into()))
                .is_err()
        );
        assert!(
            node.check_database(&Database::Url("postgres://u@h/db".into()))
                .is_ok()
        );
    }

    #[test]
    fn odd_node_names_are_refused() {
        for bad in ["", "a b", "a/b", &"x".repeat(41)] {
            assert!(NodeOptions::new(bad, "").is_err(), "{bad:?}");
        }
        assert!(NodeOptions::new("node-1.eu_west", "").is_ok());
    }
}
