//! [`AddressShare`]: how many of a scarce resource's places (the belief computations) one
//! address holds at once, so that one client cannot take them all and refuse everyone else.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// Places held per address, at most `per_address` each. An address is remembered only while it
/// holds a place, so the table is never larger than the places held.
#[derive(Debug)]
pub struct AddressShare {
    per_address: usize,
    held: Mutex<HashMap<IpAddr, usize>>,
}

/// One place held by an address; given back when dropped.
#[derive(Debug)]
pub struct Held {
    share: Arc<AddressShare>,
    address: IpAddr,
}

impl AddressShare {
    /// A share of at most `per_address` places per address (at least one).
    pub fn new(per_address: usize) -> AddressShare {
        AddressShare {
            per_address: per_address.max(1),
            held: Mutex::new(HashMap::new()),
        }
    }

    /// Takes a place for `address`; `None` when it holds its share already. A request whose
    /// address is unknown (a router served without connection info) is not counted.
    pub fn take(self: &Arc<Self>, address: Option<IpAddr>) -> Option<Option<Held>> {
        let Some(address) = address else {
            return Some(None);
        };
        let mut held = self
            .held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let n = held.entry(address).or_insert(0);
        if *n >= self.per_address {
            return None;
        }
        *n += 1;
        Some(Some(Held {
            share: Arc::clone(self),
            address,
        }))
    }

    /// How many places `address` holds.
    pub fn holds(&self, address: IpAddr) -> usize {
        self.held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&address)
            .copied()
            .unwrap_or(0)
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut held = self
            .share
            .held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = held.get_mut(&self.address) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                held.remove(&self.address);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_at_most_its_share_and_gets_it_back() {
        let share = Arc::new(AddressShare::new(1));
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let first = share.take(Some(a)).expect("a place");
        assert!(
            share.take(Some(a)).is_none(),
            "a second place for one address"
        );
        let other = share
            .take(Some(b))
            .expect("another address is not held back");
        assert_eq!(share.holds(a), 1);
        drop(first);
        assert_eq!(share.holds(a), 0);
        assert!(share.take(Some(a)).is_some());
        drop(other);
        assert_eq!(share.holds(b), 0);
        // Unknown addresses are not counted.
        assert!(share.take(None).is_some_and(|h| h.is_none()));
    }
}
