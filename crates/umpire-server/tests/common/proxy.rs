//! [`Proxy`]: a TCP proxy in front of a test server whose connections the test cuts at will,
//! as a network or a load balancer would drop them.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// A proxy listening on a port of its own and forwarding each connection to the server.
pub struct Proxy {
    /// `http://127.0.0.1:PORT` of the proxy.
    pub url: String,
    cuts: watch::Sender<u64>,
    accepted: Arc<AtomicUsize>,
    task: JoinHandle<()>,
}

impl Proxy {
    /// A proxy to the server at `server_url` (`http://HOST:PORT`).
    pub async fn start(server_url: &str) -> Proxy {
        let upstream = server_url.trim_start_matches("http://").to_owned();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let (cuts, cut_rx) = watch::channel(0u64);
        let accepted = Arc::new(AtomicUsize::new(0));
        let count = accepted.clone();
        let task = tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                count.fetch_add(1, Ordering::SeqCst);
                let upstream = upstream.clone();
                let mut cut = cut_rx.clone();
                cut.mark_unchanged();
                tokio::spawn(async move {
                    let Ok(mut outbound) = TcpStream::connect(&upstream).await else {
                        return;
                    };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                        _ = cut.changed() => {}
                    }
                    // Both streams are dropped here: the connection is gone on both sides.
                });
            }
        });
        Proxy {
            url,
            cuts,
            accepted,
            task,
        }
    }

    /// Cuts every connection open through the proxy now; new ones are forwarded as before.
    pub fn cut(&self) {
        self.cuts.send_modify(|n| *n += 1);
    }

    /// How many connections the proxy has accepted so far.
    pub fn accepted(&self) -> usize {
        self.accepted.load(Ordering::SeqCst)
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}
