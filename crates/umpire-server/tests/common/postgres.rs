//! Tests on PostgreSQL: the database named by `UMPIRE_TEST_POSTGRES`
//! (`postgres://USER:PASSWORD@HOST:PORT/DB`; `.ci/run` starts one with `scripts/postgres.sh`),
//! emptied before each test; such tests are `#[ignore]`d and run with `--ignored`.

use sqlx::Connection;
use umpire_server::Database;

/// The tests share one database and empty it first: one at a time.
pub static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The PostgreSQL database of the tests, its `public` schema emptied.
pub async fn fresh_database() -> Database {
    let url = std::env::var("UMPIRE_TEST_POSTGRES")
        .expect("set UMPIRE_TEST_POSTGRES=postgres://USER@HOST:PORT/DB to run this test");
    let mut conn = sqlx::PgConnection::connect(&url).await.unwrap();
    sqlx::raw_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    Database::Url(url)
}

/// A test case `async fn NAME(db: Database)` run twice, as `NAME::sqlite` on a fresh SQLite
/// directory and as `NAME::postgres` (ignored unless asked for) on [`fresh_database`].
#[allow(unused_macros)]
macro_rules! both {
    ($name:ident) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let dir = $crate::common::fresh_dir(stringify!($name));
                super::$name(umpire_server::Database::Dir(dir)).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            #[ignore = "needs a PostgreSQL server: set UMPIRE_TEST_POSTGRES and pass --ignored"]
            async fn postgres() {
                let _one = $crate::common::postgres::ONE_AT_A_TIME.lock().await;
                super::$name($crate::common::postgres::fresh_database().await).await;
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use both;
