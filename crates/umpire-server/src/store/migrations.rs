//! The schema migrations, embedded in the binary and run by sqlx's migrator on start.

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};

/// Every migration, in order: (version, description, SQL). The SQL is portable (SQLite and
/// PostgreSQL run the same text).
const MIGRATIONS: [(i64, &str, &str); 8] = [
    (1, "init", include_str!("../../migrations/0001_init.sql")),
    (
        2,
        "ratings",
        include_str!("../../migrations/0002_ratings.sql"),
    ),
    (
        3,
        "end reasons",
        include_str!("../../migrations/0003_end_reasons.sql"),
    ),
    (
        4,
        "challenges",
        include_str!("../../migrations/0004_challenges.sql"),
    ),
    (
        5,
        "withdrawn challenges",
        include_str!("../../migrations/0005_withdrawn.sql"),
    ),
    (
        6,
        "name keys, bot owners, session expiry",
        include_str!("../../migrations/0006_accounts.sql"),
    ),
    (
        7,
        "practice games",
        include_str!("../../migrations/0007_practice.sql"),
    ),
    (
        8,
        "cluster nodes",
        include_str!("../../migrations/0008_nodes.sql"),
    ),
];

/// The embedded migrations as a sqlx migration source.
#[derive(Clone, Copy, Debug)]
struct Embedded;

impl MigrationSource<'static> for Embedded {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 'static>> {
        Box::pin(async {
            Ok(MIGRATIONS
                .iter()
                .map(|&(version, description, sql)| {
                    Migration::new(
                        version,
                        Cow::Borrowed(description),
                        MigrationType::Simple,
                        Cow::Borrowed(sql),
                        false,
                    )
                })
                .collect())
        })
    }
}

/// The migrator over the embedded migrations.
pub async fn migrator() -> Result<Migrator, sqlx::migrate::MigrateError> {
    Migrator::new(Embedded).await
}
