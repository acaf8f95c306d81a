//! [`Client`]: a small client of the server's HTTP API and game WebSocket, used by
//! `umpire bot`, `umpire connect`, `umpire loadtest` and the tests.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::header::{AUTHORIZATION, CONTENT_TYPE, HOST};
use hyper::{Method, Request};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::net::TcpStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// A client of one server, with an optional bearer token (session or bot token).
#[derive(Clone, Debug)]
pub struct Client {
    addr: String,
    token: Option<String>,
}

/// An HTTP answer: status and body (JSON, or a JSON string holding a text body).
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// HTTP status.
    pub status: u16,
    /// The body.
    pub body: Value,
}

impl Answer {
    /// The body if the status is 2xx, else the error as text: the server's sentence and
    /// stable code when it sent a JSON refusal, the raw body otherwise.
    pub fn ok(self) -> Result<Value, String> {
        if (200..300).contains(&self.status) {
            return Ok(self.body);
        }
        match (self.code(), self.body["error"]["message"].as_str()) {
            (Some(code), Some(message)) => {
                Err(format!("refused: {message} ({code}, HTTP {})", self.status))
            }
            _ => Err(format!("HTTP {}: {}", self.status, self.body)),
        }
    }

    /// The stable error code of a refusal.
    pub fn code(&self) -> Option<&str> {
        self.body["error"]["code"].as_str()
    }
}

impl Client {
    /// A client of `http://HOST:PORT` (or `HOST:PORT`).
    pub fn new(url: &str) -> Result<Client, String> {
        let addr = url
            .trim()
            .trim_start_matches("http://")
            .trim_start_matches("ws://")
            .trim_end_matches('/');
        if addr.is_empty() || addr.contains('/') || addr.starts_with("https") {
            return Err(format!("{url:?}: give the server as http://HOST:PORT"));
        }
        Ok(Client {
            addr: addr.to_owned(),
            token: None,
        })
    }

    /// The same client sending `token`.
    pub fn with_token(mut self, token: &str) -> Client {
        self.token = Some(token.to_owned());
        self
    }

