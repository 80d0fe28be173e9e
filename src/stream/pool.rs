//! The rayon pool a scan with several threads runs on: the caller's
//! ([`Searcher::pool`](crate::Searcher::pool)), or else the pool of the
//! calling thread, or rayon's global pool.

use std::fmt;
#[cfg(feature = "parallel")]
use std::sync::Arc;
#[cfg(feature = "parallel")]
use std::sync::{Mutex, MutexGuard, PoisonError};

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

    /// Whether this thread is one of the pool's.
    #[cfg(feature = "parallel")]
    pub(crate) fn is_member(&self) -> bool {
        match &self.given {
            Some(pool) => pool.current_thread_index().is_some(),
            None => rayon::current_thread_index().is_some(),
        }
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

/// Jobs `0..len` cut into one run per thread of the pool, in order and of
/// even length, each thread's own: a thread takes the jobs of its run from
/// the front, then the jobs left in the others' runs from their back.
///
/// The parallel pipeline hands each thread the pieces of a block it reads
/// and, a round later, the pieces of that block it scans, so that each
/// scans what it read while the bytes are still in its core's cache.
/// (Handed to whichever thread was free, as rayon's parallel iterators
/// do, the reading thread read nearly every block and the other scanned
/// it, every byte moving from one core's cache to the other's: 16% more
/// processor time on a file without white space.) A thread held up (the
/// calling thread, which also hands the hits to the sink) leaves its run
/// to the others.
#[cfg(feature = "parallel")]
pub(crate) struct Runs {
    /// Each run's jobs not yet taken: `front..back`.
    runs: Vec<Mutex<(usize, usize)>>,
}

#[cfg(feature = "parallel")]
impl Runs {
    pub(crate) fn new(len: usize, threads: usize) -> Runs {
        let n = threads.max(1);
        let runs = (0..n)
            .map(|i| Mutex::new((i * len / n, (i + 1) * len / n)))
            .collect();
        Runs { runs }
    }

    /// The next job of thread `i`'s own run.
    pub(crate) fn own(&self, i: usize) -> Option<usize> {
        let mut run = lock(self.runs.get(i)?);
        (run.0 < run.1).then(|| {
            run.0 += 1;
            run.0 - 1
        })
    }

    /// A job left in another thread's run than `i`'s (the last of the
    /// next run after `i`'s that has any).
    pub(crate) fn other(&self, i: usize) -> Option<usize> {
        let n = self.runs.len();
        (1..n).find_map(|d| {
            let mut run = lock(&self.runs[(i + d) % n]);
            (run.0 < run.1).then(|| {
                run.1 -= 1;
                run.1
            })
        })
    }
}

/// The value behind `m` (a panic elsewhere leaves it as it was).
#[cfg(feature = "parallel")]
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(all(test, feature = "parallel"))]
mod tests {
    use super::*;

    /// A given pool's member is a thread of that pool, not of another;
    /// without one, any pool's thread is (rayon's parallel iterators run
    /// on the pool of the thread that calls them).
    #[test]
    fn a_member_is_a_thread_of_the_pool() {
        let build = || {
            Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(1)
                    .build()
                    .unwrap(),
            )
        };
        let (mine, other) = (build(), build());
        let given = Pool::given(mine.clone());
        assert!(!given.is_member());
        assert!(mine.install(|| given.is_member()));
        assert!(!other.install(|| given.is_member()));
        let default = Pool::default();
        assert!(!default.is_member());
        assert!(other.install(|| default.is_member()));
    }

    /// Every job is taken once: thread `i` takes its own run in order,
    /// then the others' from their back.
    #[test]
    fn runs_hand_out_every_job_once_own_run_first() {
        for threads in 1..5 {
            for len in 0..20 {
                let runs = Runs::new(len, threads);
                let mut taken = vec![];
                // Thread 0 takes its own run, then everything left.
                let own: Vec<usize> = std::iter::from_fn(|| runs.own(0)).collect();
                assert_eq!(
                    own,
                    (0..len / threads).collect::<Vec<_>>(),
                    "{len} {threads}"
                );
                taken.extend(own);
                if threads > 1 {
                    // Thread 1 takes one of its own, then thread 0 steals
                    // from the back of the next run with jobs left.
                    if let Some(k) = runs.own(1) {
                        assert_eq!(k, len / threads);
                        taken.push(k);
                    }
                    let run_1 = len / threads..2 * len / threads;
                    let stolen = runs.other(0);
                    if run_1.len() >= 2 {
                        assert_eq!(stolen, Some(run_1.end - 1), "{len} {threads}");
                    }
                    taken.extend(stolen);
                }
                for i in 0..threads {
                    taken.extend(std::iter::from_fn(|| runs.own(i)));
                    taken.extend(std::iter::from_fn(|| runs.other(i)));
                }
                taken.sort_unstable();
                assert_eq!(taken, (0..len).collect::<Vec<_>>(), "{len} {threads}");
            }
        }
    }
}
