//! Ratings: Glicko-2 per rule set and time class, changed only by rated games between
//! accounts, in the transaction that stores the result; leaderboards, players, history.

mod common;

use std::time::Duration;

use common::rated::*;
use common::*;
use serde_json::{Value, json};
use skillratings::Outcomes;
use skillratings::glicko2::Glicko2Rating;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_win_then_a_draw_move_both_ratings_by_glicko2() {
    let server = Server::start(fresh_dir("rated-win-draw")).await;
    let ann = account(&server, "ann").await;
    let bob = account(&server, "bob").await;

    // Before any rated game, an open rated challenge shows the new player's rating.
    let open = ann
        .create_game(&json!({"rated": true, "color": "white"}))
        .await
        .unwrap();
    assert_eq!(open["rated"], true);
    assert_eq!(open["class"], "rapid");
    assert_eq!(open["ratings"]["white"]["games"], 0);
    assert_rating(&open["ratings"]["white"], Glicko2Rating::new());
    assert!(open["ratings"]["black"].is_null());

    // The game's state frame says it is rated, and in which class.
    let (_, state) = socket(&ann, open["id"].as_str().unwrap()).await;
    assert_eq!(
        (state["rated"].clone(), state["class"].clone()),
        (json!(true), json!("rapid"))
    );

    let first = rated_win(&ann, &bob).await;
    let (ann1, bob1) = expected(Glicko2Rating::new(), Glicko2Rating::new(), Outcomes::WIN);
    let a = ratings(&server, "ann").await;
    let b = ratings(&server, "bob").await;
    assert_eq!((a.len(), b.len()), (1, 1));
    assert_eq!(
        (a[0]["rules"].as_str(), a[0]["class"].as_str()),
        (Some("wild16"), Some("rapid"))
    );
    assert_rating(&a[0], ann1);
    assert_rating(&b[0], bob1);
    assert_eq!(
        (a[0]["games"].clone(), a[0]["wins"].clone()),
        (json!(1), json!(1))
    );
    assert_eq!(
        (b[0]["games"].clone(), b[0]["losses"].clone()),
        (json!(1), json!(1))
    );
    assert_eq!(a[0]["provisional"], true);

    // A draw between them: both move toward each other, from where they stood.
    let second = game_between(&ann, &bob, json!({"rated": true})).await;
    agree_draw(&ann, &bob, &second).await;
    let (ann2, bob2) = expected(ann1, bob1, Outcomes::DRAW);
    let a = ratings(&server, "ann").await;
    let b = ratings(&server, "bob").await;
    assert_rating(&a[0], ann2);
    assert_rating(&b[0], bob2);
    assert!(ann2.rating < ann1.rating && bob2.rating > bob1.rating);
    assert_eq!(
        (a[0]["games"].clone(), a[0]["draws"].clone()),
        (json!(2), json!(1))
    );
    let profile = get(&server, "/api/players/bob").await;
    assert_eq!(profile["kind"], "account");
    assert_eq!(profile["games"], json!({"played": 2, "rated": 2}));

    // The history: newest first, each row's "before" the previous row's "after".
    let h = get(&server, "/api/players/ann/history").await["history"].clone();
    let h = h.as_array().unwrap();
    assert_eq!(h.len(), 2);
    assert_eq!(
        (h[0]["game"].as_str(), h[1]["game"].as_str()),
        (Some(second.as_str()), Some(first.as_str()))
    );
    assert_eq!(
        (h[0]["score"].as_f64(), h[1]["score"].as_f64()),
        (Some(0.5), Some(1.0))
    );
    assert_eq!(h[0]["opponent"], "bob");
    assert_rating(&h[1]["before"], Glicko2Rating::new());
    assert_rating(&h[1]["after"], ann1);
    assert_rating(&h[0]["before"], ann1);
    assert_rating(&h[0]["after"], ann2);
    assert_eq!(
        (h[0]["games"].clone(), h[1]["games"].clone()),
        (json!(2), json!(1))
    );
    let change = h[0]["change"].as_f64().unwrap();
    assert!((change - (ann2.rating - ann1.rating)).abs() < 1e-9);

    // The open challenge in the lobby now shows Ann's current rating.
    let lobby = get(&server, "/api/games?status=open").await;
    let listed = lobby
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == open["id"])
        .unwrap()
        .clone();
    assert_rating(&listed["ratings"]["white"], ann2);
    assert_eq!(listed["ratings"]["white"]["games"], 2);
    // And a finished game's summary shows it too.
    let info = get(&server, &format!("/api/games/{first}")).await;
    assert_eq!(info["rated"], true);
    assert_rating(&info["ratings"]["black"], bob2);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_casual_game_leaves_ratings_alone() {
    let server = Server::start(fresh_dir("rated-casual")).await;
    let ann = account(&server, "ann").await;
    let bob = account(&server, "bob").await;
    let casual = game_between(&ann, &bob, json!({})).await;
    let info = get(&server, &format!("/api/games/{casual}")).await;
    assert_eq!(info["rated"], false);
    resign(&bob, &casual).await;
    assert!(ratings(&server, "ann").await.is_empty());
    assert!(ratings(&server, "bob").await.is_empty());
    let h = get(&server, "/api/players/ann/history").await;
    assert_eq!(h["history"], json!([]));
    assert_eq!(
        get(&server, "/api/players/ann").await["games"],
        json!({"played": 1, "rated": 0})
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_aborted_rated_game_changes_no_rating_an_abandoned_one_does() {
    let dir = fresh_dir("rated-abandon");
    let server = Server::start_with(
        umpire_server::Database::Dir(dir),
        Duration::from_millis(1500),
    )
    .await;
    let ann = account(&server, "ann").await;
    let bob = account(&server, "bob").await;

    // A rated game nobody moves in is aborted: no winner, no rating change.
    let aborted = game_between(&ann, &bob, json!({"rated": true})).await;
    let info = wait_over(&server, &aborted).await;
    assert_eq!(info["reason"], "aborted");
    assert!(ratings(&server, "ann").await.is_empty());

    // A rated game White walks away from after both moved is lost by abandonment: rated.
    let left = game_between(&ann, &bob, json!({"rated": true})).await;
    {
        let (mut w, _) = socket(&ann, &left).await;
        let (mut b, _) = socket(&bob, &left).await;
        ask(&mut w, json!({"type":"attempt","move":"e2e4"}), 1).await;
        ask(&mut b, json!({"type":"attempt","move":"e7e5"}), 2).await;
        // White's connection closes here; Black stays.
        w.close().await;
        let info = wait_over(&server, &left).await;
        assert_eq!(info["reason"], "abandonment");
        assert_eq!(info["result"], "0-1");
    }
    let (ann1, bob1) = expected(Glicko2Rating::new(), Glicko2Rating::new(), Outcomes::LOSS);
    assert_rating(&ratings(&server, "ann").await[0], ann1);
    assert_rating(&ratings(&server, "bob").await[0], bob1);
    server.stop().await;
}

/// Polls a game's summary until it is over.
async fn wait_over(server: &Server, id: &str) -> Value {
    for _ in 0..200 {
        let info = get(server, &format!("/api/games/{id}")).await;
        if info["status"] == "over" {
            return info;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("game {id} did not end");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_and_house_agents_are_refused_rated_games_bots_are_rated() {
    let server = Server::start(fresh_dir("rated-refusals")).await;
    let guest = server.guest().await;
    let a = guest
        .request("POST", "/api/games", Some(&json!({"rated": true})))
        .await
        .unwrap();
    assert_eq!((a.status, a.code()), (403, Some("guest_unrated")));
    // A guest may still open a casual game.
    guest.create_game(&json!({"rated": false})).await.unwrap();

    let ann = account(&server, "ann").await;
    let a = ann
        .request(
            "POST",
            "/api/games",
            Some(&json!({"rated": true, "agent": "random"})),
        )
        .await
        .unwrap();
    assert_eq!((a.status, a.code()), (400, Some("agent_unrated")));

    // A guest cannot take the free seat of a rated challenge; the challenge stays open.
    let g = ann
        .create_game(&json!({"rated": true, "color": "white"}))
        .await
        .unwrap();
    let id = g["id"].as_str().unwrap().to_owned();
    let a = guest
        .request("POST", &format!("/api/games/{id}/join"), None)
        .await
        .unwrap();
    assert_eq!((a.status, a.code()), (403, Some("guest_unrated")));
    assert_eq!(
        get(&server, &format!("/api/games/{id}")).await["status"],
        "open"
    );

    // A bot account may, and is rated (a bot of another account: a game against one's own
    // bot is never rated).
    let maker = account(&server, "botmaker").await;
    let made = maker
        .request("POST", "/api/bots", Some(&json!({"name": "botty"})))
        .await
        .unwrap()
        .ok()
        .unwrap();
    let bot = server.client().with_token(made["token"].as_str().unwrap());
    bot.join(&id).await.unwrap();
    resign(&ann, &id).await;
    let (ann1, bot1) = expected(Glicko2Rating::new(), Glicko2Rating::new(), Outcomes::LOSS);
    assert_rating(&ratings(&server, "ann").await[0], ann1);
    let b = ratings(&server, "botty").await;
    assert_rating(&b[0], bot1);
    assert_eq!(get(&server, "/api/players/botty").await["kind"], "bot");
    // A guest has no ratings at all, and unknown players are not found.
    let name = guest.request("GET", "/api/me", None).await.unwrap().body["user"]["name"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(ratings(&server, &name).await.is_empty());
    assert_eq!(get_code(&server, "/api/players/nobody").await, "not_found");
    assert_eq!(
        get_code(&server, "/api/players/nobody/history").await,
        "not_found"
    );
    server.stop().await;
}

fn names(board: &Value) -> Vec<String> {
    board["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leaderboard_orders_filters_and_leaves_out_provisional_ratings() {
    let server = Server::start(fresh_dir("rated-leaderboard")).await;
    let ann = account(&server, "ann").await;
    let bob = account(&server, "bob").await;
    let cid = account(&server, "cid").await;
    // Rapid: Ann beats both, Bob beats Cid. Blitz (3 minutes): Cid beats Ann.
    rated_win(&ann, &bob).await;
    rated_win(&ann, &cid).await;
    rated_win(&bob, &cid).await;
    let blitz = game_between(&cid, &ann, json!({"rated": true, "initial_ms": 180_000})).await;
    resign(&ann, &blitz).await;

    // Everybody is provisional after a game or two: left out unless asked for.
    let board = get(&server, "/api/leaderboard?rules=wild16&class=rapid").await;
    assert_eq!(board["players"], json!([]));
    let board = get(
        &server,
        "/api/leaderboard?rules=wild16&class=rapid&provisional=true",
    )
    .await;
    assert_eq!(names(&board), ["ann", "bob", "cid"]);
    let players = board["players"].as_array().unwrap();
    for (i, p) in players.iter().enumerate() {
        assert_eq!(p["rank"], i + 1);
        assert_eq!(p["provisional"], true);
        assert_eq!(p["kind"], "account");
        assert!(p["deviation"].as_f64().unwrap() > 110.0);
    }
    let r: Vec<f64> = players
        .iter()
        .map(|p| p["rating"].as_f64().unwrap())
        .collect();
    assert!(r[0] > r[1] && r[1] > r[2], "{r:?}");
    assert_eq!(players[0]["games"], 2);
    let board = get(
        &server,
        "/api/leaderboard?class=rapid&provisional=true&limit=2",
    )
    .await;
    assert_eq!(names(&board), ["ann", "bob"]);
    let board = get(
        &server,
        "/api/leaderboard?rules=wild16&class=blitz&provisional=true",
    )
    .await;
    assert_eq!(names(&board), ["cid", "ann"]);
    let board = get(
        &server,
        "/api/leaderboard?rules=cincinnati&class=rapid&provisional=true",
    )
    .await;
    assert_eq!(board["players"], json!([]));

    // Filters of the history.
    let h = get(&server, "/api/players/ann/history?class=blitz").await;
    assert_eq!(h["history"].as_array().unwrap().len(), 1);
    assert_eq!(h["history"][0]["opponent"], "cid");
    let h = get(&server, "/api/players/ann/history?rules=wild16&class=rapid").await;
    assert_eq!(h["history"].as_array().unwrap().len(), 2);
    let h = get(&server, "/api/players/ann/history?limit=1").await;
    assert_eq!(h["history"].as_array().unwrap().len(), 1);
    let p = get(&server, "/api/players/ann").await;
    let classes: Vec<&str> = p["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["class"].as_str().unwrap())
        .collect();
    assert_eq!(classes, ["blitz", "rapid"]);

    // Refusals.
    for (path, code) in [
        ("/api/leaderboard?class=hyperbullet", "bad_class"),
        ("/api/leaderboard?rules=nosuchrules", "bad_rules"),
        ("/api/leaderboard?limit=0", "bad_limit"),
        ("/api/leaderboard?limit=100000", "bad_limit"),
        ("/api/leaderboard?colour=red", "bad_request"),
        ("/api/players/ann/history?class=slow", "bad_class"),
        ("/api/players/ann/history?limit=-1", "bad_limit"),
    ] {
        assert_eq!(get_code(&server, path).await, code, "{path}");
    }

    // Ann plays on until her RD is at most 110: she enters the board, Cid does not. (Each
    // round against a new sparring partner: the same pair is rated only 3 times a day.)
    let mut rounds = 0;
    loop {
        let partner = account(&server, &format!("sparring{rounds}")).await;
        rated_win(&partner, &ann).await;
        rated_win(&ann, &partner).await;
        rounds += 1;
        let a = ratings(&server, "ann").await;
        let rapid = a.iter().find(|r| r["class"] == "rapid").unwrap();
        if rapid["deviation"].as_f64().unwrap() <= 110.0 {
            assert_eq!(rapid["provisional"], false);
            break;
        }
        assert!(rounds < 60, "RD did not come down: {rapid}");
    }
    let board = get(&server, "/api/leaderboard?rules=wild16&class=rapid").await;
    let listed = names(&board);
    assert!(listed.contains(&"ann".to_owned()), "{board}");
    assert!(!listed.contains(&"cid".to_owned()), "{board}");
    for p in board["players"].as_array().unwrap() {
        assert_eq!(p["provisional"], false);
        assert!(p["deviation"].as_f64().unwrap() <= 110.0);
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_rating_write_stores_neither_the_result_nor_any_rating() {
    use sqlx::Connection;

    let dir = fresh_dir("rated-atomic");
    let server = Server::start(dir.clone()).await;
    let ann = account(&server, "ann").await;
    let bob = account(&server, "bob").await;
    let id = game_between(&ann, &bob, json!({"rated": true})).await;

    // Make the last write of the ending transaction (Black's history row) fail.
    let url = format!("sqlite://{}", dir.join("umpire.sqlite3").display());
    let mut db = sqlx::SqliteConnection::connect(&url).await.unwrap();
    sqlx::raw_sql(
        "CREATE TRIGGER injected BEFORE INSERT ON rating_history \
         WHEN NEW.score = 0 BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
    )
    .execute(&mut db)
    .await
    .unwrap();
    let (mut b, _) = socket(&bob, &id).await;
    let e = ask(&mut b, json!({"type":"resign"}), 1).await;
    assert_eq!(e["code"], "storage", "{e}");
    // Nothing of the ending is stored: not the command, not the result, not White's rating
    // (written before the failure in the same transaction).
    let info = get(&server, &format!("/api/games/{id}")).await;
    assert_eq!(info["status"], "live");
    assert!(info["result"].is_null());
    assert!(ratings(&server, "ann").await.is_empty());
    assert!(ratings(&server, "bob").await.is_empty());
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM commands WHERE game_id = $1")
        .bind(&id)
        .fetch_one(&mut db)
        .await
        .unwrap();
    assert_eq!(n, 0);

    // Once storage works again the game goes on from where storage left it.
    sqlx::raw_sql("DROP TRIGGER injected")
        .execute(&mut db)
        .await
        .unwrap();
    db.close().await.unwrap();
    let u = ask(&mut b, json!({"type":"resign"}), 2).await;
    assert_eq!(u["result"]["score"], "1-0", "{u}");
    let (ann1, bob1) = expected(Glicko2Rating::new(), Glicko2Rating::new(), Outcomes::WIN);
    assert_rating(&ratings(&server, "ann").await[0], ann1);
    assert_rating(&ratings(&server, "bob").await[0], bob1);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_ending_at_once_lose_no_rating_update() {
    let server = Server::start(fresh_dir("rated-concurrent")).await;
    ends_at_once_keep_every_update(&server).await;
    server.stop().await;
}

/// A rating as a frame shows it: `(rating, deviation)` rounded.
fn shown(v: &Value) -> (i64, i64) {
    (
        v["rating"].as_i64().unwrap(),
        v["deviation"].as_i64().unwrap(),
    )
}

fn rounded(r: Glicko2Rating) -> (i64, i64) {
    (r.rating.round() as i64, r.deviation.round() as i64)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn state_frames_show_both_ratings_and_the_last_frames_the_change() {
    let server = Server::start(fresh_dir("rated-frames")).await;
    let ann = account(&server, "ann").await;
    let bob = account(&server, "bob").await;
    rated_win(&ann, &bob).await;
    let (ann1, bob1) = expected(Glicko2Rating::new(), Glicko2Rating::new(), Outcomes::WIN);

    let id = game_between(&ann, &bob, json!({"rated": true})).await;
    let (mut w, state) = socket(&ann, &id).await;
    let r = &state["ratings"];
    assert_eq!(shown(&r["white"]), rounded(ann1), "{state}");
    assert_eq!(shown(&r["black"]), rounded(bob1), "{state}");
    assert_eq!(r["white"]["provisional"], true);
    assert_eq!(r["white"]["games"], 1);
    assert!(r["white"].get("change").is_none(), "{state}");
    // A spectator sees them too: ratings are public.
    let (mut spectator, watched) = socket(&server.guest().await, &id).await;
    assert_eq!(watched["you"], "spectator");
    assert_eq!(watched["ratings"], state["ratings"]);

    // Bob resigns: the update that ends the game carries the ratings after it.
    let (mut b, _) = socket(&bob, &id).await;
    let u = ask(&mut b, json!({"type":"resign"}), 1).await;
    let (ann2, bob2) = expected(ann1, bob1, Outcomes::WIN);
    for (seat, before, after) in [("white", ann1, ann2), ("black", bob1, bob2)] {
        let s = &u["ratings"][seat];
        assert_eq!(shown(s), rounded(before), "{u}");
        assert_eq!(shown(&s["after"]), rounded(after), "{u}");
        assert_eq!(
            s["change"].as_i64().unwrap(),
            rounded(after).0 - rounded(before).0
        );
        assert_eq!(s["games"], 2);
    }
    assert!(u["ratings"]["white"]["change"].as_i64().unwrap() > 0);
    let heard = w.until("update", T).await.unwrap();
    assert_eq!(heard["ratings"], u["ratings"]);
    // The spectators' last update carries them too (public).
    let seen = spectator.until("update", T).await.unwrap();
    assert_eq!(seen["you"], "spectator");
    assert_eq!(seen["ratings"], u["ratings"], "{seen}");
    // A later connection's state frame shows the same, read back from the rating history.
    let (_, again) = socket(&ann, &id).await;
    assert_eq!(again["ratings"], u["ratings"]);

    // A casual game's frames carry no ratings.
    let casual = game_between(&ann, &bob, json!({})).await;
    let (_, state) = socket(&ann, &casual).await;
    assert_eq!(state["rated"], false);
    assert!(state.get("ratings").is_none(), "{state}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_deviation_grows_over_idle_days_when_shown_and_before_the_next_game() {
    use sqlx::Connection;

    const DAY: i64 = 86_400_000;
    let dir = fresh_dir("rated-idle");
    let server = Server::start(dir.clone()).await;
    let ann = account(&server, "ann").await;
    let bob = account(&server, "bob").await;
    rated_win(&ann, &bob).await;
    let (ann1, bob1) = expected(Glicko2Rating::new(), Glicko2Rating::new(), Outcomes::WIN);
    assert_rating(&ratings(&server, "ann").await[0], ann1);

    // Ten days pass for Ann (her last game moved back), none for Bob.
    let url = format!("sqlite://{}", dir.join("umpire.sqlite3").display());
    let mut db = sqlx::SqliteConnection::connect(&url).await.unwrap();
    let ann_id: String = sqlx::query_scalar("SELECT id FROM users WHERE name = 'ann'")
        .fetch_one(&mut db)
        .await
        .unwrap();
    sqlx::query("UPDATE ratings SET updated_ms = updated_ms - $1 WHERE user_id = $2")
        .bind(10 * DAY)
        .bind(&ann_id)
        .execute(&mut db)
        .await
        .unwrap();
    // Glicko-2 step 6 for ten periods without games, by hand: φ' = √(φ² + 10σ²).
    let phi = ann1.deviation / 173.7178;
    let grown = Glicko2Rating {
        deviation: ((phi * phi + 10.0 * ann1.volatility * ann1.volatility).sqrt() * 173.7178)
            .min(350.0),
        ..ann1
    };
    assert!(grown.deviation > ann1.deviation + 1.0);
    let shown_now = &ratings(&server, "ann").await[0];
    assert!((shown_now["deviation"].as_f64().unwrap() - grown.deviation).abs() < 1e-9);
    assert_eq!(shown_now["rating"].as_f64(), Some(ann1.rating));
    assert_rating(&ratings(&server, "bob").await[0], bob1);

    // The next rated game starts from the grown deviation: the frames show it, the update
    // is computed from it and the history's "before" is it.
    let id = game_between(&ann, &bob, json!({"rated": true})).await;
    let (_, state) = socket(&ann, &id).await;
    assert_eq!(shown(&state["ratings"]["white"]), rounded(grown));
    resign(&bob, &id).await;
    let (ann2, bob2) = expected(grown, bob1, Outcomes::WIN);
    assert_rating(&ratings(&server, "ann").await[0], ann2);
    assert_rating(&ratings(&server, "bob").await[0], bob2);
    let h = get(&server, "/api/players/ann/history").await["history"].clone();
    assert_rating(&h[0]["before"], grown);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_leader_grown_provisional_gives_its_place_to_the_next() {
    use sqlx::Connection;

    let dir = fresh_dir("rated-idle-leader");
    let server = Server::start(dir.clone()).await;
    let ann = account(&server, "ann").await;
    let bob = account(&server, "bob").await;
    let cid = account(&server, "cid").await;
    // Ann beats both, Bob beats Cid: Ann, Bob, Cid by rating.
    rated_win(&ann, &bob).await;
    rated_win(&ann, &cid).await;
    rated_win(&bob, &cid).await;
    // Everybody settled (RD 50), then Ann away for ten years: her RD grows past 110 again.
    let url = format!("sqlite://{}", dir.join("umpire.sqlite3").display());
    let mut db = sqlx::SqliteConnection::connect(&url).await.unwrap();
    sqlx::query("UPDATE ratings SET deviation = 50")
        .execute(&mut db)
        .await
        .unwrap();
    sqlx::query(
        "UPDATE ratings SET updated_ms = updated_ms - 315360000000 \
         WHERE user_id = (SELECT id FROM users WHERE name = 'ann')",
    )
    .execute(&mut db)
    .await
    .unwrap();
    let board = get(&server, "/api/leaderboard?rules=wild16&class=rapid&limit=2").await;
    assert_eq!(names(&board), ["bob", "cid"], "{board}");
    let board = get(&server, "/api/leaderboard?rules=wild16&class=rapid&limit=1").await;
    assert_eq!(names(&board), ["bob"], "{board}");
    let board = get(
        &server,
        "/api/leaderboard?rules=wild16&class=rapid&limit=2&provisional=true",
    )
    .await;
    assert_eq!(names(&board), ["ann", "bob"], "{board}");
    server.stop().await;
}
