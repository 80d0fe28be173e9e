//! Where decided candidates go: placed as hits and handed to a sink one at
//! a time (one thread), or a window's pieces located and mapped on the
//! pool, then handed over in input order (several threads); or only
//! judged and counted ([`Counting`](crate::stream::counting)).

use std::io;

#[cfg(feature = "parallel")]
use rayon::prelude::*;

use crate::charset::detect::Charset;
#[cfg(feature = "parallel")]
use crate::charset::transcoder::Transcoder;
use crate::find::found_iri::Hit;
#[cfg(feature = "parallel")]
use crate::find::scanner::Candidate;
#[cfg(feature = "parallel")]
use crate::stream::line_counter::count_region;
use crate::stream::locating::Found;
#[cfg(feature = "parallel")]
use crate::stream::locating::{Lines, Mapper};
#[cfg(feature = "parallel")]
use crate::stream::pool::Pool;
use crate::stream::sink::Sink;
use crate::stream::summary::Summary;

/// Where decided candidates go: one at a time (sequential scanning), or a
/// window's pieces at once (parallel scanning), located and mapped on the
/// pool, then delivered in order.
pub(super) trait Delivery {
    /// Whether the candidates become hits, placed in the input (lines are
    /// counted for them when the searcher says so); a count places none.
    const PLACES: bool = true;

    /// What delivering fails with; read errors are converted into it.
    type Error: From<io::Error>;

    /// The scan begins (see [`Sink::begin`]).
    fn begin(&mut self, charset: &Charset) -> Result<bool, Self::Error>;

    /// Delivers one decided candidate (sequential scanning).
    fn one(&mut self, found: Found<'_, '_, '_>) -> Result<bool, Self::Error>;

    /// The scan ended without an error (see [`Sink::finish`]).
    fn finish(&mut self, summary: &Summary) -> Result<(), Self::Error>;

    #[cfg(feature = "parallel")]
    /// What locating a window's pieces gives, to be delivered.
    type Located<'h>: Send;

    #[cfg(feature = "parallel")]
    /// Locates (and maps) the hits of a window's pieces, on the pool.
    fn locate<'h>(&self, pieces: &[Vec<Candidate>], ctx: &mut Locate<'_, 'h>) -> Self::Located<'h>;

    #[cfg(feature = "parallel")]
    /// Located hits that own their data, kept from one parallel round to
    /// be delivered during the next (while the pool scans the next window),
    /// so that the sink does not run while the pool waits.
    type Kept;

    #[cfg(feature = "parallel")]
    /// Hands located hits to the sink, in order, or keeps them for
    /// [`flush`](Delivery::flush) (hits that borrow the buffer are
    /// delivered at once); returns whether to go on, and what was kept.
    fn keep(
        &mut self,
        located: Self::Located<'_>,
    ) -> Result<(bool, Option<Self::Kept>), Self::Error>;

    #[cfg(feature = "parallel")]
    /// Hands what [`keep`](Delivery::keep) kept to the sink, in order;
    /// returns whether to go on.
    fn flush(&mut self, kept: Self::Kept) -> Result<bool, Self::Error>;
}

/// The hits themselves, borrowed, to a [`Sink`] (`scan_reader`).
pub(super) struct ToSink<'s, S>(pub(super) &'s mut S);

impl<S: Sink> Delivery for ToSink<'_, S> {
    type Error = S::Error;

    fn begin(&mut self, charset: &Charset) -> Result<bool, S::Error> {
        self.0.begin(charset)
    }

    #[inline]
    fn one(&mut self, found: Found<'_, '_, '_>) -> Result<bool, S::Error> {
        self.0.matched(&found.hit())
    }

    fn finish(&mut self, summary: &Summary) -> Result<(), S::Error> {
        self.0.finish(summary)
    }

    #[cfg(feature = "parallel")]
    type Located<'h> = Vec<Vec<Hit<'h>>>;

    #[cfg(feature = "parallel")]
    fn locate<'h>(&self, pieces: &[Vec<Candidate>], ctx: &mut Locate<'_, 'h>) -> Vec<Vec<Hit<'h>>> {
        ctx.locate(pieces, |hit| hit)
    }

    #[cfg(feature = "parallel")]
    type Kept = ();

    #[cfg(feature = "parallel")]
    fn keep(&mut self, located: Vec<Vec<Hit<'_>>>) -> Result<(bool, Option<()>), S::Error> {
        for hit in located.iter().flatten() {
            if !self.0.matched(hit)? {
                return Ok((false, None));
            }
        }
        Ok((true, None))
    }

    #[cfg(feature = "parallel")]
    fn flush(&mut self, (): ()) -> Result<bool, S::Error> {
        Ok(true)
    }
}

/// The hits mapped (on the pool, for a window), to a sink
/// (`scan_reader_map`).
pub(super) struct Mapped<M, F> {
    pub(super) map: M,
    pub(super) sink: F,
}

