//! Where a [`Searcher`](crate::Searcher) hands its hits: a [`Sink`].
//!
//! The searcher drives the scan and pushes each hit to the sink, in input
//! order, as grep-searcher does with its `Sink`: the sink says whether to
//! go on, fails with an error of its own type, and hears when the scan
//! begins and when it ends. A closure `FnMut(&Hit) -> io::Result<bool>` is
//! a sink too, for the common case.

use std::io;

use crate::charset::detect::Charset;
use crate::find::found_iri::Hit;
use crate::stream::summary::Summary;

/// What a scan does with its hits.
///
/// The searcher calls [`begin`](Sink::begin) once the charset is chosen,
/// then [`matched`](Sink::matched) with each hit (valid and invalid, in
/// input order), then [`finish`](Sink::finish) with the summary.
///
/// - A method that returns `Ok(false)` stops the scan; `finish` is still
///   called, with what was scanned.
/// - A method that returns an error stops the scan at once; `finish` is not
///   called, and the scan returns that error.
/// - A read error is converted into [`Sink::Error`] (which is why it must
///   implement `From<io::Error>`) and returned; `finish` is not called.
///
/// With several threads ([`Searcher::threads`](crate::Searcher::threads)),
/// the sink is still called from the calling thread only, in input order.
///
/// ```
/// use iriscan::{Charset, Finder, Hit, Searcher, Sink, Summary};
///
/// /// Collects valid IRIs; more than `limit` of them is an error.
/// struct Links {
///     limit: usize,
///     found: Vec<String>,
///     charset: Option<&'static str>,
/// }
///
/// #[derive(Debug)]
/// enum LinkError {
///     Read(std::io::Error),
///     TooMany,
/// }
///
/// impl From<std::io::Error> for LinkError {
///     fn from(e: std::io::Error) -> LinkError {
///         LinkError::Read(e)
///     }
/// }
///
/// impl Sink for Links {
///     type Error = LinkError;
///
///     fn begin(&mut self, charset: &Charset) -> Result<bool, LinkError> {
///         self.charset = Some(charset.name());
///         Ok(true)
///     }
///
///     fn matched(&mut self, hit: &Hit<'_>) -> Result<bool, LinkError> {
///         if hit.is_valid() {
///             if self.found.len() == self.limit {
///                 return Err(LinkError::TooMany);
///             }
///             self.found.push(hit.iri().to_string());
///         }
///         Ok(true)
///     }
/// }
///
/// let searcher = Searcher::new(Finder::new());
/// let mut links = Links { limit: 2, found: Vec::new(), charset: None };
/// searcher.scan_reader("see https://a.example/ and www.b.example".as_bytes(), links.by_ref()).unwrap();
/// assert_eq!(links.found, ["https://a.example/", "http://www.b.example"]);
/// assert_eq!(links.charset, Some("UTF-8"));
///
/// let three = "https://a.example/ https://b.example/ https://c.example/";
/// let err = searcher.scan_reader(three.as_bytes(), links.by_ref()).unwrap_err();
/// assert!(matches!(err, LinkError::TooMany));
/// ```
pub trait Sink {
    /// The error the sink fails with; read errors are converted into it.
    type Error: From<io::Error>;

    /// Called once, when the scan begins: after the first bytes are read
    /// and the charset is chosen, before any hit. `Ok(false)` stops the
    /// scan before it looks at a byte (`finish` is then called). By
    /// default, does nothing.
    fn begin(&mut self, charset: &Charset) -> Result<bool, Self::Error> {
        let _ = charset;
        Ok(true)
    }

    /// Called with each hit, valid and invalid, in input order. `Ok(true)`
    /// goes on, `Ok(false)` stops the scan.
    fn matched(&mut self, hit: &Hit<'_>) -> Result<bool, Self::Error>;

    /// Called once when the scan ends without an error — at the end of the
    /// input, or when the sink stopped it — with its summary. By default,
    /// does nothing.
    fn finish(&mut self, summary: &Summary) -> Result<(), Self::Error> {
        let _ = summary;
        Ok(())
    }

    /// This sink, borrowed: to hand it to a scan and keep it afterwards
    /// (as [`Iterator::by_ref`] does for iterators).
    fn by_ref(&mut self) -> BorrowedSink<'_, Self>
    where
        Self: Sized,
    {
        BorrowedSink(self)
    }
}

/// The convenience form: a closure that receives each hit. Its error type
/// is [`io::Error`]; `begin` and `finish` do nothing.
///
/// Write the type of the closure's parameter, `|hit: &Hit| …`: without it
/// the compiler cannot tell that the closure takes hits of any lifetime
/// (it says "type annotations needed" or "implementation of `FnOnce` is
/// not general enough").
///
/// ```
/// use iriscan::{Finder, Hit, Searcher};
/// let mut n = 0;
/// Searcher::new(Finder::new())
///     .scan_reader("https://a.example/ https://b.example/".as_bytes(), |_hit: &Hit| {
///         n += 1;
///         Ok(n < 1) // stop after the first
///     })
///     .unwrap();
/// assert_eq!(n, 1);
/// ```
impl<F> Sink for F
where
    F: FnMut(&Hit<'_>) -> io::Result<bool>,
{
    type Error = io::Error;

    fn matched(&mut self, hit: &Hit<'_>) -> io::Result<bool> {
        self(hit)
    }
}

/// A sink borrowed for one scan (see [`Sink::by_ref`]).
#[derive(Debug)]
pub struct BorrowedSink<'s, S: ?Sized>(&'s mut S);

impl<S: Sink + ?Sized> Sink for BorrowedSink<'_, S> {
    type Error = S::Error;

    fn begin(&mut self, charset: &Charset) -> Result<bool, S::Error> {
        self.0.begin(charset)
    }

    fn matched(&mut self, hit: &Hit<'_>) -> Result<bool, S::Error> {
        self.0.matched(hit)
    }

    fn finish(&mut self, summary: &Summary) -> Result<(), S::Error> {
        self.0.finish(summary)
    }
}
