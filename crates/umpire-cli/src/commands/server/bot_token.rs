//! Where `umpire bot` gets its API token: `--token`, the environment (`UMPIRE_BOT_TOKEN`), a
//! token file (`--token-file`), or a bot account it registers itself (`--register NAME
//! --owner ACCOUNT`), whose token it prints once and saves in a file only the user can read.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::json;
use umpire_client::client::Client;

/// The environment variable `umpire bot` reads its token from when `--token` is not given.
pub const TOKEN_ENV: &str = "UMPIRE_BOT_TOKEN";

/// How `umpire bot` was told to get its token.
pub struct TokenSource {
    /// `--token`.
    pub token: Option<String>,
    /// `--token-file`: read from it, or, with `register`, the file the new token is saved in.
    pub token_file: Option<PathBuf>,
    /// `--register NAME`: a new bot account of this name.
    pub register: Option<String>,
    /// `--owner ACCOUNT`: the registered account that owns the new bot.
    pub owner: Option<String>,
}

/// The file a registered bot's token is saved in unless `--token-file` says otherwise.
pub fn default_token_file(bot: &str) -> PathBuf {
    PathBuf::from(format!("umpire-bot-{bot}.token"))
}

/// Reads a token file: the first line, trimmed; an empty file is refused.
fn read_token_file(path: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("--token-file {}: cannot read it: {e}", path.display()))?;
    let token = text.lines().next().unwrap_or_default().trim();
    if token.is_empty() {
        return Err(format!(
            "--token-file {}: the file holds no token",
            path.display()
        ));
    }
    Ok(token.to_owned())
}

/// The token given without registering: `--token`, else `UMPIRE_BOT_TOKEN`, else
/// `--token-file`; `None` if none of them is given.
pub fn given_token(source: &TokenSource) -> Result<Option<String>, String> {
    if let Some(t) = &source.token {
        return Ok(Some(t.clone()));
    }
    if let Ok(t) = std::env::var(TOKEN_ENV)
        && !t.trim().is_empty()
    {
        return Ok(Some(t.trim().to_owned()));
    }
    match &source.token_file {
        Some(path) => read_token_file(path).map(Some),
        None => Ok(None),
    }
}

/// Creates the token file `path` (never over an existing file), readable and writable by its
/// owner only, holding `token` and a newline.
fn save_token(path: &Path, token: &str) -> Result<(), String> {
    let mut file = crate::console::session_file::create_private(path)
        .map_err(|e| format!("--token-file {}: cannot create it: {e}", path.display()))?;
    file.write_all(format!("{token}\n").as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(|e| format!("--token-file {}: cannot write it: {e}", path.display()))
}

/// The token file a registration will write, checked before anything is registered: it must
/// not exist (a saved token is never overwritten) and its directory must.
pub fn check_token_file(source: &TokenSource, bot: &str) -> Result<PathBuf, String> {
    let path = source
        .token_file
        .clone()
        .unwrap_or_else(|| default_token_file(bot));
    if path.exists() {
        return Err(format!(
            "--token-file {}: the file already exists; a saved token is never overwritten \
             (use it with --token-file, or give a new file name)",
            path.display()
        ));
    }
    crate::console::save_file::check_writable(&path, "--token-file")?;
    Ok(path)
}

/// Registers the bot account `bot` owned by `owner` (logged in with `password`, which is never
/// printed), saves its token in `path`, and prints the token once and where it is saved.
pub async fn register(
    server: &str,
    bot: &str,
    owner: &str,
    password: &str,
    path: &Path,
) -> Result<String, String> {
    let mut client = Client::new(server)?;
    client
        .login(owner, password)
        .await
        .map_err(|e| format!("logging in as the owner {owner}: {e}"))?;
    let made = client
        .request("POST", "/api/bots", Some(&json!({"name": bot})))
        .await?
        .ok()
        .map_err(|e| format!("registering the bot {bot}: {e}"))?;
    let token = made["token"]
        .as_str()
        .ok_or("the server answered no token")?
        .to_owned();
    save_token(path, &token).map_err(|e| {
        format!("{e}\nThe bot {bot} is registered; its API token (shown once): {token}")
    })?;
    println!("Registered the bot account {bot}, owned by {owner}.");
    println!("Its API token (shown once): {token}");
    println!(
        "Saved in {} (readable by you only). Next time: umpire bot --server {server} --token-file {}",
        path.display(),
        path.display()
    );
    Ok(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("umpire-bot-token-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_saved_token_is_private_never_overwritten_and_read_back() {
        let dir = scratch("save");
        let path = dir.join("b.token");
        save_token(&path, "abc123").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let again = save_token(&path, "other").unwrap_err();
        assert!(again.contains("cannot create it"), "{again}");
        assert_eq!(read_token_file(&path).unwrap(), "abc123");
        let source = TokenSource {
            token: None,
            token_file: Some(path.clone()),
            register: Some("b".into()),
            owner: Some("o".into()),
        };
        let refused = check_token_file(&source, "b").unwrap_err();
        assert!(refused.contains("already exists"), "{refused}");
        std::fs::write(dir.join("empty.token"), "\n").unwrap();
        let empty = read_token_file(&dir.join("empty.token")).unwrap_err();
        assert!(empty.contains("holds no token"), "{empty}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