impl<T, M, F> Delivery for Mapped<M, F>
where
    T: Send,
    M: Fn(&Hit<'_>) -> T + Sync,
    F: FnMut(T) -> io::Result<bool>,
{
    type Error = io::Error;

    fn begin(&mut self, _: &Charset) -> io::Result<bool> {
        Ok(true)
    }

    #[inline]
    fn one(&mut self, found: Found<'_, '_, '_>) -> io::Result<bool> {
        (self.sink)((self.map)(&found.hit()))
    }

    fn finish(&mut self, _: &Summary) -> io::Result<()> {
        Ok(())
    }

    #[cfg(feature = "parallel")]
    type Located<'h> = Vec<Vec<T>>;

    #[cfg(feature = "parallel")]
    fn locate<'h>(&self, pieces: &[Vec<Candidate>], ctx: &mut Locate<'_, 'h>) -> Vec<Vec<T>> {
        let map = &self.map;
        ctx.locate(pieces, |hit| map(&hit))
    }

    #[cfg(feature = "parallel")]
    type Kept = Vec<Vec<T>>;

    #[cfg(feature = "parallel")]
    fn keep(&mut self, located: Vec<Vec<T>>) -> io::Result<(bool, Option<Vec<Vec<T>>>)> {
        Ok((true, Some(located)))
    }

    #[cfg(feature = "parallel")]
    fn flush(&mut self, located: Vec<Vec<T>>) -> io::Result<bool> {
        for t in located.into_iter().flatten() {
            if !(self.sink)(t)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// What locating a window's hits needs.
#[cfg(feature = "parallel")]
pub(super) struct Locate<'a, 'h> {
    pub(super) lines: &'a mut Lines,
    pub(super) window: &'h [u8],
    pub(super) base: usize,
    pub(super) transcoder: &'a Transcoder,
    pub(super) pool: &'a Pool,
}

#[cfg(feature = "parallel")]
impl<'h> Locate<'_, 'h> {
    /// Gives the hits of a window's pieces their place in the input
    /// (original offsets, line, column) and applies `f`, on the pool: the
    /// newlines between the pieces' first hits are counted in parallel and
    /// summed, and each piece is located from its seed. Leaves `lines` as
    /// locating the hits one by one would. Runs in the searcher's pool.
    pub(super) fn locate<T, F>(&mut self, pieces: &[Vec<Candidate>], f: F) -> Vec<Vec<T>>
    where
        T: Send,
        F: Fn(Hit<'h>) -> T + Sync,
    {
        let (window, base, transcoder, pool) = (self.window, self.base, self.transcoder, self.pool);
        let pieces: Vec<&Vec<Candidate>> = pieces.iter().filter(|p| !p.is_empty()).collect();
        if pieces.is_empty() {
            return Vec::new();
        }
        let starts: Vec<usize> = pieces.iter().map(|p| base + p[0].start).collect();
        // The seed of each piece: the line counter at its first hit.
        let lines = &mut *self.lines;
        lines.advance(window, base, starts[0], &mut Mapper::of(transcoder));
        let mut seeds = vec![(lines.counter.clone(), lines.line_start_original)];
        if lines.enabled {
            let gaps: Vec<(u64, Option<usize>)> = pool.install(|| {
                starts
                    .par_windows(2)
                    .map(|w| count_region(window, base, w[0], w[1]))
                    .collect()
            });
            for (k, &(n, last)) in gaps.iter().enumerate() {
                let (prev, prev_original) = &seeds[k];
                let next = prev.after(n, last, starts[k + 1]);
                // A new line start is mapped by the piece's own mapper.
                let original = if last.is_some() {
                    usize::MAX
                } else {
                    *prev_original
                };
                seeds.push((next, original));
            }
        } else {
            seeds.resize(starts.len(), seeds[0].clone());
        }
        let enabled = lines.enabled;
        let f = &f;
        let located: Vec<(Vec<T>, Lines)> = pool.install(|| {
            pieces
                .into_par_iter()
                .zip(seeds.into_par_iter())
                // A job a piece (see `parallel::scan_window`).
                .with_max_len(1)
                .map(|(piece, (counter, original))| {
                    let mut mapper = Mapper::of(transcoder);
                    let line_start_original = if original == usize::MAX {
                        mapper.start(counter.line_start())
                    } else {
                        original
                    };
                    let mut local = Lines {
                        enabled,
                        counter,
                        line_start_original,
                    };
                    let out = piece
                        .iter()
                        .map(|&c| f(local.place(c, window, base, &mut mapper)))
                        .collect();
                    (out, local)
                })
                .collect()
        });
        let mut out = Vec::with_capacity(located.len());
        for (piece, local) in located {
            out.push(piece);
            *lines = local;
        }
        out
    }
}
