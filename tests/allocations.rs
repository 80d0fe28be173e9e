//! Counting, filtering and printing hits allocates nothing per hit: a
//! counting allocator (this test crate's global allocator, counting per
//! thread) holds `find_iter`, `spans` and `Hit::with_iri` to a number of
//! allocations that does not grow with the number of hits.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use iriscan::Finder;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is passed on to the system allocator unchanged; the
// thread-local counter is a const-initialized `Cell`, which neither
// allocates nor panics.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract is passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations(f: impl FnOnce() -> usize) -> (usize, usize) {
    let before = ALLOCATIONS.with(Cell::get);
    let r = f();
    (r, ALLOCATIONS.with(Cell::get) - before)
}

/// Lines of every kind of hit that is not its text (`www.`, e-mail with
/// `%`, `<…>` wrapped over lines) and plain ones, all valid.
fn text(lines: usize) -> String {
    let unit = "see www.例え.jp/パス and bob%x@example.org, \
                <http://example.com/a\n  /b> or https://ja.wikipedia.org/wiki/東京\n";
    unit.repeat(lines)
}

#[test]
fn counting_valid_hits_allocates_nothing_per_hit() {
    let finder = Finder::new();
    let (small, large) = (text(10), text(1000));
    let count = |t: &str| {
        finder
            .find_iter(t.as_bytes())
            .filter(|h| h.is_valid())
            .count()
    };
    // Once first, for whatever is set up on first use.
    count(&small);
    let (n_small, a_small) = allocations(|| count(&small));
    let (n_large, a_large) = allocations(|| count(&large));
    assert_eq!((n_small, n_large), (40, 4000));
    assert_eq!(a_small, a_large, "allocations grow with the hits");
}

#[test]
fn validating_spans_allocates_nothing() {
    let finder = Finder::new();
    let t = text(100);
    finder.spans(&t).filter(|s| s.is_valid()).count();
    let (n, a) = allocations(|| finder.spans(&t).filter(|s| s.is_valid()).count());
    assert_eq!(n, 400);
    assert_eq!(a, 0, "validating spans allocated");
}

#[test]
fn the_iri_is_made_when_asked() {
    let t = text(1);
    let hits: Vec<_> = Finder::new().find_iter(t.as_bytes()).collect();
    let iris: Vec<&str> = hits.iter().map(|h| h.iri()).collect();
    assert_eq!(
        iris,
        [
            "http://www.例え.jp/パス",
            "mailto:bob%25x@example.org",
            "http://example.com/a/b",
            "https://ja.wikipedia.org/wiki/東京"
        ]
    );
    // Made once, then borrowed.
    assert!(std::ptr::eq(hits[0].iri(), iris[0]));
    // Equal whether or not the IRI was made.
    let fresh: Vec<_> = Finder::new().find_iter(t.as_bytes()).collect();
    assert_eq!(fresh, hits);
}

/// Printing every hit's IRI through `Hit::with_iri` allocates nothing per
/// hit: the IRIs that are not their text (`www.`, e-mail with `%`, `<…>`
/// wrapped over lines) are lent for the call, not made and kept.
#[test]
fn lending_the_iris_of_hits_allocates_nothing_per_hit() {
    let finder = Finder::new();
    let (small, large) = (text(10), text(1000));
    let mut out = Vec::with_capacity(1 << 20);
    let mut print = |t: &str| {
        out.clear();
        finder
            .find_iter(t.as_bytes())
            .map(|h| h.with_iri(|iri| out.extend_from_slice(iri.as_bytes())))
            .count()
    };
    print(&small);
    let (n_small, a_small) = allocations(|| print(&small));
    let (n_large, a_large) = allocations(|| print(&large));
    assert_eq!((n_small, n_large), (40, 4000));
    assert_eq!(a_small, a_large, "allocations grow with the hits");
    // What was printed is every IRI.
    let iris: String = finder
        .find_iter(large.as_bytes())
        .map(|h| h.iri().to_string())
        .collect();
    assert_eq!(out, iris.as_bytes());
}
