//! The rayon pool a scan with several threads runs on: the caller's
//! ([`Searcher::pool`](crate::Searcher::pool)), or else the pool of the
//! calling thread, or rayon's global pool.

use std::fmt;
#[cfg(feature = "parallel")]
use std::sync::Arc;

#[cfg(feature = "parallel")]
use rayon::ThreadPool;

/// The caller's pool, if any. Two searchers have the same pool if they were
/// given the same `Arc`.
#[derive(Clone, Default)]
pub(crate) struct Pool {
    #[cfg(feature = "parallel")]
    given: Option<Arc<ThreadPool>>,
}

impl Pool {
    #[cfg(feature = "parallel")]
    pub(crate) fn given(pool: Arc<ThreadPool>) -> Pool {
        Pool { given: Some(pool) }
    }

    /// Runs `op` in the pool: on one of its threads, unless this thread is
    /// one (without a pool of the caller's, on this thread, where rayon's
    /// parallel iterators use the pool this thread belongs to, or the
    /// global one).
    pub(crate) fn install<R: Send>(&self, op: impl FnOnce() -> R + Send) -> R {
        #[cfg(feature = "parallel")]
        if let Some(pool) = &self.given {
            return pool.install(op);
        }
        op()
    }

    /// A rayon scope whose spawned jobs run in the pool, with `op` itself
    /// on this thread (so that what it touches need not be `Send`).
    #[cfg(feature = "parallel")]
    pub(crate) fn in_place_scope<'s, R>(&self, op: impl FnOnce(&rayon::Scope<'s>) -> R) -> R {
        match &self.given {
            Some(pool) => pool.in_place_scope(op),
            None => rayon::in_place_scope(op),
        }
    }
}

impl PartialEq for Pool {
    fn eq(&self, _other: &Pool) -> bool {
        #[cfg(feature = "parallel")]
        return match (&self.given, &_other.given) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        #[cfg(not(feature = "parallel"))]
        true
    }
}

impl Eq for Pool {}

impl fmt::Debug for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        #[cfg(feature = "parallel")]
        if let Some(pool) = &self.given {
            return write!(f, "Pool(given, {} threads)", pool.current_num_threads());
        }
        f.write_str("Pool(default)")
    }
}
