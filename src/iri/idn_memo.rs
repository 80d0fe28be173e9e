//! A memo of the IDNA steps: bulk inputs name few hosts.
//!
//! UTS #46 ToASCII (and, for the IRI normal form, ToUnicode and back) costs
//! thousands of instructions per host: the largest single cost of mapping
//! an IRI with an IDN host to a URI ([`crate::to_uri`] with
//! [`crate::HostMapping::Idna`]) and of normalizing an `http`, `https`,
//! `ws`, `wss` or `ftp` IRI at the scheme rung ([`crate::normalize`]). A
//! list of links names few hosts many times (a site's pages, a log's few
//! servers), and these steps depend on nothing but the host (and the form
//! written), so each thread remembers the last results in a small
//! direct-mapped table per step: a host hashes to one slot, a hit is a
//! string comparison and a copy, a miss computes and takes the slot.
//! Memory is bounded ([`SLOTS`] hosts of at most [`MAX_HOST`] bytes per
//! table); the result is the same with or without the memo.

use std::cell::RefCell;
use std::thread::LocalKey;

/// Slots of a table (a power of two).
pub(crate) const SLOTS: usize = 64;

/// Hosts longer than this are not remembered (the DNS limits a name to 253
/// octets; a longer host is rare and not worth a slot).
pub(crate) const MAX_HOST: usize = 256;

struct Slot<V> {
    tag: u8,
    host: String,
    value: V,
}

/// One step's table (held in a `thread_local!`).
pub(crate) struct HostMemo<V> {
    slots: Vec<Option<Slot<V>>>,
}

impl<V> HostMemo<V> {
    pub(crate) fn new() -> HostMemo<V> {
        HostMemo {
            slots: (0..SLOTS).map(|_| None).collect(),
        }
    }
}

/// FNV-1a of the host's bytes, folded to a slot.
fn slot_of(host: &str) -> usize {
    let mut h: u32 = 0x811c_9dc5;
    for &b in host.as_bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    (h ^ (h >> 16)) as usize & (SLOTS - 1)
}

/// `compute(host)`, remembered in this thread's `table` under `(host,
/// tag)`: `compute` must depend on nothing else (`tag` tells apart the
/// variants of one step, such as the form written).
pub(crate) fn memoized<V: Clone + 'static>(
    table: &'static LocalKey<RefCell<HostMemo<V>>>,
    host: &str,
    tag: u8,
    compute: impl FnOnce(&str) -> V,
) -> V {
    if host.len() > MAX_HOST {
        return compute(host);
    }
    let k = slot_of(host);
    let hit = table.try_with(|t| match &t.borrow().slots[k] {
        Some(s) if s.tag == tag && s.host == host => Some(s.value.clone()),
        _ => None,
    });
    if let Ok(Some(value)) = hit {
        return value;
    }
    let value = compute(host);
    // A thread that is being torn down has no table: the value is simply
    // not remembered.
    let _ = table.try_with(|t| {
        t.borrow_mut().slots[k] = Some(Slot {
            tag,
            host: host.to_owned(),
            value: value.clone(),
        });
    });
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! {
        static TEST: RefCell<HostMemo<Option<String>>> = RefCell::new(HostMemo::new());
    }

    #[test]
    fn computes_once_per_host_and_tag_then_remembers() {
        let calls = Cell::new(0);
        let f = |h: &str| {
            calls.set(calls.get() + 1);
            Some(h.to_uppercase())
        };
        let host = "memo-test-1.example";
        let upper = Some("MEMO-TEST-1.EXAMPLE".to_owned());
        assert_eq!(memoized(&TEST, host, 0, f), upper);
        assert_eq!(memoized(&TEST, host, 0, f), upper);
        assert_eq!(calls.get(), 1);
        // Another tag is another key.
        memoized(&TEST, host, 1, f);
        assert_eq!(calls.get(), 2);
        // So is another host, even one in the same slot (which it takes).
        let other = (0..)
            .map(|i| format!("memo-test-{i}.example"))
            .find(|h| h != host && slot_of(h) == slot_of(host))
            .expect("a colliding host");
        assert_eq!(memoized(&TEST, &other, 1, f), Some(other.to_uppercase()));
        assert_eq!(calls.get(), 3);
        assert_eq!(memoized(&TEST, host, 1, f), upper);
        assert_eq!(calls.get(), 4);
        // `None` is remembered too.
        let none = |_: &str| {
            calls.set(calls.get() + 1);
            None
        };
        assert_eq!(memoized(&TEST, "memo-none.example", 0, none), None);
        assert_eq!(memoized(&TEST, "memo-none.example", 0, none), None);
        assert_eq!(calls.get(), 5);
    }

    #[test]
    fn long_hosts_are_computed_every_time() {
        let calls = Cell::new(0);
        let host = "a".repeat(MAX_HOST + 1);
        for _ in 0..2 {
            memoized(&TEST, &host, 0, |_| {
                calls.set(calls.get() + 1);
                None
            });
        }
        assert_eq!(calls.get(), 2);
    }
}