    /// The token in use.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// Sends one request.
    pub async fn request(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> Result<Answer, String> {
        let stream = TcpStream::connect(&self.addr)
            .await
            .map_err(|e| format!("cannot connect to {}: {e}", self.addr))?;
        let _ = stream.set_nodelay(true);
        let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| e.to_string())?;
        tokio::spawn(conn);
        let method: Method = method.parse().map_err(|_| format!("bad method {method}"))?;
        let mut req = Request::builder()
            .method(method)
            .uri(path)
            .header(HOST, &self.addr);
        if let Some(t) = &self.token {
            req = req.header(AUTHORIZATION, format!("Bearer {t}"));
        }
        let bytes = match body {
            Some(v) => {
                req = req.header(CONTENT_TYPE, "application/json");
                Bytes::from(v.to_string())
            }
            None => Bytes::new(),
        };
        let req = req.body(Full::new(bytes)).map_err(|e| e.to_string())?;
        let resp = sender.send_request(req).await.map_err(|e| e.to_string())?;
        let status = resp.status().as_u16();
        let body = resp
            .into_body()
            .collect()
            .await
            .map_err(|e| e.to_string())?
            .to_bytes();
        let body = serde_json::from_slice(&body)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&body).into_owned()));
        Ok(Answer { status, body })
    }

    /// Logs in as a new guest and keeps the session.
    pub async fn guest(&mut self) -> Result<Value, String> {
        let v = self.request("POST", "/api/guest", None).await?.ok()?;
        self.token = v["session"].as_str().map(str::to_owned);
        Ok(v["user"].clone())
    }

    /// Registers an account and keeps the session.
    pub async fn register(&mut self, name: &str, password: &str) -> Result<Value, String> {
        let body = serde_json::json!({"name": name, "password": password});
        let v = self
            .request("POST", "/api/register", Some(&body))
            .await?
            .ok()?;
        self.token = v["session"].as_str().map(str::to_owned);
        Ok(v["user"].clone())
    }

    /// Logs in and keeps the session.
    pub async fn login(&mut self, name: &str, password: &str) -> Result<Value, String> {
        let body = serde_json::json!({"name": name, "password": password});
        let v = self
            .request("POST", "/api/login", Some(&body))
            .await?
            .ok()?;
        self.token = v["session"].as_str().map(str::to_owned);
        Ok(v["user"].clone())
    }

    /// Creates a game (see `POST /api/games`).
    pub async fn create_game(&self, spec: &Value) -> Result<Value, String> {
        self.request("POST", "/api/games", Some(spec)).await?.ok()
    }

    /// Joins an open game.
    pub async fn join(&self, game: &str) -> Result<Value, String> {
        self.request("POST", &format!("/api/games/{game}/join"), None)
            .await?
            .ok()
    }

    /// Declines a direct challenge addressed to this client's user.
    pub async fn decline(&self, game: &str) -> Result<Value, String> {
        self.request("POST", &format!("/api/games/{game}/decline"), None)
            .await?
            .ok()
    }

    /// Cancels this client's own open game.
    pub async fn cancel(&self, game: &str) -> Result<Value, String> {
        self.request("DELETE", &format!("/api/games/{game}"), None)
            .await?
            .ok()
    }

    /// Opens the game WebSocket.
    pub async fn socket(&self, game: &str) -> Result<GameSocket, String> {
        self.websocket(&format!("/api/games/{game}/ws")).await
    }

    /// Opens the game WebSocket to resume holding `from` observations already
    /// (`?from=N`): the `state` frame's transcript starts there.
    pub async fn socket_from(&self, game: &str, from: u32) -> Result<GameSocket, String> {
        self.websocket(&format!("/api/games/{game}/ws?from={from}"))
            .await
    }

    /// Opens the lobby feed (`GET /api/lobby/ws`); its first frame is the `lobby` snapshot.
    pub async fn lobby(&self) -> Result<GameSocket, String> {
        self.websocket("/api/lobby/ws").await
    }

    async fn websocket(&self, path: &str) -> Result<GameSocket, String> {
        let url = format!("ws://{}{path}", self.addr);
        let mut req = url.into_client_request().map_err(|e| e.to_string())?;
        if let Some(t) = &self.token {
            let v = format!("Bearer {t}")
                .parse()
                .map_err(|_| "bad token".to_owned())?;
            req.headers_mut().insert(AUTHORIZATION, v);
        }
        let stream = TcpStream::connect(&self.addr)
            .await
            .map_err(|e| format!("cannot connect to {}: {e}", self.addr))?;
        let _ = stream.set_nodelay(true);
        // A small read buffer: the transport zero-fills the whole buffer before each read, so
        // its 128 KiB default would be held by every socket (a load test opens 10,000); larger
        // frames still arrive whole (the buffer grows to the frame).
        let config = WebSocketConfig::default().read_buffer_size(CLIENT_READ_BUFFER_BYTES);
        let (ws, _) = tokio_tungstenite::client_async_with_config(req, stream, Some(config))
            .await
            .map_err(|e| format!("WebSocket: {e}"))?;
        Ok(GameSocket { ws })
    }
}

/// Bytes of a client socket's read buffer (a few frames; see [`Client::socket`]).
pub const CLIENT_READ_BUFFER_BYTES: usize = 4096;

/// A WebSocket of the server: a game's, or the lobby feed.
#[derive(Debug)]
pub struct GameSocket {
    ws: WebSocketStream<TcpStream>,
}

impl GameSocket {
    /// Sends a frame as is.
    pub async fn send_text(&mut self, text: &str) -> Result<(), String> {
        self.ws
            .send(Message::Text(text.into()))
            .await
            .map_err(|e| e.to_string())
    }

    /// Sends a JSON frame.
    pub async fn send(&mut self, v: &Value) -> Result<(), String> {
        self.send_text(&v.to_string()).await
    }

    /// The next text frame as it came.
    pub async fn next_text(&mut self) -> Result<String, String> {
        loop {
            match self.ws.next().await {
                Some(Ok(Message::Text(t))) => return Ok(t.to_string()),
                Some(Ok(Message::Close(_))) | None => return Err("connection closed".to_owned()),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(e.to_string()),
            }
        }
    }

    /// The next frame, parsed.
    pub async fn next(&mut self) -> Result<Value, String> {
        let t = self.next_text().await?;
        serde_json::from_str(&t).map_err(|e| format!("server sent bad JSON: {e}"))
    }

    /// The next frame, or an error after `timeout`.
    pub async fn next_within(&mut self, timeout: Duration) -> Result<Value, String> {
        tokio::time::timeout(timeout, self.next())
            .await
            .map_err(|_| "no frame in time".to_owned())?
    }

    /// Frames until one of type `kind` (returned); others are dropped.
    pub async fn until(&mut self, kind: &str, timeout: Duration) -> Result<Value, String> {
        tokio::time::timeout(timeout, async {
            loop {
                let v = self.next().await?;
                if v["type"] == kind {
                    return Ok(v);
                }
            }
        })
        .await
        .map_err(|_| format!("no {kind} frame in time"))?
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}
