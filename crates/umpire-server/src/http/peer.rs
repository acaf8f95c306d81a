//! [`Peer`]: the address a request came from, for limits kept per address.
//!
//! It is the TCP peer, unless that peer is one of the reverse proxies the operator trusts
//! ([`crate::Options::trusted_proxies`], `umpire serve --trust-proxy ADDR`): then it is the
//! client the proxies name in `Forwarded: for=…` (RFC 7239) or, without that header,
//! `X-Forwarded-For`. Each proxy appends the address it received the request from, so the list
//! is read from the right: the trusted proxies are skipped and the first address that is not
//! one of them is the client. Anything left of it was written by the client and is not
//! believed. A header that cannot be read leaves the last trusted hop as the address, so that
//! a malformed header never lets a client pick an address of its choosing.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::HeaderMap;
use axum::http::request::Parts;

use crate::http::state::AppState;

/// The caller's IP address; `None` when the server was not started with connection info
/// (a router used without [`crate::serve`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Peer(pub Option<IpAddr>);

impl FromRequestParts<AppState> for Peer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        st: &AppState,
    ) -> Result<Peer, std::convert::Infallible> {
        let tcp = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip());
        Ok(Peer(tcp.map(|ip| {
            limit_address(client_address(
                ip,
                &parts.headers,
                &st.options.trusted_proxies,
            ))
        })))
    }
}

/// The address the limits count a client under: for IPv6, its /64 network (a host is
/// commonly given a whole /64, so one client could otherwise take a fresh address, and a
/// fresh share of every per-address limit, for each request); an IPv4 address mapped into
/// IPv6 as that IPv4 address; loopback and IPv4 addresses as they are.
pub fn limit_address(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return IpAddr::V4(v4);
            }
            if v6.is_loopback() {
                return ip;
            }
            let network = u128::from(v6) & !u128::from(u64::MAX);
            IpAddr::V6(std::net::Ipv6Addr::from(network))
        }
    }
}

/// The client's address of a request from TCP peer `tcp`, given the proxies trusted.
pub fn client_address(tcp: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&tcp) {
        return tcp;
    }
    let hops = forwarded_for(headers).or_else(|| x_forwarded_for(headers));
    let Some(hops) = hops else { return tcp };
    let mut client = tcp;
    for hop in hops.iter().rev() {
        let Some(ip) = hop else {
            // An unknown or unreadable hop: stop at the last address we could trust.
            return client;
        };
        client = *ip;
        if !trusted.contains(ip) {
            return client;
        }
    }
    client
}

/// The `for=` addresses of every `Forwarded` header, in order; `None` if there is none.
fn forwarded_for(headers: &HeaderMap) -> Option<Vec<Option<IpAddr>>> {
    let mut hops = Vec::new();
    let mut any = false;
    for value in headers.get_all("forwarded") {
        any = true;
        let Ok(value) = value.to_str() else {
            hops.push(None);
            continue;
        };
        for element in value.split(',') {
            let found = element.split(';').find_map(|pair| {
                let (k, v) = pair.trim().split_once('=')?;
                k.trim().eq_ignore_ascii_case("for").then(|| parse_node(v))
            });
            if let Some(node) = found {
                hops.push(node);
            }
        }
    }
    any.then_some(hops)
}

/// The addresses of every `X-Forwarded-For` header, in order; `None` if there is none.
fn x_forwarded_for(headers: &HeaderMap) -> Option<Vec<Option<IpAddr>>> {
    let mut hops = Vec::new();
    let mut any = false;
    for value in headers.get_all("x-forwarded-for") {
        any = true;
        match value.to_str() {
            Ok(v) => hops.extend(v.split(',').map(parse_node)),
            Err(_) => hops.push(None),
        }
    }
    any.then_some(hops)
}

/// One node: `1.2.3.4`, `1.2.3.4:port`, `"[2001:db8::1]:port"`, `2001:db8::1`; `None` for
/// `unknown`, obfuscated identifiers and anything unreadable.
fn parse_node(node: &str) -> Option<IpAddr> {
    let node = node.trim().trim_matches('"');
    if let Ok(ip) = node.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Ok(sa) = node.parse::<SocketAddr>() {
        return Some(sa.ip());
    }
    let inner = node.strip_prefix('[')?.split(']').next()?;
    inner.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, v.parse().unwrap());
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn forwarded_headers_count_only_from_trusted_proxies() {
        let proxy = ip("10.0.0.1");
        let h = headers(&[("x-forwarded-for", "198.51.100.7")]);
        // Not trusted: the header is the client's own words.
        assert_eq!(client_address(proxy, &h, &[]), proxy);
        assert_eq!(client_address(proxy, &h, &[proxy]), ip("198.51.100.7"));
        // A client cannot pick its address by writing the header itself: the proxy appends.
        let h = headers(&[("x-forwarded-for", "1.1.1.1, 198.51.100.7")]);
        assert_eq!(client_address(proxy, &h, &[proxy]), ip("198.51.100.7"));
        // Two trusted proxies in a row are skipped.
        let h = headers(&[("x-forwarded-for", "1.1.1.1, 198.51.100.7, 10.0.0.2")]);
        assert_eq!(
            client_address(proxy, &h, &[proxy, ip("10.0.0.2")]),
            ip("198.51.100.7")
        );
        // Garbage stops at the last trusted hop.
        let h = headers(&[("x-forwarded-for", "1.1.1.1, garbage")]);
        assert_eq!(client_address(proxy, &h, &[proxy]), proxy);
        // No header: the proxy itself.
        assert_eq!(client_address(proxy, &HeaderMap::new(), &[proxy]), proxy);
    }

    #[test]
    fn an_ipv6_client_is_counted_by_its_64_network() {
        assert_eq!(
            limit_address(ip("2001:db8:1:2:aaaa::1")),
            ip("2001:db8:1:2::")
        );
        assert_eq!(
            limit_address(ip("2001:db8:1:2:ffff:1:2:3")),
            limit_address(ip("2001:db8:1:2::7"))
        );
        assert_ne!(
            limit_address(ip("2001:db8:1:2::1")),
            limit_address(ip("2001:db8:1:3::1"))
        );
        assert_eq!(limit_address(ip("::ffff:192.0.2.9")), ip("192.0.2.9"));
        assert_eq!(limit_address(ip("192.0.2.9")), ip("192.0.2.9"));
        assert_eq!(limit_address(ip("::1")), ip("::1"));
        assert!(limit_address(ip("::1")).is_loopback());
    }

    #[test]
    fn the_standard_forwarded_header_is_read_first() {
        let proxy = ip("10.0.0.1");
        let h = headers(&[
            (
                "forwarded",
                "for=1.1.1.1, for=\"[2001:db8::7]:4711\";proto=https",
            ),
            ("x-forwarded-for", "203.0.113.1"),
        ]);
        assert_eq!(client_address(proxy, &h, &[proxy]), ip("2001:db8::7"));
        let h = headers(&[("forwarded", "for=192.0.2.60:8080;by=10.0.0.1")]);
        assert_eq!(client_address(proxy, &h, &[proxy]), ip("192.0.2.60"));
        let h = headers(&[("forwarded", "for=unknown")]);
        assert_eq!(client_address(proxy, &h, &[proxy]), proxy);
    }
}
